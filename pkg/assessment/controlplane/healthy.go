package controlplane

import (
	"fmt"
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// The ClusterVersion insight's Healthy condition is the summary of the
// control plane's health insights: pkg/health builds those (controlplane.go,
// from the ClusterVersion and the ClusterOperators); this file only ranks
// them and says whether any is an error. A ClusterOperator insight's Healthy
// condition is that operator's own conditions (operatorHealthy).

// unhealthy says whether a level makes the control plane unhealthy: Error
// and the more serious.
func unhealthy(level insightsv1alpha1.InsightImpactLevel) bool {
	return insightsv1alpha1.ImpactLevelRank(level) <= insightsv1alpha1.ImpactLevelRank(insightsv1alpha1.ErrorImpactLevel)
}

// setHealthy sets the Healthy condition of a ClusterVersion insight's status
// from the control plane's health insights: False, with the worst problem as
// its reason, when any Error or Critical insight is scoped to the control
// plane. It leaves the assessment alone: `oc adm upgrade status` assesses an
// update by its estimate, whatever its problems. current is the insight's
// status as last written, or nil.
func setHealthy(status *insightsv1alpha1.ClusterVersionProgressInsightStatus, insights []health.Insight,
	current *insightsv1alpha1.ClusterVersionProgressInsightStatus, now time.Time) {
	var serious []health.Insight
	for _, i := range insights {
		if unhealthy(i.Status.Impact.Level) && i.Status.Scope.Type == insightsv1alpha1.ScopeTypeControlPlane {
			serious = append(serious, i)
		}
	}
	// The worst first: the highest level, then the longest-standing.
	sort.SliceStable(serious, func(a, b int) bool {
		sa, sb := &serious[a].Status, &serious[b].Status
		if ra, rb := insightsv1alpha1.ImpactLevelRank(sa.Impact.Level), insightsv1alpha1.ImpactLevelRank(sb.Impact.Level); ra != rb {
			return ra < rb
		}
		return startedOrNow(sa, now).Before(startedOrNow(sb, now))
	})

	healthy := metav1.Condition{
		Type:    insightsv1alpha1.ClusterVersionProgressInsightHealthy,
		Status:  metav1.ConditionTrue,
		Reason:  "AsExpected",
		Message: "No error-level problem with the control plane update",
	}
	if len(serious) > 0 {
		worst := serious[0]
		healthy.Status, healthy.Reason, healthy.Message = metav1.ConditionFalse, worst.Problem, worst.Status.Impact.Summary
		if more := len(serious) - 1; more > 0 {
			healthy.Message += fmt.Sprintf(", and %d more error-level problems", more)
		}
	}
	var conditions []metav1.Condition
	if current != nil {
		conditions = current.Conditions
	}
	status.Conditions = append(status.Conditions, withTransitionTime(healthy, conditions, now))
}

func startedOrNow(s *insightsv1alpha1.UpdateHealthInsightStatus, now time.Time) time.Time {
	if s.StartedAt.IsZero() {
		return now
	}
	return s.StartedAt.Time
}
