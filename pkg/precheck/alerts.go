package precheck

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// precheckLabel marks an alert its authors want looked at before an update,
// whatever its severity.
const precheckLabel = "openShiftUpdatePrecheck"

const uidAlertsUnreadable = "alerts-unreadable"

// firingAlerts: a critical alert is a problem worth investigating before
// updating, and so is an alert labelled for pre-checks.
func firingAlerts(in *Input) []insightsv1alpha1.UpdateInsight {
	if in.AlertsUnreadable != nil {
		return []insightsv1alpha1.UpdateInsight{finding{
			uid: uidAlertsUnreadable, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
			scope:       controlPlane(),
			summary:     "The firing alerts could not be read, so the pre-checks cannot say whether a critical one fires",
			description: in.AlertsUnreadable.Error(),
		}.insight(in.Now)}
	}
	var out []insightsv1alpha1.UpdateInsight
	for i := range in.Alerts {
		a := &in.Alerts[i]
		name := a.Name()
		if name == "" || a.State != alerts.StateFiring {
			continue
		}
		critical, labelled := a.Labels["severity"] == "critical", a.Labels[precheckLabel] == "true"
		if !critical && !labelled {
			continue
		}
		summary := a.Annotations["summary"]
		if summary == "" {
			summary = name
		}
		f := finding{
			uid: "alert/" + name + "/" + shortHash(a.Identity()), level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
			scope:       controlPlane(alertResource(a)),
			summary:     fmt.Sprintf("Alert %s is firing, suggesting issues worth investigating before updating: %s", name, summary),
			description: a.Description(),
			reference:   a.Annotations["runbook_url"],
		}
		if critical {
			f.level = insightsv1alpha1.CriticalInsightLevel
			f.summary = fmt.Sprintf("Critical alert %s is firing, suggesting significant cluster issues worth investigating: %s", name, summary)
		}
		out = append(out, f.insight(in.Now))
	}
	return out
}

// alertResource names an alert as the health insights do: by its name, in
// its namespace when it has one the API accepts.
func alertResource(a *alerts.Alert) insightsv1alpha1.InsightResource {
	r := insightsv1alpha1.InsightResource{Group: configv1.GroupName, Kind: "Alert", Name: text.Truncate(a.Name(), 253)}
	if ns := a.Labels["namespace"]; len(ns) <= 63 {
		r.Namespace = ns
	}
	return r
}
