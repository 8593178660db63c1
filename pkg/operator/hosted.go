package operator

import (
	"context"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	informerclient "github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// startHosted runs, on a cluster whose control plane is hosted, what takes
// the place of the node and UpdatePlan controllers' MachineConfigPools.
// The node controller never runs there: the hosted cluster's payload leaves
// the MachineConfig CRDs out (control-plane-operator/controllers/
// hostedcontrolplane/v2/cvo/deployment.go, manifestsToOmit); the NodePool
// controller follows the nodes by NodePool instead.
// They share what the NodePool controller learns of how long a node takes
// to update in place, which the pre-checks' estimate uses.
func (s *starter) startHosted(ctx context.Context, answers *updatestatus.Store, alertsSource *alerts.HTTPSource, informerRequests *informerclient.Limit) {
	perNode := s.perNodeTimes()
	s.startNodePools(ctx, perNode)
	s.startPlans(ctx, answers, perNode, alertsSource, informerRequests)
}
