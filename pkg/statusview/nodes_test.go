package statusview_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// nodeInsight is a node insight's status with the conditions the node
// controller writes: Updating with its reason, and Available and Degraded
// True or False.
func nodeInsight(updating metav1.ConditionStatus, reason string, available, degraded bool, estimate time.Duration) *insightsv1alpha1.NodeProgressInsightStatus {
	status := func(b bool) metav1.ConditionStatus {
		if b {
			return metav1.ConditionTrue
		}
		return metav1.ConditionFalse
	}
	s := &insightsv1alpha1.NodeProgressInsightStatus{
		Name: "worker-0",
		Conditions: []metav1.Condition{
			{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: updating, Reason: reason},
			{Type: insightsv1alpha1.NodeProgressInsightDegraded, Status: status(degraded)},
			{Type: insightsv1alpha1.NodeProgressInsightAvailable, Status: status(available)},
		},
	}
	if estimate > 0 {
		s.EstimatedToComplete = &metav1.Duration{Duration: estimate}
	}
	return s
}

// TestNodeEstimate checks the EST column against the rules of
// `oc adm upgrade status` (pkg/cli/admin/upgrade/status/workerpool.go).
func TestNodeEstimate(t *testing.T) {
	const (
		available, unavailable = true, false
		degraded, fine         = true, false
	)
	testCases := []struct {
		name    string
		insight *insightsv1alpha1.NodeProgressInsightStatus
		want    string
	}{
		{name: "draining", insight: nodeInsight(metav1.ConditionTrue, insightsv1alpha1.NodeDraining, unavailable, fine, 10*time.Minute), want: "+10m"},
		{name: "updating", insight: nodeInsight(metav1.ConditionTrue, insightsv1alpha1.NodeUpdating, unavailable, fine, 5*time.Minute), want: "+5m"},
		{name: "degraded while draining", insight: nodeInsight(metav1.ConditionTrue, insightsv1alpha1.NodeDraining, unavailable, degraded, 0), want: "?"},
		{name: "pending", insight: nodeInsight(metav1.ConditionFalse, insightsv1alpha1.NodePending, available, fine, 0), want: "?"},
		{name: "updated", insight: nodeInsight(metav1.ConditionFalse, insightsv1alpha1.NodeCompleted, available, fine, 0), want: "-"},
		{name: "updated, cordoned", insight: nodeInsight(metav1.ConditionFalse, insightsv1alpha1.NodeCompleted, unavailable, fine, 0), want: "-"},
		{name: "updated, degraded", insight: nodeInsight(metav1.ConditionFalse, insightsv1alpha1.NodeCompleted, available, degraded, 0), want: "-"},
		{name: "excluded by its paused pool", insight: nodeInsight(metav1.ConditionFalse, insightsv1alpha1.NodePaused, available, fine, 0), want: "-"},
		{name: "unavailable in a paused pool", insight: nodeInsight(metav1.ConditionFalse, insightsv1alpha1.NodePaused, unavailable, fine, 0), want: "?"},
		{name: "degraded in a paused pool", insight: nodeInsight(metav1.ConditionFalse, insightsv1alpha1.NodePaused, available, degraded, 0), want: "?"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			n := statusview.NodeOf(tc.insight)
			if got := n.Estimate(); got != tc.want {
				t.Errorf("Estimate() of a %s %s node = %q, want %q", n.Assessment, n.Phase, got, tc.want)
			}
		})
	}
}
