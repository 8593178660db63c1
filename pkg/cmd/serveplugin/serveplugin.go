// Package serveplugin is the `serve-console-plugin` command: the console
// plugin's bundle, embedded in this binary, served to the OpenShift console
// over TLS by the payload's update-insights-console-plugin Deployment.
package serveplugin

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"os/signal"
	"syscall"

	configclient "github.com/openshift/client-go/config/clientset/versioned"
	"github.com/spf13/cobra"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/update-insights/update-insights-operator/pkg/consoleplugin"
	"github.com/update-insights/update-insights-operator/pkg/consoleplugin/bundle"
	"github.com/update-insights/update-insights-operator/pkg/servingcert"
)

// DefaultListen is the port openshift/console-plugin-template serves its
// plugin on (charts/openshift-console-plugin/values.yaml), which the
// ConsolePlugin's Service names.
const DefaultListen = ":9443"

type options struct {
	listen, certFile, keyFile, kubeconfig string
	bundle                                fs.FS
}

// NewCommand returns the `serve-console-plugin` command, which serves until
// ctx ends, SIGTERM or SIGINT.
func NewCommand(ctx context.Context) *cobra.Command {
	o := &options{bundle: bundle.FS()}
	cmd := &cobra.Command{
		Use:   "serve-console-plugin",
		Short: "Serve the console plugin's bundle to the OpenShift console",
		Long: `Serve the console plugin's bundle, embedded in this binary, over HTTPS: the
files of console-plugin/dist, which the console's backend fetches for the
ConsolePlugin update-insights-console-plugin. The serving certificate is the
one the service CA issues for the plugin's Service, reloaded when its files
change. The minimum TLS version and the ciphers are those of the cluster's
TLS security profile (spec.tlsSecurityProfile of the APIServer cluster),
followed as it changes; the server listens once it has read it. A binary
built without the bundle answers 503 Service Unavailable.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT)
			defer stop()
			return o.run(ctx)
		},
	}
	flags := cmd.Flags()
	flags.StringVar(&o.listen, "listen", DefaultListen, "The address to serve the plugin on, over HTTPS.")
	flags.StringVar(&o.certFile, "tls-cert-file", "/var/run/secrets/serving-cert/tls.crt", "PEM serving certificate (chain), reloaded when it changes.")
	flags.StringVar(&o.keyFile, "tls-private-key-file", "/var/run/secrets/serving-cert/tls.key", "PEM private key of the serving certificate, reloaded when it changes.")
	flags.StringVar(&o.kubeconfig, "kubeconfig", "", "The kubeconfig of the cluster whose TLS security profile to serve with; by default the pod's service account.")
	return cmd
}

func (o *options) run(ctx context.Context) error {
	certificate, err := servingcert.New(o.certFile, o.keyFile)
	if err != nil {
		return err
	}
	// clientcmd takes the in-cluster configuration without a kubeconfig.
	config, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return fmt.Errorf("the cluster's configuration: %w", err)
	}
	client, err := configclient.NewForConfig(config)
	if err != nil {
		return err
	}
	return o.serve(ctx, certificate, client)
}

// serve serves the bundle with certificate and the TLS security profile
// client reads, until ctx ends.
func (o *options) serve(ctx context.Context, certificate *servingcert.Certificate, client configclient.Interface) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	profile, err := consoleplugin.FollowAPIServerProfile(ctx, client)
	if err != nil {
		return err
	}
	listener, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", o.listen, err)
	}
	go certificate.Run(ctx)
	return consoleplugin.Serve(ctx, listener, o.bundle, consoleplugin.TLSConfig(certificate.GetCertificate, profile.Current))
}
