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
			{"step-failing", protocol.LevelWarning, protocol.ImpactUpdateStalled,
				"Managed update step ClusterHealthyBeforeUpgrade: critical alert(s) firing: KubePersistentVolumeErrors", ""},
			{"step", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5: ClusterHealthyBeforeUpgrade (step 4 of 17), running for 30m", ""},
		}},
		{"failed.yaml", []seen{{"failed", protocol.LevelError, protocol.ImpactUpdateStalled, "Managed update to 4.16.5 failed: it did not commence within its upgrade window", ""}}},
		{"window-closed.yaml", []seen{
			{"window-closed", protocol.LevelError, protocol.ImpactUpdateStalled,
				"Managed update to 4.16.5 is being given up: it did not commence by 2026-11-22T09:30:03Z", ""},
			{"delayed", protocol.LevelWarning, protocol.ImpactUpdateStalled, "Managed update to 4.16.5 is delayed: it has not commenced 30m after its start", ""},
			{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: ExternalDependenciesAvailable (step 5 of 17), running for 2h29m", ""},
		}},
		{"due.yaml", []seen{{"due", protocol.LevelWarning, protocol.ImpactUpdateStalled,
			"Managed update to 4.16.5, due since 2026-11-22T07:30:00Z, has not started", ""}}},
		{"image.yaml", []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
			"Managed update to release image quay.io/openshift-release-dev/ocp-release@sha256:3b6a5fb4b2e6ad1a4e1a3c4b4e5d0f9b7f0e6c1a2b3c4d5e6f708192a3b4c5d6 scheduled for 2026-11-22T14:00:00Z, in 4h",
			"2026-11-22T14:00:00Z"}}},
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
			got := StatusInsights(Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: shipped(t), Now: now})
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
	for _, file := range []string{"scheduled.yaml", "upgrading.yaml", "failed-health-check.yaml", "failed.yaml", "window-closed.yaml", "due.yaml", "image.yaml"} {
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
				in := Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: shipped(t), Now: at}
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
			// An insight may appear as a time passes (the update's delay
			// notified); those there before keep their time.
			later := acquired(now.Add(30 * time.Second))
			for uid := range later {
				if _, before := first[uid]; !before {
					delete(later, uid)
				}
			}
			if diff := cmp.Diff(first, later); diff != "" {
				t.Errorf("acquisition times 30s later (-first +later):\n%s", diff)
			}
		})
	}
}
