package health

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/drain"
)

// A pod holding a drain is no insight until the machine-config
// controller's first attempt would have failed, a Warning then, an Error
// once the controller would raise its drain error, and each threshold is
// when the node is looked at again; the insight names the node, the pod and
// its budget, and says what to do.
func TestForDrainRisesWithMCOsThresholds(t *testing.T) {
	start := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	block := drain.Pod{Namespace: "shop", Name: "db-0", Verdict: drain.Blocking, Reason: drain.BudgetAtLimit, Since: start, Owner: "ReplicaSet/db-7d9",
		Budgets: []drain.Budget{{Namespace: "shop", Name: "db", CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2}}}
	status := &insightsv1alpha1.NodeProgressInsightStatus{Name: "worker-a", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool}
	for _, tt := range []struct {
		name  string
		after time.Duration
		level insightsv1alpha1.InsightImpactLevel
		next  time.Duration
	}{
		{name: "refused once", after: 30 * time.Second, next: drain.MCO.WarnAfter},
		{name: "past the first attempt", after: 10 * time.Minute, level: insightsv1alpha1.WarningImpactLevel, next: drain.MCO.ErrorAfter},
		{name: "past the drain error", after: 2 * time.Hour, level: insightsv1alpha1.ErrorImpactLevel},
	} {
		t.Run(tt.name, func(t *testing.T) {
			now := start.Add(tt.after)
			insights, next := forDrain(status, MachineConfigDrainer, []drain.Pod{block}, now)
			var levels []insightsv1alpha1.InsightImpactLevel
			for _, i := range insights {
				levels = append(levels, i.Status.Impact.Level)
			}
			var wantLevels []insightsv1alpha1.InsightImpactLevel
			if tt.level != "" {
				wantLevels = append(wantLevels, tt.level)
			}
			var wantNext time.Time
			if tt.next > 0 {
				wantNext = start.Add(tt.next)
			}
			if diff := cmp.Diff([]any{wantLevels, wantNext}, []any{levels, next}); diff != "" {
				t.Errorf("levels and next look (-want +got):\n%s", diff)
			}
		})
	}

	insights, _ := forDrain(status, MachineConfigDrainer, []drain.Pod{block}, start.Add(10*time.Minute))
	want := Insight{
		Name:    insights[0].Name,
		Problem: "DrainBlockedBudgetAtLimit",
		Status: insightsv1alpha1.UpdateHealthInsightStatus{
			StartedAt: insights[0].Status.StartedAt,
			Scope: insightsv1alpha1.InsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, Resources: []insightsv1alpha1.ResourceRef{
				{Resource: "nodes", Name: "worker-a"},
				{Resource: "pods", Namespace: "shop", Name: "db-0"},
				{Group: "policy", Resource: "poddisruptionbudgets", Namespace: "shop", Name: "db"},
			}},
			Impact: insightsv1alpha1.InsightImpact{
				Level:   insightsv1alpha1.WarningImpactLevel,
				Type:    insightsv1alpha1.UpdateStalledImpactType,
				Summary: "Pod shop/db-0 holds the drain of node worker-a: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
				Description: "It has held the drain since 2026-11-27T08:00:00Z: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed). " +
					"Scale ReplicaSet/db-7d9 up so that PodDisruptionBudget shop/db allows a disruption, or relax the budget's minAvailable or maxUnavailable. " +
					"The machine-config controller tries the drain again every minute, then every five, and after 1h0m0s raises its drain error (the MCCDrainError alert); " +
					"the node's update waits until the pod is gone.",
			},
			Remediation: insightsv1alpha1.InsightRemediation{Reference: drainDocs},
		},
	}
	if diff := cmp.Diff(want, insights[0]); diff != "" {
		t.Errorf("insight (-want +got):\n%s", diff)
	}
	if got := insights[0].Status.StartedAt.Time; !got.Equal(start) {
		t.Errorf("started at %s, want %s", got, start)
	}
}

// What a drain's insight says stays true for as long as it stands: written
// when the pod has held the drain for 90 seconds and again at 50 minutes,
// at one level, it is the same insight, stating since when and until when,
// never how long; and the node is looked at again when a grace period it
// names ends, after which something else holds the pod.
func TestForDrainWordsStayTrue(t *testing.T) {
	start := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	status := &insightsv1alpha1.NodeProgressInsightStatus{Name: "worker-a", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool}
	graceEnds := start.Add(time.Hour)
	for _, tt := range []struct {
		name     string
		block    drain.Pod
		nextAt90 time.Time
	}{
		{"a budget at its limit", drain.Pod{Namespace: "shop", Name: "db-0", Verdict: drain.Blocking, Reason: drain.BudgetAtLimit, Since: start, Owner: "ReplicaSet/db-7d9",
			Budgets: []drain.Budget{{Namespace: "shop", Name: "db", CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2}}}, start.Add(drain.MCO.ErrorAfter)},
		{"a grace period of an hour", drain.Pod{Namespace: "shop", Name: "db-0", Verdict: drain.Blocking, Reason: drain.GracePeriod, Since: start, Owner: "ReplicaSet/db-7d9",
			GraceEnds: graceEnds}, graceEnds},
	} {
		t.Run(tt.name, func(t *testing.T) {
			first, next := forDrain(status, MachineConfigDrainer, []drain.Pod{tt.block}, start.Add(drain.MCO.WarnAfter))
			later, _ := forDrain(status, MachineConfigDrainer, []drain.Pod{tt.block}, start.Add(50*time.Minute))
			if diff := cmp.Diff(first, later); diff != "" {
				t.Errorf("the insight written at 90s and at 50m (-90s +50m):\n%s", diff)
			}
			if len(first) != 1 || !strings.Contains(first[0].Status.Impact.Description, "since 2026-11-27T08:00:00Z") {
				t.Errorf("the insight does not say since when: %+v", first)
			}
			if !next.Equal(tt.nextAt90) {
				t.Errorf("looked at again at %s, want %s", next, tt.nextAt90)
			}
		})
	}
}

// A node the HyperShift drainer drains (NodeState.Drainer) is leveled by its
// policy, a Warning from its first timed-out attempt that never becomes an
// Error, and the insight says what that drainer does.
func TestForNodeUsesItsDrainer(t *testing.T) {
	start := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	block := drain.Pod{Namespace: "shop", Name: "db-0", Verdict: drain.Blocking, Reason: drain.BudgetAtLimit, Since: start, Owner: "ReplicaSet/db-7d9",
		Budgets: []drain.Budget{{Namespace: "shop", Name: "db", CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2}}}
	status := &insightsv1alpha1.NodeProgressInsightStatus{Name: "worker-a", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool}
	state := &NodeState{Updating: true, DrainBlocks: []drain.Pod{block}, Drainer: &HyperShiftDrainer}

	insights, next := ForNode(status, state, start.Add(30*time.Second))
	if len(insights) != 0 || !next.Equal(start.Add(90*time.Second)) {
		t.Errorf("within the first attempt: %d insights, next %s; want none, next at 90s", len(insights), next)
	}
	insights, next = ForNode(status, state, start.Add(48*time.Hour))
	if len(insights) != 1 {
		t.Fatalf("two days on: %d insights, want 1", len(insights))
	}
	if got := insights[0].Status.Impact.Level; got != insightsv1alpha1.WarningImpactLevel || !next.IsZero() {
		t.Errorf("two days on: level %q, next %s; want Warning and no next", got, next)
	}
	if d := insights[0].Status.Impact.Description; !strings.HasSuffix(d, HyperShiftDrainer.Meanwhile) || strings.Contains(d, "machine-config controller") {
		t.Errorf("description does not say what the HyperShift drainer does: %q", d)
	}
}
