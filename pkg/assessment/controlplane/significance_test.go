package controlplane

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestClusterVersionProgressChanged(t *testing.T) {
	base := func() *insightsv1alpha1.ClusterVersionProgressInsightStatus {
		s := ClusterVersionProgress(updating(), oneOfThreeUpdated(), "", nil, now)
		s.Conditions = append(s.Conditions, metav1.Condition{Type: "Healthy", Status: "True", Reason: "AsExpected", LastTransitionTime: metav1.NewTime(started)})
		return &s
	}
	shift := func(t **metav1.Time, d time.Duration) {
		if *t == nil {
			*t = mtime(now)
			return
		}
		*t = mtime((*t).Add(d))
	}
	testCases := []struct {
		name   string
		change func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus)
		want   bool
	}{
		{name: "identical", change: func(*insightsv1alpha1.ClusterVersionProgressInsightStatus) {}, want: false},
		{name: "name", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.Name = "other" }, want: true},
		{name: "assessment", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.Assessment = "Unknown" }, want: true},
		{name: "completion", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.CompletionPercent++ }, want: true},
		{name: "target version", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.Versions.Target.Version = "4.16.1" }, want: true},
		{name: "previous version gone", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.Versions.Previous = nil }, want: true},
		{name: "previous version metadata", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) {
			s.Versions.Previous.Metadata = []insightsv1alpha1.VersionMetadata{{Key: "Partial"}}
		}, want: true},
		{name: "condition status", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.Conditions[0].Status = "Unknown" }, want: true},
		{name: "condition reason", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.Conditions[0].Reason = "Other" }, want: true},
		{name: "condition message", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.Conditions[0].Message += "!" }, want: true},
		{name: "condition type", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.Conditions[1].Type = "Other" }, want: true},
		{name: "condition removed", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.Conditions = s.Conditions[:1] }, want: true},
		{name: "conditions reordered", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) {
			s.Conditions[0], s.Conditions[1] = s.Conditions[1], s.Conditions[0]
		}, want: false},
		{name: "condition transition 29s later", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) {
			s.Conditions[0].LastTransitionTime = metav1.NewTime(s.Conditions[0].LastTransitionTime.Add(29 * time.Second))
		}, want: false},
		{name: "condition transition 30s later", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) {
			s.Conditions[0].LastTransitionTime = metav1.NewTime(s.Conditions[0].LastTransitionTime.Add(30 * time.Second))
		}, want: true},
		{name: "startedAt 29s earlier", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { shift(&s.StartedAt, -29*time.Second) }, want: false},
		{name: "startedAt 30s earlier", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { shift(&s.StartedAt, -30*time.Second) }, want: true},
		{name: "startedAt gone", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.StartedAt = nil }, want: true},
		{name: "estimate 29s later", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) {
			shift(&s.EstimatedCompletedAt, 29*time.Second)
		}, want: false},
		{name: "estimate 30s later", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) {
			shift(&s.EstimatedCompletedAt, 30*time.Second)
		}, want: true},
		{name: "estimate gone", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { s.EstimatedCompletedAt = nil }, want: true},
		{name: "completedAt appears", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) { shift(&s.CompletedAt, 0) }, want: true},
		{name: "last progress 29s later", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) {
			shift(&s.LastObservedProgress, 29*time.Second)
		}, want: false},
		{name: "last progress 30s later", change: func(s *insightsv1alpha1.ClusterVersionProgressInsightStatus) {
			shift(&s.LastObservedProgress, 30*time.Second)
		}, want: true},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			current, desired := base(), base()
			tc.change(desired)
			if got := ClusterVersionProgressChanged(current, desired); got != tc.want {
				t.Errorf("changed = %t, want %t", got, tc.want)
			}
		})
	}
	t.Run("completedAt 29s apart", func(t *testing.T) {
		current, desired := base(), base()
		current.CompletedAt, desired.CompletedAt = mtime(now), mtime(now.Add(29*time.Second))
		if ClusterVersionProgressChanged(current, desired) {
			t.Error("changed = true, want false")
		}
		desired.CompletedAt = mtime(now.Add(30 * time.Second))
		if !ClusterVersionProgressChanged(current, desired) {
			t.Error("changed = false at 30s, want true")
		}
	})
}
