package precheck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// A budget's own alerts say what the budget check says: one finding
// carries both, at the alert's severity when that is higher, and an alert
// on a budget that holds up no drain stays a finding of its own.
func TestBudgetAlertsJoinTheBudgetsFinding(t *testing.T) {
	atLimit := alert(alertBudgetAtLimit, "warning", alerts.StateFiring, "namespace", "app", "poddisruptionbudget", "on-workers")
	limit := alert(alertBudgetLimit, "critical", alerts.StateFiring, "namespace", "app", "poddisruptionbudget", "on-a-master")
	elsewhere := alert(alertBudgetAtLimit, "warning", alerts.StateFiring, "namespace", "app", "poddisruptionbudget", "not-drained")
	pending := alert(alertBudgetAtLimit, "warning", alerts.StatePending, "namespace", "app", "poddisruptionbudget", "on-a-master")
	in := Input{
		Now:   now,
		Pools: []*machineconfigurationv1.MachineConfigPool{machinePool("master", false, nil), machinePool("worker", false, nil)},
		Nodes: []*corev1.Node{node("master-0", "master"), node("worker-0", "worker")},
		Budgets: []Budget{
			budget("on-workers", 0, pod("a", "worker-0", corev1.PodRunning)),
			budget("on-a-master", 0, pod("a", "master-0", corev1.PodRunning)),
			budget("not-drained", 0, pod("a", "gone", corev1.PodRunning)),
		},
		Alerts: []alerts.Alert{atLimit, limit, elsewhere, pending},
	}
	var got []seen
	quoted := map[string]string{}
	for _, check := range []check{disruptionBudgets, firingAlerts} {
		for _, f := range check(&in) {
			got = append(got, seenOf([]insightsv1alpha1.UpdateInsight{f})...)
			quoted[f.UID] = f.Impact.Description
		}
	}
	want := []seen{
		{"pdb/app/on-workers", "warning", "PodDisruptionBudget app/on-workers allows no disruption: the drain of node worker-0 will wait for it"},
		{"pdb/app/on-a-master", "critical", "PodDisruptionBudget app/on-a-master allows no disruption: the drain of node master-0 will wait for it"},
		{uidOf(elsewhere), "warning", "Warning alert PodDisruptionBudgetAtLimit is firing, which might slow node drains: PodDisruptionBudgetAtLimit summary."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("findings (-want +got):\n%s", diff)
	}
	for uid, a := range map[string]alerts.Alert{"pdb/app/on-workers": atLimit, "pdb/app/on-a-master": limit} {
		if !strings.Contains(quoted[uid], alertDetails(&a)) {
			t.Errorf("finding %s does not quote its alert %s: %q", uid, a.Name(), quoted[uid])
		}
	}
	if strings.Contains(quoted["pdb/app/on-a-master"], "pending") {
		t.Errorf("finding pdb/app/on-a-master quotes a pending alert: %q", quoted["pdb/app/on-a-master"])
	}
}
