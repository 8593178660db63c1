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

// A budget's selector as a caller lists its pods with: none for a budget
// that selects nothing, whose String would list every pod.
func TestSelector(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget *policyv1.PodDisruptionBudget
		want   string
		ok     bool
	}{
		{"matching labels", budget("web", 3, 2, 3, started), "app=web", true},
		{"an empty selector selects the whole namespace", budget("all", 3, 2, 3, started, selecting(&metav1.LabelSelector{})), "", true},
		{"a nil selector selects nothing", budget("none", 3, 2, 3, started, selecting(nil)), "", false},
		{"a selector that does not parse selects nothing", budget("bad", 3, 2, 3, started, selecting(&metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "app", Operator: "Near", Values: []string{"web"}},
		}})), "", false},
		{"no budget", nil, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			selector, ok := Selector(tc.budget)
			if ok != tc.ok {
				t.Fatalf("Selector ok = %t, want %t", ok, tc.ok)
			}
			if ok && selector.String() != tc.want {
				t.Errorf("Selector = %q, want %q", selector.String(), tc.want)
			}
		})
	}
}

// MayRefuse is true of every budget that refuses the eviction of a pod it
// alone selects, whatever the pod, and false of one that accepts it.
func TestMayRefuse(t *testing.T) {
	pods := []*corev1.Pod{pod("web-1"), pod("web-2", notReady), pod("web-3", phase(corev1.PodPending))}
	for _, tc := range []struct {
		name   string
		budget *policyv1.PodDisruptionBudget
		want   bool
	}{
		{"allows a disruption", budget("web", 3, 2, 3, started), false},
		{"at its limit", budget("web", 2, 2, 3, started), true},
		{"its spec changed since its status", budget("web", 3, 2, 3, started, specChanged), true},
		{"its sync failed", budget("web", 3, 2, 3, started, syncFailedAt(started)), true},
		{"too many evictions unconfirmed", budget("web", 3, 2, 3, started, unconfirmed(maxDisruptedPodSize+1)), true},
		{"no budget", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MayRefuse(tc.budget); got != tc.want {
				t.Fatalf("MayRefuse = %t, want %t", got, tc.want)
			}
			if tc.budget == nil || tc.want {
				return
			}
			for _, p := range pods {
				if reason, _ := evict(p, []*policyv1.PodDisruptionBudget{tc.budget}, nil); reason != "" {
					t.Errorf("pod %s refused (%s) by a budget that may not refuse", p.Name, reason)
				}
			}
		})
	}
}
