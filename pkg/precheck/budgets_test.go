package precheck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

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
			budget("on-a-master", 0, pod("b", "master-0", corev1.PodRunning)),
			budget("not-drained", 0, pod("c", "gone", corev1.PodRunning)),
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

// A budget holds up a drain when the eviction API would refuse to evict a
// pod it selects on a node the update drains, as the drain model judges it
// under the machine-config operator's options at once (wouldBlock): not
// merely because it allows no disruption.
func TestBudgetsHoldWhatTheEvictionAPIRefuses(t *testing.T) {
	notReady := func(p *corev1.Pod) *corev1.Pod {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
		return p
	}
	unhealthy := func(b Budget) Budget {
		b.PodDisruptionBudget.Status.CurrentHealthy = 1
		return b
	}
	alwaysAllow := func(b Budget) Budget {
		b.PodDisruptionBudget.Spec.UnhealthyPodEvictionPolicy = ptr.To(policyv1.AlwaysAllow)
		return b
	}
	// sharing makes b select the pods of the budget named other too.
	sharing := func(b Budget, other string) Budget {
		b.PodDisruptionBudget.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "budget", Operator: metav1.LabelSelectorOpIn, Values: []string{b.PodDisruptionBudget.Name, other}},
		}}
		return b
	}
	withPods := func(b Budget, pods ...*corev1.Pod) Budget {
		b.Pods = append(b.Pods, pods...)
		return b
	}
	specChanged := func(b Budget) Budget {
		b.PodDisruptionBudget.Generation, b.PodDisruptionBudget.Status.ObservedGeneration = 2, 1
		return b
	}
	for _, tc := range []struct {
		name    string
		budgets []Budget
		want    []seen
	}{
		{
			name:    "a running pod of a budget at its limit",
			budgets: []Budget{budget("db", 0, pod("db-0", "worker-0", corev1.PodRunning))},
			want:    []seen{{"pdb/app/db", "warning", "PodDisruptionBudget app/db allows no disruption: the drain of node worker-0 will wait for it"}},
		},
		{
			// eviction.go, canIgnorePDB: a pending pod is deleted without a
			// look at its budgets.
			name:    "a pending pod is evicted whatever its budget",
			budgets: []Budget{budget("db", 0, pod("db-0", "worker-0", corev1.PodPending))},
		},
		{
			// eviction.go: an unready pod is deleted without using up a
			// disruption while its budget has the healthy pods it needs.
			name:    "a pod not ready, of a budget with the healthy pods it needs, is evicted",
			budgets: []Budget{budget("db", 0, notReady(pod("db-0", "worker-0", corev1.PodRunning)))},
		},
		{
			// eviction.go: unhealthyPodEvictionPolicy AlwaysAllow.
			name:    "a pod not ready, of a budget that always allows the eviction of unhealthy pods, is evicted",
			budgets: []Budget{alwaysAllow(unhealthy(budget("db", 0, notReady(pod("db-0", "worker-0", corev1.PodRunning)))))},
		},
		{
			name:    "a pod not ready, of a budget short of healthy pods, holds",
			budgets: []Budget{unhealthy(budget("db", 0, notReady(pod("db-0", "worker-0", corev1.PodRunning))))},
			want:    []seen{{"pdb/app/db", "warning", "PodDisruptionBudget app/db allows no disruption: the drain of node worker-0 will wait for it"}},
		},
		{
			// eviction.go: a pod more than one budget selects is refused
			// outright, even by a budget that allows a disruption.
			name:    "a pod two budgets select holds, named by both",
			budgets: []Budget{budget("db", 0, pod("db-0", "worker-0", corev1.PodRunning)), sharing(budget("all", 1), "db")},
			want:    []seen{{"pdbs/app/all+db", "warning", "PodDisruptionBudgets app/all and app/db select the same pod: the drain of node worker-0 will wait for them"}},
		},
		{
			name: "two budgets at their limit that select one pod are one finding",
			budgets: []Budget{
				budget("db", 0, pod("db-0", "worker-0", corev1.PodRunning)),
				// Its pods are listed on their own, db-0 among them.
				withPods(sharing(budget("all", 0, pod("web-0", "worker-1", corev1.PodRunning)), "db"), budget("db", 0, pod("db-0", "worker-0", corev1.PodRunning)).Pods...),
			},
			want: []seen{
				{"pdbs/app/all+db", "warning", "PodDisruptionBudgets app/all and app/db select the same pod: the drain of node worker-0 will wait for them"},
				{"pdb/app/all", "warning", "PodDisruptionBudget app/all allows no disruption: the drain of node worker-1 will wait for it"},
			},
		},
		{
			// eviction.go, checkAndDecrement: a status the disruption
			// controller has not computed for the budget's generation.
			name:    "a budget whose status is older than its spec holds, whatever it allows",
			budgets: []Budget{specChanged(budget("db", 1, pod("db-0", "worker-0", corev1.PodRunning)))},
			want:    []seen{{"pdb/app/db", "warning", "PodDisruptionBudget app/db is not synced by the disruption controller: the drain of node worker-0 will wait for it"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &Input{
				Now:     now,
				Pools:   []*machineconfigurationv1.MachineConfigPool{machinePool("master", false, nil), machinePool("worker", false, nil)},
				Nodes:   []*corev1.Node{node("master-0", "master"), node("worker-0", "worker"), node("worker-1", "worker")},
				Budgets: tc.budgets,
			}
			if diff := cmp.Diff(tc.want, seenOf(disruptionBudgets(in))); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
