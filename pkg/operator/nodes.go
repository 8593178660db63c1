package operator

import (
	"context"
	"fmt"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/node"
	"github.com/update-insights/update-insights-operator/pkg/controllers/updateplan"
	informerclient "github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// machineConfigurationAPI is what the node controller reads of the
// machine-config operator's API.
var machineConfigurationAPI = optionalAPI{
	groupVersion: machineconfigurationv1.GroupVersion,
	resources:    []string{"machineconfigpools", "machineconfigs"},
}

// imageModeAPI is what the node controller reads of image-mode pools,
// served on OpenShift 4.19 and later. Without it every pool is assessed
// from its nodes' configurations alone.
var imageModeAPI = optionalAPI{
	groupVersion: machineconfigurationv1.GroupVersion,
	resources:    []string{"machineosconfigs", "machineosbuilds"},
}

// machineConfigNodesAPI is the machine-config daemon's account of each
// node's update, served on OpenShift 4.19 and later. Without it a node's
// steps are read from its annotations alone.
var machineConfigNodesAPI = optionalAPI{
	groupVersion: machineconfigurationv1.GroupVersion,
	resources:    []string{"machineconfignodes"},
}

// serves says whether the cluster serves api, which a controller reads for
// what: an API it does not serve, or cannot tell of, leaves the assessment
// as it is without it, and a restart asks again. The node and plan
// controllers ask once as they start, since they are built with their
// informers: these APIs are part of the machine-config operator's from the
// release on that serves them, not installed later.
func (s *starter) serves(api optionalAPI, what string) bool {
	missing, err := api.missing(s.clients.machineConfiguration.Discovery())
	switch {
	case err != nil:
		klog.ErrorS(err, "Cannot tell whether the cluster serves an optional machine-config API: reading the cluster without it", "for", what)
		return false
	case len(missing) > 0:
		klog.InfoS("The cluster does not serve an optional machine-config API: reading the cluster without it", "missing", missing, "for", what)
		return false
	}
	klog.InfoS("Reading an optional machine-config API", "api", api.names(api.resources), "for", what)
	return true
}

// startNodesAndPlans runs the node controller, and the UpdatePlan
// controller, whose pre-checks read the pools: both need the machine-config
// operator's API, and without it they are off until the API appears, and
// then start without a restart. They share what the node controller learns
// of how long a node takes to update, which the pre-checks' estimate uses.
// The plan controller reads the alerts of alertsSource, when it is not nil,
// and calls the UpdateInformers within informerRequests.
func (s *starter) startNodesAndPlans(ctx context.Context, answers *updatestatus.Store, alertsSource *alerts.HTTPSource, informerRequests *informerclient.Limit) {
	perNode := s.perNodeTimes()
	whenServed(ctx, s.clients.machineConfiguration.Discovery(), machineConfigurationAPI, s.options.OptionalAPIInterval, node.Name,
		func(why string, _ bool) {
			s.tracker.SwitchOff(node.Name, why)
			s.tracker.SwitchOff(updateplan.Name, why)
		},
		func() {
			if s.startNodes(ctx, perNode) {
				s.startPlans(ctx, answers, perNode, alertsSource, informerRequests)
			}
		})
}

// startNodes runs the controller of the nodes' and pools' insights, false
// when it could not be built.
func (s *starter) startNodes(ctx context.Context, perNode *nodes.PerNodeTimes) bool {
	machineConfiguration, insights := s.factories.machineConfiguration.Machineconfiguration().V1(), s.factories.insights.Insights().V1alpha1()
	var optional node.Optional
	if s.serves(imageModeAPI, "the OS image builds of image-mode pools") {
		optional.ImageMode = &node.ImageMode{
			Configs:   machineConfiguration.MachineOSConfigs(),
			Builds:    machineConfiguration.MachineOSBuilds(),
			BuildPods: s.factories.buildPods.Core().V1().Pods(),
		}
	}
	if s.serves(machineConfigNodesAPI, "the nodes' update steps from their MachineConfigNodes") {
		optional.MachineConfigNodes = machineConfiguration.MachineConfigNodes()
	}
	nodeController, err := node.New(
		ctx,
		s.clients.kube,
		s.factories.nodes.Core().V1().Nodes(),
		machineConfiguration.MachineConfigPools(),
		machineConfiguration.MachineConfigs(),
		s.factories.config.Config().V1().ClusterVersions(),
		s.factories.budgets.Policy().V1().PodDisruptionBudgets(),
		s.factories.daemonSets.Apps().V1().DaemonSets(),
		insights.NodeProgressInsights(),
		insights.MachineConfigPoolProgressInsights(),
		insights.UpdateHealthInsights(),
		s.clients.nodeInsights.InsightsV1alpha1(),
		perNode,
		optional,
		s.tracker,
		s.controllerContext.EventRecorder,
		s.controllerContext.Clock,
	)
	if err != nil {
		// Only a programming error (an index added twice) gets here.
		klog.ErrorS(err, "Cannot build the node controller")
		s.tracker.SwitchOff(node.Name, fmt.Sprintf("it could not be built: %v", err))
		return false
	}
	s.tracker.SwitchOn(node.Name)
	s.run(ctx, nodeController, nodeWorkers)
	return true
}
