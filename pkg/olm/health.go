package olm

import (
	"fmt"
	"slices"
	"strings"
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// HealthInput is what the health of OLM's operators during an update is
// made of.
type HealthInput struct {
	Cluster
	// UpdateStarted is when the update in progress started; zero when none
	// is.
	UpdateStarted time.Time
	Now           time.Time
}

// Health returns, while the cluster updates, an insight for each operator
// whose CSV has not succeeded for Settle or longer: an error when it left
// Succeeded after the update started, a warning when it was unhealthy
// before, which the update did not cause, or when its CSV does not tell
// whether it was: its phase history is full without Succeeded, or there is
// none. Each is resolved (no longer returned) once the CSV succeeds again.
// Recheck is how long until a CSV out of Succeeded for less than Settle is
// due, zero when none is. Nothing in the insights depends on Now but
// whether they are due, so an unchanged cluster gives unchanged insights.
func Health(in HealthInput) (insights []insightsv1alpha1.UpdateInsight, recheck time.Duration) {
	if in.UpdateStarted.IsZero() {
		return nil, 0
	}
	for _, csv := range in.installed() {
		if csv.Status.Phase == operatorsv1alpha1.CSVPhaseSucceeded || beingReplaced(csv) {
			continue
		}
		since, exact := notSucceededSince(csv)
		if !since.IsZero() {
			if due := since.Add(Settle).Sub(in.Now); due > 0 {
				if recheck == 0 || due < recheck {
					recheck = due
				}
				continue
			}
		}
		f := finding{
			uid: uid("unhealthy", csv.Namespace, csv.Name), impact: insightsv1alpha1.UnknownImpactType,
			resources: resourcesOf(csv, in.subscriptionOf(csv)), acquired: since,
			description: state(csv) + "\n" + conditions(csv) + "\n" + history(csv),
		}
		switch {
		case since.IsZero():
			// Neither its history nor its status says since when: whether
			// the update caused it cannot be told.
			f.level = insightsv1alpha1.WarningInsightLevel
			f.summary = fmt.Sprintf("Operator %s is %s, since a time its CSV does not tell", operatorName(csv), phaseOf(csv))
		case !since.Before(in.UpdateStarted) && exact:
			f.level = insightsv1alpha1.ErrorInsightLevel
			f.summary = fmt.Sprintf("Operator %s is %s since %s, during the update", operatorName(csv), phaseOf(csv), since.UTC().Format(time.RFC3339))
		case !since.Before(in.UpdateStarted):
			// A full history without Succeeded: OLM retrying an install
			// fills it in minutes, so the CSV may have left Succeeded
			// before the update as well as during it; it is not blamed on
			// the update.
			f.level = insightsv1alpha1.WarningInsightLevel
			f.summary = fmt.Sprintf("Operator %s is %s%s: it may have been unhealthy before the update started", operatorName(csv), phaseOf(csv), sinceText(since, exact))
		default:
			f.level = insightsv1alpha1.WarningInsightLevel
			f.summary = fmt.Sprintf("Operator %s is %s%s, from before the update started: not caused by it", operatorName(csv), phaseOf(csv), sinceText(since, exact))
		}
		insights = append(insights, f.insight())
	}
	return insights, recheck
}

// conditions describes csv as the Available and Progressing conditions of
// OLM's CSV status proposal (doc/contributors/design-proposals/csv-status.md
// of operator-lifecycle-manager) would. OLM never implemented them: a
// CSV's conditions are its phase history, so they are derived from the
// phase: Available while Succeeded, Progressing while OLM installs or
// replaces it.
func conditions(csv *operatorsv1alpha1.ClusterServiceVersion) string {
	available, progressing := "False", "False"
	switch csv.Status.Phase {
	case operatorsv1alpha1.CSVPhaseSucceeded:
		available = "True"
	case operatorsv1alpha1.CSVPhasePending, operatorsv1alpha1.CSVPhaseInstallReady, operatorsv1alpha1.CSVPhaseInstalling, operatorsv1alpha1.CSVPhaseReplacing:
		progressing = "True"
	}
	reason := ""
	if csv.Status.Reason != "" {
		reason = " (" + csv.Status.Reason + ")"
	}
	return fmt.Sprintf("Available=%s%s, Progressing=%s%s.", available, reason, progressing, reason)
}

// historyShown is how many of the newest entries of a CSV's phase history
// an insight shows.
const historyShown = 5

// history is the newest entries of csv's phase history.
func history(csv *operatorsv1alpha1.ClusterServiceVersion) string {
	entries := csv.Status.Conditions
	if len(entries) > historyShown {
		entries = entries[len(entries)-historyShown:]
	}
	var lines []string
	for _, e := range slices.Backward(entries) {
		line := string(e.Phase)
		if e.Reason != "" {
			line += " (" + e.Reason + ")"
		}
		if t := timeOf(e.LastTransitionTime); !t.IsZero() {
			line = t.UTC().Format(time.RFC3339) + " " + line
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return "No phase history."
	}
	return "Recent phases, newest first: " + strings.Join(lines, "; ") + "."
}
