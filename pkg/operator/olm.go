package operator

import (
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/client-go/tools/cache"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/olmoperators"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/olm"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// olmAPI is what the operator reads of OLM, an optional capability.
var olmAPI = optionalAPI{
	groupVersion: operatorsv1alpha1.SchemeGroupVersion,
	resources:    []string{"clusterserviceversions", "subscriptions", "installplans"},
}

// olmInformer is the built-in informer of OLM's operators: their health
// during an update, and their findings for a plan, once the cluster serves
// OLM's API.
type olmInformer struct{ s *starter }

func (olmInformer) name() string           { return olm.Informer }
func (olmInformer) api() *optionalAPI      { return &olmAPI }
func (olmInformer) controllerName() string { return olmoperators.Name }

func (o olmInformer) controller(answers *updatestatus.Store) (factory.Controller, error) {
	s := o.s
	return olmoperators.New(s.factories.olm, s.factories.config.Config().V1().ClusterVersions(), answers, s.tracker,
		s.controllerContext.EventRecorder, s.controllerContext.Clock)
}

func (o olmInformer) planner() (updateplan.Planner, map[string]cache.SharedIndexInformer, informerFactory) {
	listers, informers := o.s.factories.olm.Listers()
	return listers, map[string]cache.SharedIndexInformer{
		"clusterserviceversions": informers[0], "subscriptions": informers[1], "installplans": informers[2],
	}, o.s.factories.olm
}

func (olmInformer) unchecked(target string, why error, now time.Time) insightsv1alpha1.UpdateInsight {
	return olm.Unchecked(target, why, now)
}
