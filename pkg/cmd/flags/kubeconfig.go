package flags

import (
	"errors"
	"fmt"
	"os"
	"strings"

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
	if clientcmd.IsEmptyConfig(err) {
		return nil, k.noConfig()
	}
	if err != nil {
		return nil, output.OneLine(err)
	}
	return config, nil
}

// noConfig says which kubeconfig files were looked for, and what to do,
// instead of client-go's advice to set KUBERNETES_MASTER, which kubectl and
// oc no longer read either. client-go skips a missing file of $KUBECONFIG
// or ~/.kube/config, and finds a file that names no cluster as empty.
func (k *Kubeconfig) noConfig() error {
	var found []string
	for _, path := range k.loadingRules.Precedence {
		if _, err := os.Stat(path); err == nil {
			found = append(found, path)
		}
	}
	looked := strings.Join(k.loadingRules.Precedence, string(os.PathListSeparator))
	var where string
	switch env := os.Getenv(clientcmd.RecommendedConfigPathEnvVar); {
	case k.loadingRules.ExplicitPath != "":
		where = "--kubeconfig " + k.loadingRules.ExplicitPath + " names no cluster"
	case env == "" && len(found) == 0:
		where = fmt.Sprintf("$%s is not set, and %s does not exist", clientcmd.RecommendedConfigPathEnvVar, looked)
	case env == "":
		where = fmt.Sprintf("$%s is not set, and %s names no cluster", clientcmd.RecommendedConfigPathEnvVar, looked)
	case len(found) == 0:
		where = fmt.Sprintf("$%s is %s, and no such file exists", clientcmd.RecommendedConfigPathEnvVar, looked)
	default:
		where = fmt.Sprintf("$%s is %s, and %s names no cluster", clientcmd.RecommendedConfigPathEnvVar, looked, strings.Join(found, ", "))
	}
	return errors.New("no kubeconfig to connect to a cluster with: " + where + "; set KUBECONFIG or pass --kubeconfig, as for oc or kubectl")
}
