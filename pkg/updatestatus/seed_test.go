package updatestatus

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// What the UpdateStatus held of a built-in informer (OLM's operators)
// before a restart is seeded, and nothing of the other informers; an
// answer of its controller is kept over it.
func TestSeedBuiltinKeepsItsInsightsUntilItsControllerAnswers(t *testing.T) {
	const olmInformer = "operator-lifecycle-manager"
	held := []insightsv1alpha1.UpdateInsight{{UID: "unhealthy/etcd/etcdoperator.v0.9.4"}}
	status := &insightsv1alpha1.UpdateStatus{Status: insightsv1alpha1.UpdateStatusStatus{ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{
		Informers: []insightsv1alpha1.InformerInsights{
			{Name: BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{{UID: "own"}}},
			{Name: olmInformer, Insights: held},
			{Name: "mco", Insights: []insightsv1alpha1.UpdateInsight{{UID: "drain"}}},
		},
	}}}

	store := NewStore()
	store.SeedBuiltin(nil, olmInformer)
	store.SeedBuiltin(&insightsv1alpha1.UpdateStatus{}, olmInformer)
	if got := store.Answers(); len(got) != 0 {
		t.Fatalf("seeded from no UpdateStatus, or one without OLM's insights: %v", got)
	}
	store.SeedBuiltin(status, olmInformer)
	if diff := cmp.Diff([]Answer{{Informer: olmInformer, Insights: held}}, store.Answers()); diff != "" {
		t.Errorf("seeded answers (-want +got):\n%s", diff)
	}

	answered := NewStore()
	answered.Delete(olmInformer)
	answered.SeedBuiltin(status, olmInformer)
	if got := answered.Answers(); len(got) != 0 {
		t.Errorf("a seed replaced the controller's answer that there is nothing to report: %v", got)
	}
}
