package operator

import (
	"github.com/openshift/library-go/pkg/controller/factory"
	appsinformers "k8s.io/client-go/informers/apps/v1"

	"github.com/update-insights/update-insights-operator/pkg/controllers/clusteroperator"
	"github.com/update-insights/update-insights-operator/pkg/controllers/clusterversion"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// controlPlaneControllers returns the controllers of the control plane's
// insights: the ClusterVersion's, with the control plane's health, and the
// ClusterOperators'. Both judge machine-config by its operator's
// Deployment, except on a cluster whose control plane is hosted, which has
// neither: its payload leaves the machine-config operator out, and this
// operator has no Role in that namespace there, so its Deployments are not
// even watched (a watch would fail, forbidden, over and over).
func (s *starter) controlPlaneControllers() ([]factory.Controller, error) {
	config, insights := s.factories.config.Config().V1(), s.factories.insights.Insights().V1alpha1()
	var deployments appsinformers.DeploymentInformer
	if s.topology != hosted.Hosted {
		deployments = s.factories.machineConfigOperator.Apps().V1().Deployments()
	}
	clusterVersionController, err := clusterversion.New(
		config.ClusterVersions(),
		config.ClusterOperators(),
		deployments,
		insights.ClusterVersionProgressInsights(),
		insights.UpdateHealthInsights(),
		s.clients.insights.InsightsV1alpha1(),
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
		clusterversion.Options{Topology: s.topology, Records: insights.UpdateRecords()},
	)
	if err != nil {
		return nil, err
	}
	clusterOperatorController, err := clusteroperator.New(
		config.ClusterOperators(),
		config.ClusterVersions(),
		deployments,
		insights.ClusterOperatorProgressInsights(),
		s.clients.insights.InsightsV1alpha1(),
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
		clusteroperator.Options{Topology: s.topology},
	)
	if err != nil {
		return nil, err
	}
	return []factory.Controller{clusterVersionController, clusterOperatorController}, nil
}
