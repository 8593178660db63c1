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

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/servingcert"
)

// Calls read caches, but the caches of drained nodes' pods start together
// when nodes are cordoned together, and while the cluster does not serve
// UpgradeConfigs each call asks discovery: client-go's default 5 QPS would
// hold them up.
const (
	clientQPS   = 50
	clientBurst = 100
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
	certificate, err := servingcert.New(o.certFile, o.keyFile)
	if err != nil {
		return err
	}
	m, err := NewManagedUpgrade(config, o.namespace, o.clock,
		&tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: certificate.GetCertificate})
	if err != nil {
		return err
	}

	ctx, cancel := context.WithCancel(ctx)
	cachesStopped := make(chan struct{})
	defer func() {
		// Serving may fail before ctx ends: the caches are stopped either
		// way, and waited for.
		cancel()
		<-cachesStopped
	}()
	go certificate.Run(ctx)
	go func() {
		defer close(cachesStopped)
		m.Run(ctx)
	}()
	klog.InfoS("Serving the managed-upgrade informer", "address", o.listen, "namespace", o.namespace)
	// Served before the caches have synced: until then the calls answer
	// Wait, which the aggregator asks again after.
	if err := m.Server.ListenAndServe(ctx, o.listen); err != nil {
		return err
	}
	klog.InfoS("The managed-upgrade informer stopped")
	return nil
}
