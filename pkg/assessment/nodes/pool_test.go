package nodes

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestPoolsOf(t *testing.T) {
	role := func(roles ...string) map[string]string {
		l := map[string]string{"kubernetes.io/os": "linux"}
		for _, r := range roles {
			l["node-role.kubernetes.io/"+r] = ""
		}
		return l
	}
	broken := testPool("broken", false)
	broken.Spec.NodeSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Bogus"}}}
	selectsAll := testPool("all", false)
	selectsAll.Spec.NodeSelector = &metav1.LabelSelector{}
	noSelector := testPool("none", false)
	noSelector.Spec.NodeSelector = nil

	pools, errs := NewPools([]*machineconfigurationv1.MachineConfigPool{
		testPool("worker", false), testPool("infra", false), testPool("master", false), testPool("gpu", false), broken, selectsAll, noSelector,
	})
	if len(errs) != 1 {
		t.Errorf("want one error for the broken pool, got %v", errs)
	}
	testCases := []struct {
		name   string
		labels map[string]string
		want   string
	}{
		{name: "a worker", labels: role("worker"), want: "worker"},
		{name: "a master of a compact cluster is a master", labels: role("master", "worker"), want: "master"},
		{name: "a custom pool wins over worker", labels: role("worker", "infra"), want: "infra"},
		{name: "a master with a custom role is a master", labels: role("master", "infra"), want: "master"},
		{name: "two custom pools: the first by name", labels: role("worker", "infra", "gpu"), want: "gpu"},
		{name: "no pool", labels: role(), want: ""},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if p := pools.Of(tc.labels); p != nil {
				got = p.Name
			}
			if got != tc.want {
				t.Errorf("pool %q, want %q", got, tc.want)
			}
		})
	}
	if pools.Get("broken") != nil || pools.Get("all") != nil || pools.Get("none") != nil || pools.Get("infra") == nil {
		t.Errorf("Get: only pools with a valid, non-empty selector are pools")
	}
}

// nodeStatus is the assessment of a node that runs its pool's configuration,
// its insight status with the given Updating reason and Degraded and
// Available statuses.
func nodeStatus(reason string, degraded, available bool) *Assessment {
	updating := metav1.ConditionFalse
	switch reason {
	case insightsv1alpha1.NodeDraining, insightsv1alpha1.NodeUpdating, insightsv1alpha1.NodeRebooting:
		updating = metav1.ConditionTrue
	case insightsv1alpha1.NodeCannotDetermine:
		updating = metav1.ConditionUnknown
	}
	status := func(b bool) metav1.ConditionStatus {
		if b {
			return metav1.ConditionTrue
		}
		return metav1.ConditionFalse
	}
	return &Assessment{AtPoolConfiguration: true, Status: insightsv1alpha1.NodeProgressInsightStatus{Conditions: []metav1.Condition{
		{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: updating, Reason: reason},
		{Type: insightsv1alpha1.NodeProgressInsightDegraded, Status: status(degraded)},
		{Type: insightsv1alpha1.NodeProgressInsightAvailable, Status: status(available)},
	}}}
}

// rollingOut is a node at its pool's version that does not yet run the
// configuration its pool targets.
func rollingOut(n *Assessment) *Assessment {
	out := *n
	out.AtPoolConfiguration = false
	return &out
}

func repeat(n int, s *Assessment) []*Assessment {
	out := make([]*Assessment, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func concat(parts ...[]*Assessment) []*Assessment {
	var out []*Assessment
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

type poolSummary struct {
	Assessment       insightsv1alpha1.PoolAssessment
	Completion       int32
	Updating         string
	Healthy          string
	Counts           map[insightsv1alpha1.NodeSummaryType]int32
	UpdatingSinceNow bool
}

func TestPool(t *testing.T) {
	completed := nodeStatus(insightsv1alpha1.NodeCompleted, false, true)
	pending := nodeStatus(insightsv1alpha1.NodePending, false, true)
	draining := nodeStatus(insightsv1alpha1.NodeDraining, false, false)
	stuck := nodeStatus(insightsv1alpha1.NodeDraining, true, false)
	paused := nodeStatus(insightsv1alpha1.NodePaused, false, true)
	counts := func(total, available, progressing, outdated, draining, excluded, degraded int32) map[insightsv1alpha1.NodeSummaryType]int32 {
		return map[insightsv1alpha1.NodeSummaryType]int32{
			insightsv1alpha1.NodesTotal: total, insightsv1alpha1.NodesAvailable: available, insightsv1alpha1.NodesProgressing: progressing,
			insightsv1alpha1.NodesOutdated: outdated, insightsv1alpha1.NodesDraining: draining, insightsv1alpha1.NodesExcluded: excluded,
			insightsv1alpha1.NodesDegraded: degraded,
		}
	}
	testCases := []struct {
		name   string
		paused bool
		// target is the configuration the pool targets.
		target string
		nodes  []*Assessment
		want   poolSummary
	}{
		{
			name:  "the recorded pool whose drains PDBs block: 22 of 59 updated, 7 stuck draining",
			nodes: concat(repeat(7, stuck), repeat(5, draining), repeat(21, completed), repeat(1, nodeStatus(insightsv1alpha1.NodeCompleted, false, false)), repeat(23, pending), repeat(2, nodeStatus(insightsv1alpha1.NodeCannotDetermine, false, false))),
			want:  poolSummary{Assessment: "Degraded", Completion: 37, Updating: "Progressing", Healthy: "NodesDegraded", Counts: counts(59, 44, 5, 37, 12, 0, 7)},
		},
		{
			name:  "nothing started",
			nodes: repeat(3, pending),
			want:  poolSummary{Assessment: "Pending", Completion: 0, Updating: "Pending", Healthy: "AsExpected", Counts: counts(3, 3, 0, 3, 0, 0, 0)},
		},
		{
			name:  "one node draining",
			nodes: concat(repeat(1, draining), repeat(2, pending)),
			want:  poolSummary{Assessment: "Progressing", Completion: 0, Updating: "Progressing", Healthy: "AsExpected", Counts: counts(3, 2, 1, 3, 1, 0, 0)},
		},
		{
			name:  "between two nodes: progressing, not pending",
			nodes: concat(repeat(1, completed), repeat(2, pending)),
			want:  poolSummary{Assessment: "Progressing", Completion: 33, Updating: "Progressing", Healthy: "AsExpected", Counts: counts(3, 3, 0, 2, 0, 0, 0)},
		},
		{
			name:  "all updated",
			nodes: repeat(3, completed),
			want:  poolSummary{Assessment: "Completed", Completion: 100, Updating: "Completed", Healthy: "AsExpected", Counts: counts(3, 3, 0, 0, 0, 0, 0)},
		},
		{
			name:   "paused with outdated nodes (recorded 4.14.1-paused-worker-pool)",
			paused: true,
			nodes:  repeat(3, paused),
			want:   poolSummary{Assessment: "Excluded", Completion: 0, Updating: "Paused", Healthy: "AsExpected", Counts: counts(3, 3, 0, 3, 0, 3, 0)},
		},
		{
			name:   "paused with every node updated",
			paused: true,
			nodes:  repeat(2, completed),
			want:   poolSummary{Assessment: "Completed", Completion: 100, Updating: "Completed", Healthy: "AsExpected", Counts: counts(2, 2, 0, 0, 0, 0, 0)},
		},
		{
			name:   "every node at the version, one of three rolling out the pool's new configuration: not an update",
			target: "rendered-worker-new",
			nodes:  concat(repeat(1, completed), repeat(1, rollingOut(nodeStatus(insightsv1alpha1.NodeCompleted, false, false))), repeat(1, rollingOut(completed))),
			want:   poolSummary{Assessment: "Completed", Completion: 100, Updating: "RollingOutConfiguration", Healthy: "AsExpected", Counts: counts(3, 2, 0, 0, 0, 0, 0)},
		},
		{
			name:   "the same in a paused pool: nothing rolls out",
			paused: true,
			target: "rendered-worker-new",
			nodes:  concat(repeat(1, completed), repeat(2, rollingOut(completed))),
			want:   poolSummary{Assessment: "Completed", Completion: 100, Updating: "Completed", Healthy: "AsExpected", Counts: counts(3, 3, 0, 0, 0, 0, 0)},
		},
		{
			name:  "the same in a pool not yet given a configuration: nothing to roll out",
			nodes: concat(repeat(1, completed), repeat(2, rollingOut(completed))),
			want:  poolSummary{Assessment: "Completed", Completion: 100, Updating: "Completed", Healthy: "AsExpected", Counts: counts(3, 3, 0, 0, 0, 0, 0)},
		},
		{
			name:   "outdated nodes make it an update, whatever their configuration",
			target: "rendered-worker-new",
			nodes:  concat(repeat(1, completed), repeat(2, rollingOut(pending))),
			want:   poolSummary{Assessment: "Progressing", Completion: 33, Updating: "Progressing", Healthy: "AsExpected", Counts: counts(3, 3, 0, 2, 0, 0, 0)},
		},
		{
			name: "no nodes (a compact cluster's worker pool)",
			want: poolSummary{Assessment: "Completed", Completion: 100, Updating: "Completed", Healthy: "AsExpected", Counts: counts(0, 0, 0, 0, 0, 0, 0)},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			pool := testPool("worker", tc.paused)
			pool.Spec.Configuration.Name = tc.target
			s := Pool(pool, tc.nodes, nil, nil, now)
			got := poolSummary{
				Assessment: s.Assessment,
				Completion: s.CompletionPercent,
				Updating:   meta.FindStatusCondition(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating).Reason,
				Healthy:    meta.FindStatusCondition(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightHealthy).Reason,
				Counts:     map[insightsv1alpha1.NodeSummaryType]int32{},
			}
			for _, sum := range s.Summaries {
				got.Counts[sum.Type] = sum.Count
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("pool (-want +got):\n%s", diff)
			}
			if len(s.Summaries) != 7 || s.Name != "worker" || s.ScopeType != insightsv1alpha1.ScopeTypeWorkerPool {
				t.Errorf("want all seven summaries of a worker pool, got %+v", s)
			}
		})
	}
}

func TestPoolKeepsTransitionTimes(t *testing.T) {
	earlier := now.Add(-time.Hour)
	nodes := repeat(2, nodeStatus(insightsv1alpha1.NodeDraining, false, false))
	first := Pool(testPool("worker", false), nodes, nil, nil, earlier)
	again := Pool(testPool("worker", false), nodes, nil, &first, now)
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("an unchanged pool changed (-first +again):\n%s", diff)
	}
	done := Pool(testPool("worker", false), repeat(2, nodeStatus(insightsv1alpha1.NodeCompleted, false, true)), nil, &again, now)
	if c := meta.FindStatusCondition(done.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating); !c.LastTransitionTime.Time.Equal(now) {
		t.Errorf("Updating turned False at %v, want %v", c.LastTransitionTime, now)
	}
	if c := meta.FindStatusCondition(done.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightHealthy); !c.LastTransitionTime.Time.Equal(earlier) {
		t.Errorf("Healthy did not change but its transition moved to %v", c.LastTransitionTime)
	}
}

func TestPerNodeTimes(t *testing.T) {
	var times PerNodeTimes
	if got := times.Expected("worker"); got != DefaultPerNodeTime {
		t.Errorf("before any node finished: %v, want the default %v", got, DefaultPerNodeTime)
	}
	for _, m := range []int{12, 30, 14, 0, 13} {
		times.Observe("worker", time.Duration(m)*time.Minute)
	}
	if got := times.Expected("worker"); got != 14*time.Minute {
		t.Errorf("upper median of 12, 13, 14, 30 minutes: got %v, want 14m", got)
	}
	if got := times.Expected("infra"); got != DefaultPerNodeTime {
		t.Errorf("another pool: %v, want the default", got)
	}
	for range observedPerPool {
		times.Observe("worker", 5*time.Minute)
	}
	if got := times.Expected("worker"); got != 5*time.Minute {
		t.Errorf("after %d recent 5-minute nodes: %v, want 5m: old observations age out", observedPerPool, got)
	}
}
