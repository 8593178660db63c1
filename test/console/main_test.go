// Package console runs the console plugin, built, in a real browser
// (Debian's chromium, driven by playwright-core) through the console
// stand-in (console-plugin/e2e), against the operator running on recorded
// clusters loaded into a real kube-apiserver and etcd. What the tab shows
// is compared with what `update-insights-operator status --details=all`
// prints for the same cluster in the same state, Accept with what
// `pre-checks --accept` writes, and the update history with what `history`
// prints of the same UpdateRecords. `make test-console-e2e` builds what it
// needs and runs it; docs/console-plugin.md says what this layer verifies
// and what only a real console can.
package console

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/client-go/rest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

var (
	// operatorBinary is the operator and CLI, built for the run.
	operatorBinary string
	// pluginDir holds the built plugin, the built stand-in and browse.js.
	pluginDir string
	// artefacts is where the screenshots are kept.
	artefacts string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctrllog.SetLogger(logr.Discard())
	// The recorded ClusterVersion has fields the installed CRD prunes.
	rest.SetDefaultWarningHandler(rest.NoWarnings{})
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		fmt.Fprintln(os.Stderr, "KUBEBUILDER_ASSETS is not set: run these tests with `make test-console-e2e`, which builds kube-apiserver, etcd, the plugin and the stand-in first")
		return 1
	}
	var err error
	if pluginDir, err = filepath.Abs("../../console-plugin"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if artefacts, err = filepath.Abs("../../_output/console-e2e"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.MkdirAll(artefacts, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tmp, err := os.MkdirTemp("", "update-insights-console-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	operatorBinary = filepath.Join(tmp, "update-insights-operator")
	build := exec.Command("go", "build", "-o", operatorBinary, "../../cmd/update-insights-operator")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "building the operator: %v\n", err)
		return 1
	}
	return m.Run()
}
