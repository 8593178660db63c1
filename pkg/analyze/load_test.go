package analyze

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

func example(name string) string { return filepath.Join(examples, name) }

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
		paths Paths
		want  []string
	}{
		{name: "no ClusterVersion given", paths: Paths{ClusterOperators: example("4.16.0-compact-co.yaml")}, want: []string{"no ClusterVersion given"}},
		{name: "missing file", paths: Paths{ClusterVersions: filepath.Join(dir, "missing.yaml")}, want: []string{"missing.yaml", "no such file"}},
		{name: "not YAML", paths: Paths{ClusterVersions: garbage}, want: []string{garbage}},
		{name: "a kind nobody knows", paths: Paths{ClusterVersions: unknown}, want: []string{unknown, "Gadget"}},
		{name: "ClusterOperators where the ClusterVersion belongs", paths: Paths{ClusterVersions: example("4.16.0-compact-co.yaml")},
			want: []string{"4.16.0-compact-co.yaml", "holds a ClusterOperator where a ClusterVersion was expected"}},
		{name: "Nodes where ClusterOperators belong", paths: Paths{ClusterVersions: example("4.16.0-compact-cv.yaml"), ClusterOperators: example("4.16.0-compact-node.yaml")},
			want: []string{"4.16.0-compact-node.yaml", "holds a Node where a ClusterOperator was expected"}},
		{name: "a folder without a ClusterVersion", paths: Paths{ClusterVersions: empty}, want: []string{empty, "holds no ClusterVersion"}},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(tc.paths)
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
	objs, err := recorded.Read(example("4.16.0-compact-co.yaml"))
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

	c, err := Load(Paths{ClusterVersions: example("4.16.0-compact-cv.yaml"), ClusterOperators: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ClusterOperators) != len(objs) {
		t.Errorf("read %d ClusterOperators from the folder, want %d", len(c.ClusterOperators), len(objs))
	}
}

func TestCommand(t *testing.T) {
	base := []string{"--cluster-version", example("4.16.0-compact-cv.yaml"), "--cluster-operators", example("4.16.0-compact-co.yaml")}
	run := func(args ...string) (string, error) {
		cmd := NewCommand(clocktesting.NewFakePassiveClock(time.Date(2024, 8, 5, 17, 30, 0, 0, time.UTC)))
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		err := cmd.Execute()
		return out.String(), err
	}

	t.Run("json at a given time", func(t *testing.T) {
		out, err := run(append(base, "-o", "json", "--now", "2024-08-05T17:23:22.5Z")...)
		if err != nil {
			t.Fatal(err)
		}
		var l struct {
			APIVersion, Kind string
			Items            []struct {
				Kind     string
				Metadata struct{ Name string }
				Status   struct{ LastObservedProgress time.Time }
			}
		}
		if err := json.Unmarshal([]byte(out), &l); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		if l.APIVersion != "v1" || l.Kind != "List" || len(l.Items) != 34 {
			t.Fatalf("got %s %s of %d items, want a v1 List of the ClusterVersion's insight and 33 operators'", l.APIVersion, l.Kind, len(l.Items))
		}
		if first := l.Items[0]; first.Kind != "ClusterVersionProgressInsight" || first.Metadata.Name != "version" || first.Status.LastObservedProgress.IsZero() {
			t.Errorf("first item %+v, want the ClusterVersion's insight", first)
		}
		for _, i := range l.Items[1:] {
			if i.Kind != "ClusterOperatorProgressInsight" {
				t.Errorf("item %s %s, want only ClusterOperatorProgressInsights after the ClusterVersion's", i.Kind, i.Metadata.Name)
			}
		}
	})
	t.Run("the default clock is the current time", func(t *testing.T) {
		out, err := run(base...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, `lastTransitionTime: "2024-08-05T17:30:00Z"`) {
			t.Errorf("output does not use the clock's time:\n%s", out)
		}
	})
	for _, bad := range [][]string{
		append(base, "--now", "yesterday"),
		append(base, "-o", "xml"),
		{"--cluster-version", example("4.16.0-compact-co.yaml")},
		{"--cluster-version", "/nonexistent"},
	} {
		t.Run("bad input: "+strings.Join(bad[len(bad)-2:], " "), func(t *testing.T) {
			out, err := run(bad...)
			if err == nil {
				t.Fatalf("no error; output:\n%s", out)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			if out != "" {
				t.Errorf("printed %q besides the error", out)
			}
		})
	}
	t.Run("matches the golden output", func(t *testing.T) {
		c := loadRecordedCases(t)
		for _, rc := range c {
			if rc.name != "4.16.0-compact" {
				continue
			}
			out, err := run("--cluster-version", rc.paths.ClusterVersions, "--cluster-operators", rc.paths.ClusterOperators,
				"--machine-config-pools", rc.paths.MachineConfigPools, "--machine-configs", rc.paths.MachineConfigs,
				"--nodes", rc.paths.Nodes, "--now", rc.now.Format(time.RFC3339Nano))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(golden, rc.name+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), out); diff != "" {
				t.Errorf("output (-golden +got):\n%s", diff)
			}
			return
		}
		t.Fatal("no 4.16.0-compact case")
	})
}
