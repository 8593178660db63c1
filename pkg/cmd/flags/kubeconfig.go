package flags

import (
	"github.com/spf13/pflag"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/update-insights/update-insights-operator/pkg/output"
)

// Kubeconfig is kubectl's kubeconfig flags (--kubeconfig, --context, ...),
// for the commands that talk to a cluster.
type Kubeconfig struct {
	loadingRules *clientcmd.ClientConfigLoadingRules
	overrides    clientcmd.ConfigOverrides
}

// NewKubeconfig returns the flags, bound to fs.
func NewKubeconfig(fs *pflag.FlagSet) *Kubeconfig {
	k := &Kubeconfig{loadingRules: clientcmd.NewDefaultClientConfigLoadingRules()}
	fs.StringVar(&k.loadingRules.ExplicitPath, "kubeconfig", "", "Path to the kubeconfig file to use for CLI requests.")
	clientcmd.BindOverrideFlags(&k.overrides, fs, clientcmd.RecommendedConfigOverrideFlags(""))
	return k
}

// Config is the client configuration the flags and the environment say.
func (k *Kubeconfig) Config() (*rest.Config, error) {
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(k.loadingRules, &k.overrides).ClientConfig()
	if err != nil {
		return nil, output.OneLine(err)
	}
	return config, nil
}
