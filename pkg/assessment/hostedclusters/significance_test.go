package hostedclusters

import (
	"testing"
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestChanged(t *testing.T) {
	base := func() *insightsv1alpha1.HostedClusterProgressInsightStatus {
		s := Assess(Input{HostedCluster: updatingTo417(cvo412of829), Now: now})
		return &s
	}
	for _, tc := range []struct {
		name   string
		change func(*insightsv1alpha1.HostedClusterProgressInsightStatus)
		want   bool
	}{
		{"nothing", func(*insightsv1alpha1.HostedClusterProgressInsightStatus) {}, false},
		{"the estimate moved by seconds", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) {
			s.EstimatedCompletedAt = mtime(s.EstimatedCompletedAt.Add(20 * time.Second))
		}, false},
		{"the estimate moved by a minute", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) {
			s.EstimatedCompletedAt = mtime(s.EstimatedCompletedAt.Add(time.Minute))
		}, true},
		{"the estimate went away", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) { s.EstimatedCompletedAt = nil }, true},
		{"completion", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) { s.CompletionPercent++ }, true},
		{"assessment", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) { s.Assessment = "Stalled" }, true},
		{"a condition's message", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) { s.Conditions[0].Message += "!" }, true},
		{"conditions reordered", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) {
			s.Conditions[0], s.Conditions[1] = s.Conditions[1], s.Conditions[0]
		}, false},
		{"a problem added", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) {
			s.Problems = append(s.Problems, insightsv1alpha1.HostedProblem{Level: "Info", Reason: "R", Message: "m"})
		}, true},
		{"NodePools counted", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) { s.NodePools.Total++ }, true},
		{"the previous version", func(s *insightsv1alpha1.HostedClusterProgressInsightStatus) { s.Versions.Previous = nil }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			current, desired := base(), base()
			tc.change(desired)
			if got := Changed(current, desired); got != tc.want {
				t.Errorf("Changed = %v, want %v", got, tc.want)
			}
		})
	}
}

// A sync a minute later, with nothing else changed, writes nothing: the
// status read back is what the next sync starts from.
func TestAssessIsStableAcrossSyncs(t *testing.T) {
	hc := updatingTo417(cvo412of829)
	first := Assess(Input{HostedCluster: hc, Now: now})
	second := Assess(Input{HostedCluster: hc, Previous: &first, Now: now.Add(time.Minute)})
	if Changed(&first, &second) {
		t.Errorf("a sync a minute later changed the status:\nfirst %+v\nsecond %+v", first, second)
	}
	if !second.LastObservedProgress.Equal(first.LastObservedProgress) {
		t.Errorf("last observed progress moved without progress: %v to %v", first.LastObservedProgress, second.LastObservedProgress)
	}
	third := Assess(Input{HostedCluster: updatingTo417("Working towards 4.17.1: 500 of 829 done (60% complete)"), Previous: &second, Now: now.Add(2 * time.Minute)})
	if want := now.Add(2 * time.Minute); !third.LastObservedProgress.Time.Equal(want) {
		t.Errorf("last observed progress %v after completion grew, want %v", third.LastObservedProgress, want)
	}
}
