package controlplane

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

func healthInsight(problem string, level insightsv1alpha1.InsightImpactLevel, scope insightsv1alpha1.ScopeType, since time.Time, summary string) health.Insight {
	return health.Insight{Name: problem, Problem: problem, Status: insightsv1alpha1.UpdateHealthInsightStatus{
		StartedAt: metav1.NewTime(since),
		Scope:     insightsv1alpha1.InsightScope{Type: scope},
		Impact:    insightsv1alpha1.InsightImpact{Level: level, Summary: summary},
	}}
}

func TestSetHealthy(t *testing.T) {
	cp := insightsv1alpha1.ScopeTypeControlPlane
	testCases := []struct {
		name           string
		assessment     insightsv1alpha1.ClusterVersionAssessment
		insights       []health.Insight
		wantStatus     metav1.ConditionStatus
		wantReason     string
		wantMessage    string
		wantAssessment insightsv1alpha1.ClusterVersionAssessment
	}{
		{name: "no problems", assessment: "Progressing", wantStatus: "True", wantReason: "AsExpected",
			wantMessage: "No error-level problem with the control plane update", wantAssessment: "Progressing"},
		{name: "warnings do not make it unhealthy", assessment: "Progressing",
			insights:   []health.Insight{healthInsight("Slow", "Warning", cp, started, "slow")},
			wantStatus: "True", wantReason: "AsExpected", wantMessage: "No error-level problem with the control plane update", wantAssessment: "Progressing"},
		{name: "an error leaves the assessment alone, as oc assesses by the estimate", assessment: "Progressing",
			insights:   []health.Insight{healthInsight("ClusterOperatorDegraded", "Error", cp, started, "Cluster Operator etcd is degraded (Broken)")},
			wantStatus: "False", wantReason: "ClusterOperatorDegraded", wantMessage: "Cluster Operator etcd is degraded (Broken)", wantAssessment: "Progressing"},
		{name: "the worst: Critical before an older Error", assessment: "Progressing",
			insights: []health.Insight{
				healthInsight("Old", "Error", cp, started, "old error"),
				healthInsight("Critical", "Critical", cp, now, "critical"),
			},
			wantStatus: "False", wantReason: "Critical", wantMessage: "critical, and 1 more error-level problems", wantAssessment: "Progressing"},
		{name: "the worst: the longest-standing of equal levels", assessment: "Progressing",
			insights: []health.Insight{
				healthInsight("New", "Error", cp, now, "new"),
				healthInsight("Old", "Error", cp, started, "old"),
			},
			wantStatus: "False", wantReason: "Old", wantMessage: "old, and 1 more error-level problems", wantAssessment: "Progressing"},
		{name: "worker pool problems are not the control plane's", assessment: "Progressing",
			insights:   []health.Insight{healthInsight("NodeDegraded", "Error", insightsv1alpha1.ScopeTypeWorkerPool, started, "node")},
			wantStatus: "True", wantReason: "AsExpected", wantMessage: "No error-level problem with the control plane update", wantAssessment: "Progressing"},
		{name: "a completed update stays Completed", assessment: "Completed",
			insights:   []health.Insight{healthInsight("Failing", "Error", cp, started, "failing")},
			wantStatus: "False", wantReason: "Failing", wantMessage: "failing", wantAssessment: "Completed"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			status := insightsv1alpha1.ClusterVersionProgressInsightStatus{Assessment: tc.assessment}
			setHealthy(&status, tc.insights, nil, now)
			c := status.Conditions[len(status.Conditions)-1]
			if c.Type != "Healthy" || c.Status != tc.wantStatus || c.Reason != tc.wantReason || c.Message != tc.wantMessage {
				t.Errorf("got %s=%s(%s) %q, want Healthy=%s(%s) %q", c.Type, c.Status, c.Reason, c.Message, tc.wantStatus, tc.wantReason, tc.wantMessage)
			}
			if status.Assessment != tc.wantAssessment {
				t.Errorf("assessment %s, want %s", status.Assessment, tc.wantAssessment)
			}
		})
	}
}

func TestHealthyTransitionTimeIsKept(t *testing.T) {
	current := &insightsv1alpha1.ClusterVersionProgressInsightStatus{Conditions: []metav1.Condition{
		{Type: "Healthy", Status: "True", Reason: "AsExpected", LastTransitionTime: metav1.NewTime(started)},
	}}
	status := insightsv1alpha1.ClusterVersionProgressInsightStatus{Assessment: "Progressing"}
	setHealthy(&status, nil, current, now)
	if lt := status.Conditions[0].LastTransitionTime.Time; !lt.Equal(started) {
		t.Errorf("Healthy moved to %v though it stayed True", lt)
	}
}
