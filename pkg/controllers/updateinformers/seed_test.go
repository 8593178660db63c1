package updateinformers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestARestartKeepsTheInsightsOfUpdateStatusUntilTheInformerAnswers(t *testing.T) {
	kept := insightsv1alpha1.UpdateInsight{UID: "kept", Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane}}
	pooled := insightsv1alpha1.UpdateInsight{UID: "pooled", Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool}}
	status := &insightsv1alpha1.UpdateStatus{Status: insightsv1alpha1.UpdateStatusStatus{
		ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{Informers: []insightsv1alpha1.InformerInsights{
			{Name: "update-insights-operator"}, {Name: "gone", Insights: []insightsv1alpha1.UpdateInsight{kept}},
			{Name: "disabled", Insights: []insightsv1alpha1.UpdateInsight{kept}}, {Name: "mco", Insights: []insightsv1alpha1.UpdateInsight{kept}},
		}},
		WorkerPools: []insightsv1alpha1.WorkerPoolUpdateStatus{{Informers: []insightsv1alpha1.InformerInsights{{Name: "mco", Insights: []insightsv1alpha1.UpdateInsight{pooled}}}}},
	}}
	// Unreachable: its first call fails, and the seeded insights stay, stale.
	mco := serviceInformer("mco", "ns", "missing", nil)
	disabled := urlInformer("disabled", "https://example.com", nil)
	disabled.Spec.Enabled = ptr.To(false)
	h := newHarness(t, true, mco, disabled)

	Seed(h.store, status, []*insightsv1alpha1.UpdateInformer{mco, disabled, {ObjectMeta: metav1.ObjectMeta{Name: "silent"}}})
	if diff := cmp.Diff([]string{"kept", "pooled"}, uids(h.answer("mco"))); diff != "" {
		t.Errorf("seeded insights (-want +got):\n%s", diff)
	}
	if a := h.answer("mco"); !a.Stale {
		t.Errorf("seeded answer %+v, want stale", a)
	}
	if len(h.store.Answers()) != 1 {
		t.Errorf("answers %+v, want mco's only", h.store.Answers())
	}

	h.sync("mco")
	if a := h.answer("mco"); !a.Stale || a.Offline != "Unreachable" || !cmp.Equal(uids(a), []string{"kept", "pooled"}) {
		t.Errorf("answer after a failed first call: %+v", a)
	}
}
