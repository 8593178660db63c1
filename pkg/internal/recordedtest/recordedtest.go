// Package recordedtest holds what the tests over the recorded clusters
// share: the recorded cases, the clock the reference output was computed at,
// and golden files.
package recordedtest

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
)

var update = flag.Bool("update", false, "rewrite the golden files from the current results")

// testdata is test/testdata, found from this file rather than from the
// working directory, which is the package of whichever test runs.
var testdata = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "test", "testdata")
}()

// Example returns the path of a file of the recorded clusters.
func Example(name string) string { return filepath.Join(testdata, "oc-examples", name) }

// RecommendExample returns the path of a file of the alerts recorded with
// what `oc adm upgrade recommend` printed for them.
func RecommendExample(name string) string { return filepath.Join(testdata, "oc-recommend", name) }

// Golden returns the path of a golden file.
func Golden(name string) string { return filepath.Join(testdata, "golden", name) }

// Case is a cluster recorded during an update, with what
// `oc adm upgrade status` printed for it.
type Case struct {
	Name    string
	Paths   analyze.Paths
	Cluster *analyze.Cluster
	// Now is the clock the reference printed its output at.
	Now time.Time
	// Output is what the reference printed without details, Detailed what
	// it printed with --details=all.
	Output, Detailed string
}

// Cases loads every recorded cluster.
func Cases(t testing.TB) []Case {
	t.Helper()
	files, err := filepath.Glob(Example("*-cv.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded clusters in %s: %v", Example(""), err)
	}
	var cases []Case
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), "-cv.yaml")
		file := func(suffix string) string { return Example(name + suffix) }
		c := Case{Name: name, Paths: analyze.Paths{
			ClusterVersions:    file("-cv.yaml"),
			ClusterOperators:   file("-co.yaml"),
			MachineConfigPools: file("-mcp.yaml"),
			MachineConfigs:     file("-mc.yaml"),
			Nodes:              file("-node.yaml"),
		}}
		if _, err := os.Stat(file("-alerts.json")); err == nil {
			c.Paths.Alerts = file("-alerts.json")
		}
		// Only some recordings have the machine-config-operator Deployment,
		// by which machine-config is judged.
		if _, err := os.Stat(file("-mco-deployment.yaml")); err == nil {
			c.Paths.Deployments = file("-mco-deployment.yaml")
		}
		if c.Cluster, err = analyze.Load(c.Paths); err != nil {
			t.Fatal(err)
		}
		c.Now = ReferenceNow(c.Cluster.ClusterVersions, c.Cluster.ClusterOperators)
		c.Output, c.Detailed = read(t, file(".output")), read(t, file(".detailed-output"))
		cases = append(cases, c)
	}
	return cases
}

// CaseNamed returns the recorded case of that name.
func CaseNamed(t *testing.T, name string) Case {
	t.Helper()
	for _, c := range Cases(t) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no recorded case %s", name)
	return Case{}
}

func read(t testing.TB, path string) string {
	t.Helper()
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(content)
}

// ReferenceNow is the clock the reference output of a recorded cluster was
// computed at: the latest condition transition of its ClusterVersions and
// ClusterOperators + 368975ns.
func ReferenceNow(versions []*configv1.ClusterVersion, operators []*configv1.ClusterOperator) time.Time {
	var latest time.Time
	consider := func(conditions []configv1.ClusterOperatorStatusCondition) {
		for _, c := range conditions {
			if c.LastTransitionTime.After(latest) {
				latest = c.LastTransitionTime.Time
			}
		}
	}
	for _, cv := range versions {
		consider(cv.Status.Conditions)
	}
	for _, co := range operators {
		consider(co.Status.Conditions)
	}
	return latest.Add(368975 * time.Nanosecond)
}

// CheckGolden compares got with the golden file at path, after rewriting
// the file with got when the test runs with -update.
func CheckGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (create it with -update): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-golden +got):\n%s", path, diff)
	}
}
