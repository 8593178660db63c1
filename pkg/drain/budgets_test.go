package drain

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Budgets select pods as the eviction handler's getPodDisruptionBudgets does.
func TestSelects(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget *policyv1.PodDisruptionBudget
		pod    *corev1.Pod
		want   bool
	}{
		{"matching labels", budget("web", 3, 2, 3, started), pod("web-1"), true},
		{"other labels", budget("web", 3, 2, 3, started), pod("db-1", labelled("app", "db")), false},
		{"another namespace", budget("web", 3, 2, 3, started, budgetNamespace("other")), pod("web-1"), false},
		{"an empty selector selects the whole namespace", budget("all", 3, 2, 3, started, selecting(&metav1.LabelSelector{})), pod("db-1", labelled("app", "db")), true},
		{"a nil selector selects nothing", budget("none", 3, 2, 3, started, selecting(nil)), pod("web-1"), false},
		{"an expression", budget("web", 3, 2, 3, started, selecting(&metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"web", "api"}},
		}})), pod("web-1"), true},
		{"a selector that does not parse selects nothing", budget("bad", 3, 2, 3, started, selecting(&metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "app", Operator: "Near", Values: []string{"web"}},
		}})), pod("web-1"), false},
		{"no budget", nil, pod("web-1"), false},
		{"no pod", budget("web", 3, 2, 3, started), nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Selects(tc.budget, tc.pod); got != tc.want {
				t.Errorf("Selects = %t, want %t", got, tc.want)
			}
		})
	}
}

func TestBudgetsOf(t *testing.T) {
	web := budget("web", 3, 2, 3, started)
	all := budget("all", 3, 2, 3, started, selecting(&metav1.LabelSelector{}))
	other := budget("web", 3, 2, 3, started, budgetNamespace("other"))
	got := BudgetsOf(pod("web-1"), []*policyv1.PodDisruptionBudget{web, nil, other, all})
	if diff := cmp.Diff([]*policyv1.PodDisruptionBudget{web, all}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
