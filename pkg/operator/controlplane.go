package operator

import (
	"github.com/openshift/library-go/pkg/controller/factory"

	"github.com/update-insights/update-insights-operator/pkg/controllers/clusteroperator"
	"github.com/update-insights/update-insights-operator/pkg/controllers/clusterversion"
)

// controlPlaneControllers returns the controllers of the control plane's
// insights: the ClusterVersion's, with the control plane's health, and the
// ClusterOperators'. Both judge machine-config by its operator's
// Deployment.
func (s *starter) controlPlaneControllers() ([]factory.Controller, error) {
	config, insights := s.factories.config.Config().V1(), s.factories.insights.Insights().V1alpha1()
	clusterVersionController, err := clusterversion.New(
		config.ClusterVersions(),
		config.ClusterOperators(),
		s.factories.machineConfigOperator.Apps().V1().Deployments(),
		insights.ClusterVersionProgressInsights(),
		insights.UpdateHealthInsights(),
		s.clients.insights.InsightsV1alpha1(),
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
	)
	if err != nil {
		return nil, err
	}
	clusterOperatorController, err := clusteroperator.New(
		config.ClusterOperators(),
		config.ClusterVersions(),
		s.factories.machineConfigOperator.Apps().V1().Deployments(),
		insights.ClusterOperatorProgressInsights(),
		s.clients.insights.InsightsV1alpha1(),
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
	)
	if err != nil {
		return nil, err
	}
	return []factory.Controller{clusterVersionController, clusterOperatorController}, nil
}
