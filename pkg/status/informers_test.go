package status

import (
	"bytes"
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
