package recordedtime

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
)

func at(s string) metav1.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return metav1.NewTime(t)
}

// recorded is a cluster as the recordings hold one: an update started at
// 15:28:04 whose latest operator transition is at 16:28:49, a pool and a
// node of the same recording, and a node of one made months later.
func recorded() *analyze.Cluster {
	completed := at("2023-11-03T14:00:00Z")
	return &analyze.Cluster{
		ClusterVersions: []*configv1.ClusterVersion{{Status: configv1.ClusterVersionStatus{
			Conditions: []configv1.ClusterOperatorStatusCondition{{Type: configv1.OperatorProgressing, LastTransitionTime: at("2023-11-03T15:28:04Z")}},
			History: []configv1.UpdateHistory{
				{StartedTime: at("2023-11-03T15:28:04Z")},
				{StartedTime: at("2023-11-03T13:00:00Z"), CompletionTime: &completed},
			},
		}}},
		ClusterOperators: []*configv1.ClusterOperator{{Status: configv1.ClusterOperatorStatus{
			Conditions: []configv1.ClusterOperatorStatusCondition{{Type: configv1.OperatorDegraded, LastTransitionTime: at("2023-11-03T16:28:49Z")}},
		}}},
		MachineConfigPools: []*machineconfigurationv1.MachineConfigPool{{Status: machineconfigurationv1.MachineConfigPoolStatus{
			Conditions: []machineconfigurationv1.MachineConfigPoolCondition{{Type: "Updating", LastTransitionTime: at("2023-11-03T16:00:00Z")}, {Type: "Degraded"}},
		}}},
		Nodes: []*corev1.Node{
			{Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, LastTransitionTime: at("2023-11-03T16:20:00Z"), LastHeartbeatTime: at("2023-11-03T16:28:40Z")}}}},
			{Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, LastTransitionTime: at("2024-02-07T16:32:50Z"), LastHeartbeatTime: at("2024-02-07T16:32:50Z")}}}},
		},
	}
}

type times struct {
	ClusterVersion, Started, PreviousStarted, PreviousCompleted, Operator, Pool, PoolWithout string
	Node, NodeHeartbeat, LaterNode, LaterNodeHeartbeat                                       string
}

func timesOf(c *analyze.Cluster) times {
	s := func(t metav1.Time) string {
		if t.IsZero() {
			return "zero"
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	cv := c.ClusterVersions[0].Status
	pool := c.MachineConfigPools[0].Status.Conditions
	nodes := c.Nodes
	return times{
		ClusterVersion: s(cv.Conditions[0].LastTransitionTime), Started: s(cv.History[0].StartedTime),
		PreviousStarted: s(cv.History[1].StartedTime), PreviousCompleted: s(*cv.History[1].CompletionTime),
		Operator: s(c.ClusterOperators[0].Status.Conditions[0].LastTransitionTime),
		Pool:     s(pool[0].LastTransitionTime), PoolWithout: s(pool[1].LastTransitionTime),
		Node: s(nodes[0].Status.Conditions[0].LastTransitionTime), NodeHeartbeat: s(nodes[0].Status.Conditions[0].LastHeartbeatTime),
		LaterNode: s(nodes[1].Status.Conditions[0].LastTransitionTime), LaterNodeHeartbeat: s(nodes[1].Status.Conditions[0].LastHeartbeatTime),
	}
}

func TestMove(t *testing.T) {
	for _, tc := range []struct {
		name      string
		last      string
		wantDelta time.Duration
		want      times
	}{{
		name: "to a moment after the recording: its latest operator transition is then, every duration as recorded",
		last: "2026-12-02T04:00:00.750Z",
		// Truncated to the second: the recording's durations stay whole.
		wantDelta: at("2026-12-02T04:00:00Z").Sub(at("2023-11-03T16:28:49Z").Time),
		want: times{
			ClusterVersion: "2026-12-02T02:59:15Z", Started: "2026-12-02T02:59:15Z",
			PreviousStarted: "2026-12-02T00:31:11Z", PreviousCompleted: "2026-12-02T01:31:11Z",
			Operator: "2026-12-02T04:00:00Z", Pool: "2026-12-02T03:31:11Z", PoolWithout: "zero",
			Node: "2026-12-02T03:51:11Z", NodeHeartbeat: "2026-12-02T03:59:51Z",
			// Months after the update's last moment: at last, not ahead.
			LaterNode: "2026-12-02T04:00:00.75Z", LaterNodeHeartbeat: "2026-12-02T04:00:00.75Z",
		},
	}, {
		name:      "to its own last moment: nothing moves but what came after it",
		last:      "2023-11-03T16:28:49Z",
		wantDelta: 0,
		want: times{
			ClusterVersion: "2023-11-03T15:28:04Z", Started: "2023-11-03T15:28:04Z",
			PreviousStarted: "2023-11-03T13:00:00Z", PreviousCompleted: "2023-11-03T14:00:00Z",
			Operator: "2023-11-03T16:28:49Z", Pool: "2023-11-03T16:00:00Z", PoolWithout: "zero",
			Node: "2023-11-03T16:20:00Z", NodeHeartbeat: "2023-11-03T16:28:40Z",
			LaterNode: "2023-11-03T16:28:49Z", LaterNodeHeartbeat: "2023-11-03T16:28:49Z",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			last, err := time.Parse(time.RFC3339Nano, tc.last)
			if err != nil {
				t.Fatal(err)
			}
			c := recorded()
			if got := Move(c, last); got != tc.wantDelta {
				t.Errorf("moved by %v, want %v", got, tc.wantDelta)
			}
			if diff := cmp.Diff(tc.want, timesOf(c)); diff != "" {
				t.Errorf("times after the move (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMoveWithoutTimesMovesNothing(t *testing.T) {
	c := &analyze.Cluster{Nodes: []*corev1.Node{{Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady}}}}}}
	if got := Move(c, time.Now()); got != 0 {
		t.Errorf("moved by %v, want 0", got)
	}
	if got := c.Nodes[0].Status.Conditions[0].LastTransitionTime; !got.IsZero() {
		t.Errorf("a node's zero time became %v", got)
	}
}
