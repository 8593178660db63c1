package managedupgrade

import (
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
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgrader(upgradev1alpha1.UpgradeTypeARO))},
			target:  "4.16.5",
			want: []seen{
				{"plan-scheduled", protocol.LevelStatus, "", "The Managed Upgrade Operator starts the update to 4.16.5 at 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"},
				{"plan-checks", protocol.LevelStatus, "", "Before it commences the update, the Managed Upgrade Operator runs ClusterHealthyBeforeUpgrade, ExternalDependenciesAvailable", ""},
			},
		},
		{
			name:    "scheduled to the target by an upgrader the operator does not know",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgrader("HCP"), upgradeAt("2026-11-22T09:00:00Z"))},
			target:  "4.16.5",
			want: []seen{{"plan-scheduled", protocol.LevelStatus, "",
				"The Managed Upgrade Operator starts the update to 4.16.5 now (it was scheduled for 2026-11-22T09:00:00Z)", ""}},
		},
		{
			name:    "scheduled to the target at no valid time",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgrader("HCP"), upgradeAt("soon"))},
			target:  "4.16.5",
			want: []seen{{"plan-scheduled", protocol.LevelStatus, "",
				`The Managed Upgrade Operator starts the update to 4.16.5 at an unknown time (its upgradeAt "soon" is not an RFC 3339 time)`, ""}},
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PlanInsights(Input{UpgradeConfigs: tc.configs, Config: DefaultConfig(), Now: now}, tc.target)
			valid(t, got)
			if diff := cmp.Diff(tc.want, seenOf(got)); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
		})
	}
}
