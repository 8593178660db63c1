package operator

import (
	"context"
	"fmt"

	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/nodepool"
)

// startNodePools runs the controller of the NodePools' node and pool
// insights, which learns into perNode how long their nodes take to update.
func (s *starter) startNodePools(ctx context.Context, perNode *nodes.PerNodeTimes) {
	insights := s.factories.insights.Insights().V1alpha1()
	controller, err := nodepool.New(
		ctx,
		s.clients.kube,
		s.factories.nodes.Core().V1().Nodes(),
		s.factories.config.Config().V1().ClusterOperators(),
		s.factories.budgets.Policy().V1().PodDisruptionBudgets(),
		s.factories.daemonSets.Apps().V1().DaemonSets(),
		insights.NodeProgressInsights(),
		insights.MachineConfigPoolProgressInsights(),
		insights.UpdateHealthInsights(),
		s.clients.nodeInsights.InsightsV1alpha1(),
		s.tracker,
		s.controllerContext.EventRecorder,
		perNode,
		s.controllerContext.Clock,
	)
	if err != nil {
		// Only a programming error (an index added twice) gets here.
		klog.ErrorS(err, "Cannot build the NodePool controller")
		s.tracker.SwitchOff(nodepool.Name, fmt.Sprintf("it could not be built: %v", err))
		return
	}
	s.tracker.SwitchOn(nodepool.Name)
	s.run(ctx, controller, nodeWorkers)
}
