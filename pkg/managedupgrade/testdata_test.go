package managedupgrade

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// TestTestdata makes the insights of the UpgradeConfigs in the test data,
// written as the Managed Upgrade Operator writes them.
func TestTestdata(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []seen
	}{
		{"scheduled.yaml", []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
			"Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"}}},
		{"upgrading.yaml", []seen{
			{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: WorkerNodesUpgraded (step 12 of 17), running for 48m", ""},
			{"workers", protocol.LevelStatus, "", "Managed update to 4.16.5: worker nodes updating for 50m", "2026-11-22T10:20:00Z"},
		}},
		{"failed-health-check.yaml", []seen{
			{"step-failing", protocol.LevelWarning, protocol.ImpactUpdateStalled, "Managed update step ClusterHealthyBeforeUpgrade: Cluster has critical alerts", ""},
			{"step", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5: ClusterHealthyBeforeUpgrade (step 4 of 17), running for 30m", ""},
		}},
		{"failed.yaml", []seen{{"failed", protocol.LevelError, protocol.ImpactUpdateStalled, "Managed update to 4.16.5 failed", ""}}},
		{"window-breached.yaml", []seen{
			{"window-breached", protocol.LevelError, protocol.ImpactUpdateStalled,
				"Managed update to 4.16.5 will not start: its upgrade window closed at 2026-11-22T09:30:03Z", ""},
			{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: ExternalDependenciesAvailable (step 5 of 17), running for 2h29m", ""},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../../test/testdata/managed-upgrade-operator", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			uc := &upgradev1alpha1.UpgradeConfig{}
			if err := yaml.Unmarshal(data, uc); err != nil {
				t.Fatal(err)
			}
			got := StatusInsights(Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: DefaultConfig(), Now: now})
			valid(t, got)
			if diff := cmp.Diff(tc.want, seenOf(got)); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
		})
	}
}

// An insight's acquisition time is when what it reports began, not the
// time of the call: asked again later about the same UpgradeConfig, every
// insight keeps it, and the aggregator has nothing to rewrite.
func TestAcquisitionTimesDoNotMoveWithTheCalls(t *testing.T) {
	for _, file := range []string{"scheduled.yaml", "upgrading.yaml", "failed-health-check.yaml", "failed.yaml", "window-breached.yaml"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../../test/testdata/managed-upgrade-operator", file))
			if err != nil {
				t.Fatal(err)
			}
			uc := &upgradev1alpha1.UpgradeConfig{}
			if err := yaml.Unmarshal(data, uc); err != nil {
				t.Fatal(err)
			}
			acquired := func(at time.Time) map[string]string {
				out := map[string]string{}
				in := Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: DefaultConfig(), Now: at}
				for _, i := range append(StatusInsights(in), PlanInsights(in, "4.17.0")...) {
					out[i.UID] = i.AcquisitionTime.UTC().Format(time.RFC3339)
				}
				return out
			}
			first := acquired(now)
			if len(first) == 0 {
				t.Fatal("no insight")
			}
			for uid, at := range first {
				if at == now.UTC().Format(time.RFC3339) {
					t.Errorf("insight %s was acquired at the time of the call", uid)
				}
			}
			if diff := cmp.Diff(first, acquired(now.Add(30*time.Second))); diff != "" {
				t.Errorf("acquisition times 30s later (-first +later):\n%s", diff)
			}
		})
	}
}
