package status

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/clock"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/cmd/analyze"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := NewCommand(clock.RealClock{})
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

// analyzed writes what `analyze` prints for a recorded case to a file.
func analyzed(t *testing.T, c recordedtest.Case) string {
	t.Helper()
	cmd := analyze.NewCommand(clock.RealClock{})
	var out bytes.Buffer
	cmd.SetOut(&out)
	p := c.Paths
	args := []string{"--cluster-version", p.ClusterVersions, "--cluster-operators", p.ClusterOperators,
		"--machine-config-pools", p.MachineConfigPools, "--machine-configs", p.MachineConfigs, "--nodes", p.Nodes,
		"--now", c.Now.Format(time.RFC3339Nano)}
	if p.Alerts != "" {
		args = append(args, "--alerts", p.Alerts)
	}
	if p.Deployments != "" {
		args = append(args, "--deployments", p.Deployments)
	}
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "insights.yaml")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStatusFromAnalyzeOutput reads back what analyze prints for every
// recorded cluster, as an administrator would without a cluster, and expects
// what the golden files hold.
func TestStatusFromAnalyzeOutput(t *testing.T) {
	for _, c := range recordedtest.Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			from := analyzed(t, c)
			for suffix, args := range map[string][]string{
				".output":          {"--details=none"},
				".detailed-output": {"--details=all"},
				".json":            {"-o", "json"},
			} {
				got, err := run(t, append(args, "--from", from, "--now", c.Now.Format(time.RFC3339Nano))...)
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(recordedtest.Golden(filepath.Join("status", c.Name+suffix)))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("%s (-golden +got):\n%s", suffix, diff)
				}
			}
		})
	}
}

func TestStatusErrors(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	broken := file("broken.yaml", "kind: [unclosed")
	noClusterVersion := file("nodes.yaml", "apiVersion: openshift.muller.dev/v1alpha1\nkind: NodeProgressInsight\nmetadata:\n  name: worker-0\n")
	notInsight := file("cv.yaml", "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\n")
	testCases := []struct {
		name string
		args []string
		want string
	}{
		{name: "unreadable file", args: []string{"--from", broken}, want: broken + ": yaml: line 1: did not find expected ',' or ']'"},
		{name: "missing file", args: []string{"--from", filepath.Join(dir, "none.yaml")}, want: "stat " + filepath.Join(dir, "none.yaml") + ": no such file or directory"},
		{name: "no ClusterVersion insight", args: []string{"--from", noClusterVersion}, want: noClusterVersion + ": holds no ClusterVersionProgressInsight"},
		{name: "not an insight", args: []string{"--from", notInsight}, want: notInsight + ": holds a ClusterVersion, which is not an insight"},
		{name: "unknown details", args: []string{"--details", "everything"}, want: `--details "everything": want none, all, nodes, health or operators`},
		{name: "unknown output", args: []string{"-o", "wide"}, want: `-o "wide": want json or yaml`},
		{name: "bad clock", args: []string{"--now", "yesterday"}, want: `--now "yesterday" is not an RFC 3339 time such as 2024-08-02T10:13:00.5Z`},
		{name: "watch a file", args: []string{"--watch", "--from", noClusterVersion}, want: "--watch follows the cluster as it changes: it takes neither --from, --now nor -o"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, tc.args...)
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStructuredOutputShape pins the field names that scripts read.
func TestStructuredOutputShape(t *testing.T) {
	c := recordedtest.Cases(t)[0]
	from := analyzed(t, c)
	want := map[string][]string{
		"":                  {"controlPlane", "controlPlaneNodes", "health", "now", "updating", "workerPools"},
		"controlPlane":      {"assessment", "completion", "duration", "estimatedCompletedAt", "estimatedTimeRemaining", "operatorHealth", "previous", "startedAt", "target", "updating"},
		"completion":        {"percent", "updated", "updating", "waiting"},
		"operatorHealth":    {"degraded", "healthy", "unavailable", "unknown"},
		"controlPlaneNodes": {"assessment", "completionPercent", "name", "nodes", "summary"},
		"summary":           {"available", "degraded", "draining", "excluded", "outdated", "progressing", "total"},
		"node":              {"assessment", "available", "name", "phase", "version"},
		"health":            {"description", "impact", "level", "name", "reference", "resources", "scope", "startedAt", "summary"},
	}
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			out, err := run(t, "--from", from, "--now", c.Now.Format(time.RFC3339Nano), "-o", format)
			if err != nil {
				t.Fatal(err)
			}
			content := []byte(out)
			if format == "yaml" {
				if content, err = yaml.YAMLToJSON(content); err != nil {
					t.Fatal(err)
				}
			}
			var s map[string]any
			if err := json.Unmarshal(content, &s); err != nil {
				t.Fatal(err)
			}
			controlPlane := s["controlPlane"].(map[string]any)
			pool := s["controlPlaneNodes"].(map[string]any)
			got := map[string][]string{
				"":                  keys(s),
				"controlPlane":      keys(controlPlane),
				"completion":        keys(controlPlane["completion"].(map[string]any)),
				"operatorHealth":    keys(controlPlane["operatorHealth"].(map[string]any)),
				"controlPlaneNodes": keys(pool),
				"summary":           keys(pool["summary"].(map[string]any)),
				"node":              keys(pool["nodes"].([]any)[0].(map[string]any)),
				"health":            keys(s["health"].([]any)[0].(map[string]any)),
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
