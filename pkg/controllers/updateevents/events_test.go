package updateevents

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

var (
	started   = time.Date(2024, 8, 2, 9, 0, 0, 0, time.UTC)
	completed = started.Add(time.Hour + 12*time.Minute + 20*time.Second)
)

// status is the status of an insight updating from previous ("" for the
// installation) to target, started and completed at the given times (zero
// for unset).
func status(previous, target string, startedAt, completedAt time.Time) insightsv1alpha1.ClusterVersionProgressInsightStatus {
	s := insightsv1alpha1.ClusterVersionProgressInsightStatus{
		Name:       "version",
		Assessment: insightsv1alpha1.ClusterVersionAssessmentProgressing,
		Versions:   insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: target}},
	}
	if previous == "" {
		s.Versions.Target.Metadata = []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.InstallationMetadata}}
	} else {
		s.Versions.Previous = &insightsv1alpha1.Version{Version: previous}
	}
	if !startedAt.IsZero() {
		s.StartedAt = &metav1.Time{Time: startedAt}
	}
	if !completedAt.IsZero() {
		s.Assessment = insightsv1alpha1.ClusterVersionAssessmentCompleted
		s.CompletedAt = &metav1.Time{Time: completedAt}
	}
	return s
}

func healthInsight(name string, level insightsv1alpha1.InsightImpactLevel) *insightsv1alpha1.UpdateHealthInsight {
	return &insightsv1alpha1.UpdateHealthInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.UpdateHealthInsightStatus{
			Impact: insightsv1alpha1.InsightImpact{Level: level, Summary: "Summary of " + name},
		},
	}
}

func TestCompare(t *testing.T) {
	partial := status("4.14.1", "4.15.0", started, time.Time{})
	partial.Versions.Previous.Metadata = []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.PartialMetadata}}
	migration := status("4.15.0", "4.15.0", started, time.Time{})
	migration.Versions.Target.Metadata = []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.ArchitectureMetadata, Value: "multi"}}
	noPrevious := status("4.14.1", "", started, time.Time{})
	noPrevious.Versions.Previous = nil

	for _, tc := range []struct {
		name    string
		before  observation
		status  insightsv1alpha1.ClusterVersionProgressInsightStatus
		failing []*insightsv1alpha1.UpdateHealthInsight
		want    []event
	}{{
		name:   "nothing changed",
		before: observation{startedAt: started},
		status: status("4.14.1", "4.15.0", started, time.Time{}),
	}, {
		name:   "an update starts",
		status: status("4.14.1", "4.15.0", started, time.Time{}),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateStarted, "Started updating the control plane from 4.14.1 to 4.15.0"}},
	}, {
		name:   "a new update starts after one completed",
		before: observation{startedAt: started.Add(-24 * time.Hour), completedAt: started.Add(-23 * time.Hour)},
		status: status("4.14.1", "4.15.0", started, time.Time{}),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateStarted, "Started updating the control plane from 4.14.1 to 4.15.0"}},
	}, {
		name:   "the installation starts",
		status: status("", "4.15.0", started, time.Time{}),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateStarted, "Started installing 4.15.0"}},
	}, {
		name:   "an update starts from a partial update",
		status: partial,
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateStarted, "Started updating the control plane from 4.14.1 (partially applied) to 4.15.0"}},
	}, {
		name:   "a migration to the multi-architecture payload starts",
		status: migration,
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateStarted, "Started updating the control plane from 4.15.0 to 4.15.0 (multi architecture)"}},
	}, {
		name:   "an update to an unknown version from an unknown one starts",
		status: noPrevious,
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateStarted, "Started updating the control plane to an unknown version"}},
	}, {
		name:   "the start time goes away",
		before: observation{startedAt: started},
		status: status("4.14.1", "4.15.0", time.Time{}, time.Time{}),
	}, {
		name:   "an update completes",
		before: observation{startedAt: started},
		status: status("4.14.1", "4.15.0", started, completed),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateCompleted, "Completed the control plane update to 4.15.0 in 1h12m"}},
	}, {
		name:   "the installation completes",
		before: observation{startedAt: started},
		status: status("", "4.15.0", started, started.Add(44*time.Minute+31*time.Second)),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateCompleted, "Completed installing 4.15.0 in 45m"}},
	}, {
		name:   "an update completes in seconds",
		before: observation{startedAt: started},
		status: status("4.14.1", "4.15.0", started, started.Add(42*time.Second)),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateCompleted, "Completed the control plane update to 4.15.0 in 42s"}},
	}, {
		name:   "an update completes in whole hours",
		before: observation{startedAt: started},
		status: status("4.14.1", "4.15.0", started, started.Add(2*time.Hour)),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateCompleted, "Completed the control plane update to 4.15.0 in 2h0m"}},
	}, {
		name:   "an update of unknown start completes",
		status: status("4.14.1", "4.15.0", time.Time{}, completed),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateCompleted, "Completed the control plane update to 4.15.0"}},
	}, {
		name:   "an update completes before it starts",
		before: observation{startedAt: completed},
		status: status("4.14.1", "4.15.0", completed, started),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateCompleted, "Completed the control plane update to 4.15.0"}},
	}, {
		name:   "a completion time changes",
		before: observation{startedAt: started, completedAt: completed.Add(-time.Minute)},
		status: status("4.14.1", "4.15.0", started, completed),
		want:   []event{{corev1.EventTypeNormal, ReasonUpdateCompleted, "Completed the control plane update to 4.15.0 in 1h12m"}},
	}, {
		name:   "an update starts and completes between two looks",
		before: observation{startedAt: started.Add(-24 * time.Hour), completedAt: started.Add(-23 * time.Hour)},
		status: status("4.14.1", "4.15.0", started, completed),
		want: []event{
			{corev1.EventTypeNormal, ReasonUpdateStarted, "Started updating the control plane from 4.14.1 to 4.15.0"},
			{corev1.EventTypeNormal, ReasonUpdateCompleted, "Completed the control plane update to 4.15.0 in 1h12m"},
		},
	}, {
		name:    "an Error health insight appears",
		before:  observation{startedAt: started},
		status:  status("4.14.1", "4.15.0", started, time.Time{}),
		failing: []*insightsv1alpha1.UpdateHealthInsight{healthInsight("etcd-degraded", insightsv1alpha1.ErrorImpactLevel)},
		want:    []event{{corev1.EventTypeWarning, ReasonErrorHealthInsight, "Health insight etcd-degraded is Error: Summary of etcd-degraded"}},
	}, {
		name:   "several health insights at Error level or worse appear",
		before: observation{startedAt: started},
		status: status("4.14.1", "4.15.0", started, time.Time{}),
		failing: []*insightsv1alpha1.UpdateHealthInsight{
			healthInsight("api-down", insightsv1alpha1.CriticalImpactLevel),
			healthInsight("etcd-degraded", insightsv1alpha1.ErrorImpactLevel),
			healthInsight("node-a-unavailable", insightsv1alpha1.ErrorImpactLevel),
		},
		want: []event{{corev1.EventTypeWarning, ReasonErrorHealthInsight, "Health insight api-down is Critical: Summary of api-down (and 2 more at Error level or worse)"}},
	}, {
		name:    "a health insight at Error level persists",
		before:  observation{startedAt: started, failing: true},
		status:  status("4.14.1", "4.15.0", started, time.Time{}),
		failing: []*insightsv1alpha1.UpdateHealthInsight{healthInsight("etcd-degraded", insightsv1alpha1.ErrorImpactLevel)},
	}, {
		name:   "the last health insight at Error level clears",
		before: observation{startedAt: started, failing: true},
		status: status("4.14.1", "4.15.0", started, time.Time{}),
	}, {
		name:    "an update starts with a problem",
		status:  status("4.14.1", "4.15.0", started, time.Time{}),
		failing: []*insightsv1alpha1.UpdateHealthInsight{healthInsight("etcd-degraded", insightsv1alpha1.ErrorImpactLevel)},
		want: []event{
			{corev1.EventTypeNormal, ReasonUpdateStarted, "Started updating the control plane from 4.14.1 to 4.15.0"},
			{corev1.EventTypeWarning, ReasonErrorHealthInsight, "Health insight etcd-degraded is Error: Summary of etcd-degraded"},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := compare(tc.before, &tc.status, tc.failing)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(event{})); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompareRemembersWhatItSaw(t *testing.T) {
	s := status("4.14.1", "4.15.0", started, completed)
	_, got := compare(observation{}, &s, []*insightsv1alpha1.UpdateHealthInsight{healthInsight("etcd-degraded", insightsv1alpha1.ErrorImpactLevel)})
	want := observation{startedAt: started, completedAt: completed, failing: true}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(observation{})); diff != "" {
		t.Errorf("observation (-want +got):\n%s", diff)
	}
}

func TestFailingInsights(t *testing.T) {
	got := failingInsights([]*insightsv1alpha1.UpdateHealthInsight{
		healthInsight("c", insightsv1alpha1.ErrorImpactLevel),
		healthInsight("b", insightsv1alpha1.WarningImpactLevel),
		healthInsight("a", insightsv1alpha1.CriticalImpactLevel),
		healthInsight("d", insightsv1alpha1.InfoImpactLevel),
		healthInsight("e", insightsv1alpha1.UnknownImpactLevel),
	})
	var names []string
	for _, insight := range got {
		names = append(names, insight.Name)
	}
	if diff := cmp.Diff([]string{"a", "c"}, names); diff != "" {
		t.Errorf("failing insights (-want +got):\n%s", diff)
	}
}
