package olmoperators

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/olm"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// What the UpdateStatus held of OLM's operators before a restart is
// seeded, and nothing of the other informers; an answer of the
// controller is kept over it.
func TestSeedKeepsOLMsInsightsUntilTheControllerAnswers(t *testing.T) {
	held := []insightsv1alpha1.UpdateInsight{{UID: "unhealthy/etcd/etcdoperator.v0.9.4"}}
	status := &insightsv1alpha1.UpdateStatus{Status: insightsv1alpha1.UpdateStatusStatus{ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{
		Informers: []insightsv1alpha1.InformerInsights{
			{Name: updatestatus.BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{{UID: "own"}}},
			{Name: olm.Informer, Insights: held},
			{Name: "mco", Insights: []insightsv1alpha1.UpdateInsight{{UID: "drain"}}},
		},
	}}}

	store := updatestatus.NewStore()
	Seed(store, nil)
	Seed(store, &insightsv1alpha1.UpdateStatus{})
	if got := store.Answers(); len(got) != 0 {
		t.Fatalf("seeded from no UpdateStatus, or one without OLM's insights: %v", got)
	}
	Seed(store, status)
	if diff := cmp.Diff([]updatestatus.Answer{{Informer: olm.Informer, Insights: held}}, store.Answers()); diff != "" {
		t.Errorf("seeded answers (-want +got):\n%s", diff)
	}

	answered := updatestatus.NewStore()
	answered.Delete(olm.Informer)
	Seed(answered, status)
	if got := answered.Answers(); len(got) != 0 {
		t.Errorf("a seed replaced the controller's answer that there is nothing to report: %v", got)
	}
}
