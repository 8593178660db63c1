package operator

import (
	"github.com/openshift/library-go/pkg/controller/factory"

	"github.com/update-insights/update-insights-operator/pkg/controllers/updaterecord"
)

// recordController returns the controller that keeps the record of every
// update, from the ClusterVersion, ClusterOperator, health, Node and pool insights.
func (s *starter) recordController() (factory.Controller, error) {
	insights := s.factories.insights.Insights().V1alpha1()
	return updaterecord.New(
		insights.ClusterVersionProgressInsights(),
		insights.ClusterOperatorProgressInsights(),
		insights.UpdateHealthInsights(),
		insights.NodeProgressInsights(),
		insights.MachineConfigPoolProgressInsights(),
		insights.UpdateRecords(),
		s.clients.insights.InsightsV1alpha1(),
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
	)
}
