package managedupgrade

import (
	"regexp"
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
				done(upgradev1alpha1.WorkersMaintenanceWindowCreated, ago(49*time.Minute), ago(48*time.Minute)),
				done(upgradev1alpha1.ControlPlaneUpgraded, ago(117*time.Minute), ago(52*time.Minute)),
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
		started   = upgradev1alpha1.StartedNotificationSent
		healthy   = upgradev1alpha1.ClusterHealthyBeforeUpgrade
		externals = upgradev1alpha1.ExternalDependenciesAvailable
		commenced = upgradev1alpha1.UpgradeCommenced
		cpDone    = upgradev1alpha1.ControlPlaneUpgraded
	)
	upgrading := upgradev1alpha1.PhaseUpgrading
	scheduledAt4 := seen{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
		"Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"}
	for _, tc := range []struct {
		name    string
		configs []*upgradev1alpha1.UpgradeConfig
		// config changes the shipped configuration.
		config  func(*Config)
		workers int
		want    []seen
	}{
		{name: "no UpgradeConfig"},
		{name: "a nil UpgradeConfig", configs: []*upgradev1alpha1.UpgradeConfig{nil}},
		{name: "scheduled, no history yet", configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig()}, want: []seen{scheduledAt4}},
		{
			// controllers/upgradeconfig/upgradeconfig_controller.go
			// ManagedUpgradePredicate: the operator drops any other.
			name:    "an UpgradeConfig of another name, which the operator never runs",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(func(uc *upgradev1alpha1.UpgradeConfig) { uc.Name = "my-upgrade" })},
		},
		{
			name:    "scheduled in another time zone, its history New",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T12:45:30+01:00"), running(upgradev1alpha1.PhaseNew, nil))},
			want: []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
				"Managed update to 4.16.5 scheduled for 2026-11-22T11:45:30Z, in 1h46m", "2026-11-22T11:45:30Z"}},
		},
		{
			name: "scheduled by image alone",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(desired(""), func(uc *upgradev1alpha1.UpgradeConfig) {
				uc.Spec.Desired = upgradev1alpha1.Update{Image: "quay.io/openshift-release-dev/ocp-release@sha256:0123"}
			})},
			want: []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
				"Managed update to release image quay.io/openshift-release-dev/ocp-release@sha256:0123 scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"}},
		},
		{
			// pkg/scheduler/scheduler.go is never ready, and
			// pkg/validation/validation.go refuses it.
			name:    "upgradeAt not a time",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("next tuesday"))},
			want:    []seen{{"upgrade-at-invalid", protocol.LevelError, protocol.ImpactUpdateStalled, "Managed update to 4.16.5 will not start: its upgradeAt is no time", ""}},
		},
		{
			name:    "due minutes ago, Pending",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:55:00Z"), running(upgradev1alpha1.PhasePending, nil))},
			want:    []seen{{"due", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5 is due since 2026-11-22T09:55:00Z", ""}},
		},
		{
			// The scheduler's breach is never read: a late update starts
			// late (controllers/upgradeconfig/upgradeconfig_controller.go).
			name:    "due long past the upgrade window, Pending: late, not given up",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T07:30:00Z"), running(upgradev1alpha1.PhasePending, nil))},
			want: []seen{{"due", protocol.LevelWarning, protocol.ImpactUpdateStalled,
				"Managed update to 4.16.5, due since 2026-11-22T07:30:00Z, has not started", ""}},
		},
		{
			name:    "due, a version the operator's validation cannot parse",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:30:00Z"), desired("4.16"))},
			want: []seen{{"refused", protocol.LevelError, protocol.ImpactUpdateStalled,
				"Managed update to 4.16 will not start: the Managed Upgrade Operator's validation refuses the UpgradeConfig", ""}},
		},
		{
			name: "due, neither a version nor a channel nor an image",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:30:00Z"), func(uc *upgradev1alpha1.UpgradeConfig) {
				uc.Spec.Desired = upgradev1alpha1.Update{}
			})},
			want: []seen{{"refused", protocol.LevelError, protocol.ImpactUpdateStalled,
				"Managed update to an unnamed version will not start: the Managed Upgrade Operator's validation refuses the UpgradeConfig", ""}},
		},
		{
			name:    "the operator's configuration is invalid",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig()},
			config:  func(c *Config) { c.Invalid = "config nodeDrain timeOut is invalid" },
			want: []seen{{"config-invalid", protocol.LevelError, protocol.ImpactUpdateStalled,
				"Managed update to 4.16.5 cannot proceed: the Managed Upgrade Operator's configuration is invalid", ""}, scheduledAt4},
		},
		{
			// pkg/upgraders/osdupgrader.go shouldFailUpgrade, from
			// history.startTime; pkg/upgraders/delaystep.go.
			name: "OSD started, not commenced within the window: about to be failed, and notified as delayed",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T07:30:00Z"), running(upgrading, ago(150*time.Minute),
				pending(externals, ago(149*time.Minute)), done(healthy, ago(150*time.Minute), ago(149*time.Minute))))},
			want: []seen{
				{"window-closed", protocol.LevelError, protocol.ImpactUpdateStalled,
					"Managed update to 4.16.5 is being given up: it did not commence by 2026-11-22T09:30:00Z", ""},
				{"delayed", protocol.LevelWarning, protocol.ImpactUpdateStalled, "Managed update to 4.16.5 is delayed: it has not commenced 30m after its start", ""},
				{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: ExternalDependenciesAvailable (step 5 of 17), running for 2h29m", ""},
			},
		},
		{
			name: "OSD started, not commenced, the window policy off (timeOut absent)",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T07:30:00Z"), running(upgrading, ago(150*time.Minute),
				pending(externals, ago(149*time.Minute))))},
			config: func(c *Config) { c.UpgradeWindowTimeout, c.DelayTrigger = 0, 0 },
			want: []seen{{"step", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
				"Managed update to 4.16.5: ExternalDependenciesAvailable (step 5 of 17), running for 2h29m", ""}},
		},
		{
			// pkg/upgraders/aroupgrader.go: no window, no delay step.
			name: "ARO started, not commenced: held by its steps, never failed",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgraderType(upgradev1alpha1.UpgradeTypeARO), upgradeAt("2026-11-22T07:30:00Z"),
				running(upgrading, ago(150*time.Minute), pending(externals, ago(149*time.Minute))))},
			want: []seen{{"step", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5: ExternalDependenciesAvailable (step 3 of 14), running for 2h29m", ""}},
		},
		{
			// pkg/upgraders/controlplanestep.go: past
			// maintenance.controlPlaneTime, a metric, no failure.
			name: "commenced: the window no longer applies, the control plane past its maintenance window",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T07:30:00Z"), running(upgrading, ago(150*time.Minute),
				pending(cpDone, ago(140*time.Minute)), done(commenced, ago(141*time.Minute), ago(140*time.Minute))))},
			want: []seen{
				{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: ControlPlaneUpgraded (step 9 of 17), running for 2h20m", ""},
				{"control-plane-overrun", protocol.LevelWarning, protocol.ImpactUpdateSpeed,
					"Managed update to 4.16.5: the control plane has updated longer than its maintenance window of 1h30m", ""},
			},
		},
		{
			name: "commenced, the control plane within its maintenance window",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:00:00Z"), running(upgrading, ago(time.Hour),
				pending(cpDone, ago(50*time.Minute)), done(commenced, ago(51*time.Minute), ago(50*time.Minute))))},
			want: []seen{{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: ControlPlaneUpgraded (step 9 of 17), running for 50m", ""}},
		},
		{
			name: "the health check finds critical alerts, and holds the update",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:30:00Z"), running(upgrading, ago(30*time.Minute),
				failing(healthy, ago(30*time.Minute), "critical alert(s) firing: KubePersistentVolumeErrors"),
				done(upgradev1alpha1.IsClusterUpgradable, ago(30*time.Minute), ago(30*time.Minute))))},
			want: []seen{
				{"step-failing", protocol.LevelWarning, protocol.ImpactUpdateStalled,
					"Managed update step ClusterHealthyBeforeUpgrade: critical alert(s) firing: KubePersistentVolumeErrors", ""},
				{"step", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5: ClusterHealthyBeforeUpgrade (step 4 of 17), running for 30m", ""},
			},
		},
		{
			name: "a step just started is not failing",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T09:58:00Z"), running(upgrading, ago(2*time.Minute),
				failing(started, ago(time.Minute), "StartedNotificationSent has started")))},
			want: []seen{{"step", protocol.LevelStatus, protocol.ImpactAwaitingWindow, "Managed update to 4.16.5: StartedNotificationSent (step 1 of 17), running for 1m", ""}},
		},
		{
			// The FailedUpgrade condition is never written
			// (pkg/upgraders/osdupgrader.go performUpgradeFailure): the
			// phase is all there is.
			name: "Failed",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt("2026-11-22T06:00:00Z"), running(upgradev1alpha1.PhaseFailed, ago(4*time.Hour),
				failing(healthy, ago(4*time.Hour), "critical alert(s) firing: KubePersistentVolumeErrors")))},
			want: []seen{{"failed", protocol.LevelError, protocol.ImpactUpdateStalled, "Managed update to 4.16.5 failed: it did not commence within its upgrade window", ""}},
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
			// pkg/upgraders/maintenancestep.go, workerstep.go: one worker
			// at most, its window max(30, 30) + 8 minutes from 09:12.
			name: "worker nodes updating past the longest window the operator can have opened",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating(), func(uc *upgradev1alpha1.UpgradeConfig) {
				uc.Spec.PDBForceDrainTimeout = 30
			})},
			config:  func(c *Config) { c.NodeDrainTimeout = 30 * time.Minute },
			workers: 1,
			want: []seen{
				{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: WorkerNodesUpgraded (step 12 of 17), running for 48m", ""},
				{"workers", protocol.LevelStatus, "", "Managed update to 4.16.5: worker nodes updating for 50m", ""},
				{"worker-window-overrun", protocol.LevelWarning, protocol.ImpactUpdateSpeed,
					"Managed update to 4.16.5: the worker nodes have updated past their maintenance window", ""},
			},
		},
		{
			// Two workers: 09:12 + 2 × 38 minutes is still to come.
			name: "worker nodes updating within it",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating(), func(uc *upgradev1alpha1.UpgradeConfig) {
				uc.Spec.PDBForceDrainTimeout = 30
			})},
			config:  func(c *Config) { c.NodeDrainTimeout = 30 * time.Minute },
			workers: 2,
			want: []seen{
				{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: WorkerNodesUpgraded (step 12 of 17), running for 48m", ""},
				{"workers", protocol.LevelStatus, "", "Managed update to 4.16.5: worker nodes updating for 50m", ""},
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
			// pkg/upgraders/builder.go: any type but ARO runs the OSD
			// upgrader.
			name: "an upgrader type the operator does not know runs OSD's steps",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgraderType("HCP"), upgradeAt("2026-11-22T09:30:00Z"),
				running(upgrading, ago(30*time.Minute), pending(cpDone, ago(20*time.Minute))))},
			want: []seen{{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: ControlPlaneUpgraded (step 9 of 17), running for 20m", ""}},
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{UpgradeConfigs: tc.configs, Config: shipped(t), WorkerNodes: tc.workers, Now: now}
			if tc.config != nil {
				tc.config(&in.Config)
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
	db := func(pdbPod bool) []BlockingPod {
		return []BlockingPod{{Namespace: "shop", Name: "db-0", PDBPod: pdbPod}}
	}
	drains := []NodeDrain{
		{Node: "worker-d", Started: now.Add(-2 * time.Hour), Blocking: db(true), PDBPods: true},
		{Node: "worker-b", Pool: "worker", Started: now.Add(-30 * time.Minute), Blocking: db(true), PDBPods: true},
		{Node: "worker-a", Pool: "worker", Started: now.Add(-30 * time.Minute)},
		{Node: "worker-c", Pool: "worker", Blocking: db(true)},
		{Node: "worker-e", Started: now.Add(-30 * time.Minute), Blocking: db(false)},
		{Node: "worker-f", Started: now.Add(-30 * time.Minute), Blocking: []BlockingPod{{Namespace: "openshift-logging", Name: "es-0", PDBPod: true}}, PDBPods: true},
	}
	steps := []seen{
		{"step", protocol.LevelStatus, "", "Managed update to 4.16.5: WorkerNodesUpgraded (step 12 of 17), running for 48m", ""},
		{"workers", protocol.LevelStatus, "", "Managed update to 4.16.5: worker nodes updating for 50m", ""},
	}
	for _, tc := range []struct {
		name    string
		configs []*upgradev1alpha1.UpgradeConfig
		config  func(*Config)
		want    []seen
	}{
		{
			// PDBForceDrainTimeout 60 and expectedNodeDrainTime 8 for the
			// budgets' pods, nodeDrain.timeOut 45 for others; a drain
			// failed 8 minutes after the last: 2h > 60+8+8 minutes.
			name:    "the shipped configuration, openshift-logging ignored",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating())},
			config: func(c *Config) {
				c.IgnoredNamespaces = []*regexp.Regexp{regexp.MustCompile("logging")}
			},
			want: append(slices.Clone(steps),
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactApplicationAvailability,
					"Node worker-d: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it at 2026-11-22T09:08:00Z", "2026-11-22T09:08:00Z"},
				seen{"drain-timed-out", protocol.LevelWarning, protocol.ImpactUpdateSpeed,
					"Node worker-d has drained for 2h, past the Managed Upgrade Operator's drain timeout", ""},
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactApplicationAvailability,
					"Node worker-b: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it at 2026-11-22T10:38:00Z, in 38m", "2026-11-22T10:38:00Z"},
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactApplicationAvailability,
					"Node worker-e: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it at 2026-11-22T10:15:00Z, in 15m", "2026-11-22T10:15:00Z"},
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactUpdateStalled,
					"Node worker-f: a PodDisruptionBudget blocks its drain, and the Managed Upgrade Operator does not force it: openshift-logging/es-0", ""}),
		},
		{
			name:    "drain strategies disabled",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating())},
			config:  func(c *Config) { c.DisableDrainStrategies = true },
			want: append(slices.Clone(steps),
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactUpdateStalled,
					"Node worker-d: a PodDisruptionBudget blocks its drain, which the Managed Upgrade Operator does not force", ""},
				seen{"drain-timed-out", protocol.LevelWarning, protocol.ImpactUpdateSpeed,
					"Node worker-d has drained for 2h, past the Managed Upgrade Operator's drain timeout", ""},
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactUpdateStalled,
					"Node worker-b: a PodDisruptionBudget blocks its drain, which the Managed Upgrade Operator does not force", ""},
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactUpdateStalled,
					"Node worker-e: a PodDisruptionBudget blocks its drain, which the Managed Upgrade Operator does not force", ""},
				seen{"force-drain", protocol.LevelWarning, protocol.ImpactUpdateStalled,
					"Node worker-f: a PodDisruptionBudget blocks its drain, which the Managed Upgrade Operator does not force", ""}),
		},
		{
			// The ConfigMap's minutes overflow a duration: when the
			// operator forces the drains is unknown, and said so.
			name:    "timing that overflows",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating())},
			config: func(c *Config) {
				overflowing, err := ParseConfig("maintenance: {controlPlaneTime: 90}\nscale: {timeOut: 30}\nnodeDrain: {timeOut: 45, expectedNodeDrainTime: 2147483647}\n")
				if err == nil {
					t.Fatal("no error for minutes that overflow")
				}
				*c = overflowing
			},
			want: append([]seen{{"config-overflow", protocol.LevelWarning, protocol.ImpactUnknown,
				"Managed update to 4.16.5: the Managed Upgrade Operator's timing cannot be told from its configuration", ""}},
				steps...),
		},
		{
			name:    "no update running",
			configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig()},
			want: []seen{{"awaiting-window", protocol.LevelStatus, protocol.ImpactAwaitingWindow,
				"Managed update to 4.16.5 scheduled for 2026-11-22T14:00:00Z, in 4h", "2026-11-22T14:00:00Z"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{UpgradeConfigs: tc.configs, Drains: drains, Config: shipped(t), Now: now}
			if tc.config != nil {
				tc.config(&in.Config)
			}
			got := StatusInsights(in)
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
	uc := upgradeConfig(upgradeAt("2026-11-22T09:30:00Z"), running(upgradev1alpha1.PhaseUpgrading, ago(20*time.Minute),
		pending(upgradev1alpha1.ClusterHealthyBeforeUpgrade, ago(20*time.Minute))))
	uids := func(in Input) []string {
		var out []string
		for _, i := range StatusInsights(in) {
			out = append(out, i.UID)
		}
		return out
	}
	in := Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: shipped(t), Now: now}
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
	other.Namespace = "another"
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
		uc.Namespace = strings.Repeat("n", 63)
		uc.Status.History = []upgradev1alpha1.UpgradeHistory{{Version: long, Phase: upgradev1alpha1.PhaseUpgrading, StartTime: ago(3 * time.Hour), Conditions: []upgradev1alpha1.UpgradeCondition{
			{Type: upgradev1alpha1.UpgradeConditionType(long), Status: metav1.ConditionFalse, Reason: long, Message: long},
		}}}
	})
	got := StatusInsights(Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: shipped(t), Now: now})
	if len(got) != 4 {
		t.Errorf("got %d insights, want the window closed, the delay, the failing step and the step", len(got))
	}
	valid(t, got)
}

// A Failed update says what it was on and what to do next: the operator
// does not retry it.
func TestFailedSaysWhatToDoNext(t *testing.T) {
	uc := upgradeConfig(running(upgradev1alpha1.PhaseFailed, ago(4*time.Hour),
		failing(upgradev1alpha1.ClusterHealthyBeforeUpgrade, ago(4*time.Hour), "critical alert(s) firing: KubePersistentVolumeErrors")))
	got := StatusInsights(Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: shipped(t), Now: now})
	if len(got) != 1 {
		t.Fatalf("insights %+v, want the failure alone", got)
	}
	d := got[0].Impact.Description
	for _, want := range []string{
		"It was on step ClusterHealthyBeforeUpgrade: critical alert(s) firing: KubePersistentVolumeErrors.",
		"does not retry a failed update",
		"a new UpgradeConfig",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("description %q does not say %q", d, want)
		}
	}
	if strings.Contains(d, "retries") {
		t.Errorf("description %q says the operator retries", d)
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
		got := StatusInsights(Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, Config: shipped(t), Now: now})
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

// An upgradeAt the operator parses but the API cannot store once in UTC
// (year 10000, year -1) leaves the insights valid: no estimated finish or
// acquisition time out of range, which would make the informer's whole
// answer a Failure.
func TestUpgradeAtOutOfTheAPIsRange(t *testing.T) {
	for _, at := range []string{"9999-12-31T23:00:00-01:30", "0000-01-01T00:00:00+00:01"} {
		t.Run(at, func(t *testing.T) {
			in := Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(upgradeAt(at))}, Config: shipped(t), Now: now}
			status := StatusInsights(in)
			plan := PlanInsights(in, "4.16.5")
			if len(status) == 0 || len(plan) == 0 {
				t.Fatalf("%d status and %d plan insights, want some of each", len(status), len(plan))
			}
			valid(t, status)
			valid(t, plan)
		})
	}
}
