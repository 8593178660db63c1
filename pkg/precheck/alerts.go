package precheck

import (
	"fmt"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// precheckLabel marks an alert its authors want looked at before an update,
// whatever its severity.
const precheckLabel = "openShiftUpdatePrecheck"

const uidAlertsUnchecked = "alerts-unchecked"

// alertFamily is a kind of alert that bears on an update, and what it
// suggests, in the words of `oc adm upgrade recommend`.
type alertFamily struct {
	level    insightsv1alpha1.UpdateInsightLevel
	impact   insightsv1alpha1.InsightImpactType
	suggests string
}

var (
	criticalAlerts = alertFamily{insightsv1alpha1.CriticalInsightLevel, insightsv1alpha1.UnknownImpactType,
		"suggesting significant cluster issues worth investigating"}
	budgetAlerts = alertFamily{insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.UpdateStalledImpactType,
		"which might slow node drains"}
	slowRedistributionAlerts = alertFamily{insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.UpdateSpeedImpactType,
		"which may slow workload redistribution during rolling node updates"}
	precheckAlerts = alertFamily{insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.UnknownImpactType,
		"suggesting issues worth investigating before updating the cluster"}
)

// familyOf is the family of an alert, tried in the order of oc's
// recommend (pkg/cli/admin/upgrade/recommend/alerts.go): any critical
// alert first, then budgets, image pulls, nodes, alerts labelled for
// pre-checks, and virtualization. Image pulls, nodes and virtualization
// share what they suggest, as there.
func familyOf(a *alerts.Alert) (alertFamily, bool) {
	if a.Labels["severity"] == "critical" {
		return criticalAlerts, true
	}
	switch a.Name() {
	case alertBudgetAtLimit:
		return budgetAlerts, true
	case "KubeContainerWaiting",
		"KubeletHealthState", "KubeNodeNotReady", "KubeNodeReadinessFlapping", "KubeNodeUnreachable":
		return slowRedistributionAlerts, true
	}
	if a.Labels[precheckLabel] == "true" {
		return precheckAlerts, true
	}
	switch a.Name() {
	case "VirtHandlerDaemonSetRolloutFailing", "VMCannotBeEvicted":
		return slowRedistributionAlerts, true
	}
	return alertFamily{}, false
}

// firingAlerts: every alert instance of a family that bears on an update is
// a finding of its own, accepted on its own. Pending alerts are not, as in
// oc; neither are the alerts of a budget that the budget check reports.
func firingAlerts(in *Input) []insightsv1alpha1.UpdateInsight {
	if in.AlertsUnreadable != nil {
		// oc's recommend makes a failed read of the alerts an issue to
		// accept (FailedToCompletePrecheck; AlertNoTestData when a mocked
		// run has no alerts): a check that did not run is no pass.
		return []insightsv1alpha1.UpdateInsight{finding{
			uid: uidAlertsUnchecked, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
			scope:   controlPlane(clusterOperatorResource("monitoring")),
			summary: "The alert checks did not run: " + in.AlertsUnreadable.Error(),
			description: "The pre-checks look for firing critical alerts, and for alerts on budgets, image pulls, nodes, virtualization and " +
				"those labelled openShiftUpdatePrecheck=\"true\", as `oc adm upgrade recommend` does. None of them were looked at. " +
				"To check them by hand: `oc adm upgrade recommend --version " + in.Target + "`, or the console's Observe > Alerting page.",
		}.insight(in.Now)}
	}
	reported := map[string]bool{}
	for _, b := range in.blockedBudgets() {
		for _, pdb := range b.pdbs {
			reported[pdb.Namespace+"/"+pdb.Name] = true
		}
	}
	var out []insightsv1alpha1.UpdateInsight
	uids := map[string]int{}
	for i := range in.Alerts {
		a := &in.Alerts[i]
		name := a.Name()
		if name == "" || a.State == alerts.StatePending {
			continue
		}
		family, ok := familyOf(a)
		if !ok {
			continue
		}
		if namespace, budget, ok := isBudgetAlert(a); ok && reported[namespace+"/"+budget] {
			continue
		}
		// Prometheus answers one alert per label set, but a merged answer
		// (Thanos querying several) may repeat one: each is kept, under a
		// uid of its own, as findings' uids must be unique.
		uid := alertUIDPrefix + name + "/" + shortHash(a.Identity())
		if uids[uid]++; uids[uid] > 1 {
			uid += fmt.Sprintf("-%d", uids[uid])
		}
		f := finding{
			uid: uid, level: family.level, impact: family.impact,
			scope:       controlPlane(alertResource(a)),
			summary:     fmt.Sprintf("%s alert %s is %s, %s: %s", severityOf(a), name, a.State, family.suggests, summaryOf(a)),
			description: alertDetails(a),
			reference:   a.Annotations["runbook_url"],
		}
		out = append(out, f.insight(in.Now))
	}
	return out
}

// severityOf is an alert's severity, capitalised to begin a sentence.
func severityOf(a *alerts.Alert) string {
	s := a.Labels["severity"]
	if s == "" {
		return "An"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// summaryOf is an alert's summary, or its name when it has none, ending
// with a full stop.
func summaryOf(a *alerts.Alert) string {
	summary := a.Annotations["summary"]
	if summary == "" {
		summary = a.Name()
	}
	if !strings.HasSuffix(summary, ".") {
		summary += "."
	}
	return summary
}

// alertDetails is what oc's recommend says of an alert: its summary,
// description and runbook, with the budget an alert on budgets is about
// (whose upstream summary does not name it).
func alertDetails(a *alerts.Alert) string {
	runbook := a.Annotations["runbook_url"]
	if runbook == "" {
		runbook = "<alert does not have a runbook_url annotation>"
	}
	details := fmt.Sprintf("%s %s %s", summaryOf(a), a.Description(), runbook)
	if namespace, budget, ok := isBudgetAlert(a); ok {
		details = fmt.Sprintf("Namespace=%s, PodDisruptionBudget=%s. %s", namespace, budget, details)
	}
	return details
}

// alertResource names an alert as the health insights do: by its name, in
// its namespace when it has one the API accepts.
func alertResource(a *alerts.Alert) insightsv1alpha1.InsightResource {
	r := insightsv1alpha1.InsightResource{Group: configv1.GroupName, Kind: "Alert", Name: text.Truncate(a.Name(), insightsv1alpha1.ResourceNameMaxLength)}
	if ns := a.Labels["namespace"]; len(ns) <= insightsv1alpha1.ResourceNamespaceMaxLength {
		r.Namespace = ns
	}
	return r
}
