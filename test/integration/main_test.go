// Package integration runs the operator and its API against a real
// kube-apiserver and etcd, started by envtest from the binaries that
// hack/install-testbin.sh builds (`make test-integration` wires this up).
package integration

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/go-logr/logr"
	apiserverclient "github.com/openshift/client-go/apiserver/clientset/versioned"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	operatorclient "github.com/openshift/client-go/operator/clientset/versioned"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
)

const (
	// testVersion is linked into the operator binary the tests run.
	testVersion = "v0.0.0-integration"
	// operatorUser is the user the operator authenticates as.
	operatorUser = "update-insights-operator"
	// etcdQuota is etcd's --quota-backend-bytes: 8 GiB, the most etcd
	// recommends.
	etcdQuota = 8 << 30
)

var (
	testEnv        *envtest.Environment
	kubeClient     kubernetes.Interface
	configClient   configclient.Interface
	insightsClient insightsclient.Interface
	// apiserverClient and operatorClient write the APIRequestCounts and the
	// CloudCredential that the pre-checks of a minor update read.
	apiserverClient apiserverclient.Interface
	operatorClient  operatorclient.Interface
	kubeconfigPath  string
	operatorBinary  string
	// operatorConfig is the operator's own client configuration: its user
	// may also scrape the operator's metrics.
	operatorConfig *rest.Config
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	// envtest logs through controller-runtime's logger; the tests read the
	// API server, not envtest's progress.
	ctrllog.SetLogger(logr.Discard())
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		fmt.Fprintln(os.Stderr, "KUBEBUILDER_ASSETS is not set: run these tests with `make test-integration`, which builds kube-apiserver and etcd first")
		return 1
	}
	tmp, err := os.MkdirTemp("", "update-insights-integration-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)

	if err := buildOperator(tmp); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}

	crds, err := crdPaths()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// BenchmarkOLMCopiedCSVs writes each of its 100,050 CSVs twice
	// (created, then its status): 18.7 MiB of etcd per 1,000, 1.8 GiB in
	// all but for the older revisions the API server compacts every 5
	// minutes; its run on two cores left a 1.5 GiB database. Both are
	// close to etcd's default quota of 2 GiB, over which etcd refuses
	// every write. The quota bounds the database; it allocates nothing.
	etcd := &envtest.Etcd{}
	etcd.Configure().Set("quota-backend-bytes", strconv.Itoa(etcdQuota))
	testEnv = &envtest.Environment{
		ControlPlane:          envtest.ControlPlane{Etcd: etcd},
		CRDInstallOptions:     envtest.CRDInstallOptions{Paths: crds},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := testEnv.Start()
	if err != nil {
		fmt.Fprintf(os.Stderr, "starting kube-apiserver and etcd: %v\n", err)
		return 1
	}
	defer func() {
		if err := testEnv.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "stopping kube-apiserver and etcd: %v\n", err)
		}
	}()

	if err := setUpClients(cfg, tmp); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := createOwnClusterOperatorOutsideThePayload(context.Background()); err != nil {
		fmt.Fprintf(os.Stderr, "creating the operator's ClusterOperator: %v\n", err)
		return 1
	}
	if err := createWhatEveryClusterHas(context.Background()); err != nil {
		fmt.Fprintf(os.Stderr, "creating the admin gates and the CloudCredential: %v\n", err)
		return 1
	}
	return m.Run()
}

// crdPaths lists the CRDs a cluster running the operator has: OpenShift's
// ClusterVersion, ClusterOperator, Infrastructure, MachineConfigPool,
// MachineConfig, APIRequestCount and CloudCredential, and the operator's own.
func crdPaths() ([]string, error) {
	var paths []string
	for _, pattern := range []string{"../testdata/crds/*.crd.yaml", "../../manifests/*.crd.yaml"} {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("no CRDs match %s", pattern)
		}
		paths = append(paths, matches...)
	}
	return paths, nil
}

func buildOperator(dir string) error {
	operatorBinary = filepath.Join(dir, "update-insights-operator")
	build := exec.Command("go", "build",
		"-ldflags", "-X github.com/update-insights/update-insights-operator/pkg/version.versionFromGit="+testVersion,
		"-o", operatorBinary, "../../cmd/update-insights-operator")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the operator: %w", err)
	}
	return nil
}

func setUpClients(cfg *rest.Config, dir string) error {
	// The ClusterVersion type has fields the installed CRD prunes; the
	// server's warning about each write is noise in test output.
	rest.SetDefaultWarningHandler(rest.NoWarnings{})

	// The tests measure the operator, not client-go's default client-side
	// rate limit (QPS 5), which would throttle and slow the test's own calls.
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = 1000, 2000

	var err error
	if kubeClient, err = kubernetes.NewForConfig(cfg); err != nil {
		return err
	}
	if configClient, err = configclient.NewForConfig(cfg); err != nil {
		return err
	}
	if insightsClient, err = insightsclient.NewForConfig(cfg); err != nil {
		return err
	}
	if apiserverClient, err = apiserverclient.NewForConfig(cfg); err != nil {
		return err
	}
	if operatorClient, err = operatorclient.NewForConfig(cfg); err != nil {
		return err
	}

	// The operator runs as a separate process with a kubeconfig of its own,
	// as it would in a cluster.
	user, err := testEnv.AddUser(envtest.User{Name: operatorUser, Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return fmt.Errorf("adding the operator's user: %w", err)
	}
	kubeconfig, err := user.KubeConfig()
	if err != nil {
		return err
	}
	operatorConfig = user.Config()
	kubeconfigPath = filepath.Join(dir, "kubeconfig")
	return os.WriteFile(kubeconfigPath, kubeconfig, 0o600)
}
