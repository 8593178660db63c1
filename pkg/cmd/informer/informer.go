// Package informer is the `informer` command: the UpdateInformers shipped
// in this binary, each a process of its own serving the UpdateInformer
// protocol.
package informer

import (
	"context"
	"crypto/tls"
	"fmt"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/discovery"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/managedupgradeinformer"
)

// The informer is asked at every poll, and each call may list a drained
// node's pods: client-go's default 5 QPS would throttle it.
const (
	clientQPS   = 50
	clientBurst = 100
)

// The handlers' budgets. A status call may read a ConfigMap and list the
// pods of each drained node; a plan call reads only caches (and discovery
// while the UpgradeConfig cache has not synced). A discovery call gets less
// than either, so that a slow API server is a Failure that says so, not a
// call the aggregator gave up on.
const (
	statusTimeout    = 10 * time.Second
	planTimeout      = 15 * time.Second
	discoveryTimeout = 5 * time.Second
)

// NewCommand returns the `informer` command and its subcommands, which run
// until ctx ends, SIGTERM or SIGINT.
func NewCommand(ctx context.Context, clock clock.PassiveClock) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "informer",
		Short: "Run one of the UpdateInformers shipped in this binary",
		Long: `Run one of the UpdateInformers shipped in this binary: a process serving the
UpdateInformer protocol over HTTPS, which the operator calls for insights
about the update in progress and about UpdatePlans.

  managed-upgrade  the Managed Upgrade Operator's UpgradeConfigs (managed clusters)`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(newManagedUpgradeCommand(ctx, clock))
	return cmd
}

// options are the flags of an informer's command.
type options struct {
	kubeconfig string
	listen     string
	certFile   string
	keyFile    string
	namespace  string
	clock      clock.PassiveClock
}

func newManagedUpgradeCommand(ctx context.Context, clock clock.PassiveClock) *cobra.Command {
	o := &options{clock: clock}
	cmd := &cobra.Command{
		Use:   "managed-upgrade",
		Short: "Serve the insights of the Managed Upgrade Operator's UpgradeConfigs",
		Long: `Serve the insights of the Managed Upgrade Operator's UpgradeConfigs: a managed
update awaiting its window, its running step and worker phase, what fails or
holds it, drains that PodDisruptionBudgets block and when they are forced; and
for an UpdatePlan, a managed update that conflicts with it. The serving
certificate is reloaded when its files change.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT)
			defer stop()
			return o.runManagedUpgrade(ctx)
		},
	}
	flags := cmd.Flags()
	flags.StringVar(&o.kubeconfig, "kubeconfig", "", "Path to a kubeconfig file (empty: the in-cluster configuration).")
	flags.StringVar(&o.listen, "listen", ":8443", "The address to serve the UpdateInformer protocol on, over HTTPS.")
	flags.StringVar(&o.certFile, "tls-cert-file", "/var/run/secrets/serving-cert/tls.crt", "PEM serving certificate (chain), reloaded when it changes.")
	flags.StringVar(&o.keyFile, "tls-private-key-file", "/var/run/secrets/serving-cert/tls.key", "PEM private key of the serving certificate, reloaded when it changes.")
	flags.StringVar(&o.namespace, "namespace", upgradev1alpha1.DefaultNamespace, "The namespace of the UpgradeConfigs and of the Managed Upgrade Operator's ConfigMap.")
	return cmd
}

func (o *options) restConfig() (*rest.Config, error) {
	var config *rest.Config
	var err error
	if o.kubeconfig == "" {
		config, err = rest.InClusterConfig()
	} else {
		config, err = clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	}
	if err != nil {
		return nil, fmt.Errorf("loading the client configuration: %w", err)
	}
	config.QPS, config.Burst = clientQPS, clientBurst
	return config, nil
}

func (o *options) runManagedUpgrade(ctx context.Context) error {
	config, err := o.restConfig()
	if err != nil {
		return err
	}
	certificate, err := newServingCertificate(o.certFile, o.keyFile)
	if err != nil {
		return err
	}
	kubeConfig := rest.CopyConfig(config)
	// Built-in kinds travel as protobuf: smaller and cheaper to decode.
	kubeConfig.ContentType = "application/vnd.kubernetes.protobuf"
	client, err := kubernetes.NewForConfig(kubeConfig)
	if err != nil {
		return err
	}
	discoveryConfig := rest.CopyConfig(config)
	discoveryConfig.Timeout = discoveryTimeout
	discoveryClient, err := discovery.NewDiscoveryClientForConfig(discoveryConfig)
	if err != nil {
		return err
	}
	upgradeConfigs, err := upgradeConfigInformer(config, o.namespace)
	if err != nil {
		return err
	}
	factory := kubeinformers.NewSharedInformerFactoryWithOptions(client, 0, kubeinformers.WithTransform(strip))
	nodes, budgets := factory.Core().V1().Nodes(), factory.Policy().V1().PodDisruptionBudgets()
	nodesSynced, budgetsSynced := nodes.Informer().HasSynced, budgets.Informer().HasSynced

	impl := managedupgradeinformer.New(managedupgradeinformer.Sources{
		Namespace:            o.namespace,
		Client:               client,
		Discovery:            discoveryClient,
		UpgradeConfigs:       upgradeConfigs.GetStore(),
		UpgradeConfigsSynced: upgradeConfigs.HasSynced,
		Nodes:                nodes.Lister(),
		Budgets:              budgets.Lister(),
		CachesSynced:         func() bool { return nodesSynced() && budgetsSynced() },
		Clock:                o.clock,
	})
	server, err := informer.NewServer(impl,
		informer.WithTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: certificate.GetCertificate}),
		informer.WithTimeout(protocol.HandlerStatus, statusTimeout),
		informer.WithTimeout(protocol.HandlerPlan, planTimeout))
	if err != nil {
		return err
	}

	go certificate.Run(ctx)
	go upgradeConfigs.RunWithContext(ctx)
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	klog.InfoS("Serving the managed-upgrade informer", "address", o.listen, "namespace", o.namespace)
	// Served before the caches have synced: until then the calls answer
	// Wait, which the aggregator asks again after.
	if err := server.ListenAndServe(ctx, o.listen); err != nil {
		return err
	}
	klog.InfoS("The managed-upgrade informer stopped")
	return nil
}

// upgradeConfigInformer is an informer of the namespace's UpgradeConfigs.
// Typed with the mirror's scheme rather than dynamic: the watch decodes
// straight into the fields the insights read (the others are dropped, so
// the cache holds no more), with no conversion from unstructured at each
// call.
func upgradeConfigInformer(config *rest.Config, namespace string) (cache.SharedIndexInformer, error) {
	scheme := runtime.NewScheme()
	if err := upgradev1alpha1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	config = rest.CopyConfig(config)
	config.GroupVersion = &upgradev1alpha1.SchemeGroupVersion
	config.APIPath = "/apis"
	config.ContentType = runtime.ContentTypeJSON
	config.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	client, err := rest.RESTClientFor(config)
	if err != nil {
		return nil, err
	}
	lw := cache.NewListWatchFromClient(client, upgradev1alpha1.Resource.Resource, namespace, fields.Everything())
	informer := cache.NewSharedIndexInformer(lw, &upgradev1alpha1.UpgradeConfig{}, 0, cache.Indexers{})
	// Until the CRD exists its reflector's lists are not found, which is
	// what a cluster that is not managed looks like: not worth an error
	// line at each retry.
	if err := informer.SetWatchErrorHandlerWithContext(func(ctx context.Context, r *cache.Reflector, err error) {
		if apierrors.IsNotFound(err) {
			klog.FromContext(ctx).V(4).Info("UpgradeConfigs are not served yet", "err", err)
			return
		}
		cache.DefaultWatchErrorHandler(ctx, r, err)
	}); err != nil {
		return nil, err
	}
	return informer, nil
}

// strip keeps of a node only what the drains read (its labels, whether it
// is schedulable and its taints), and of every object not its managed
// fields: a large cluster's node statuses (images, conditions) would
// otherwise fill the cache.
func strip(obj any) (any, error) {
	if n, ok := obj.(*corev1.Node); ok {
		return &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: n.Name, UID: n.UID, ResourceVersion: n.ResourceVersion, Labels: n.Labels},
			Spec:       corev1.NodeSpec{Unschedulable: n.Spec.Unschedulable, Taints: n.Spec.Taints},
		}, nil
	}
	if o, err := meta.Accessor(obj); err == nil {
		o.SetManagedFields(nil)
	}
	return obj, nil
}
