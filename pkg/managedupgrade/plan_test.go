package managedupgrade

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

func TestPlanInsights(t *testing.T) {
	const osdChecks = "Before it commences the update, the Managed Upgrade Operator runs IsClusterUpgradable, ClusterHealthyBeforeUpgrade, ExternalDependenciesAvailable"
	for _, tc := range []struct {
		name    string
		configs []*upgradev1alpha1.UpgradeConfig
		target  string
		want    []seen
	}{
		{name: "no UpgradeConfig", target: "4.16.5"},
		{
			name:    "scheduled to the target",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig()},
			target:  "4.16.5",
			want: []seen{
				{"plan-scheduled", protocol.LevelStatus, "", "The Managed Upgrade Operator starts the update to 4.16.5 at 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"},
				{"plan-checks", protocol.LevelStatus, "", osdChecks, ""},
			},
		},
		{
			name: "scheduled to the target with capacity reserved",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(func(uc *upgradev1alpha1.UpgradeConfig) {
				uc.Spec.CapacityReservation = true
			})},
			target: "4.16.5",
			want: []seen{
				{"plan-scheduled", protocol.LevelStatus, "", "The Managed Upgrade Operator starts the update to 4.16.5 at 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"},
				{"plan-checks", protocol.LevelStatus, "", osdChecks + ", ComputeCapacityReserved", ""},
			},
		},
		{
			name:    "scheduled to the target by the ARO upgrader",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgraderType(upgradev1alpha1.UpgradeTypeARO))},
			target:  "4.16.5",
			want: []seen{
				{"plan-scheduled", protocol.LevelStatus, "", "The Managed Upgrade Operator starts the update to 4.16.5 at 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"},
				{"plan-checks", protocol.LevelStatus, "", "Before it commences the update, the Managed Upgrade Operator runs ClusterHealthyBeforeUpgrade, ExternalDependenciesAvailable", ""},
			},
		},
		{
			// pkg/upgraders/builder.go: the OSD upgrader, and its checks.
			name:    "scheduled to the target by an upgrader type the operator does not know",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgraderType("HCP"), upgradeAt("2026-11-22T09:00:00Z"))},
			target:  "4.16.5",
			want: []seen{
				{"plan-scheduled", protocol.LevelStatus, "", "The Managed Upgrade Operator starts the update to 4.16.5 now (it was scheduled for 2026-11-22T09:00:00Z)", ""},
				{"plan-checks", protocol.LevelStatus, "", osdChecks, ""},
			},
		},
		{
			name:    "scheduled to the target at no valid time",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgraderType(upgradev1alpha1.UpgradeTypeARO), upgradeAt("soon"))},
			target:  "4.16.5",
			want: []seen{
				{"plan-scheduled", protocol.LevelStatus, "",
					`The Managed Upgrade Operator starts the update to 4.16.5 at an unknown time (its upgradeAt "soon" is not an RFC 3339 time)`, ""},
				{"plan-checks", protocol.LevelStatus, "", "Before it commences the update, the Managed Upgrade Operator runs ClusterHealthyBeforeUpgrade, ExternalDependenciesAvailable", ""},
			},
		},
		{
			name:    "scheduled to another version",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig()},
			target:  "4.17.2",
			want: []seen{{"plan-conflict", protocol.LevelWarning, protocol.ImpactUpdateStalled,
				"A managed update to 4.16.5 is scheduled to start at 2026-11-22T14:00:00Z, in 4h; an update to 4.17.2 would conflict with it", ""}},
		},
		{
			name:    "updating to another version",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating())},
			target:  "4.17.2",
			want: []seen{{"plan-conflict", protocol.LevelWarning, protocol.ImpactUpdateStalled,
				"A managed update to 4.16.5 is under way; an update to 4.17.2 would conflict with it", ""}},
		},
		{
			name:    "updating to the target",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating())},
			target:  "4.16.5",
			want:    []seen{{"plan-running", protocol.LevelStatus, "", "The Managed Upgrade Operator is updating the cluster to 4.16.5", ""}},
		},
		{
			name:    "a finished update",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(running(upgradev1alpha1.PhaseUpgraded, ago(4*time.Hour)))},
			target:  "4.17.2",
		},
		{
			name:    "a failed update",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(running(upgradev1alpha1.PhaseFailed, ago(4*time.Hour)))},
			target:  "4.16.5",
		},
		{
			name:    "no desired version",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(desired(" "))},
			target:  "4.16.5",
		},
		{
			// The operator's validation writes the image's version in
			// spec.desired.version (pkg/validation/validation.go); until
			// then the plan cannot be told apart from it.
			name: "an image not yet validated",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(func(uc *upgradev1alpha1.UpgradeConfig) {
				uc.Spec.Desired = upgradev1alpha1.Update{Image: "quay.io/openshift-release-dev/ocp-release@sha256:0123"}
			})},
			target: "4.16.5",
			want: []seen{{"plan-conflict", protocol.LevelWarning, protocol.ImpactUpdateStalled,
				"A managed update to release image quay.io/openshift-release-dev/ocp-release@sha256:0123 is scheduled to start at 2026-11-22T14:00:00Z, in 4h; an update to 4.16.5 would conflict with it", ""}},
		},
		{
			name: "an image whose version the operator filled in",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(func(uc *upgradev1alpha1.UpgradeConfig) {
				uc.Spec.Desired = upgradev1alpha1.Update{Version: "4.16.5", Image: "quay.io/openshift-release-dev/ocp-release@sha256:0123"}
			})},
			target: "4.16.5",
			want: []seen{
				{"plan-scheduled", protocol.LevelStatus, "", "The Managed Upgrade Operator starts the update to 4.16.5 at 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"},
				{"plan-checks", protocol.LevelStatus, "", osdChecks, ""},
			},
		},
		{
			name:    "an UpgradeConfig of another name, which the operator never runs",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(func(uc *upgradev1alpha1.UpgradeConfig) { uc.Name = "mine" })},
			target:  "4.17.2",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PlanInsights(Input{UpgradeConfigs: tc.configs, Config: shipped(t), Now: now}, tc.target)
			valid(t, got)
			if diff := cmp.Diff(tc.want, seenOf(got)); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
		})
	}
}

// The checks' descriptions say which hold the update and which do not, as
// the operator's steps run them (pkg/upgraders/healthcheckstep.go,
// scalerstep.go).
func TestPlanChecksSayWhatHolds(t *testing.T) {
	uc := upgradeConfig(func(uc *upgradev1alpha1.UpgradeConfig) { uc.Spec.CapacityReservation = true })
	got := PlanInsights(Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: shipped(t), Now: now}, "4.16.5")
	if len(got) != 2 {
		t.Fatalf("insights %+v, want the schedule and its checks", got)
	}
	d := got[1].Impact.Description
	for _, want := range []string{
		"ComputeCapacityReserved: adds worker capacity first (capacityReservation is set); if it cannot, or not within scale.timeOut, the update goes on without it",
		"IsClusterUpgradable: holds a minor update while the ClusterVersion's Upgradeable condition is False",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("description %q does not say %q", d, want)
		}
	}
	if strings.Contains(d, "PodDisruptionBudget") || strings.Contains(d, "does not commence the update until they pass") {
		t.Errorf("description %q says a check holds the update that does not", d)
	}
}
