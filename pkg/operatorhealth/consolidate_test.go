package operatorhealth

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
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
	upgradeable = cond(configv1.OperatorUpgradeable, configv1.ConditionTrue, ReasonAsExpected, "The operator does not block cluster updates.")
)

func failing(controller string, kind Kind, ago time.Duration, key string, keys int, detail string) Problem {
	return Problem{Controller: controller, Kind: kind, Since: now.Add(-ago), Key: key, Keys: keys, Detail: detail}
}

func notSynced(controller string, ago time.Duration, resources string) Problem {
	return Problem{Controller: controller, Kind: CacheNotSynced, Since: now.Add(-ago), Detail: resources}
}

func TestConsolidate(t *testing.T) {
	conflict := failing("ClusterVersion", SyncFailing, 10*time.Second, "version", 1, "the object has been modified")
	rejected := failing("Node", WriteRejected, 3*time.Minute, "node/worker-1", 3, `NodeProgressInsight.openshift.muller.dev "worker-1" is invalid`)
	rejectedMessage := `Node controller: the API server has rejected its writes since 2026-11-22T07:57:00Z ("node/worker-1" and 2 more): NodeProgressInsight.openshift.muller.dev "worker-1" is invalid`
	unreachable := failing("ClusterOperator", SyncFailing, 5*time.Minute, "etcd", 1, "dial tcp 10.0.0.1:6443: connect: connection refused")
	unreachableMessage := `ClusterOperator controller: syncing has failed since 2026-11-22T07:55:00Z ("etcd"): dial tcp 10.0.0.1:6443: connect: connection refused`

	for _, tc := range []struct {
		name        string
		problems    []Problem
		want        []configv1.ClusterOperatorStatusCondition
		wantRunning bool
		wantRecheck time.Duration
	}{{
		name:        "no problem anywhere",
		want:        []configv1.ClusterOperatorStatusCondition{available, settled, notDegraded, upgradeable},
		wantRunning: true,
	}, {
		name:        "a single conflict within the grace period is not degradation",
		problems:    []Problem{conflict},
		want:        []configv1.ClusterOperatorStatusCondition{available, settled, notDegraded, upgradeable},
		wantRunning: true,
		wantRecheck: grace - 10*time.Second,
	}, {
		name:     "a rejected write that lasts degrades the operator, and only that",
		problems: []Problem{rejected},
		want: []configv1.ClusterOperatorStatusCondition{available, settled,
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeWriteRejected", rejectedMessage), upgradeable},
		wantRunning: true,
	}, {
		name:     "a problem exactly as old as the grace period lasts",
		problems: []Problem{failing("Node", SyncFailing, grace, "pool/worker", 1, "timeout")},
		want: []configv1.ClusterOperatorStatusCondition{available, settled,
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeSyncFailing",
				`Node controller: syncing has failed since 2026-11-22T07:58:00Z ("pool/worker"): timeout`), upgradeable},
		wantRunning: true,
	}, {
		name:     "several lasting problems: the oldest gives the reason, every one is in the message",
		problems: []Problem{rejected, conflict, unreachable},
		want: []configv1.ClusterOperatorStatusCondition{available, settled,
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "ClusterOperatorSyncFailing", unreachableMessage+"\n"+rejectedMessage), upgradeable},
		wantRunning: true,
		wantRecheck: grace - 10*time.Second,
	}, {
		name:     "caches syncing at start: progressing and not upgradeable, but available",
		problems: []Problem{notSynced("Node", 5*time.Second, "machineconfigpools, nodes")},
		want: []configv1.ClusterOperatorStatusCondition{available,
			cond(configv1.OperatorProgressing, configv1.ConditionTrue, "NodeCacheNotSynced",
				"Working towards 4.99.0: Node controller: waiting since 2026-11-22T07:59:55Z for its caches to sync: machineconfigpools, nodes"),
			notDegraded,
			cond(configv1.OperatorUpgradeable, configv1.ConditionFalse, "NodeCacheNotSynced",
				"Node controller: waiting since 2026-11-22T07:59:55Z for its caches to sync: machineconfigpools, nodes")},
		wantRecheck: grace - 5*time.Second,
	}, {
		name:     "caches that never sync: the controller does nothing, so the operator is not available",
		problems: []Problem{notSynced("Node", 10*time.Minute, "nodes")},
		want: []configv1.ClusterOperatorStatusCondition{
			cond(configv1.OperatorAvailable, configv1.ConditionFalse, "NodeCacheNotSynced",
				"Node controller: waiting since 2026-11-22T07:50:00Z for its caches to sync: nodes"),
			cond(configv1.OperatorProgressing, configv1.ConditionTrue, "NodeCacheNotSynced",
				"Working towards 4.99.0: Node controller: waiting since 2026-11-22T07:50:00Z for its caches to sync: nodes"),
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "NodeCacheNotSynced",
				"Node controller: waiting since 2026-11-22T07:50:00Z for its caches to sync: nodes"),
			cond(configv1.OperatorUpgradeable, configv1.ConditionFalse, "NodeCacheNotSynced",
				"Node controller: waiting since 2026-11-22T07:50:00Z for its caches to sync: nodes")},
	}, {
		name:     "problems of the same age are ordered by controller, then kind",
		problems: []Problem{failing("Node", WriteRejected, time.Hour, "node/a", 1, "x"), failing("ClusterVersion", SyncFailing, time.Hour, "version", 1, "y"), failing("Node", SyncFailing, time.Hour, "node/b", 1, "z")},
		want: []configv1.ClusterOperatorStatusCondition{available, settled,
			cond(configv1.OperatorDegraded, configv1.ConditionTrue, "ClusterVersionSyncFailing", strings.Join([]string{
				`ClusterVersion controller: syncing has failed since 2026-11-22T07:00:00Z ("version"): y`,
				`Node controller: syncing has failed since 2026-11-22T07:00:00Z ("node/b"): z`,
				`Node controller: the API server has rejected its writes since 2026-11-22T07:00:00Z ("node/a"): x`,
			}, "\n")), upgradeable},
		wantRunning: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := Consolidate(tc.problems, version, now, grace)
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
	var problems []Problem
	for _, controller := range []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"} {
		problems = append(problems, failing(controller, WriteRejected, time.Hour, "key", 1, huge))
	}
	degraded := Consolidate(problems, version, now, grace).Conditions[2]
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
