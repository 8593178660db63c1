package status

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// insightsWithLease is a cluster not updating, saved with the operator's
// Lease as client-go's leader election writes it, last renewed at
// 09:00:00, held for 137s.
const insightsWithLease = `apiVersion: v1
kind: List
items:
- apiVersion: openshift.muller.dev/v1alpha1
  kind: ClusterVersionProgressInsight
  metadata:
    name: version
  status:
    name: version
    assessment: Completed
    versions:
      target:
        version: 4.16.3
- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata:
    name: update-insights-operator-lock
    namespace: openshift-update-insights
  spec:
    holderIdentity: update-insights-operator-7d9f8b6c5-x2k4q_3f1e2d4c-5b6a-4789-9c0d-1e2f3a4b5c6d
    leaseDurationSeconds: 137
    acquireTime: "2026-11-22T06:00:00.000000Z"
    renewTime: "2026-11-22T09:00:00.000000Z"
    leaseTransitions: 2
`

// With the operator stopped, status says so first, in the text and in
// structured output alike, and exits 3; with it running, as before.
func TestStatusSaysFirstThatTheOperatorDoesNotRun(t *testing.T) {
	from := filepath.Join(t.TempDir(), "insights.yaml")
	if err := os.WriteFile(from, []byte(insightsWithLease), 0o644); err != nil {
		t.Fatal(err)
	}
	const stale = "What follows may be stale since 2026-11-22T09:00:00Z (1h ago): the update-insights operator last renewed its leader Lease openshift-update-insights/update-insights-operator-lock then, and a running operator renews it within 2m17s, so it is stopped or hung."
	t.Run("text", func(t *testing.T) {
		out, err := run(t, "--from", from, "--now", "2026-11-22T10:00:00Z")
		want := "Warning: " + stale + "\n\nThe cluster is not updating.\n"
		if diff := cmp.Diff(want, out); diff != "" {
			t.Errorf("output (-want +got):\n%s", diff)
		}
		wantExit(t, err, ExitNotRunning, "the update-insights operator is not running, so what status printed may be stale since 2026-11-22T09:00:00Z")
	})
	for _, format := range []string{"json", "yaml"} {
		t.Run(format, func(t *testing.T) {
			out, err := run(t, "--from", from, "--now", "2026-11-22T10:00:00Z", "-o", format)
			wantExit(t, err, ExitNotRunning, "the update-insights operator is not running, so what status printed may be stale since 2026-11-22T09:00:00Z")
			content := []byte(out)
			if format == "yaml" {
				if content, err = yaml.YAMLToJSON(content); err != nil {
					t.Fatal(err)
				}
			} else if !strings.HasPrefix(out, "{\n  \"liveness\": {") {
				t.Errorf("the JSON does not start with the liveness:\n%s", out)
			}
			var s struct {
				Liveness map[string]any `json:"liveness"`
				Warnings []string       `json:"warnings"`
			}
			if err := json.Unmarshal(content, &s); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{
				"state": "NotRunning", "lease": "openshift-update-insights/update-insights-operator-lock",
				"holder":    "update-insights-operator-7d9f8b6c5-x2k4q_3f1e2d4c-5b6a-4789-9c0d-1e2f3a4b5c6d",
				"renewTime": "2026-11-22T09:00:00Z", "leaseDuration": "2m17s", "staleSince": "2026-11-22T09:00:00Z", "message": stale,
			}
			if diff := cmp.Diff(want, s.Liveness); diff != "" {
				t.Errorf("liveness (-want +got):\n%s", diff)
			}
			if len(s.Warnings) == 0 || s.Warnings[0] != stale {
				t.Errorf("warnings %q: want the Lease's first", s.Warnings)
			}
		})
	}
	t.Run("renewed a minute ago", func(t *testing.T) {
		out, err := run(t, "--from", from, "--now", "2026-11-22T09:01:00Z")
		if err != nil {
			t.Errorf("status of a running operator: %v", err)
		}
		if out != "The cluster is not updating.\n" {
			t.Errorf("output %q, want the status alone", out)
		}
	})
}

func TestStaleExitCodes(t *testing.T) {
	for _, tc := range []struct {
		state statusview.OperatorState
		want  int
	}{
		{statusview.OperatorRunning, 0},
		{statusview.OperatorNotRunning, ExitNotRunning},
		{statusview.OperatorNoLease, ExitNotRunning},
		{statusview.OperatorUnknown, ExitLivenessUnknown},
	} {
		t.Run(string(tc.state), func(t *testing.T) {
			code := 0
			var exit *output.ExitError
			if err := staleExit(&statusview.Liveness{State: tc.state}); errors.As(err, &exit) {
				code = exit.Code
			} else if err != nil {
				t.Fatalf("error %v is no ExitError", err)
			}
			if code != tc.want {
				t.Errorf("exit code %d, want %d", code, tc.want)
			}
		})
	}
	if err := staleExit(nil); err != nil {
		t.Errorf("without a Lease read (a file without it): %v, want no error", err)
	}
}

func wantExit(t *testing.T, err error, code int, message string) {
	t.Helper()
	var exit *output.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("error %v, want an exit with code %d", err, code)
	}
	if exit.Code != code || exit.Error() != message {
		t.Errorf("exit %d %q, want %d %q", exit.Code, exit.Error(), code, message)
	}
}
