package analyze

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
)

func TestCommand(t *testing.T) {
	base := []string{"--cluster-version", recordedtest.Example("4.16.0-compact-cv.yaml"), "--cluster-operators", recordedtest.Example("4.16.0-compact-co.yaml")}
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
	operators := recordedtest.Example("4.16.0-compact-co.yaml")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{name: "bad clock", args: append(base, "--now", "yesterday"), want: `--now "yesterday" is not an RFC 3339 time such as 2024-08-02T10:13:00.5Z`},
		{name: "bad format", args: append(base, "-o", "xml"), want: `-o "xml": want json or yaml`},
		{name: "wrong kind", args: []string{"--cluster-version", operators}, want: operators + ": holds a ClusterOperator where a ClusterVersion was expected"},
		{name: "missing file", args: []string{"--cluster-version", "/nonexistent"}, want: "stat /nonexistent: no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(tc.args...)
			if err == nil {
				t.Fatalf("no error; output:\n%s", out)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if out != "" {
				t.Errorf("printed %q besides the error", out)
			}
		})
	}
	t.Run("matches the golden output", func(t *testing.T) {
		c := recordedtest.CaseNamed(t, "4.16.0-compact")
		out, err := run("--cluster-version", c.Paths.ClusterVersions, "--cluster-operators", c.Paths.ClusterOperators,
			"--machine-config-pools", c.Paths.MachineConfigPools, "--machine-configs", c.Paths.MachineConfigs,
			"--nodes", c.Paths.Nodes, "--now", c.Now.Format(time.RFC3339Nano))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(recordedtest.Golden(c.Name + ".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), out); diff != "" {
			t.Errorf("output (-golden +got):\n%s", diff)
		}
	})
}
