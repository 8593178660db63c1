package statusview

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

var informersNow = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func informerInsight(uid string, level insightsv1alpha1.UpdateInsightLevel, summary string) insightsv1alpha1.UpdateInsight {
	acquired := metav1.NewTime(informersNow.Add(-5 * time.Minute))
	return insightsv1alpha1.UpdateInsight{
		UID: uid, AcquisitionTime: &acquired,
		Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, Resources: []insightsv1alpha1.InsightResource{{Kind: "Node", Name: "worker-0"}}},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: level, Type: insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.UpdateSpeedImpactType),
			Summary: summary, Description: "Reboots take 20 minutes on this hardware."},
		Remediation: insightsv1alpha1.UpdateInsightRemediation{Reference: "https://example.com/slow-reboots"},
	}
}

// withInformers is an UpdateStatus in which the machine-config informer
// reports a warning and progress for the worker pool, the operator its own
// progress (read from its insights instead) and that another informer is
// offline.
func withInformers() *insightsv1alpha1.UpdateStatus {
	return &insightsv1alpha1.UpdateStatus{
		ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName},
		Status: insightsv1alpha1.UpdateStatusStatus{
			ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{Informers: []insightsv1alpha1.InformerInsights{{
				Name: updatestatus.BuiltinInformer,
				Insights: []insightsv1alpha1.UpdateInsight{
					{UID: "controlplane/version", Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.StatusInsightLevel, Summary: "Control plane progressing"}},
					{UID: updatestatus.OfflineUIDPrefix + "managed-upgrade", Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel, Summary: "Update informer managed-upgrade is offline (Unreachable)"}},
				},
			}}},
			WorkerPools: []insightsv1alpha1.WorkerPoolUpdateStatus{{
				Resource: insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
				Informers: []insightsv1alpha1.InformerInsights{{Name: "machine-config", Insights: []insightsv1alpha1.UpdateInsight{
					informerInsight("slow", insightsv1alpha1.WarningInsightLevel, "Node worker-0 reboots slowly"),
					informerInsight("rebooting", insightsv1alpha1.StatusInsightLevel, "Node worker-0 rebooting"),
				}}},
			}},
		},
	}
}

func TestInformersInsightsAreHealthWithTheirInformersName(t *testing.T) {
	s, err := Build(&Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{updating()}, UpdateStatus: withInformers()}, informersNow)
	if err != nil {
		t.Fatal(err)
	}
	acquired := metav1.NewTime(informersNow.Add(-5 * time.Minute))
	want := []Health{{
		Name: "machine-config/slow", Informer: "machine-config", StartedAt: &acquired,
		Level: insightsv1alpha1.WarningImpactLevel, Impact: insightsv1alpha1.UpdateSpeedImpactType, Scope: insightsv1alpha1.ScopeTypeWorkerPool,
		Summary: "Node worker-0 reboots slowly", Description: "Reboots take 20 minutes on this hardware.", Reference: "https://example.com/slow-reboots",
		Resources: []insightsv1alpha1.ResourceRef{{Resource: "Node", Name: "worker-0"}},
	}}
	if diff := cmp.Diff(want, s.Health); diff != "" {
		t.Errorf("health (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Update informer managed-upgrade is offline (Unreachable)."}, s.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}

	var text bytes.Buffer
	if err := WriteText(&text, s, Details{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"Warning: Update informer managed-upgrade is offline (Unreachable).",
		"5m      Warning   Update Speed   Node worker-0 reboots slowly (machine-config)",
	} {
		if !strings.Contains(text.String(), line+"\n") {
			t.Errorf("the text lacks the line %q:\n%s", line, text.String())
		}
	}
	text.Reset()
	if err := WriteText(&text, s, Details{Health: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "  Informer:    machine-config\n") {
		t.Errorf("the details do not name the informer:\n%s", text.String())
	}
}

// progressInsight is a status-level insight of an informer's.
func progressInsight(uid, summary string, finish time.Duration, impact insightsv1alpha1.UpdateInsightImpactType) insightsv1alpha1.UpdateInsight {
	i := insightsv1alpha1.UpdateInsight{UID: uid, Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.StatusInsightLevel, Type: impact, Summary: summary}}
	if finish != 0 {
		i.Remediation.EstimatedFinish = &metav1.Time{Time: informersNow.Add(finish)}
	}
	return i
}

// The informers' progress is shown in the part of the update it is about,
// before the update as well as during it.
func TestInformersProgressIsShownWithItsPart(t *testing.T) {
	worker := &insightsv1alpha1.MachineConfigPoolProgressInsight{Status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
		Name: "worker", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: insightsv1alpha1.PoolProgressing,
		Summaries: []insightsv1alpha1.NodeSummary{{Type: insightsv1alpha1.NodesTotal, Count: 3}, {Type: insightsv1alpha1.NodesOutdated, Count: 2}},
	}}
	updateStatus := &insightsv1alpha1.UpdateStatus{
		ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName},
		Status: insightsv1alpha1.UpdateStatusStatus{
			ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{Informers: []insightsv1alpha1.InformerInsights{
				{Name: updatestatus.BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{progressInsight("own", "Control plane progressing", 0, "")}},
				{Name: "managed-upgrade", Insights: []insightsv1alpha1.UpdateInsight{
					progressInsight("window", "Managed update to 4.16.2 scheduled", 90*time.Minute, insightsv1alpha1.AwaitingWindowImpactType),
					informerInsight("warning", insightsv1alpha1.WarningInsightLevel, "Not progress, health"),
				}},
				{Name: "etcd-backup", Stale: true, Insights: []insightsv1alpha1.UpdateInsight{progressInsight("backup", "Backing up etcd", -3*time.Minute, "")}},
			}},
			WorkerPools: []insightsv1alpha1.WorkerPoolUpdateStatus{
				{Resource: insightsv1alpha1.ResourceRef{Name: "worker"}, Informers: []insightsv1alpha1.InformerInsights{
					{Name: "machine-config", Insights: []insightsv1alpha1.UpdateInsight{progressInsight("drain", "Draining worker-1", 12*time.Minute, "")}},
				}},
				{Resource: insightsv1alpha1.ResourceRef{Name: "empty"}, Informers: []insightsv1alpha1.InformerInsights{
					{Name: "machine-config", Insights: []insightsv1alpha1.UpdateInsight{progressInsight("nothing", "Nothing to do", 0, "")}},
				}},
			},
		},
	}
	at := func(d time.Duration) *metav1.Time { return &metav1.Time{Time: informersNow.Add(d)} }
	wantControlPlane := []Progress{
		{Informer: "managed-upgrade", UID: "window", Summary: "Managed update to 4.16.2 scheduled", EstimatedFinish: at(90 * time.Minute), AwaitingWindow: true},
		{Informer: "etcd-backup", UID: "backup", Summary: "Backing up etcd", EstimatedFinish: at(-3 * time.Minute), Stale: true},
	}
	wantWorker := []Progress{{Informer: "machine-config", UID: "drain", Summary: "Draining worker-1", EstimatedFinish: at(12 * time.Minute)}}
	controlPlaneLines := []string{
		"Informers:       Managed update to 4.16.2 scheduled (managed-upgrade, window opens at 2026-11-22T11:30:00Z)",
		"                 Backing up etcd (etcd-backup, expected to finish 3m ago, stale: the informer's last call failed)",
	}

	tests := []struct {
		name      string
		cv        *insightsv1alpha1.ClusterVersionProgressInsight
		wantLines []string
	}{
		{
			name: "during an update",
			cv:   updating(),
			wantLines: append(slices.Clone(controlPlaneLines),
				"Worker Pool Informers: worker",
				"Draining worker-1 (machine-config, Est. Time Remaining: 12m)",
			),
		},
		{
			name: "before an update",
			cv: &insightsv1alpha1.ClusterVersionProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: "version"},
				Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{Assessment: insightsv1alpha1.ClusterVersionAssessmentCompleted}},
			// The window's insight says what update is coming, in place
			// of "The cluster is not updating.", and only there.
			wantLines: []string{
				"An update is scheduled, as managed-upgrade reports: Managed update to 4.16.2 scheduled (window opens at 2026-11-22T11:30:00Z).",
				"Informers:       Backing up etcd (etcd-backup, expected to finish 3m ago, stale: the informer's last call failed)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{tt.cv}, UpdateStatus: updateStatus}
			if tt.cv.Status.Assessment != insightsv1alpha1.ClusterVersionAssessmentCompleted {
				in.MachineConfigPools = []*insightsv1alpha1.MachineConfigPoolProgressInsight{worker}
			}
			s, err := Build(in, informersNow)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantControlPlane, s.ControlPlane.Informers); diff != "" {
				t.Errorf("control plane progress (-want +got):\n%s", diff)
			}
			if len(s.WorkerPools) > 0 {
				if diff := cmp.Diff(wantWorker, s.WorkerPools[0].Informers); diff != "" {
					t.Errorf("worker pool progress (-want +got):\n%s", diff)
				}
			}
			var text bytes.Buffer
			if err := WriteText(&text, s, Details{}); err != nil {
				t.Fatal(err)
			}
			for _, line := range tt.wantLines {
				if !strings.Contains(text.String(), line+"\n") {
					t.Errorf("the text lacks the line %q:\n%s", line, text.String())
				}
			}
			if strings.Contains(text.String(), "Nothing to do") {
				t.Errorf("the progress of a pool without nodes is shown:\n%s", text.String())
			}
		})
	}
}

// What the aggregator had to leave out is a warning: the output is missing
// some of what the informers said.
func TestIncompleteUpdateStatusIsAWarning(t *testing.T) {
	u := withInformers()
	u.Status.Conditions = []metav1.Condition{{
		Type: updatestatus.ConditionInsightsComplete, Status: metav1.ConditionFalse, Reason: "InsightsCut",
		Message: "chatty: 3 of 131 control plane insights cut (at most 128 are kept, the most serious)\nmco: 1 worker pool insights name no known pool",
	}}
	s, err := Build(&Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{updating()}, UpdateStatus: u}, informersNow)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"UpdateStatus does not hold every insight the informers reported: chatty: 3 of 131 control plane insights cut (at most 128 are kept, the most serious); mco: 1 worker pool insights name no known pool.",
		"Update informer managed-upgrade is offline (Unreachable).",
	}
	if diff := cmp.Diff(want, s.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// Before an update begins, an informer may know what holds or failed it: a
// managed update whose pre-update health check fails. That is shown; the
// operator's own health insights, about an update in progress, are not.
func TestInformersProblemsAreShownBeforeAnUpdate(t *testing.T) {
	failing := progressInsight("health-check", "Managed update step ClusterHealthyBeforeUpgrade: Cluster has critical alerts", 0, "")
	failing.Impact.Level, failing.Impact.Type = insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.UpdateStalledImpactType)
	in := &Insights{
		ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{{ObjectMeta: metav1.ObjectMeta{Name: "version"},
			Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{Assessment: insightsv1alpha1.ClusterVersionAssessmentCompleted}}},
		UpdateStatus: &insightsv1alpha1.UpdateStatus{Status: insightsv1alpha1.UpdateStatusStatus{ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{
			Informers: []insightsv1alpha1.InformerInsights{{Name: "managed-upgrade", Insights: []insightsv1alpha1.UpdateInsight{failing}}},
		}}},
		Health: []*insightsv1alpha1.UpdateHealthInsight{{ObjectMeta: metav1.ObjectMeta{Name: "left-over"}, Status: insightsv1alpha1.UpdateHealthInsightStatus{
			Impact: insightsv1alpha1.InsightImpact{Level: insightsv1alpha1.ErrorImpactLevel, Type: insightsv1alpha1.NoneImpactType, Summary: "An operator's own insight"},
		}}},
	}
	s, err := Build(in, informersNow)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := WriteText(&text, s, Details{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The cluster is not updating.\n", "= Update Health =\n", "Managed update step ClusterHealthyBeforeUpgrade: Cluster has critical alerts"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "An operator's own insight") {
		t.Errorf("the operator's own health insight is shown outside an update:\n%s", text.String())
	}
}
