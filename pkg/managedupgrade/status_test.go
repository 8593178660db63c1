package managedupgrade

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// workersUpdating is an update to 4.16.5 whose control plane is done and
// whose worker nodes started updating 50 minutes ago.
func workersUpdating(earlier ...upgradev1alpha1.UpgradeHistory) func(*upgradev1alpha1.UpgradeConfig) {
	return func(uc *upgradev1alpha1.UpgradeConfig) {
		uc.Spec.UpgradeAt = "2026-11-22T08:00:00Z"
		uc.Status.History = append([]upgradev1alpha1.UpgradeHistory{{
			Version: "4.16.5", PrecedingVersion: "4.16.3", Phase: upgradev1alpha1.PhaseUpgrading,
			StartTime: ago(2 * time.Hour), WorkerStartTime: ago(50 * time.Minute),
			Conditions: []upgradev1alpha1.UpgradeCondition{
				pending(upgradev1alpha1.WorkerNodesUpgraded, ago(48*time.Minute)),
				done(upgradev1alpha1.UpgradeCommenced, ago(118*time.Minute), ago(117*time.Minute)),
			},
		}}, earlier...)
	}
}

// upgraded is an earlier update whose worker phase took that long.
func upgraded(version string, workers time.Duration) upgradev1alpha1.UpgradeHistory {
	start := metav1.NewTime(time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC))
	end := metav1.NewTime(start.Add(workers))
	return upgradev1alpha1.UpgradeHistory{Version: version, Phase: upgradev1alpha1.PhaseUpgraded, WorkerStartTime: &start, WorkerCompleteTime: &end}
}

func TestStatusInsights(t *testing.T) {
	const (
		healthy   = upgradev1alpha1.ClusterHealthyBeforeUpgrade
		externals = upgradev1alpha1.ExternalDependenciesAvailable
		commenced = upgradev1alpha1.UpgradeCommenced
		cpDone    = upgradev1alpha1.ControlPlaneUpgraded
		failedC   = upgradev1alpha1.FailedUpgrade
	)
	upgrading := upgradev1alpha1.PhaseUpgrading
	for _, tc := range []struct {
		name    string
		configs []*upgradev1alpha1.UpgradeConfig
		config  *Config
		want    []seen
	}{
		{name: "no UpgradeConfig"},
		{name: "a nil UpgradeConfig", configs: []*upgradev1alpha1.UpgradeConfig{nil}},
		{
			name:    "scheduled, no history yet",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig()},
			want: []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
				"Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"}},
		},
		{
			name:    "scheduled in another time zone, its history New",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T12:45:30+01:00"), running(upgradev1alpha1.PhaseNew, nil))},
			want: []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
				"Managed update to 4.16.5 scheduled for 2026-11-22T11:45:30Z, in 1h46m", "2026-11-22T11:45:30Z"}},
		},
		{
			name:    "scheduled without a version",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(desired(""))},
			want: []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
				"Managed update to an unnamed version scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"}},
		},
		{
			name:    "upgradeAt not a time",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("next tuesday"))},
			want:    []seen{{"upgrade-at-invalid", protocol.LevelWarning, protocol.ImpactUnknown, "Managed update to 4.16.5 has no valid start time", ""}},
		},
		{
			name:    "upgradeAt passed, within the window",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:30:00Z"))},
		},
		{
			name:    "upgradeAt passed, past the window",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T07:30:00Z"))},
			want: []seen{{"window-breached", protocol.LevelError, protocol.ImpactUpdateStalled,
				"Managed update to 4.16.5 will not start: its upgrade window closed at 2026-11-22T09:30:00Z", ""}},
		},
		{
			name:    "upgradeAt passed, the window policy off",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T07:30:00Z"))},
			config:  &Config{},
		},
		{
			name: "OSD started, not commenced within the window",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T07:30:00Z"), running(upgrading, ago(150*time.Minute),
				pending(externals, ago(149*time.Minute)), done(healthy, ago(150*time.Minute), ago(149*time.Minute))))},
			want: []seen{
				{"window-breached", protocol.LevelError, protocol.ImpactUpdateStalled,
					"Managed update to 4.16.5 will not start: its upgrade window closed at 2026-11-22T09:30:00Z", ""},
				{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: ExternalDependenciesAvailable (step 5 of 17), running for 2h29m", ""},
			},
		},
		{
			name: "ARO started, not commenced: held by its steps, with no window policy",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgrader(upgradev1alpha1.UpgradeTypeARO), upgradeAt("2026-11-22T07:30:00Z"),
				running(upgrading, ago(150*time.Minute), pending(externals, ago(149*time.Minute))))},
			want: []seen{{"step", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5: ExternalDependenciesAvailable (step 3 of 14), running for 2h29m", ""}},
		},
		{
			name: "commenced: the window no longer applies",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T07:30:00Z"), running(upgrading, ago(150*time.Minute),
				pending(cpDone, ago(140*time.Minute)), done(commenced, ago(141*time.Minute), ago(140*time.Minute))))},
			want: []seen{{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: ControlPlaneUpgraded (step 9 of 17), running for 2h20m", ""}},
		},
		{
			name: "the health check finds critical alerts, and holds the update",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:30:00Z"), running(upgrading, ago(30*time.Minute),
				upgradev1alpha1.UpgradeCondition{Type: healthy, Status: metav1.ConditionFalse, Reason: "Cluster has critical alerts",
					Message: "critical alerts are firing: KubePersistentVolumeErrors", StartTime: ago(30 * time.Minute), LastTransitionTime: ago(30 * time.Minute)},
				done(upgradev1alpha1.IsClusterUpgradable, ago(30*time.Minute), ago(30*time.Minute))))},
			want: []seen{
				{"step-failing", protocol.LevelWarning, protocol.ImpactUpdateStalled, "Managed update step ClusterHealthyBeforeUpgrade: Cluster has critical alerts", ""},
				{"step", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5: ClusterHealthyBeforeUpgrade (step 4 of 17), running for 30m", ""},
			},
		},
		{
			name: "a failing step with a message and no reason, no times",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:30:00Z"), running(upgrading, nil,
				upgradev1alpha1.UpgradeCondition{Type: externals, Status: metav1.ConditionFalse, Message: "dial tcp: i/o timeout"}))},
			want: []seen{
				{"step-failing", protocol.LevelWarning, protocol.ImpactUpdateStalled, "Managed update step ExternalDependenciesAvailable: dial tcp: i/o timeout", ""},
				{"step", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5: ExternalDependenciesAvailable (step 5 of 17)", ""},
			},
		},
		{
			name: "Failed",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T06:00:00Z"), running(upgradev1alpha1.PhaseFailed, ago(4*time.Hour),
				upgradev1alpha1.UpgradeCondition{Type: failedC, Status: metav1.ConditionFalse, Reason: "Upgrade failed", Message: "FailedUpgrade notification sent"},
				pending(healthy, ago(4*time.Hour))))},
			want: []seen{{"failed", protocol.LevelError, protocol.ImpactUpdateStalled, "Managed update to 4.16.5 failed", ""}},
		},
		{
			name: "a FailedUpgrade condition before the phase says so",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:30:00Z"), running(upgrading, ago(30*time.Minute),
				upgradev1alpha1.UpgradeCondition{Type: failedC, Status: metav1.ConditionFalse, Reason: "Upgrade failed"},
				done(upgradev1alpha1.StartedNotificationSent, ago(30*time.Minute), ago(30*time.Minute))))},
			want: []seen{{"failed", protocol.LevelError, protocol.ImpactUpdateStalled, "Managed update to 4.16.5 failed", ""}},
		},
		{
			name:    "worker nodes updating, three earlier worker phases",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating(upgraded("4.16.3", time.Hour), upgraded("4.16.1", 80*time.Minute), upgraded("4.15.20", 70*time.Minute)))},
			want: []seen{
				{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: WorkerNodesUpgraded (step 12 of 17), running for 48m", ""},
				{"workers", protocol.LevelStatus, "", "Managed update to 4.16.5: worker nodes updating for 50m", "2026-11-22T10:20:00Z"},
			},
		},
		{
			name:    "worker nodes updating, two earlier worker phases and one without times",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating(upgraded("4.16.3", time.Hour), upgradev1alpha1.UpgradeHistory{Version: "4.16.2"}, upgraded("4.16.1", 80*time.Minute)))},
			want: []seen{
				{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: WorkerNodesUpgraded (step 12 of 17), running for 48m", ""},
				{"workers", protocol.LevelStatus, "", "Managed update to 4.16.5: worker nodes updating for 50m", "2026-11-22T10:20:00Z"},
			},
		},
		{
			name:    "worker nodes updating, no earlier update",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating())},
			want: []seen{
				{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: WorkerNodesUpgraded (step 12 of 17), running for 48m", ""},
				{"workers", protocol.LevelStatus, "", "Managed update to 4.16.5: worker nodes updating for 50m", ""},
			},
		},
		{
			name: "an upgrader the operator does not know",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgrader("HCP"), upgradeAt("2026-11-22T09:30:00Z"),
				running(upgrading, ago(30*time.Minute), pending(cpDone, ago(20*time.Minute))))},
			want: []seen{{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: ControlPlaneUpgraded, running for 20m", ""}},
		},
		{
			name:    "Upgraded",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T06:00:00Z"), running(upgradev1alpha1.PhaseUpgraded, ago(4*time.Hour)))},
		},
		{
			name: "a history of another version only",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(desired("4.16.6"),
				running(upgrading, ago(30*time.Minute), pending(healthy, ago(30*time.Minute))))},
			want: []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
				"Managed update to 4.16.6 scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"}},
		},
		{
			name: "two UpgradeConfigs, by namespace",
			configs: []*upgradev1alpha1.UpgradeConfig{
				upgradeConfig(desired("4.17.1"), func(uc *upgradev1alpha1.UpgradeConfig) { uc.Namespace = "b" }),
				upgradeConfig(func(uc *upgradev1alpha1.UpgradeConfig) { uc.Namespace = "a" }),
			},
			want: []seen{
				{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"},
				{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.17.1 scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{UpgradeConfigs: tc.configs, Config: DefaultConfig(), Now: now}
			if tc.config != nil {
				in.Config = *tc.config
			}
			got := StatusInsights(in)
			valid(t, got)
			if diff := cmp.Diff(tc.want, seenOf(got)); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
		})
	}
}

func TestForcedDrains(t *testing.T) {
	drains := []NodeDrain{
		{Node: "worker-d", Started: now.Add(-2 * time.Hour), BlockedByPDB: true},
		{Node: "worker-b", Pool: "worker", Started: now.Add(-30 * time.Minute), BlockedByPDB: true},
		{Node: "worker-a", Pool: "worker", Started: now.Add(-30 * time.Minute)},
		{Node: "worker-c", Pool: "worker", BlockedByPDB: true},
	}
	steps := []seen{
		{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: WorkerNodesUpgraded (step 12 of 17), running for 48m", ""},
		{"workers", protocol.LevelStatus, "", "Managed update to 4.16.5: worker nodes updating for 50m", ""},
	}
	for _, tc := range []struct {
		name    string
		configs []*upgradev1alpha1.UpgradeConfig
		config  Config
		want    []seen
	}{
		{
			name:    "the operator's defaults",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating())},
			config:  DefaultConfig(),
			want: append(slices.Clone(steps),
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactApplicationAvailability,
					"Node worker-b: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it at 2026-11-22T10:38:00Z, in 38m", "2026-11-22T10:38:00Z"},
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactApplicationAvailability,
					"Node worker-d: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it at 2026-11-22T09:08:00Z", "2026-11-22T09:08:00Z"}),
		},
		{
			name: "PDBForceDrainTimeout 0, no expected drain time",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating(), func(uc *upgradev1alpha1.UpgradeConfig) {
				uc.Spec.PDBForceDrainTimeout = 0
			})},
			want: append(slices.Clone(steps),
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactApplicationAvailability,
					"Node worker-b: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it at 2026-11-22T09:30:00Z", "2026-11-22T09:30:00Z"},
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactApplicationAvailability,
					"Node worker-d: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it at 2026-11-22T08:00:00Z", "2026-11-22T08:00:00Z"}),
		},
		{
			name:    "no update running",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig()},
			config:  DefaultConfig(),
			want: []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
				"Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := StatusInsights(Input{UpgradeConfigs: tc.configs, Drains: drains, Config: tc.config, Now: now})
			valid(t, got)
			if diff := cmp.Diff(tc.want, seenOf(got)); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStableUIDs checks that an insight keeps its uid as time passes and
// its step runs on, and that different things have different uids.
func TestStableUIDs(t *testing.T) {
	uc := upgradeConfig(upgradeAt("2026-11-22T09:30:00Z"), running(upgradev1alpha1.PhaseUpgrading, ago(30*time.Minute),
		pending(upgradev1alpha1.ClusterHealthyBeforeUpgrade, ago(30*time.Minute))))
	uids := func(in Input) []string {
		var out []string
		for _, i := range StatusInsights(in) {
			out = append(out, i.UID)
		}
		return out
	}
	in := Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: DefaultConfig(), Now: now}
	before := uids(in)
	in.Now = now.Add(5 * time.Minute)
	if diff := cmp.Diff(before, uids(in)); diff != "" {
		t.Errorf("uids changed as time passed (-before +after):\n%s", diff)
	}
	next := uc.DeepCopy()
	next.Status.History[0].Conditions = append([]upgradev1alpha1.UpgradeCondition{pending(upgradev1alpha1.ExternalDependenciesAvailable, ago(0))},
		done(upgradev1alpha1.ClusterHealthyBeforeUpgrade, ago(30*time.Minute), ago(0)))
	in.UpgradeConfigs = []*upgradev1alpha1.UpgradeConfig{next}
	if after := uids(in); len(after) != 1 || after[0] == before[0] {
		t.Errorf("the next step's uid %v is the previous step's %v", after, before)
	}
	other := uc.DeepCopy()
	other.Name = "another"
	in.UpgradeConfigs = []*upgradev1alpha1.UpgradeConfig{uc, other}
	in.Now = now
	if got := uids(in); len(got) != 2 || got[0] == got[1] {
		t.Errorf("two UpgradeConfigs' uids are %v, want two different ones", got)
	}
}

// TestBounded checks that what an UpgradeConfig holds of any length ends
// in insights the aggregator keeps whole.
func TestBounded(t *testing.T) {
	long := strings.Repeat("very long ", 1000)
	uc := upgradeConfig(desired(long), upgradeAt("2026-11-22T07:30:00Z"), func(uc *upgradev1alpha1.UpgradeConfig) {
		uc.Name = strings.Repeat("n", 253)
		uc.Status.History = []upgradev1alpha1.UpgradeHistory{{Version: long, Phase: upgradev1alpha1.PhaseUpgrading, StartTime: ago(3 * time.Hour), Conditions: []upgradev1alpha1.UpgradeCondition{
			{Type: upgradev1alpha1.UpgradeConditionType(long), Status: metav1.ConditionFalse, Reason: long, Message: long},
			{Type: upgradev1alpha1.FailedUpgrade, Status: metav1.ConditionFalse, Reason: long, Message: long},
		}}}
	})
	got := StatusInsights(Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: DefaultConfig(), Now: now})
	if len(got) != 4 {
		t.Errorf("got %d insights, want the breached window, the failure, the failing step and the step", len(got))
	}
	valid(t, got)
}

// TestFailedDescription checks that a failure says whether the cluster
// may be part way to the new version.
func TestFailedDescription(t *testing.T) {
	for _, tc := range []struct {
		name      string
		commenced bool
		want      string
	}{
		{"before it commenced", false, "The update had not commenced"},
		{"after it commenced", true, "The update had commenced"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conditions := []upgradev1alpha1.UpgradeCondition{{Type: upgradev1alpha1.FailedUpgrade, Status: metav1.ConditionFalse, Reason: "Upgrade failed", Message: "FailedUpgrade notification sent"}}
			if tc.commenced {
				conditions = append(conditions, done(upgradev1alpha1.UpgradeCommenced, ago(time.Hour), ago(time.Hour)))
			}
			uc := upgradeConfig(running(upgradev1alpha1.PhaseFailed, ago(2*time.Hour), conditions...))
			got := StatusInsights(Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: DefaultConfig(), Now: now})
			if len(got) != 1 || !strings.HasPrefix(got[0].Impact.Description, "Upgrade failed: FailedUpgrade notification sent\n"+tc.want) {
				t.Errorf("insights %+v, want one whose description starts with the condition and %q", got, tc.want)
			}
		})
	}
}

// A step that holds the update says why in its description, and the whole
// description stays within the aggregator's bound however long the step's
// message.
func TestAHoldingStepsDescriptionIsBounded(t *testing.T) {
	for _, message := range []string{"checking the cluster's health", strings.Repeat("x", 2*maxDescriptionLength)} {
		check := pending(upgradev1alpha1.ClusterHealthyBeforeUpgrade, ago(time.Minute))
		check.Message = message
		uc := upgradeConfig(upgradeAt("2026-11-22T09:58:00Z"), running(upgradev1alpha1.PhaseUpgrading, ago(2*time.Minute), check))
		got := StatusInsights(Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: DefaultConfig(), Now: now})
		valid(t, got)
		i := slices.IndexFunc(got, func(i protocol.Insight) bool { return strings.HasPrefix(i.UID, "step/") })
		if i < 0 || got[i].Impact.Type != protocol.ImpactAwaitingWindow {
			t.Fatalf("insights %+v, want the step, holding the update", got)
		}
		d := got[i].Impact.Description
		if len(d) > maxDescriptionLength || !strings.HasPrefix(d, message[:min(len(message), 64)]) {
			t.Errorf("description of %d bytes, want at most %d starting with the step's message", len(d), maxDescriptionLength)
		}
		if len(message) < 100 && !strings.Contains(d, "upgrade window closes at 2026-11-22T11:58:00Z") {
			t.Errorf("description %q does not say when the window closes", d)
		}
	}
}
