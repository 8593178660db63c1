package health

import (
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// How long a ClusterOperator may be unavailable or degraded before it is
// reported, and before it is an error: the thresholds of the
// ClusterOperatorDown and ClusterOperatorDegraded alerts and of
// `oc adm upgrade status`. Operators blink during an update; a blink is not
// a problem.
const (
	unavailableWarningAfter = 5 * time.Minute
	unavailableErrorAfter   = 20 * time.Minute
	degradedWarningAfter    = 5 * time.Minute
	degradedErrorAfter      = 40 * time.Minute

	// What the insight API accepts.
	maxSummaryLength     = insightsv1alpha1.InsightSummaryMaxLength
	maxDescriptionLength = insightsv1alpha1.HealthDescriptionMaxLength

	clusterOperatorDownRunbook     = "https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDown.md"
	clusterOperatorDegradedRunbook = "https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDegraded.md"
	updateTroubleshooting          = "https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html"
	historyTroubleshooting         = updateTroubleshooting + "#gathering-clusterversion-history-cli_troubleshooting_updates"
)

// Kinds of control plane problems, which name the insights and the reason of
// the control plane's Healthy condition.
const (
	ClusterVersionFailing      = "ClusterVersionFailing"
	ClusterVersionMayBeFailing = "ClusterVersionMayBeFailing"
	ClusterVersionNoFailing    = "ClusterVersionNoFailing"
	PreviousUpdatePartial      = "PreviousUpdatePartial"
	ClusterOperatorUnavailable = "ClusterOperatorUnavailable"
	ClusterOperatorDegraded    = "ClusterOperatorDegraded"
)

// ForControlPlane returns the health insights of the control plane's update
// at now: the ClusterVersion failing, an update started over a partial one,
// and payload ClusterOperators unavailable or degraded for too long. An
// update past its estimate is no insight of its own: the assessment says it
// (ProgressingSlow, Stalled), as `oc adm upgrade status` does, and these
// insights say what holds it. progress is the ClusterVersion insight's
// status as the assessment computed it. It also returns when the insights would
// next change by the passage of time alone (a threshold expiring), or the
// zero time. The ClusterVersion insight's Healthy condition summarises these
// insights (pkg/assessment/controlplane, healthy.go).
func ForControlPlane(cv *configv1.ClusterVersion, operators []*configv1.ClusterOperator, progress *insightsv1alpha1.ClusterVersionProgressInsightStatus, now time.Time) ([]Insight, time.Time) {
	updating := progress.Assessment != insightsv1alpha1.ClusterVersionAssessmentCompleted
	var next time.Time
	wake := func(at time.Time) {
		if at.After(now) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}

	insights := clusterVersionInsights(cv, updating)
	if !updating {
		return insights, next
	}
	for _, co := range operators {
		if i, ok := operatorInsight(co, now, wake); ok {
			insights = append(insights, i)
		}
	}
	return insights, next
}

func clusterVersionInsights(cv *configv1.ClusterVersion, updating bool) []Insight {
	scope := []insightsv1alpha1.ResourceRef{clusterVersionResource.ref(cv.Name)}
	var insights []Insight
	failing := v1helpers.FindStatusCondition(cv.Status.Conditions, configv1.ClusterStatusConditionType("Failing"))
	switch {
	case failing != nil && failing.Status == configv1.ConditionTrue:
		insights = append(insights, problem(ClusterVersionFailing, scope, failing.LastTransitionTime, insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.UpdateStalledImpactType,
			fmt.Sprintf("Cluster Version %s is failing to proceed with the update (%s)", cv.Name, failing.Reason), quoted(failing.Message, "ClusterVersion/"+cv.Name+" status.conditions[Failing]"), clusterOperatorDegradedRunbook))
	case failing != nil && failing.Status != configv1.ConditionFalse:
		insights = append(insights, problem(ClusterVersionMayBeFailing, scope, failing.LastTransitionTime, insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.UpdateStalledImpactType,
			fmt.Sprintf("Cluster Version %s may be failing to proceed with the update (%s)", cv.Name, failing.Reason), quoted(failing.Message, "ClusterVersion/"+cv.Name+" status.conditions[Failing]"), clusterOperatorDegradedRunbook))
	case failing == nil && updating:
		insights = append(insights, problem(ClusterVersionNoFailing, scope, metav1.Time{}, insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.UpdateStalledImpactType,
			fmt.Sprintf("Cluster Version %s does not say whether the update is failing", cv.Name),
			"The ClusterVersion has no Failing condition, so whether the cluster-version operator can apply the update is unknown. Check that the cluster-version operator is running.",
			updateTroubleshooting))
	}

	history := cv.Status.History
	if updating && len(history) > 1 && history[0].State == configv1.PartialUpdate && history[1].State == configv1.PartialUpdate {
		lastCompleted := "unknown"
		for _, h := range history[2:] {
			if h.State == configv1.CompletedUpdate {
				lastCompleted = h.Version
				break
			}
		}
		insights = append(insights, problem(PreviousUpdatePartial, scope, history[0].StartedTime, insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.NoneImpactType,
			fmt.Sprintf("Previous update to %s never completed, last complete update was %s", history[1].Version, lastCompleted),
			fmt.Sprintf("Current update to %s was initiated while the previous update to version %s was still in progress", history[0].Version, history[1].Version),
			historyTroubleshooting))
	}
	return insights
}

// operatorInsight reports a payload ClusterOperator unavailable, or else
// degraded, for longer than its threshold.
func operatorInsight(co *configv1.ClusterOperator, now time.Time, wake func(time.Time)) (Insight, bool) {
	scope := []insightsv1alpha1.ResourceRef{clusterOperatorResource.ref(co.Name)}
	if available := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable); available != nil && available.Status == configv1.ConditionFalse {
		level, ok := levelAfter(available.LastTransitionTime.Time, now, unavailableWarningAfter, unavailableErrorAfter, wake)
		return problem(ClusterOperatorUnavailable, scope, available.LastTransitionTime, level, insightsv1alpha1.APIAvailabilityImpactType,
			fmt.Sprintf("Cluster Operator %s is unavailable (%s)", co.Name, available.Reason), quoted(available.Message, "ClusterOperator/"+co.Name+" status.conditions[Available]"), clusterOperatorDownRunbook), ok
	}
	if degraded := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorDegraded); degraded != nil && degraded.Status == configv1.ConditionTrue {
		level, ok := levelAfter(degraded.LastTransitionTime.Time, now, degradedWarningAfter, degradedErrorAfter, wake)
		return problem(ClusterOperatorDegraded, scope, degraded.LastTransitionTime, level, insightsv1alpha1.APIAvailabilityImpactType,
			fmt.Sprintf("Cluster Operator %s is degraded (%s)", co.Name, degraded.Reason), quoted(degraded.Message, "ClusterOperator/"+co.Name+" status.conditions[Degraded]"), clusterOperatorDegradedRunbook), ok
	}
	return Insight{}, false
}

// levelAfter is the level of a condition that began at since: nothing before
// warnAfter, Warning, then Error after errorAfter. It asks to be woken when
// the level next changes.
func levelAfter(since, now time.Time, warnAfter, errorAfter time.Duration, wake func(time.Time)) (insightsv1alpha1.InsightImpactLevel, bool) {
	switch lasted := now.Sub(since); {
	case lasted < warnAfter:
		wake(since.Add(warnAfter))
		return "", false
	case lasted < errorAfter:
		wake(since.Add(errorAfter))
		return insightsv1alpha1.WarningImpactLevel, true
	default:
		return insightsv1alpha1.ErrorImpactLevel, true
	}
}

// quoted bounds a message another component wrote, which a description
// quotes, saying where the whole message is if it has to be cut.
func quoted(message, where string) string {
	return text.Cut(message, maxDescriptionLength, where)
}

func problem(kind string, scope []insightsv1alpha1.ResourceRef, since metav1.Time, level insightsv1alpha1.InsightImpactLevel,
	impact insightsv1alpha1.InsightImpactType, summary, description, reference string) Insight {
	return Insight{
		Name:    problemName("cv-", kind, scope),
		Problem: kind,
		Status: insightsv1alpha1.UpdateHealthInsightStatus{
			StartedAt: since,
			Scope:     insightsv1alpha1.InsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane, Resources: scope},
			Impact: insightsv1alpha1.InsightImpact{
				Level:       level,
				Type:        impact,
				Summary:     text.OneLine(summary, maxSummaryLength),
				Description: text.Truncate(description, maxDescriptionLength),
			},
			Remediation: insightsv1alpha1.InsightRemediation{Reference: reference},
		},
	}
}
