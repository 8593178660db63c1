package updaterecord

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// node is a worker's Node insight whose Updating condition has that status
// and reason since the time given, as pkg/assessment/nodes writes it: the
// condition's time is when its status last turned, not its reason.
func node(name string, status metav1.ConditionStatus, reason string, since time.Time) insightsv1alpha1.NodeProgressInsightStatus {
	return insightsv1alpha1.NodeProgressInsightStatus{
		Name: name, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
		PoolResource: insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
		Conditions:   []metav1.Condition{{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: status, Reason: reason, LastTransitionTime: at(since)}},
	}
}

func nodeIn(name, phase string, since time.Time) insightsv1alpha1.NodeProgressInsightStatus {
	return node(name, metav1.ConditionTrue, phase, since)
}

func nodeDone(name string, since time.Time) insightsv1alpha1.NodeProgressInsightStatus {
	return node(name, metav1.ConditionFalse, insightsv1alpha1.NodeCompleted, since)
}

func nodePending(name string) insightsv1alpha1.NodeProgressInsightStatus {
	return node(name, metav1.ConditionFalse, insightsv1alpha1.NodePending, started.Add(-time.Hour))
}

func d(m time.Duration) *metav1.Duration { return &metav1.Duration{Duration: m} }

// play feeds Next one sight after another, each at its time, and returns
// the last record.
func play(cv func(time.Time) *insightsv1alpha1.ClusterVersionProgressInsightStatus, sights []sight) insightsv1alpha1.UpdateRecordStatus {
	var previous *insightsv1alpha1.UpdateRecordStatus
	var out insightsv1alpha1.UpdateRecordStatus
	for _, s := range sights {
		out = Next(Input{ClusterVersion: cv(s.at), Nodes: s.nodes, Pools: s.pools, Previous: previous, Now: s.at})
		previous = out.DeepCopy()
	}
	return out
}

type sight struct {
	at    time.Time
	nodes []insightsv1alpha1.NodeProgressInsightStatus
	pools []insightsv1alpha1.MachineConfigPoolProgressInsightStatus
}

func TestPoolsTimeEachNodeAndPhase(t *testing.T) {
	cpDone := started.Add(20 * time.Minute)
	cv := func(at time.Time) *insightsv1alpha1.ClusterVersionProgressInsightStatus {
		if at.Before(cpDone) {
			return updating()
		}
		return completed(cpDone)
	}
	t0 := started.Add(25 * time.Minute)
	min := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	sights := []sight{
		{at: started.Add(time.Minute), nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodePending("a"), nodePending("b"), nodePending("c")}},
		{at: min(0), nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodeIn("a", "Draining", min(0)), nodePending("b"), nodePending("c")}},
		{at: min(5), nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodeIn("a", "Updating", min(0)), nodePending("b"), nodePending("c")}},
		{at: min(8), nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodeIn("a", "Rebooting", min(0)), nodePending("b"), nodePending("c")}},
		// b drained while nobody looked: first seen Updating, its drain
		// not timed, its start as the condition dates it.
		{at: min(12), nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodeDone("a", min(12)), nodeIn("b", "Updating", min(10)), nodePending("c")}},
		// c updated between two sights: counted, not timed.
		{at: min(30), nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodeDone("a", min(12)), nodeDone("b", min(29)), nodeDone("c", min(29))}},
	}
	got := play(cv, sights)

	want := []insightsv1alpha1.PoolUpdateRecord{{
		Name: "worker", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Nodes: 3, Updated: 3,
		StartedAt: atp(min(0)), CompletedAt: atp(min(29)),
		Phases: []insightsv1alpha1.PhaseRecord{
			{Phase: "Draining", StartedAt: at(min(0)), EndedAt: atp(min(5))},
			{Phase: "Updating", StartedAt: at(min(5)), EndedAt: atp(min(30))},
			{Phase: "Rebooting", StartedAt: at(min(8)), EndedAt: atp(min(12))},
		},
		NodeTimes: insightsv1alpha1.NodeTimes{Timed: 2, Median: d(12 * time.Minute), P90: d(19 * time.Minute),
			Minutes: []insightsv1alpha1.MinuteCount{{Minutes: 12, Nodes: 1}, {Minutes: 19, Nodes: 1}}},
		SlowestNodes: []insightsv1alpha1.NodeUpdateRecord{
			{Name: "b", StartedAt: at(min(10)), CompletedAt: atp(min(29)), Updating: d(17 * time.Minute)},
			{Name: "a", StartedAt: at(min(0)), CompletedAt: atp(min(12)), Draining: d(5 * time.Minute), Updating: d(3 * time.Minute), Rebooting: d(4 * time.Minute)},
		},
	}}
	if diff := cmp.Diff(want, got.Pools); diff != "" {
		t.Errorf("pools (-want +got):\n%s", diff)
	}
	if got.State != insightsv1alpha1.UpdateRecordCompleted || !got.CompletedAt.Equal(atp(min(29))) {
		t.Errorf("state %s completed at %v, want Completed at %v: the workers finished last", got.State, got.CompletedAt, min(29))
	}
	wantDurations := insightsv1alpha1.UpdateRecordDurations{ControlPlane: d(20 * time.Minute), Workers: d(54 * time.Minute), Total: d(54 * time.Minute)}
	if diff := cmp.Diff(wantDurations, got.Durations); diff != "" {
		t.Errorf("durations (-want +got):\n%s", diff)
	}
}

func TestAnUpdateCompletesWithItsPools(t *testing.T) {
	cpDone := started.Add(20 * time.Minute)
	excluded := []insightsv1alpha1.MachineConfigPoolProgressInsightStatus{{Name: "worker", Assessment: insightsv1alpha1.PoolExcluded}}
	tests := []struct {
		name  string
		nodes []insightsv1alpha1.NodeProgressInsightStatus
		pools []insightsv1alpha1.MachineConfigPoolProgressInsightStatus
		want  insightsv1alpha1.UpdateRecordState
	}{
		{name: "a worker still to update holds it", nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodePending("a")}, want: insightsv1alpha1.UpdateRecordProgressing},
		{name: "a paused pool does not", nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodePending("a")}, pools: excluded, want: insightsv1alpha1.UpdateRecordCompleted},
		{name: "without nodes the control plane is the update", want: insightsv1alpha1.UpdateRecordCompleted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Next(Input{ClusterVersion: completed(cpDone), Nodes: tt.nodes, Pools: tt.pools, Now: now})
			if got.State != tt.want {
				t.Errorf("state %s, want %s", got.State, tt.want)
			}
			if !got.ControlPlaneCompletedAt.Equal(atp(cpDone)) {
				t.Errorf("control plane completed at %v, want %v whatever the pools", got.ControlPlaneCompletedAt, cpDone)
			}
		})
	}
}

func TestAFollowedNodeSurvivesARestart(t *testing.T) {
	t0 := started.Add(25 * time.Minute)
	first := Next(Input{ClusterVersion: updating(), Nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodeIn("a", "Draining", t0)}, Now: t0})
	// A new process, 3 minutes on: within a heartbeat, so nothing was
	// missed, and the node's start is the one first written.
	got := Next(Input{ClusterVersion: updating(), Nodes: []insightsv1alpha1.NodeProgressInsightStatus{nodeDone("a", t0.Add(3*time.Minute))},
		Previous: &first, Resumed: true, Now: t0.Add(3 * time.Minute)})
	want := insightsv1alpha1.NodeTimes{Timed: 1, Median: d(3 * time.Minute), P90: d(3 * time.Minute), Minutes: []insightsv1alpha1.MinuteCount{{Minutes: 3, Nodes: 1}}}
	if diff := cmp.Diff(want, got.Pools[0].NodeTimes); diff != "" {
		t.Errorf("node times (-want +got):\n%s", diff)
	}
	if len(got.Pools[0].Updating) != 0 {
		t.Errorf("a finished node is still followed: %v", got.Pools[0].Updating)
	}
}

func TestNodeTimesStayBoundedAndExact(t *testing.T) {
	tests := []struct {
		name        string
		minutes     []int
		median, p90 time.Duration
		buckets     int
	}{
		{name: "one node", minutes: []int{7}, median: 7 * time.Minute, p90: 7 * time.Minute, buckets: 1},
		{name: "ten nodes, one slow", minutes: []int{5, 5, 6, 6, 6, 7, 7, 8, 9, 40}, median: 6 * time.Minute, p90: 9 * time.Minute, buckets: 6},
		{name: "a day or more counts as a day", minutes: []int{3000}, median: 24 * time.Hour, p90: 24 * time.Hour, buckets: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var nt insightsv1alpha1.NodeTimes
			for _, m := range tt.minutes {
				nt = AddNodeTime(nt, time.Duration(m)*time.Minute+30*time.Second)
			}
			got := []any{nt.Median.Duration, nt.P90.Duration, len(nt.Minutes), nt.Timed}
			if diff := cmp.Diff([]any{tt.median, tt.p90, tt.buckets, int32(len(tt.minutes))}, got); diff != "" {
				t.Errorf("median, p90, buckets, timed (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("past the bound the closest merge", func(t *testing.T) {
		var nt insightsv1alpha1.NodeTimes
		for m := 0; m < 5000; m++ {
			nt = AddNodeTime(nt, time.Duration(m%600)*time.Minute)
		}
		if len(nt.Minutes) > insightsv1alpha1.UpdateRecordMaxNodeTimeBuckets {
			t.Fatalf("%d buckets, over the bound %d", len(nt.Minutes), insightsv1alpha1.UpdateRecordMaxNodeTimeBuckets)
		}
		var counted int32
		for _, c := range nt.Minutes {
			counted += c.Nodes
		}
		if counted != 5000 || nt.Timed != 5000 {
			t.Errorf("counted %d nodes and timed %d, want 5000: merging loses none", counted, nt.Timed)
		}
		// Uniform over 0..599 minutes: the true median is 299m, and
		// merging moves it by at most the widest gap it made.
		if got := nt.Median.Duration; got < 280*time.Minute || got > 320*time.Minute {
			t.Errorf("median %s, want within 20m of 5h", got)
		}
	})
}

func TestTooManyNodesAtOnceAreCountedNotFollowed(t *testing.T) {
	t0 := started.Add(25 * time.Minute)
	var nodes []insightsv1alpha1.NodeProgressInsightStatus
	for i := 0; i < insightsv1alpha1.UpdateRecordMaxUpdatingNodes+3; i++ {
		nodes = append(nodes, nodeIn(fmt.Sprintf("n%03d", i), "Draining", t0))
	}
	got := Next(Input{ClusterVersion: updating(), Nodes: nodes, Now: t0})
	p := got.Pools[0]
	if len(p.Updating) != insightsv1alpha1.UpdateRecordMaxUpdatingNodes || p.UpdatingOmitted != 3 {
		t.Errorf("followed %d and omitted %d, want %d and 3", len(p.Updating), p.UpdatingOmitted, insightsv1alpha1.UpdateRecordMaxUpdatingNodes)
	}
}

func TestEveryNodeFollowedAtOnceIsTimed(t *testing.T) {
	t0 := started.Add(25 * time.Minute)
	var draining, rebooting, done []insightsv1alpha1.NodeProgressInsightStatus
	for i := 0; i < 20; i++ {
		name := fmt.Sprintf("worker-%02d", i)
		draining = append(draining, nodeIn(name, "Draining", t0))
		rebooting = append(rebooting, nodeIn(name, "Rebooting", t0))
		done = append(done, nodeDone(name, t0.Add(time.Duration(10+i)*time.Minute)))
	}
	first := Next(Input{ClusterVersion: updating(), Nodes: draining, Now: t0})
	second := Next(Input{ClusterVersion: updating(), Nodes: rebooting, Previous: &first, Now: t0.Add(5 * time.Minute)})
	got := Next(Input{ClusterVersion: updating(), Nodes: done, Previous: &second, Now: t0.Add(30 * time.Minute)})
	p := got.Pools[0]
	if p.NodeTimes.Timed != 20 || p.NodeTimes.Median.Duration != 19*time.Minute || len(p.Updating) != 0 {
		t.Errorf("timed %d with median %s, %d still followed; want 20 timed, 19m, none", p.NodeTimes.Timed, p.NodeTimes.Median.Duration, len(p.Updating))
	}
}

func TestAPoolWhoseNodesWentHoldsNothing(t *testing.T) {
	t0 := started.Add(25 * time.Minute)
	// The insights of nodes since deleted, read before the node controller
	// deleted them; one pool never began, the other had a node timed.
	stale := []insightsv1alpha1.NodeProgressInsightStatus{nodePending("gone-a"), nodeIn("gone-b", "Draining", t0)}
	stale[1].PoolResource.Name = "infra"
	first := Next(Input{ClusterVersion: updating(), Nodes: stale, Now: t0})
	second := Next(Input{ClusterVersion: updating(), Nodes: []insightsv1alpha1.NodeProgressInsightStatus{func() insightsv1alpha1.NodeProgressInsightStatus {
		n := nodeDone("gone-b", t0.Add(10*time.Minute))
		n.PoolResource.Name = "infra"
		return n
	}()}, Previous: &first, Now: t0.Add(10 * time.Minute)})
	got := Next(Input{ClusterVersion: completed(t0.Add(20 * time.Minute)), Previous: &second, Now: t0.Add(30 * time.Minute)})
	if len(got.Pools) != 1 || got.Pools[0].Name != "infra" || got.Pools[0].Nodes != 0 || got.Pools[0].NodeTimes.Timed != 1 {
		t.Fatalf("pools %+v, want only infra, its timed node kept and no node counted", got.Pools)
	}
	if got.State != insightsv1alpha1.UpdateRecordCompleted {
		t.Errorf("state %s, want Completed: no node is left to update", got.State)
	}
}
