package updateinformers

import (
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// Seed puts in the store, marked stale, what the UpdateStatus written before
// the operator (re)started holds of each enabled informer: the UpdateStatus
// controller then keeps those insights until the informer answers again,
// instead of dropping them at its first write. The operator seeds before it
// starts the controllers.
func Seed(store *updatestatus.Store, status *insightsv1alpha1.UpdateStatus, informers []*insightsv1alpha1.UpdateInformer) {
	if status == nil {
		return
	}
	for _, informer := range informers {
		if informer.Spec.Enabled != nil && !*informer.Spec.Enabled {
			continue
		}
		var insights []insightsv1alpha1.UpdateInsight
		heard := false
		collect := func(all []insightsv1alpha1.InformerInsights) {
			for _, i := range all {
				if i.Name == informer.Name {
					heard = true
					insights = append(insights, i.Insights...)
				}
			}
		}
		collect(status.Status.ControlPlane.Informers)
		for _, pool := range status.Status.WorkerPools {
			collect(pool.Informers)
		}
		if heard {
			store.Set(updatestatus.Answer{Informer: informer.Name, Stale: true, Insights: insights})
		}
	}
}
