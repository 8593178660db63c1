package operatorstatus

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

var (
	now   = time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	grace = 2 * time.Minute
)

const version = "4.99.0"

// cond is a condition as Consolidate returns it.
func cond(t configv1.ClusterStatusConditionType, s configv1.ConditionStatus, reason, message string) configv1.ClusterOperatorStatusCondition {
	return configv1.ClusterOperatorStatusCondition{Type: t, Status: s, Reason: reason, Message: message}
}

var (
	available   = cond(configv1.OperatorAvailable, configv1.ConditionTrue, ReasonAsExpected, "Every controller is working.")
	settled     = cond(configv1.OperatorProgressing, configv1.ConditionFalse, ReasonAsExpected, "Running 4.99.0.")
	notDegraded = cond(configv1.OperatorDegraded, configv1.ConditionFalse, ReasonAsExpected, "No controller has a lasting problem.")
	upgradeable = cond(configv1.OperatorUpgradeable, configv1.ConditionTrue, ReasonAsExpected, "Nothing this operator reports blocks a cluster update.")
)

// at runs Consolidate at now for an operator whose ClusterOperator already
// reports the version it runs.
func at(problems ...tracker.Problem) Consolidated {
	return Consolidate(Input{Problems: problems, Version: version, Reported: version, Now: now, Grace: grace})
}

func failing(controller string, kind tracker.Kind, ago time.Duration, key string, keys int, detail string) tracker.Problem {
	return tracker.Problem{Controller: controller, Kind: kind, Since: now.Add(-ago), Key: key, Keys: keys, Detail: detail}
}

func notSynced(controller string, ago time.Duration, resources string) tracker.Problem {
	return tracker.Problem{Controller: controller, Kind: tracker.CacheNotSynced, Since: now.Add(-ago), Detail: resources}
}

func TestConsolidate(t *testing.T) {
	conflict := failing("ClusterVersion", tracker.SyncFailing, 10*time.Second, "version", 1, "the object has been modified")
	rejected := failing("Node", tracker.WriteRejected, 3*time.Minute, "node/worker-1", 3, `NodeProgressInsight.openshift.muller.dev "worker-1" is invalid`)
	rejectedMessage := `Node controller: the API server has rejected its writes since 2026-11-22T07:57:00Z ("node/worker-1" and 2 more): NodeProgressInsight.openshift.muller.dev "worker-1" is invalid`
	unreachable := failing("ClusterOperator", tracker.SyncFailing, 5*time.Minute, "etcd", 1, "dial tcp 10.0.0.1:6443: connect: connection refused")
	unreachableMessage := `ClusterOperator controller: syncing has failed since 2026-11-22T07:55:00Z ("etcd"): dial tcp 10.0.0.1:6443: connect: connection refused`

	for _, tc := range []struct {
		name        string
		problems    []tracker.Problem
		want        []configv1.ClusterOperatorStatusCondition
		wantRunning bool
		wantRecheck time.Duration
	}{{
		name:        "no problem anywhere",
		want:        []configv1.ClusterOperatorStatusCondition{available, settled, notDegraded, upgradeable},
		wantRunning: true,
	}, {
		name:        "a single conflict within the grace period is not degradation",
		problems:    []tracker.Problem{conflict},
		want:        []configv1.ClusterOperatorStatusCondition{available, settled, notDegraded, upgradeable},
		wantRunning: true,
		wantRecheck: grace - 10*time.Second,
	}, {
		name:     "a rejected write that lasts degrades the operator, and only that",
		problems: []tracker.Problem{rejected},
		want: []configv1.ClusterOperatorStatusCondition{available, settled,
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeWriteRejected", rejectedMessage), upgradeable},
		wantRunning: true,
	}, {
		name:     "a problem exactly as old as the grace period lasts",
		problems: []tracker.Problem{failing("Node", tracker.SyncFailing, grace, "pool/worker", 1, "timeout")},
		want: []configv1.ClusterOperatorStatusCondition{available, settled,
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeSyncFailing",
				`Node controller: syncing has failed since 2026-11-22T07:58:00Z ("pool/worker"): timeout`), upgradeable},
		wantRunning: true,
	}, {
		name:     "several lasting problems: the oldest gives the reason, every one is in the message",
		problems: []tracker.Problem{rejected, conflict, unreachable},
		want: []configv1.ClusterOperatorStatusCondition{available, settled,
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "ClusterOperatorSyncFailing", unreachableMessage+"\n"+rejectedMessage), upgradeable},
		wantRunning: true,
		wantRecheck: grace - 10*time.Second,
	}, {
		name:        "caches syncing at a restart: nothing to report, but not running yet",
		problems:    []tracker.Problem{notSynced("Node", 5*time.Second, "machineconfigpools, nodes")},
		want:        []configv1.ClusterOperatorStatusCondition{available, settled, notDegraded, upgradeable},
		wantRecheck: grace - 5*time.Second,
	}, {
		name:     "caches that never sync: the controller does nothing, so the operator is not available",
		problems: []tracker.Problem{notSynced("Node", 10*time.Minute, "nodes")},
		want: []configv1.ClusterOperatorStatusCondition{
			cond(configv1.OperatorAvailable, configv1.ConditionFalse, "NodeCacheNotSynced",
				"Node controller: waiting since 2026-11-22T07:50:00Z for its caches to sync: nodes"),
			settled,
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeCacheNotSynced",
				"Node controller: waiting since 2026-11-22T07:50:00Z for its caches to sync: nodes"),
			upgradeable},
	}, {
		name:     "problems of the same age are ordered by controller, then kind",
		problems: []tracker.Problem{failing("Node", tracker.WriteRejected, time.Hour, "node/a", 1, "x"), failing("ClusterVersion", tracker.SyncFailing, time.Hour, "version", 1, "y"), failing("Node", tracker.SyncFailing, time.Hour, "node/b", 1, "z")},
		want: []configv1.ClusterOperatorStatusCondition{available, settled,
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "ClusterVersionSyncFailing", strings.Join([]string{
				`ClusterVersion controller: syncing has failed since 2026-11-22T07:00:00Z ("version"): y`,
				`Node controller: syncing has failed since 2026-11-22T07:00:00Z ("node/b"): z`,
				`Node controller: the API server has rejected its writes since 2026-11-22T07:00:00Z ("node/a"): x`,
			}, "\n")), upgradeable},
		wantRunning: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := at(tc.problems...)
			if diff := cmp.Diff(tc.want, got.Conditions); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
			if got.Running != tc.wantRunning {
				t.Errorf("running = %t, want %t", got.Running, tc.wantRunning)
			}
			if got.Recheck != tc.wantRecheck {
				t.Errorf("recheck = %s, want %s", got.Recheck, tc.wantRecheck)
			}
		})
	}
}

// An error text of any size and shape still gives messages a condition can
// carry: one line per problem, bounded.
func TestConsolidateBoundsMessages(t *testing.T) {
	huge := strings.Repeat("rejected because\nof ", 1000)
	var problems []tracker.Problem
	for _, controller := range []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"} {
		problems = append(problems, failing(controller, tracker.WriteRejected, time.Hour, "key", 1, huge))
	}
	degraded := at(problems...).Conditions[2]
	if degraded.Status != configv1.ConditionTrue {
		t.Fatalf("Degraded = %s, want True", degraded.Status)
	}
	if len(degraded.Message) > maxMessageLength {
		t.Errorf("message is %d bytes, want at most %d", len(degraded.Message), maxMessageLength)
	}
	lines := strings.Split(degraded.Message, "\n")
	if len(lines) != 8 {
		t.Errorf("message has %d lines, want the 8 problems that fit in %d bytes", len(lines), maxMessageLength)
	}
	for i, line := range lines {
		if len(line) > maxDetailLength {
			t.Errorf("line %d is %d bytes, want at most %d", i, len(line), maxDetailLength)
		}
	}
}

// Progressing is True only while the operator moves to the version it runs:
// installed afresh or updated, until every controller has started.
func TestConsolidateProgressesOnlyToANewVersion(t *testing.T) {
	starting := notSynced("Node", 5*time.Second, "nodes")
	startingMessage := "Node controller: waiting since 2026-11-22T07:59:55Z for its caches to sync: nodes"
	for _, tc := range []struct {
		name     string
		reported string
		problems []tracker.Problem
		want     configv1.ClusterOperatorStatusCondition
	}{{
		name:     "installing",
		reported: "",
		problems: []tracker.Problem{starting},
		want:     cond(configv1.OperatorProgressing, configv1.ConditionTrue, ReasonInstalling, "Installing 4.99.0: "+startingMessage),
	}, {
		name:     "updating",
		reported: "4.98.2",
		problems: []tracker.Problem{starting},
		want:     cond(configv1.OperatorProgressing, configv1.ConditionTrue, ReasonUpdating, "Moving from 4.98.2 to 4.99.0: "+startingMessage),
	}, {
		name:     "restarting at the version it reports",
		reported: version,
		problems: []tracker.Problem{starting},
		want:     settled,
	}, {
		name:     "updated: every controller runs, so the new version is reported next",
		reported: "4.98.2",
		want:     settled,
	}, {
		name:     "a failing sync is no progress",
		reported: "4.98.2",
		problems: []tracker.Problem{failing("Node", tracker.SyncFailing, time.Hour, "node/a", 1, "x")},
		want:     settled,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := Consolidate(Input{Problems: tc.problems, Version: version, Reported: tc.reported, Now: now, Grace: grace})
			if diff := cmp.Diff(tc.want, got.Conditions[1]); diff != "" {
				t.Errorf("Progressing (-want +got):\n%s", diff)
			}
			if upgradeable := got.Conditions[3]; upgradeable.Status != configv1.ConditionTrue {
				t.Errorf("Upgradeable = %s while %s, want True", upgradeable.Status, tc.name)
			}
		})
	}
}

// A controller switched off for an input the cluster does not serve leaves
// the operator available and says why.
func TestConsolidateSaysWhichControllersAreOff(t *testing.T) {
	got := Consolidate(Input{
		Off: []tracker.Off{
			{Controller: "Node", Why: "the cluster does not serve machineconfigpools.machineconfiguration.openshift.io/v1"},
			{Controller: "Alerts", Why: "no alerts URL is set"},
		},
		Version: version, Reported: version, Now: now, Grace: grace,
	})
	wantAvailable := cond(configv1.OperatorAvailable, configv1.ConditionTrue, ReasonAsExpected, strings.Join([]string{
		"Every controller is working, but for those the cluster has nothing for:",
		"Alerts controller: off, no alerts URL is set",
		"Node controller: off, the cluster does not serve machineconfigpools.machineconfiguration.openshift.io/v1",
	}, "\n"))
	if diff := cmp.Diff([]configv1.ClusterOperatorStatusCondition{wantAvailable, settled, notDegraded, upgradeable}, got.Conditions); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	if !got.Running {
		t.Errorf("not running: a controller that is off is not one that has yet to start")
	}
}

// A source outside the API server that cannot be read is said in
// Available's message once it has lasted the grace period, and neither
// degrades the operator nor gives its controller a condition: nothing in the
// operator is broken, and a Degraded operator would hold up the update.
func TestConsolidateSaysWhichSourcesAreUnreachable(t *testing.T) {
	lasting := failing("Alerts", tracker.SourceUnreachable, grace, "alerts", 1, "dial tcp 127.0.0.1:9091: connect: connection refused")
	fresh := failing("Alerts", tracker.SourceUnreachable, grace-time.Second, "alerts", 1, "timeout")

	got := at(lasting)
	wantAvailable := cond(configv1.OperatorAvailable, configv1.ConditionTrue, "AlertsSourceUnreachable", strings.Join([]string{
		"Every controller is working, but for those that cannot read their source:",
		`Alerts controller: its source has been unreachable since 2026-11-22T07:58:00Z ("alerts"): dial tcp 127.0.0.1:9091: connect: connection refused`,
	}, "\n"))
	if diff := cmp.Diff([]configv1.ClusterOperatorStatusCondition{wantAvailable, settled, notDegraded, upgradeable}, got.Conditions); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	if len(got.ControllerConditions) != 0 {
		t.Errorf("controller conditions %v, want none", got.ControllerConditions)
	}

	got = at(fresh)
	if diff := cmp.Diff([]configv1.ClusterOperatorStatusCondition{available, settled, notDegraded, upgradeable}, got.Conditions); diff != "" {
		t.Errorf("within the grace period, conditions (-want +got):\n%s", diff)
	}
	if got.Recheck != time.Second {
		t.Errorf("recheck in %s, want 1s, when the problem outlasts the grace period", got.Recheck)
	}
}

// Each controller whose syncs fail has a condition of its own, dated by its
// oldest failure in whole seconds, whatever the grace period; caches that are
// still syncing give none.
func TestConsolidateControllerConditions(t *testing.T) {
	oldest := failing("Node", tracker.WriteRejected, 90*time.Second+300*time.Millisecond, "node/a", 2, "invalid")
	newer := failing("Node", tracker.SyncFailing, 10*time.Second, "pool/worker", 1, "timeout")
	cv := failing("ClusterVersion", tracker.SyncFailing, time.Hour, "version", 1, "refused")
	got := at(newer, notSynced("ClusterOperator", time.Second, "deployments"), oldest, cv).ControllerConditions
	want := []configv1.ClusterOperatorStatusCondition{{
		Type: "ClusterVersionControllerDegraded", Status: configv1.ConditionTrue, Reason: "ClusterVersionSyncFailing",
		Message:            `ClusterVersion controller: syncing has failed since 2026-11-22T07:00:00Z ("version"): refused`,
		LastTransitionTime: metav1.NewTime(now.Add(-time.Hour)),
	}, {
		Type: "NodeControllerDegraded", Status: configv1.ConditionTrue, Reason: "NodeWriteRejected",
		Message: `Node controller: the API server has rejected its writes since 2026-11-22T07:58:29Z ("node/a" and 1 more): invalid` + "\n" +
			`Node controller: syncing has failed since 2026-11-22T07:59:50Z ("pool/worker"): timeout`,
		LastTransitionTime: metav1.NewTime(now.Add(-91 * time.Second)),
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("controller conditions (-want +got):\n%s", diff)
	}
}

// What a restarted operator reads back from its controller conditions is the
// failures they reported, from when they began.
func TestInherited(t *testing.T) {
	written := at(
		failing("Node", tracker.WriteRejected, 3*time.Minute, "node/a", 2, "invalid"),
		failing("ClusterVersion", tracker.SyncFailing, time.Hour, "version", 1, "refused"),
	).ControllerConditions
	conditions := append(written,
		cond(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeWriteRejected", ""),
		configv1.ClusterOperatorStatusCondition{Type: "ClusterOperatorControllerDegraded", Status: configv1.ConditionFalse, Reason: ReasonAsExpected},
		configv1.ClusterOperatorStatusCondition{Type: "AlertsControllerDegraded", Status: configv1.ConditionTrue, Reason: "SomethingElse"},
	)
	want := []tracker.Problem{
		{Controller: "ClusterVersion", Kind: tracker.SyncFailing, Since: now.Add(-time.Hour)},
		{Controller: "Node", Kind: tracker.WriteRejected, Since: now.Add(-3 * time.Minute)},
	}
	if diff := cmp.Diff(want, Inherited(conditions)); diff != "" {
		t.Errorf("inherited problems (-want +got):\n%s", diff)
	}
	if got, want := want[1].Message(), "Node controller: the API server has rejected its writes since 2026-11-22T07:57:00Z, before the operator restarted"; got != want {
		t.Errorf("message of an inherited problem %q, want %q", got, want)
	}
}

// On a hosted control plane Available's message says first which mode the
// operator is in, then what else it follows (a management cluster's hosted
// clusters), and then what it says on any cluster.
func TestConsolidateSaysTheHostedMode(t *testing.T) {
	const management = "Following the hosted clusters of this management cluster."
	for _, tc := range []struct {
		name     string
		topology hosted.Topology
		modes    []string
		off      []tracker.Off
		want     []string
	}{
		{name: "standalone, a management cluster", topology: hosted.Standalone, modes: []string{management},
			want: []string{management, "Every controller is working."}},
		{name: "standalone", topology: hosted.Standalone, want: []string{"Every controller is working."}},
		{name: "hosted", topology: hosted.Hosted, want: []string{HostedMode, "Every controller is working."}},
		{name: "hosted, a controller off", topology: hosted.Hosted,
			off: []tracker.Off{{Controller: "Alerts", Why: "no alerts URL is set"}},
			want: []string{HostedMode, "Every controller is working, but for those the cluster has nothing for:",
				"Alerts controller: off, no alerts URL is set"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Consolidate(Input{Off: tc.off, Modes: tc.modes, Topology: tc.topology, Version: version, Reported: version, Now: now, Grace: grace})
			want := cond(configv1.OperatorAvailable, configv1.ConditionTrue, ReasonAsExpected, strings.Join(tc.want, "\n"))
			if diff := cmp.Diff(want, got.Conditions[0]); diff != "" {
				t.Errorf("Available (-want +got):\n%s", diff)
			}
		})
	}
}
