package informer

import (
	"context"
	"crypto/tls"
	"sync"
	"time"

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
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/managedupgradeinformer"
)

// The handlers' budgets. A status call reads caches, and may wait for those
// of newly drained nodes' pods to fill, for half its budget at most; a plan
// call reads only caches (and discovery while the UpgradeConfig cache has
// not synced). A discovery call gets less
// than either, so that a slow API server is a Failure that says so, not a
// call the aggregator gave up on.
const (
	statusTimeout    = 10 * time.Second
	planTimeout      = 15 * time.Second
	discoveryTimeout = 5 * time.Second
)

// ManagedUpgrade is the managed-upgrade informer: its server, and the
// caches its calls read, which Run runs.
type ManagedUpgrade struct {
	Server *informer.Server

	impl           *managedupgradeinformer.Informer
	upgradeConfigs cache.SharedIndexInformer
	factory        kubeinformers.SharedInformerFactory
}

// NewManagedUpgrade builds the managed-upgrade informer of the
// UpgradeConfigs in namespace, reading the cluster through config as it is
// (its rate limit included), serving with tlsConfig. The command runs it;
// the integration tests run it in their process, to count its requests.
func NewManagedUpgrade(config *rest.Config, namespace string, clock clock.PassiveClock, tlsConfig *tls.Config) (*ManagedUpgrade, error) {
	kubeConfig := rest.CopyConfig(config)
	// Built-in kinds travel as protobuf: smaller and cheaper to decode.
	kubeConfig.ContentType = "application/vnd.kubernetes.protobuf"
	client, err := kubernetes.NewForConfig(kubeConfig)
	if err != nil {
		return nil, err
	}
	discoveryConfig := rest.CopyConfig(config)
	discoveryConfig.Timeout = discoveryTimeout
	discoveryClient, err := discovery.NewDiscoveryClientForConfig(discoveryConfig)
	if err != nil {
		return nil, err
	}
	upgradeConfigs, err := upgradeConfigInformer(config, namespace)
	if err != nil {
		return nil, err
	}
	factory := kubeinformers.NewSharedInformerFactoryWithOptions(client, 0, kubeinformers.WithTransform(strip))
	nodes, budgets := factory.Core().V1().Nodes(), factory.Policy().V1().PodDisruptionBudgets()
	nodesSynced, budgetsSynced := nodes.Informer().HasSynced, budgets.Informer().HasSynced

	impl := managedupgradeinformer.New(managedupgradeinformer.Sources{
		Namespace:            namespace,
		Client:               client,
		Discovery:            discoveryClient,
		UpgradeConfigs:       upgradeConfigs.GetStore(),
		UpgradeConfigsSynced: upgradeConfigs.HasSynced,
		Nodes:                nodes.Lister(),
		Budgets:              budgets.Lister(),
		CachesSynced:         func() bool { return nodesSynced() && budgetsSynced() },
		Clock:                clock,
	})
	server, err := informer.NewServer(impl,
		informer.WithTLSConfig(tlsConfig),
		informer.WithTimeout(protocol.HandlerStatus, statusTimeout),
		informer.WithTimeout(protocol.HandlerPlan, planTimeout))
	if err != nil {
		return nil, err
	}
	return &ManagedUpgrade{Server: server, impl: impl, upgradeConfigs: upgradeConfigs, factory: factory}, nil
}

// Run runs the caches until ctx ends, and returns once they have stopped.
func (m *ManagedUpgrade) Run(ctx context.Context) {
	var running sync.WaitGroup
	running.Go(func() { m.upgradeConfigs.RunWithContext(ctx) })
	running.Go(func() { m.impl.Run(ctx) })
	m.factory.Start(ctx.Done())
	<-ctx.Done()
	m.factory.Shutdown()
	running.Wait()
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
