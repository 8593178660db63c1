package operator

import (
	"context"
	"sync/atomic"

	"github.com/update-insights/update-insights-operator/pkg/controllers/olmoperators"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// olmAPI is what the operator reads of OLM, an optional capability.
var olmAPI = optionalAPI{
	groupVersion: operatorsv1alpha1.SchemeGroupVersion,
	resources:    []string{"clusterserviceversions", "subscriptions", "installplans"},
}

// startOLM runs the controller of OLM's operators' health during an update,
// a built-in informer whose answers go to answers. It needs OLM's API:
// without it the controller is off until the API appears. It returns
// whether the controller runs, which, when the cluster serves the API at
// start, is true already on return: before the store is seeded.
func (s *starter) startOLM(ctx context.Context, answers *updatestatus.Store) func() bool {
	var served atomic.Bool
	whenServed(ctx, s.clients.olm.Discovery(), olmAPI, s.options.OptionalAPIInterval, olmoperators.Name,
		func(why string, _ bool) { s.tracker.SwitchOff(olmoperators.Name, why) },
		func() {
			served.Store(true)
			s.tracker.SwitchOn(olmoperators.Name)
			s.run(ctx, olmoperators.New(s.factories.olm, s.factories.config.Config().V1().ClusterVersions(), answers, s.tracker,
				s.controllerContext.EventRecorder, s.controllerContext.Clock), 1)
		})
	return served.Load
}
