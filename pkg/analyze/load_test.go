package analyze_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadRefusesBadInputNamingTheFile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	garbage := writeFile(t, dir, "garbage.yaml", "this: is: not yaml\n")
	unknown := writeFile(t, dir, "unknown.yaml", "apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n")
	testCases := []struct {
		name  string
		paths analyze.Paths
		want  []string
	}{
		{name: "no ClusterVersion given", paths: analyze.Paths{ClusterOperators: recordedtest.Example("4.16.0-compact-co.yaml")}, want: []string{"no ClusterVersion given"}},
		{name: "missing file", paths: analyze.Paths{ClusterVersions: filepath.Join(dir, "missing.yaml")}, want: []string{"missing.yaml", "no such file"}},
		{name: "not YAML", paths: analyze.Paths{ClusterVersions: garbage}, want: []string{garbage}},
		{name: "a kind nobody knows", paths: analyze.Paths{ClusterVersions: unknown}, want: []string{unknown, "Gadget"}},
		{name: "ClusterOperators where the ClusterVersion belongs", paths: analyze.Paths{ClusterVersions: recordedtest.Example("4.16.0-compact-co.yaml")},
			want: []string{"4.16.0-compact-co.yaml", "holds a ClusterOperator where a ClusterVersion was expected"}},
		{name: "Nodes where ClusterOperators belong", paths: analyze.Paths{ClusterVersions: recordedtest.Example("4.16.0-compact-cv.yaml"), ClusterOperators: recordedtest.Example("4.16.0-compact-node.yaml")},
			want: []string{"4.16.0-compact-node.yaml", "holds a Node where a ClusterOperator was expected"}},
		{name: "a folder without a ClusterVersion", paths: analyze.Paths{ClusterVersions: empty}, want: []string{empty, "holds no ClusterVersion"}},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := analyze.Load(tc.paths)
			if err == nil {
				t.Fatal("loaded bad input without an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestLoadReadsAFolderOfObjects lays the recorded ClusterOperators out as a
// must-gather does, one file per object, and reads the folder.
func TestLoadReadsAFolderOfObjects(t *testing.T) {
	objs, err := recorded.Read(recordedtest.Example("4.16.0-compact-co.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, o := range objs {
		co := o.(*configv1.ClusterOperator)
		content, err := yaml.Marshal(co)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, co.Name+".yaml", "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\n"+string(content))
	}
	writeFile(t, dir, "README.txt", "not an object, and not read")

	c, err := analyze.Load(analyze.Paths{ClusterVersions: recordedtest.Example("4.16.0-compact-cv.yaml"), ClusterOperators: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ClusterOperators) != len(objs) {
		t.Errorf("read %d ClusterOperators from the folder, want %d", len(c.ClusterOperators), len(objs))
	}
}
