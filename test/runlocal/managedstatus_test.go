package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestManagedSeen(t *testing.T) {
	awaiting := updateStatus(metav1.Condition{Type: insightsv1alpha1.UpdateActive, Status: metav1.ConditionFalse, Reason: insightsv1alpha1.UpdateAwaitingWindow})
	completed := updateStatus(metav1.Condition{Type: insightsv1alpha1.UpdateActive, Status: metav1.ConditionFalse, Reason: "Completed"})
	healthWarning := updateStatus(metav1.Condition{Type: insightsv1alpha1.UpdateActive, Status: metav1.ConditionFalse, Reason: "Completed"},
		managedInsight("step-failing/1", insightsv1alpha1.WarningInsightLevel, "Managed update step ClusterHealthyBeforeUpgrade: critical alert(s) firing: KubePersistentVolumeErrors"),
		managedInsight("step/2", insightsv1alpha1.StatusInsightLevel, "Managed update to 4.15.0-ec.2: ClusterHealthyBeforeUpgrade (step 4 of 17)"))
	otherWarning := updateStatus(metav1.Condition{Type: insightsv1alpha1.UpdateActive, Status: metav1.ConditionFalse, Reason: "Completed"},
		managedInsight("step-failing/3", insightsv1alpha1.WarningInsightLevel, "Managed update step IsClusterUpgradable: not upgradeable"))
	step := updateStatus(metav1.Condition{Type: insightsv1alpha1.UpdateActive, Status: metav1.ConditionTrue, Reason: "Updating"},
		managedInsight("step/4", insightsv1alpha1.StatusInsightLevel, "Managed update to 4.15.0-ec.2: ControlPlaneUpgraded (step 9 of 17)"))

	for _, tc := range []struct {
		name     string
		statuses []*insightsv1alpha1.UpdateStatus
		want     managedSeen
	}{
		{name: "nothing managed", statuses: []*insightsv1alpha1.UpdateStatus{completed}},
		{name: "awaiting the window", statuses: []*insightsv1alpha1.UpdateStatus{completed, awaiting}, want: managedSeen{awaitingWindow: true}},
		{
			name:     "the health check's warning still there",
			statuses: []*insightsv1alpha1.UpdateStatus{awaiting, healthWarning},
			want:     managedSeen{awaitingWindow: true, healthWarning: true, step: true},
		},
		{
			name:     "the health check's warning gone",
			statuses: []*insightsv1alpha1.UpdateStatus{awaiting, healthWarning, step},
			want:     managedSeen{awaitingWindow: true, healthWarning: true, healthWarningLeft: true, step: true},
		},
		{
			name:     "another step's warning is not the health check's",
			statuses: []*insightsv1alpha1.UpdateStatus{otherWarning, completed},
		},
		{
			name:     "a step insight of another informer does not count",
			statuses: []*insightsv1alpha1.UpdateStatus{otherInformer(step)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got managedSeen
			for _, u := range tc.statuses {
				got.observe(u)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(managedSeen{})); diff != "" {
				t.Errorf("seen (-want +got):\n%s", diff)
			}
		})
	}
}

func TestManagedChecked(t *testing.T) {
	all := managedSeen{awaitingWindow: true, healthWarning: true, healthWarningLeft: true, step: true}
	for _, tc := range []struct {
		name         string
		beforeWindow managedSeen
		during       managedSeen
		statusWindow bool
		want         bool
	}{
		{name: "all shown", beforeWindow: managedSeen{awaitingWindow: true}, during: all, statusWindow: true, want: true},
		{name: "awaiting only after the window", during: all, statusWindow: true},
		{name: "the status command without the window", beforeWindow: managedSeen{awaitingWindow: true}, during: all},
		{name: "the warning never left", beforeWindow: managedSeen{awaitingWindow: true}, during: managedSeen{awaitingWindow: true, healthWarning: true, step: true}, statusWindow: true},
		{name: "no step", beforeWindow: managedSeen{awaitingWindow: true}, during: managedSeen{awaitingWindow: true, healthWarning: true, healthWarningLeft: true}, statusWindow: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, saw := managedChecked(tc.beforeWindow, tc.during, tc.statusWindow); got != tc.want {
				t.Errorf("managedChecked = %t, want %t (%s)", got, tc.want, saw)
			}
		})
	}
}

func updateStatus(active metav1.Condition, insights ...insightsv1alpha1.UpdateInsight) *insightsv1alpha1.UpdateStatus {
	u := &insightsv1alpha1.UpdateStatus{}
	u.Status.ControlPlane.Conditions = []metav1.Condition{active}
	if len(insights) > 0 {
		u.Status.ControlPlane.Informers = []insightsv1alpha1.InformerInsights{{Name: managedInformerName, Insights: insights}}
	}
	return u
}

func otherInformer(u *insightsv1alpha1.UpdateStatus) *insightsv1alpha1.UpdateStatus {
	u = u.DeepCopy()
	for i := range u.Status.ControlPlane.Informers {
		u.Status.ControlPlane.Informers[i].Name = demoInformerName
	}
	return u
}

func managedInsight(uid string, level insightsv1alpha1.UpdateInsightLevel, summary string) insightsv1alpha1.UpdateInsight {
	var i insightsv1alpha1.UpdateInsight
	i.UID, i.Impact.Level, i.Impact.Summary = uid, level, summary
	return i
}
