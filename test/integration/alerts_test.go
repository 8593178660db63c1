package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	"github.com/update-insights/update-insights-operator/test/internal/prometheus"
)

// The rules of the test's Prometheus: a PodDisruptionBudget alert and a
// pending one from the start, a critical and a warning alert that begin to
// fire during the update.
var (
	pdbRule = prometheus.Rule{Alert: "PodDisruptionBudgetAtLimit", Labels: monitoringLabels("warning"),
		Annotations: map[string]string{"summary": "The pod disruption budget is preventing further disruption to pods.", "runbook_url": "https://example.com/PodDisruptionBudgetAtLimit.md"}}
	pendingRule  = prometheus.Rule{Alert: "SlowToFire", For: time.Hour, Labels: monitoringLabels("critical")}
	criticalRule = prometheus.Rule{Alert: "KubeAPIErrorBudgetBurn", Labels: monitoringLabels("critical"),
		Annotations: map[string]string{"summary": "The API server is burning too much error budget.", "description": "burning", "message": "fast"}}
	warningRule = prometheus.Rule{Alert: "KubePodNotReady", Labels: monitoringLabels("warning")}
)

func monitoringLabels(severity string) map[string]string {
	return map[string]string{"namespace": "openshift-monitoring", "severity": severity}
}

// alertView is what the test checks of an alert's health insight.
type alertView struct {
	Resource, Level, Summary, Description, Reference string
	StartedDuringUpdate                              bool
}

// alertInsights lists the alert health insights as views, given when the
// update started.
func alertInsights(ctx context.Context, updateStarted time.Time) ([]alertView, error) {
	list, err := insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{LabelSelector: "insight-manager=alerts"})
	if err != nil {
		return nil, err
	}
	views := make([]alertView, 0, len(list.Items))
	for _, i := range list.Items {
		s := i.Status
		var resource string
		for _, r := range s.Scope.Resources {
			resource += fmt.Sprintf("%s.%s %s/%s", r.Resource, r.Group, r.Namespace, r.Name)
		}
		views = append(views, alertView{
			Resource: resource, Level: string(s.Impact.Level), Summary: s.Impact.Summary,
			Description: strings.SplitN(s.Impact.Description, ".", 2)[0], Reference: s.Remediation.Reference,
			StartedDuringUpdate: s.StartedAt.After(updateStarted),
		})
	}
	sort.Slice(views, func(a, b int) bool { return views[a].Resource < views[b].Resource })
	return views, nil
}

func waitForAlertInsights(t *testing.T, what string, updateStarted time.Time, want []alertView) {
	t.Helper()
	var got []alertView
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		var err error
		got, err = alertInsights(ctx, updateStarted)
		return err == nil && cmp.Equal(want, got), err
	})
	if err != nil {
		t.Fatalf("waiting for the alert insights %s: %v; (-want +got):\n%s", what, err, cmp.Diff(want, got))
	}
}

var (
	pdbBeforeUpdate = alertView{
		Resource: "alerts.config.openshift.io openshift-monitoring/PodDisruptionBudgetAtLimit", Level: "Warning",
		Summary:     "Alert is firing: The pod disruption budget is preventing further disruption to pods.",
		Description: "Alert known to affect updates has been firing since before the update started",
		Reference:   "https://example.com/PodDisruptionBudgetAtLimit.md",
	}
	criticalDuringUpdate = alertView{
		Resource: "alerts.config.openshift.io openshift-monitoring/KubeAPIErrorBudgetBurn", Level: "Critical",
		Summary: "Alert is firing: The API server is burning too much error budget.", Description: "Alert started firing during the update",
		StartedDuringUpdate: true,
	}
	warningDuringUpdate = alertView{
		Resource: "alerts.config.openshift.io openshift-monitoring/KubePodNotReady", Level: "Warning",
		Summary: "Alert is firing: KubePodNotReady", Description: "Alert started firing during the update",
		StartedDuringUpdate: true,
	}
)

// The alerts of a real Prometheus, read over TLS verified with its CA, become
// health insights by oc's rules while an update is in progress; a
// Prometheus that goes away changes no insight and is reported, and one that
// comes back is read again.
func TestFiringAlertsAreHealthInsights(t *testing.T) {
	server := startPrometheus(t, []prometheus.Rule{pdbRule, pendingRule})
	waitForPrometheus(t, server, "the PodDisruptionBudget alert firing", func(firing []alerts.Alert) bool {
		return hasAlert(firing, pdbRule.Alert, alerts.StateFiring) && hasAlert(firing, pendingRule.Alert, alerts.StatePending)
	})

	// The update starts after the PodDisruptionBudget alert, in whole
	// seconds as the ClusterVersion keeps them.
	started := time.Now().Truncate(time.Second).Add(time.Second)
	time.Sleep(time.Until(started.Add(10 * time.Millisecond)))
	status := midUpdateStatus()
	status.Conditions[0].LastTransitionTime = metav1.NewTime(started)
	status.History[0].StartedTime = metav1.NewTime(started)
	createClusterVersion(t, nil, status)
	restoreOwnClusterOperatorWhenDone(t)
	if err := resetOwnClusterOperator(context.Background()); err != nil {
		t.Fatal(err)
	}

	op := startOperator(t, "--alerts-url="+server.URL(), "--alerts-ca-file="+server.CAFile(), "--alerts-token-file="+alertsToken(t),
		"--alerts-interval=1s", "--degraded-grace-period=3s")

	waitForAlertInsights(t, "the PodDisruptionBudget alert alone: the other is pending", started, []alertView{pdbBeforeUpdate})

	if err := server.SetRules([]prometheus.Rule{pdbRule, pendingRule, criticalRule, warningRule}); err != nil {
		t.Fatal(err)
	}
	waitForAlertInsights(t, "with the alerts that fired during the update", started, []alertView{criticalDuringUpdate, warningDuringUpdate, pdbBeforeUpdate})

	if err := server.SetRules([]prometheus.Rule{pdbRule, pendingRule, criticalRule}); err != nil {
		t.Fatal(err)
	}
	waitForAlertInsights(t, "without the alert that stopped", started, []alertView{criticalDuringUpdate, pdbBeforeUpdate})

	// Prometheus goes away: the insights stay, and the operator says why
	// it cannot read them, without being Degraded.
	if err := server.Stop(); err != nil {
		t.Fatal(err)
	}
	co := waitForOwnClusterOperator(t, eventually, "saying the alerts cannot be read", func(co *configv1.ClusterOperator) bool {
		available := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable)
		return conditionsAre(co, healthyConditions) && available.Reason == "AlertsSourceUnreachable" &&
			strings.Contains(available.Message, "Alerts controller: its source has been unreachable since")
	})
	t.Logf("Available=True: %q", availableMessage(co))
	op.waitForOutput(t, "Cannot read the cluster's alerts", time.Second)
	waitForAlertInsights(t, "unchanged while Prometheus is away", started, []alertView{criticalDuringUpdate, pdbBeforeUpdate})

	// It comes back, and its alerts are active anew, all since the update
	// started.
	if err := server.Restart(); err != nil {
		t.Fatal(err)
	}
	pdbDuringUpdate := pdbBeforeUpdate
	pdbDuringUpdate.Description, pdbDuringUpdate.StartedDuringUpdate = "Alert known to affect updates started firing during the update", true
	waitForAlertInsights(t, "read again", started, []alertView{criticalDuringUpdate, pdbDuringUpdate})
	waitForOwnClusterOperator(t, eventually, "no longer saying the alerts cannot be read", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && !strings.Contains(availableMessage(co), "Alerts controller")
	})
	op.waitForOutput(t, "Reading the cluster's alerts again", time.Second)

	// The update completes: no alert matters to it any more.
	setClusterVersionStatus(t, getClusterVersion(t), completedStatus())
	waitForAlertInsights(t, "gone once the update completed", started, []alertView{})
}

// startPrometheus starts a real Prometheus with these rules, stopped when
// the test ends, whose log the test shows when it fails.
func startPrometheus(t *testing.T, rules []prometheus.Rule) *prometheus.Server {
	t.Helper()
	server, err := prometheus.Start(t, rules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := server.Stop(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("prometheus's log:\n%s", server.Log())
		}
	})
	return server
}

// alertsToken is a file holding the token the operator sends to read the
// alerts, as its service account's would.
func alertsToken(t *testing.T) string {
	t.Helper()
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("sekret"), 0o600); err != nil {
		t.Fatal(err)
	}
	return token
}

func hasAlert(firing []alerts.Alert, name, state string) bool {
	for _, a := range firing {
		if a.Name() == name && a.State == state {
			return true
		}
	}
	return false
}

func waitForPrometheus(t *testing.T, server *prometheus.Server, what string, ok func([]alerts.Alert) bool) {
	t.Helper()
	var firing []alerts.Alert
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		var err error
		firing, err = server.Alerts(ctx)
		return err == nil && ok(firing), nil
	})
	if err != nil {
		t.Fatalf("waiting for Prometheus: %s: %v; it has %s", what, err, prometheus.Describe(firing))
	}
}
