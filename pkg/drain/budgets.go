package drain

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// maxDisruptedPodSize is the eviction handler's MaxDisruptedPodSize
// (kubernetes pkg/registry/core/pod/storage/eviction.go): a budget with more
// evictions the disruption controller has not yet confirmed refuses more.
const maxDisruptedPodSize = 2000

// Selects says whether the eviction API counts budget as the pod's: the same
// namespace, and a selector that matches the pod's labels, read as
// metav1.LabelSelectorAsSelector reads it (a nil selector matches nothing, an
// empty one every pod of the namespace; one that does not parse matches
// nothing) (eviction.go, getPodDisruptionBudgets).
func Selects(budget *policyv1.PodDisruptionBudget, pod *corev1.Pod) bool {
	if budget == nil || pod == nil || budget.Namespace != pod.Namespace {
		return false
	}
	selector, ok := Selector(budget)
	return ok && selector.Matches(labels.Set(pod.Labels))
}

// Selector is the budget's selector as Selects reads it, for a caller that
// lists the pods of its namespace the budget selects; ok is false when it
// selects none (a nil selector, or one that does not parse), whose String
// would list every pod.
func Selector(budget *policyv1.PodDisruptionBudget) (labels.Selector, bool) {
	if budget == nil || budget.Spec.Selector == nil {
		return nil, false
	}
	selector, err := metav1.LabelSelectorAsSelector(budget.Spec.Selector)
	if err != nil {
		return nil, false
	}
	return selector, true
}

// MayRefuse says whether the eviction API may refuse to evict a pod the
// budget alone selects (evict): its status not yet computed for its spec,
// no disruption allowed, or too many evictions unconfirmed. Of a budget
// that may not, only a pod another budget also selects is refused, for a
// caller that reads the pods of the budgets that matter.
func MayRefuse(pdb *policyv1.PodDisruptionBudget) bool {
	return pdb != nil && (!pdbStatusCurrent(pdb) || pdb.Status.DisruptionsAllowed <= 0 || len(pdb.Status.DisruptedPods) > maxDisruptedPodSize)
}

// BudgetsOf are the budgets that select the pod (Selects), in their order.
func BudgetsOf(pod *corev1.Pod, budgets []*policyv1.PodDisruptionBudget) []*policyv1.PodDisruptionBudget {
	var out []*policyv1.PodDisruptionBudget
	for _, b := range budgets {
		if Selects(b, pod) {
			out = append(out, b)
		}
	}
	return out
}

// canIgnoreBudgets is the eviction handler's canIgnorePDB (eviction.go) for a
// pod not yet deleted: a finished or pending pod is deleted without a look at
// its budgets. canIgnorePDB also ignores them for a deleted pod, which Node
// judges first by what holds it.
func canIgnoreBudgets(pod *corev1.Pod) bool {
	switch pod.Status.Phase {
	case corev1.PodSucceeded, corev1.PodFailed, corev1.PodPending:
		return true
	}
	return false
}

// evict is what the eviction handler answers for a pod whose budgets it
// cannot ignore (eviction.go, Create and checkAndDecrement): "" when it
// accepts, else why it refuses. pending are the pods waiting to be scheduled.
func evict(pod *corev1.Pod, budgets []*policyv1.PodDisruptionBudget, pending []*corev1.Pod) (Reason, []string) {
	if len(budgets) > 1 {
		// Refused with a 500: "This pod has more than one
		// PodDisruptionBudget, which the eviction subresource does not
		// support."
		return MultipleBudgets, nil
	}
	if len(budgets) == 0 {
		return "", nil
	}
	pdb := budgets[0]
	// An unready pod whose budget's application is not disrupted is deleted
	// without using up a disruption; IsPodReady is the handler's health.
	if !podReady(pod) {
		if pdb.Spec.UnhealthyPodEvictionPolicy != nil && *pdb.Spec.UnhealthyPodEvictionPolicy == policyv1.AlwaysAllow {
			return "", nil
		}
		if pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0 {
			return "", nil
		}
	}
	// checkAndDecrement, in its order. The DisruptionAllowed condition only
	// words its message, except that a SyncFailed one says the numbers are
	// not the disruption controller's (its failSafe writes 0 allowed).
	switch {
	case pdb.Status.ObservedGeneration < pdb.Generation:
		return BudgetNotSynced, nil
	case pdb.Status.DisruptionsAllowed < 0:
		return BudgetAtLimit, nil
	case len(pdb.Status.DisruptedPods) > maxDisruptedPodSize:
		return BudgetNotSynced, nil
	case pdb.Status.DisruptionsAllowed > 0:
		return "", nil
	case syncFailed(pdb):
		return BudgetNotSynced, nil
	}
	if names := unschedulable(pdb, pending); len(names) > 0 {
		return ReplacementUnschedulable, names
	}
	return BudgetAtLimit, nil
}

// podReady is IsPodReady (kubernetes pkg/api/v1/pod): the Ready condition is
// True.
func podReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// disruptionAllowed is the budget's DisruptionAllowed condition, which the
// disruption controller keeps (kubernetes
// k8s.io/component-helpers/apps/poddisruptionbudget, UpdateDisruptionAllowedCondition;
// disruption.go, failSafe), or nil.
func disruptionAllowed(pdb *policyv1.PodDisruptionBudget) *metav1.Condition {
	return meta.FindStatusCondition(pdb.Status.Conditions, policyv1.DisruptionAllowedCondition)
}

// syncFailed says the disruption controller could not compute the budget
// (disruption.go, failSafe: DisruptionAllowed False, SyncFailed, the error as
// its message), which the eviction handler checks first "because
// DesiredHealthy and CurrentHealthy are not trustworthy".
func syncFailed(pdb *policyv1.PodDisruptionBudget) bool {
	c := disruptionAllowed(pdb)
	return c != nil && c.Status == metav1.ConditionFalse && c.Reason == policyv1.SyncFailedReason
}

// unschedulable are the names of the pending pods the budget selects that the
// scheduler could not place: PodScheduled False with reason Unschedulable, as
// the scheduler writes it (kubernetes pkg/scheduler/schedule_one.go,
// handleSchedulingFailure). While one waits, the budget cannot regain the
// healthy pod that would allow a disruption.
func unschedulable(pdb *policyv1.PodDisruptionBudget, pending []*corev1.Pod) []string {
	var names []string
	for _, p := range pending {
		if p == nil || p.DeletionTimestamp != nil || p.Spec.NodeName != "" || p.Status.Phase != corev1.PodPending || !Selects(pdb, p) {
			continue
		}
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable {
				names = append(names, p.Name)
				break
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func budgetOf(pdb *policyv1.PodDisruptionBudget) Budget {
	return Budget{
		Namespace:          pdb.Namespace,
		Name:               pdb.Name,
		DisruptionsAllowed: pdb.Status.DisruptionsAllowed,
		CurrentHealthy:     pdb.Status.CurrentHealthy,
		DesiredHealthy:     pdb.Status.DesiredHealthy,
		ExpectedPods:       pdb.Status.ExpectedPods,
	}
}

func budgetsOf(pdbs []*policyv1.PodDisruptionBudget) []Budget {
	out := make([]Budget, 0, len(pdbs))
	for _, b := range pdbs {
		out = append(out, budgetOf(b))
	}
	slices.SortFunc(out, func(a, b Budget) int { return strings.Compare(a.Name, b.Name) })
	return out
}
