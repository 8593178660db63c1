package planview

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

// MaxAge is how long ago a plan may have been evaluated for an update to
// start on it. The controller evaluates a plan again at least every 10
// minutes while it exists; a plan older than this has lost its controller,
// and what it says may no longer hold.
const MaxAge = 15 * time.Minute

// Evaluated says whether the plan answers request, its spec's
// evaluationRequest: the controller evaluated it and waits for no informer
// any longer (each answered, or could not be heard in time). When not, it
// says what is awaited.
func Evaluated(plan *insightsv1alpha1.UpdatePlan, request string) (bool, string) {
	if plan.Status.ObservedEvaluationRequest != request {
		return false, "the operator to evaluate the plan"
	}
	answered := meta.FindStatusCondition(plan.Status.Conditions, updateplan.ConditionAnswered)
	switch {
	case answered == nil:
		return false, "the operator to say whether every informer answered"
	case answered.Reason == updateplan.ReasonWaitingForInformers:
		// The message names them: "Waiting for the findings of mco."
		return false, strings.TrimSuffix(strings.TrimPrefix(answered.Message, "Waiting for "), ".")
	}
	return true, ""
}

// Unaccepted are the findings that need accepting and are not accepted.
func Unaccepted(findings []Finding) []Finding {
	var out []Finding
	for _, f := range findings {
		if f.NeedsAcceptance && !f.Accepted {
			out = append(out, f)
		}
	}
	return out
}

// names are the findings' short names.
func names(findings []Finding) []string {
	out := make([]string, 0, len(findings))
	for _, f := range findings {
		out = append(out, f.Name)
	}
	return out
}

// Blockers are why the plan does not allow the update to start, one
// sentence each; none when it does: it answers its latest evaluation
// request, was evaluated within MaxAge of now, every informer answered and
// every finding is accepted.
func Blockers(plan *insightsv1alpha1.UpdatePlan, now time.Time) []string {
	var out []string
	s := &plan.Status
	if s.ObservedEvaluationRequest != plan.Spec.EvaluationRequest {
		out = append(out, fmt.Sprintf("the plan was not evaluated since its evaluation request %q (it answers %q)",
			plan.Spec.EvaluationRequest, s.ObservedEvaluationRequest))
	}
	switch {
	case s.EvaluatedAt == nil:
		out = append(out, "the plan was never evaluated")
	case now.Sub(s.EvaluatedAt.Time) > MaxAge:
		out = append(out, fmt.Sprintf("the plan was evaluated %s ago, more than %s: is the operator running?",
			now.Sub(s.EvaluatedAt.Time).Truncate(time.Second), MaxAge))
	}
	// An informer the plan stopped waiting for (InformersOffline) is a
	// finding of the operator's own, which must be accepted like any other:
	// the findings below hold it back, not the condition.
	if c := meta.FindStatusCondition(s.Conditions, updateplan.ConditionAnswered); c == nil || c.Reason != updateplan.ReasonInformersOffline {
		if c := condition(s.Conditions, updateplan.ConditionAnswered); c != "" {
			out = append(out, "not every informer answered: "+c)
		}
	}
	if unaccepted := Unaccepted(Findings(plan)); len(unaccepted) > 0 {
		out = append(out, fmt.Sprintf("not accepted: %s", strings.Join(names(unaccepted), ", ")))
	} else if c := condition(s.Conditions, updateplan.ConditionAccepted); c != "" {
		// Every finding shown is accepted, but the plan is not: it could
		// not hold them all, or the controller has not caught up.
		out = append(out, "the findings are not all accepted: "+c)
	}
	return out
}

// condition is what a condition that is not True says, or "" when it is
// True.
func condition(conditions []metav1.Condition, conditionType string) string {
	c := meta.FindStatusCondition(conditions, conditionType)
	switch {
	case c == nil:
		return fmt.Sprintf("the plan has no %s condition yet", conditionType)
	case c.Status == metav1.ConditionTrue:
		return ""
	}
	return fmt.Sprintf("%s=%s (%s) %s", c.Type, c.Status, c.Reason, strings.TrimSuffix(c.Message, "."))
}
