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
			name: "critical firing, pending skipped",
			alerts: []alerts.Alert{
				alert("KubeAPIErrorBudgetBurn", "critical", alerts.StateFiring),
				alert("KubeAPIErrorBudgetBurn", "critical", alerts.StatePending, "namespace", "other"),
			},
			want: []seen{{uidOf(alert("KubeAPIErrorBudgetBurn", "critical", alerts.StateFiring)), "critical",
				"Critical alert KubeAPIErrorBudgetBurn is firing, suggesting significant cluster issues worth investigating: KubeAPIErrorBudgetBurn summary."}},
		},
		{
			name: "labelled for pre-checks",
			alerts: []alerts.Alert{
				alert("OldAPIsInUse", "info", alerts.StateFiring, precheckLabel, "true"),
				alert("Watchdog", "none", alerts.StateFiring),
				alert("ClusterNotUpgradeable", "warning", alerts.StateFiring, precheckLabel, "false"),
			},
			want: []seen{{uidOf(alert("OldAPIsInUse", "info", alerts.StateFiring, precheckLabel, "true")), "warning",
				"Info alert OldAPIsInUse is firing, suggesting issues worth investigating before updating the cluster: OldAPIsInUse summary."}},
		},
		{
			name: "budgets, image pulls, nodes and virtualization",
			alerts: []alerts.Alert{
				alert(alertBudgetAtLimit, "warning", alerts.StateFiring, "namespace", "app", "poddisruptionbudget", "db"),
				alert("KubeContainerWaiting", "warning", alerts.StateFiring, "namespace", "app", "pod", "db-0"),
				alert("KubeNodeNotReady", "warning", alerts.StateFiring, "node", "worker-0"),
				alert("KubeNodeUnreachable", "warning", alerts.StatePending, "node", "worker-1"),
				alert("VMCannotBeEvicted", "warning", alerts.StateFiring, "namespace", "vms", "name", "vm-0"),
				alert("KubePodNotReady", "warning", alerts.StateFiring),
			},
			want: []seen{
				{uidOf(alert(alertBudgetAtLimit, "warning", alerts.StateFiring, "namespace", "app", "poddisruptionbudget", "db")), "warning",
					"Warning alert PodDisruptionBudgetAtLimit is firing, which might slow node drains: PodDisruptionBudgetAtLimit summary."},
				{uidOf(alert("KubeContainerWaiting", "warning", alerts.StateFiring, "namespace", "app", "pod", "db-0")), "warning",
					"Warning alert KubeContainerWaiting is firing, which may slow workload redistribution during rolling node updates: KubeContainerWaiting summary."},
				{uidOf(alert("KubeNodeNotReady", "warning", alerts.StateFiring, "node", "worker-0")), "warning",
					"Warning alert KubeNodeNotReady is firing, which may slow workload redistribution during rolling node updates: KubeNodeNotReady summary."},
				{uidOf(alert("VMCannotBeEvicted", "warning", alerts.StateFiring, "namespace", "vms", "name", "vm-0")), "warning",
					"Warning alert VMCannotBeEvicted is firing, which may slow workload redistribution during rolling node updates: VMCannotBeEvicted summary."},
			},
		},
		{
			name:   "an alert without a name",
			alerts: []alerts.Alert{{Labels: map[string]string{"severity": "critical"}, State: alerts.StateFiring}},
		},
		{
			name:       "unreadable",
			alerts:     []alerts.Alert{alert("KubeAPIErrorBudgetBurn", "critical", alerts.StateFiring)},
			unreadable: errors.New("https://thanos-querier answered 503 Service Unavailable"),
			want:       []seen{{uidAlertsUnchecked, "warning", "The alert checks did not run: https://thanos-querier answered 503 Service Unavailable"}},
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

// A finding on an alert says what oc's recommend says of it: its summary,
// description and runbook, and for a budget, which budget.
func TestAlertDetails(t *testing.T) {
	tests := []struct {
		name  string
		alert alerts.Alert
		want  string
	}{
		{
			name:  "summary, description and runbook",
			alert: alert("KubeNodeNotReady", "warning", alerts.StateFiring),
			want:  "KubeNodeNotReady summary. The alert description is: What KubeNodeNotReady means. https://runbooks.example/KubeNodeNotReady",
		},
		{
			name:  "no summary, description or runbook",
			alert: alerts.Alert{Labels: map[string]string{"alertname": "Bare", "severity": "critical"}, State: alerts.StateFiring},
			want:  "Bare. The alert has no description. <alert does not have a runbook_url annotation>",
		},
		{
			name:  "a budget",
			alert: alert(alertBudgetLimit, "critical", alerts.StateFiring, "namespace", "app", "poddisruptionbudget", "db"),
			want:  "Namespace=app, PodDisruptionBudget=db. PodDisruptionBudgetLimit summary. The alert description is: What PodDisruptionBudgetLimit means. https://runbooks.example/PodDisruptionBudgetLimit",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, alertDetails(&tt.alert)); diff != "" {
				t.Errorf("details (-want +got):\n%s", diff)
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
