package metrics

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	problems "github.com/update-insights/update-insights-operator/pkg/health"
)

// drainHeld is a pod of namespace shop that has held a drain since then,
// its budget at its limit.
func drainHeld(pod string, since time.Time) drain.Pod {
	return drain.Pod{Namespace: "shop", Name: pod, Verdict: drain.Blocking, Reason: drain.BudgetAtLimit, Since: since, Owner: "ReplicaSet/db-7d9",
		Budgets: []drain.Budget{{Namespace: "shop", Name: "db", CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2}}}
}

// drainInsights are the health insights the node controller writes at
// written for a worker whose drain those pods hold, as pkg/health makes
// them and the health insight syncer names them: one per pod that has held
// it past the machine-config controller's first attempt.
func drainInsights(node string, written time.Time, pods ...drain.Pod) []*insightsv1alpha1.UpdateHealthInsight {
	status := &insightsv1alpha1.NodeProgressInsightStatus{Name: node, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool}
	insights, _ := problems.ForNode(status, &problems.NodeState{Updating: true, DrainBlocks: pods}, written)
	var out []*insightsv1alpha1.UpdateHealthInsight
	for _, i := range insights {
		out = append(out, &insightsv1alpha1.UpdateHealthInsight{ObjectMeta: metav1.ObjectMeta{Name: i.Name}, Status: i.Status})
	}
	return out
}

// degradedNode is the health insight of a node its machine-config daemon
// says is degraded, since then: a node's, but no drain's.
func degradedNode(t *testing.T, node string, since time.Time) *insightsv1alpha1.UpdateHealthInsight {
	t.Helper()
	status := &insightsv1alpha1.NodeProgressInsightStatus{Name: node, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Conditions: []metav1.Condition{
		{Type: insightsv1alpha1.NodeProgressInsightDegraded, Status: metav1.ConditionTrue, LastTransitionTime: metav1.NewTime(since)},
	}}
	insights, _ := problems.ForNode(status, &problems.NodeState{DegradedReason: "failed to apply the configuration"}, now)
	if len(insights) != 1 {
		t.Fatalf("%d health insights about degraded node %s", len(insights), node)
	}
	return &insightsv1alpha1.UpdateHealthInsight{ObjectMeta: metav1.ObjectMeta{Name: insights[0].Name}, Status: insights[0].Status}
}

// drainSeries are the two drain series.
func drainSeries(nodes, longest float64) map[string]float64 {
	return map[string]float64{NodesDrainHeldMetric: nodes, DrainHeldLongestMetric: longest}
}

func TestFleetDrainsHeld(t *testing.T) {
	tests := []struct {
		name   string
		health func(t *testing.T) []*insightsv1alpha1.UpdateHealthInsight
		broken bool
		want   map[string]float64
	}{
		{
			name: "no health insight: both at zero",
			want: drainSeries(0, 0),
		},
		{
			name: "a node held by two pods counts once, held since the earlier",
			health: func(t *testing.T) []*insightsv1alpha1.UpdateHealthInsight {
				return drainInsights("worker-a", now, drainHeld("db-0", now.Add(-10*time.Minute)), drainHeld("db-1", now.Add(-30*time.Minute)))
			},
			want: drainSeries(1, 1800),
		},
		{
			name: "two nodes, the longest held past the drain error",
			health: func(t *testing.T) []*insightsv1alpha1.UpdateHealthInsight {
				return slices.Concat(
					drainInsights("worker-a", now, drainHeld("db-0", now.Add(-5*time.Minute))),
					drainInsights("worker-b", now, drainHeld("db-1", now.Add(-2*time.Hour)), drainHeld("cache-0", now.Add(-3*time.Minute))),
				)
			},
			want: drainSeries(2, 7200),
		},
		{
			name: "insights about no drain count neither a node nor time",
			health: func(t *testing.T) []*insightsv1alpha1.UpdateHealthInsight {
				controlPlane := health("co-etcd", insightsv1alpha1.ScopeTypeControlPlane, insightsv1alpha1.UpdateStalledImpactType)
				controlPlane.Status.StartedAt = metav1.NewTime(now.Add(-5 * time.Hour))
				controlPlane.Status.Scope.Resources = []insightsv1alpha1.ResourceRef{{Group: "config.openshift.io", Resource: "clusteroperators", Name: "etcd"}}
				return slices.Concat(
					[]*insightsv1alpha1.UpdateHealthInsight{degradedNode(t, "worker-a", now.Add(-4*time.Hour)), controlPlane},
					drainInsights("worker-b", now, drainHeld("db-0", now.Add(-20*time.Minute))),
				)
			},
			want: drainSeries(1, 1200),
		},
		{
			name: "only insights about no drain: both at zero",
			health: func(t *testing.T) []*insightsv1alpha1.UpdateHealthInsight {
				return []*insightsv1alpha1.UpdateHealthInsight{degradedNode(t, "worker-a", now.Add(-4*time.Hour))}
			},
			want: drainSeries(0, 0),
		},
		{
			name: "the longest is from startedAt to the scrape, not from when the insight was written",
			health: func(t *testing.T) []*insightsv1alpha1.UpdateHealthInsight {
				return drainInsights("worker-a", now.Add(-50*time.Minute), drainHeld("db-0", now.Add(-90*time.Minute)))
			},
			want: drainSeries(1, 5400),
		},
		{
			name: "a startedAt ahead of the collector's clock is held no time yet",
			health: func(t *testing.T) []*insightsv1alpha1.UpdateHealthInsight {
				return drainInsights("worker-a", now.Add(time.Hour), drainHeld("db-0", now.Add(time.Minute)))
			},
			want: drainSeries(1, 0),
		},
		{
			name: "an insight without startedAt counts its node but no time",
			health: func(t *testing.T) []*insightsv1alpha1.UpdateHealthInsight {
				insights := slices.Concat(
					drainInsights("worker-a", now, drainHeld("db-0", now.Add(-10*time.Minute))),
					drainInsights("worker-b", now, drainHeld("db-1", now.Add(-time.Hour))),
				)
				insights[1].Status.StartedAt = metav1.Time{}
				return insights
			},
			want: drainSeries(2, 600),
		},
		{
			name:   "a broken lister: both at zero",
			broken: true,
			want:   drainSeries(0, 0),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := fleetInput{broken: tt.broken}
			if tt.health != nil {
				in.health = tt.health(t)
			}
			got := only(scrape(t, in.collectors(t)...), NodesDrainHeldMetric, DrainHeldLongestMetric)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("series (-want +got):\n%s", diff)
			}
		})
	}
}
