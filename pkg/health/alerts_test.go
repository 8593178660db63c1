package health

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// alert is a firing alert named name in openshift-monitoring, active since
// activeAt, with the labels and annotations given as key, value pairs;
// annotations' keys start with "@".
func alert(name string, activeAt time.Time, pairs ...string) alerts.Alert {
	a := alerts.Alert{
		Labels:      map[string]string{"alertname": name, "namespace": "openshift-monitoring", "severity": "warning"},
		Annotations: map[string]string{},
		State:       alerts.StateFiring,
		ActiveAt:    activeAt,
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		if k, ok := strings.CutPrefix(pairs[i], "@"); ok {
			a.Annotations[k] = pairs[i+1]
		} else {
			a.Labels[pairs[i]] = pairs[i+1]
		}
	}
	return a
}

func TestForAlertsFollowsOcRules(t *testing.T) {
	during, before := started.Add(5*time.Minute), started.Add(-time.Hour)
	withoutName := alert("", during)
	delete(withoutName.Labels, "alertname")
	pending := alert("KubePodNotReady", during)
	pending.State = alerts.StatePending

	tests := []struct {
		name   string
		alerts []alerts.Alert
		want   []summary
	}{
		{
			name:   "a warning that started during the update",
			alerts: []alerts.Alert{alert("KubePodNotReady", during, "@summary", "Pod has been in a non-ready state for more than 15 minutes.")},
			want:   []summary{{AlertFiring, insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.UnknownImpactType, "Alert is firing: Pod has been in a non-ready state for more than 15 minutes.", during}},
		},
		{
			name:   "critical is Critical, and the summary falls back to the alert's name",
			alerts: []alerts.Alert{alert("ClusterOperatorDown", during, "severity", "critical")},
			want:   []summary{{AlertFiring, insightsv1alpha1.CriticalImpactLevel, insightsv1alpha1.UnknownImpactType, "Alert is firing: ClusterOperatorDown", during}},
		},
		{
			name:   "info and any other severity are not reported",
			alerts: []alerts.Alert{alert("UpdateAvailable", during, "severity", "info"), alert("Watchdog", during, "severity", "none"), alert("NoSeverity", during, "severity", "")},
		},
		{
			name:   "an alert without alertname is ignored",
			alerts: []alerts.Alert{withoutName},
		},
		{
			name:   "a pending alert is ignored",
			alerts: []alerts.Alert{pending},
		},
		{
			name:   "an alert firing since before the update is not news about it",
			alerts: []alerts.Alert{alert("KubePodNotReady", before)},
		},
		{
			name:   "an alert that became active as the update started is not news either",
			alerts: []alerts.Alert{alert("KubePodNotReady", started)},
		},
		{
			name: "PodDisruptionBudget alerts count even from before the update",
			alerts: []alerts.Alert{
				alert("PodDisruptionBudgetAtLimit", before),
				alert("PodDisruptionBudgetLimit", before, "severity", "critical"),
			},
			want: []summary{
				{AlertFiring, insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.UnknownImpactType, "Alert is firing: PodDisruptionBudgetAtLimit", before},
				{AlertFiring, insightsv1alpha1.CriticalImpactLevel, insightsv1alpha1.UnknownImpactType, "Alert is firing: PodDisruptionBudgetLimit", before},
			},
		},
		{
			name: "each alert instance is an insight of its own",
			alerts: []alerts.Alert{
				alert("KubePodNotReady", during, "pod", "a"),
				alert("KubePodNotReady", during, "pod", "b"),
			},
			want: []summary{
				{AlertFiring, insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.UnknownImpactType, "Alert is firing: KubePodNotReady", during},
				{AlertFiring, insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.UnknownImpactType, "Alert is firing: KubePodNotReady", during},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ForAlerts(tt.alerts, started)
			if diff := cmp.Diff(tt.want, summarize(got)); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			names := map[string]bool{}
			for _, i := range got {
				if names[i.Name] {
					t.Errorf("two insights are named %s", i.Name)
				}
				names[i.Name] = true
			}
		})
	}
}

func TestForAlertsDescribesAsOcDoes(t *testing.T) {
	during, before := started.Add(5*time.Minute), started.Add(-time.Hour)
	tests := []struct {
		name      string
		alert     alerts.Alert
		want      string
		reference string
	}{
		{
			name:      "description and message",
			alert:     alert("PodDisruptionBudgetAtLimitWithMessage", during, "@description", "This alert has a description", "@message", "This alert has a message, too", "@runbook_url", "https://example.com/runbook.md"),
			want:      "Alert started firing during the update. The alert description is: This alert has a description | This alert has a message, too",
			reference: "https://example.com/runbook.md",
		},
		{
			name:  "description alone",
			alert: alert("KubePodNotReady", during, "@description", "Pod x has been in a non-ready state for longer than 15 minutes."),
			want:  "Alert started firing during the update. The alert description is: Pod x has been in a non-ready state for longer than 15 minutes.",
		},
		{
			name:  "message alone",
			alert: alert("PodDisruptionBudgetAtLimit", during, "@message", "at its limit"),
			want:  "Alert known to affect updates started firing during the update. The alert description is: at its limit",
		},
		{
			name:  "neither",
			alert: alert("PodDisruptionBudgetAtLimit", before),
			want:  "Alert known to affect updates has been firing since before the update started. The alert has no description.",
		},
		{
			name:  "a runbook that is not a link is no reference",
			alert: alert("KubePodNotReady", during, "@runbook_url", "runbooks/KubePodNotReady.md"),
			want:  "Alert started firing during the update. The alert has no description.",
		},
		{
			name:  "a runbook too long for the API is no reference",
			alert: alert("KubePodNotReady", during, "@runbook_url", "https://example.com/"+strings.Repeat("x", maxReferenceLength)),
			want:  "Alert started firing during the update. The alert has no description.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ForAlerts([]alerts.Alert{tt.alert}, started)
			if len(got) != 1 {
				t.Fatalf("got %d insights, want 1", len(got))
			}
			if diff := cmp.Diff(tt.want, got[0].Status.Impact.Description); diff != "" {
				t.Errorf("description (-want +got):\n%s", diff)
			}
			if got[0].Status.Remediation.Reference != tt.reference {
				t.Errorf("reference %q, want %q", got[0].Status.Remediation.Reference, tt.reference)
			}
		})
	}
}

func TestForAlertsScopesTheAlertWithinTheAPIsBounds(t *testing.T) {
	during := started.Add(time.Minute)
	long := alert(strings.Repeat("A", 300), during, "namespace", strings.Repeat("n", 64),
		"@summary", "line one\nline two "+strings.Repeat("s", 300), "@description", strings.Repeat("d", 5000))
	got := ForAlerts([]alerts.Alert{alert("KubePodNotReady", during), long}, started)
	if len(got) != 2 {
		t.Fatalf("got %d insights, want 2", len(got))
	}
	want := insightsv1alpha1.InsightScope{
		Type:      insightsv1alpha1.ScopeTypeControlPlane,
		Resources: []insightsv1alpha1.ResourceRef{{Group: "config.openshift.io", Resource: "alerts", Namespace: "openshift-monitoring", Name: "KubePodNotReady"}},
	}
	if diff := cmp.Diff(want, got[0].Status.Scope); diff != "" {
		t.Errorf("scope (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(metav1.NewTime(during.Truncate(time.Second)), got[0].Status.StartedAt); diff != "" {
		t.Errorf("startedAt (-want +got):\n%s", diff)
	}
	s := got[1].Status
	r := s.Scope.Resources[0]
	if len(r.Name) > maxResourceNameLength || r.Namespace != "" {
		t.Errorf("resource %q in %q: want the name cut to %d bytes and a namespace too long for the API left out", r.Name, r.Namespace, maxResourceNameLength)
	}
	if len(s.Impact.Summary) > maxSummaryLength || strings.Contains(s.Impact.Summary, "\n") {
		t.Errorf("summary %q: want one line of at most %d bytes", s.Impact.Summary, maxSummaryLength)
	}
	if len(s.Impact.Description) > maxDescriptionLength {
		t.Errorf("description of %d bytes, want at most %d", len(s.Impact.Description), maxDescriptionLength)
	}
}

func TestForAlertsKeepsAnAlertsNameAsItChanges(t *testing.T) {
	during := started.Add(time.Minute)
	first := ForAlerts([]alerts.Alert{alert("KubePodNotReady", during, "pod", "a", "@summary", "one")}, started)
	again := ForAlerts([]alerts.Alert{alert("KubePodNotReady", during.Add(time.Minute), "pod", "a", "@summary", "two")}, started)
	other := ForAlerts([]alerts.Alert{alert("KubePodNotReady", during, "pod", "b", "@summary", "one")}, started)
	if first[0].Name != again[0].Name {
		t.Errorf("the same alert instance changed its insight's name from %s to %s", first[0].Name, again[0].Name)
	}
	if first[0].Name == other[0].Name {
		t.Errorf("two alert instances share the name %s", first[0].Name)
	}
}

// Two rules that give the same labels are two alerts (as in the recorded
// test/testdata/oc-examples/4.15.0-ec2-unavailable-mco-20m-alerts.json),
// each an insight of its own, whatever order the answer lists them in.
func TestForAlertsNamesEachTwin(t *testing.T) {
	before := started.Add(-24 * time.Hour)
	withRunbook := alert("PodDisruptionBudgetAtLimit", before, "controller", "alertmanager",
		"@summary", "PodDisruptionBudgetAtLimit for pods <>", "@description", "PodDisruptionBudgetAtLimit in namespace <>", "@runbook_url", "https://<mock_data>/PDB.md")
	bare := alert("PodDisruptionBudgetAtLimit", before, "controller", "alertmanager",
		"@summary", "PodDisruptionBudgetAtLimit for some reason does not have runbook and description")
	later := alert("PodDisruptionBudgetAtLimit", started.Add(time.Minute), "controller", "alertmanager", "@summary", "a third rule")
	alone := ForAlerts([]alerts.Alert{withRunbook}, started)[0].Name

	tests := []struct {
		name   string
		alerts []alerts.Alert
	}{
		{name: "as recorded", alerts: []alerts.Alert{withRunbook, bare}},
		{name: "the other way round", alerts: []alerts.Alert{bare, withRunbook}},
		{name: "with a third that became active later", alerts: []alerts.Alert{later, bare, withRunbook}},
	}
	var names []map[string]string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ForAlerts(tt.alerts, started)
			bySummary := map[string]string{}
			seen := map[string]bool{}
			for _, i := range got {
				if seen[i.Name] {
					t.Errorf("two insights named %s", i.Name)
				}
				seen[i.Name] = true
				bySummary[i.Status.Impact.Summary] = i.Name
			}
			if len(got) != len(tt.alerts) {
				t.Errorf("%d insights of %d alerts", len(got), len(tt.alerts))
			}
			if n := bySummary["Alert is firing: PodDisruptionBudgetAtLimit for pods <>"]; n != alone {
				t.Errorf("the first active twin is named %s, want %s as when it fires alone", n, alone)
			}
			names = append(names, bySummary)
		})
	}
	// Each alert keeps its name whichever order they come in, and whatever
	// twin becomes active after them.
	for _, n := range names[1:] {
		for summary, name := range names[0] {
			if n[summary] != name {
				t.Errorf("%q is named %s and %s", summary, name, n[summary])
			}
		}
	}
}

func TestUpdateStart(t *testing.T) {
	progressingSince := started.Add(time.Minute)
	withoutHistory := updatingCV(cvCondition("Progressing", "True", "", "", progressingSince))
	withoutHistory.Status.History = nil
	pool := func(scope insightsv1alpha1.ScopeType, completion, total int32) *insightsv1alpha1.MachineConfigPoolProgressInsightStatus {
		return &insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
			ScopeType: scope, CompletionPercent: completion,
			Summaries: []insightsv1alpha1.NodeSummary{{Type: insightsv1alpha1.NodesTotal, Count: total}},
		}
	}
	tests := []struct {
		name         string
		cv           *configv1.ClusterVersion
		pools        []*insightsv1alpha1.MachineConfigPoolProgressInsightStatus
		want         time.Time
		wantUpdating bool
	}{
		{
			name:         "the control plane is progressing: from the newest history entry",
			cv:           updatingCV(cvCondition("Progressing", "True", "", "", progressingSince)),
			want:         started,
			wantUpdating: true,
		},
		{
			name:         "without a history: from when Progressing turned True",
			cv:           withoutHistory,
			want:         progressingSince,
			wantUpdating: true,
		},
		{
			name:         "the control plane is done but a worker pool is not",
			cv:           updatingCV(cvCondition("Progressing", "False", "", "", progressingSince)),
			pools:        []*insightsv1alpha1.MachineConfigPoolProgressInsightStatus{pool(insightsv1alpha1.ScopeTypeControlPlane, 100, 3), pool(insightsv1alpha1.ScopeTypeWorkerPool, 40, 5)},
			want:         started,
			wantUpdating: true,
		},
		{
			name:  "no update: every pool done, or empty, or only the control plane's behind",
			cv:    updatingCV(cvCondition("Progressing", "False", "", "", progressingSince)),
			pools: []*insightsv1alpha1.MachineConfigPoolProgressInsightStatus{pool(insightsv1alpha1.ScopeTypeControlPlane, 0, 3), pool(insightsv1alpha1.ScopeTypeWorkerPool, 100, 5), pool(insightsv1alpha1.ScopeTypeWorkerPool, 0, 0)},
		},
		{
			name: "no Progressing condition and no pools",
			cv:   updatingCV(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, updating := UpdateStart(tt.cv, tt.pools)
			if updating != tt.wantUpdating || !got.Equal(tt.want) {
				t.Errorf("UpdateStart = %s, %t; want %s, %t", got, updating, tt.want, tt.wantUpdating)
			}
		})
	}
}
