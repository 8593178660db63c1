package status

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
)

// hostedFile holds the insights pkg/hostedview's golden tests render,
// written by them, and hostedNow the clock they render at.
var (
	hostedFile = filepath.Join(filepath.Dir(recordedtest.Golden("")), "docs", "hosted-clusters.yaml")
	hostedNow  = "2026-12-02T13:00:00Z"
)

// TestHostedFromFile prints what pkg/hostedview's golden files hold, from
// the file of their insights.
func TestHostedFromFile(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"fleet.txt", []string{"--hosted-clusters"}},
		{"fleet.json", []string{"--hosted-clusters", "-o", "json"}},
		{"ledger.txt", []string{"--hosted-cluster", "clusters/ledger"}},
		{"analytics.txt", []string{"--hosted-cluster", "clusters/analytics"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			got, err := run(t, append(tc.args, "--from", hostedFile, "--now", hostedNow)...)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(recordedtest.Golden(filepath.Join("hosted", tc.golden)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("(-golden +got):\n%s", diff)
			}
		})
	}
}

func TestHostedSingleClusterAsYAML(t *testing.T) {
	got, err := run(t, "--hosted-cluster", "clusters/ledger", "-o", "yaml", "--from", hostedFile, "--now", hostedNow)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "name: ledger") || strings.Contains(got, "name: payments") {
		t.Errorf("want the ledger cluster alone, got:\n%s", got)
	}
}

func TestHostedFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"both", []string{"--hosted-clusters", "--hosted-cluster", "clusters/ledger"}, "take one or the other"},
		{"watch", []string{"--hosted-clusters", "--watch"}, "do not take --watch"},
		{"details", []string{"--hosted-cluster", "clusters/ledger", "--details=all"}, "show no --details"},
		{"no namespace", []string{"--hosted-cluster", "ledger"}, `--hosted-cluster "ledger": want NAMESPACE/NAME`},
		{"empty name", []string{"--hosted-cluster", "clusters/"}, "want NAMESPACE/NAME"},
		{"too many parts", []string{"--hosted-cluster", "clusters/ledger/x"}, "want NAMESPACE/NAME"},
		{"unknown cluster", []string{"--hosted-cluster", "clusters/nope"}, "no hosted cluster clusters/nope: neither a HostedClusterProgressInsight nor a NodePoolProgressInsight names it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, append(tc.args, "--from", hostedFile, "--now", hostedNow)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestHostedFromAFileOfOtherInsights(t *testing.T) {
	from := recordedtest.Golden("4.16.0-compact.yaml")
	_, err := run(t, "--hosted-clusters", "--from", from)
	if err == nil || !strings.Contains(err.Error(), "neither a HostedClusterProgressInsight nor a NodePoolProgressInsight") {
		t.Errorf("got error %v, want one refusing the file's kinds", err)
	}
}
