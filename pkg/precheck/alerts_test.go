package precheck

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
)

func alert(name, severity, state string, labels ...string) alerts.Alert {
	a := alerts.Alert{
		Labels:      map[string]string{"alertname": name, "severity": severity},
		Annotations: map[string]string{"summary": name + " summary", "description": "What " + name + " means.", "runbook_url": "https://runbooks.example/" + name},
		State:       state,
	}
	for i := 0; i+1 < len(labels); i += 2 {
		a.Labels[labels[i]] = labels[i+1]
	}
	return a
}

// uidOf is the uid of an alert's finding.
func uidOf(a alerts.Alert) string { return "alert/" + a.Name() + "/" + shortHash(a.Identity()) }

func TestFiringAlerts(t *testing.T) {
	tests := []struct {
		name       string
		alerts     []alerts.Alert
		unreadable error
		want       []seen
	}{
		{
			name: "critical firing",
			alerts: []alerts.Alert{
				alert("KubeAPIErrorBudgetBurn", "critical", alerts.StateFiring),
				alert("KubeAPIErrorBudgetBurn", "critical", alerts.StatePending, "namespace", "other"),
			},
			want: []seen{{uidOf(alert("KubeAPIErrorBudgetBurn", "critical", alerts.StateFiring)), "critical",
				"Critical alert KubeAPIErrorBudgetBurn is firing, suggesting significant cluster issues worth investigating: KubeAPIErrorBudgetBurn summary"}},
		},
		{
			name: "labelled for pre-checks",
			alerts: []alerts.Alert{
				alert("OldAPIsInUse", "info", alerts.StateFiring, precheckLabel, "true"),
				alert("Watchdog", "none", alerts.StateFiring),
				alert("ClusterNotUpgradeable", "warning", alerts.StateFiring, precheckLabel, "false"),
			},
			want: []seen{{uidOf(alert("OldAPIsInUse", "info", alerts.StateFiring, precheckLabel, "true")), "warning",
				"Alert OldAPIsInUse is firing, suggesting issues worth investigating before updating: OldAPIsInUse summary"}},
		},
		{
			name:   "an alert without a name",
			alerts: []alerts.Alert{{Labels: map[string]string{"severity": "critical"}, State: alerts.StateFiring}},
		},
		{
			name:       "unreadable",
			alerts:     []alerts.Alert{alert("KubeAPIErrorBudgetBurn", "critical", alerts.StateFiring)},
			unreadable: errors.New("Get https://thanos-querier: 503 Service Unavailable"),
			want:       []seen{{uidAlertsUnreadable, "warning", "The firing alerts could not be read, so the pre-checks cannot say whether a critical one fires"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := firingAlerts(&Input{Now: now, Alerts: tt.alerts, AlertsUnreadable: tt.unreadable})
			if diff := cmp.Diff(tt.want, seenOf(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// Each instance of an alert is a finding of its own, accepted on its own.
func TestAlertInstancesHaveTheirOwnUIDs(t *testing.T) {
	got := firingAlerts(&Input{Now: now, Alerts: []alerts.Alert{
		alert("PodDisruptionBudgetLimit", "critical", alerts.StateFiring, "namespace", "a", "poddisruptionbudget", "one"),
		alert("PodDisruptionBudgetLimit", "critical", alerts.StateFiring, "namespace", "a", "poddisruptionbudget", "two"),
	}})
	if len(got) != 2 || got[0].UID == got[1].UID {
		t.Fatalf("findings %+v, want two with distinct uids", seenOf(got))
	}
	if got[0].Remediation.Reference != "https://runbooks.example/PodDisruptionBudgetLimit" || got[0].Scope.Resources[0].Namespace != "a" {
		t.Errorf("finding %+v lacks the runbook or the alert's namespace", got[0])
	}
}
