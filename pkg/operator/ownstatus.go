package operator

import (
	"github.com/openshift/library-go/pkg/controller/factory"

	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateevents"
	"github.com/update-insights/update-insights-operator/pkg/metrics"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// ownStatusController returns the controller of the operator's own
// ClusterOperator, which reports what the tracker learnt of every
// controller's syncs.
func (s *starter) ownStatusController() (factory.Controller, error) {
	return operatorstatus.New(
		s.factories.config.Config().V1().ClusterOperators(),
		s.factories.config.Config().V1().ClusterVersions(),
		s.clients.config.ConfigV1(),
		s.tracker,
		operatorstatus.Options{Version: s.options.Version, Namespace: s.controllerContext.OperatorNamespace, GracePeriod: s.options.DegradedGracePeriod,
			Topology: s.topology},
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
	)
}

// eventsController returns the controller that records the update's
// Events, from the ClusterVersion's insight and the health insights, and
// the function that stops its recorder, once Run returns.
func (s *starter) eventsController() (factory.Controller, func()) {
	insights := s.factories.insights.Insights().V1alpha1()
	recorder, stopRecording := updateevents.NewRecorder(s.clients.kube, names.Component)
	return updateevents.New(
		insights.ClusterVersionProgressInsights(),
		insights.UpdateHealthInsights(),
		recorder,
		s.tracker,
		s.controllerContext.EventRecorder,
	), stopRecording
}

// registerMetrics registers the update's metrics, read from the insight
// informers' caches, and returns the function that unregisters them when
// Run returns.
func (s *starter) registerMetrics() func() {
	insights := s.factories.insights.Insights().V1alpha1()
	updateMetrics := metrics.NewUpdateCollector(
		insights.ClusterVersionProgressInsights().Lister(),
		insights.UpdateHealthInsights().Lister(),
		s.controllerContext.Clock,
	)
	informerMetrics := metrics.NewInformerCollector(insights.UpdateStatuses().Lister())
	// The fleet metrics, which a hub federates from every cluster.
	fleetMetrics := metrics.NewFleetCollector(metrics.FleetListers{
		ClusterVersions: insights.ClusterVersionProgressInsights().Lister(),
		Pools:           insights.MachineConfigPoolProgressInsights().Lister(),
		Nodes:           insights.NodeProgressInsights().Lister(),
		Health:          insights.UpdateHealthInsights().Lister(),
		UpdateStatuses:  insights.UpdateStatuses().Lister(),
		UpdatePlans:     insights.UpdatePlans().Lister(),
		UpdateRecords:   insights.UpdateRecords().Lister(),
	}, s.topology, s.controllerContext.Clock)
	metrics.Register(updateMetrics, informerMetrics, fleetMetrics)
	return func() { metrics.Unregister(updateMetrics, informerMetrics, fleetMetrics) }
}
