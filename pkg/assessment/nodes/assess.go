package nodes

import (
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// estimateRefresh is how often a node in progress is looked at again by the
// clock alone: its estimate counts down in whole minutes.
const estimateRefresh = time.Minute

// Assess assesses a node's update: the desired status of its insight (with
// what its pool needs to know), the health insights the node controller
// owns for it, and when either would next change by the passage of time
// alone (the estimate's countdown, a health threshold expiring; zero for
// never).
func Assess(in Input) (Assessment, []health.Insight, time.Time) {
	a := NodeProgress(in)
	insights, next := health.ForNode(&a.Status, &a.NodeState, in.Now)
	if a.Status.EstimatedToComplete != nil {
		if refresh := in.Now.Add(estimateRefresh); next.IsZero() || refresh.Before(next) {
			next = refresh
		}
	}
	return a, insights, next
}

// AssessPool assesses a pool's update from the assessments of its nodes: the
// desired status of its insight and the health insights the node controller
// owns for it. previous is the pool's insight as last written, nil if none.
func AssessPool(pool *machineconfigurationv1.MachineConfigPool, nodes []*Assessment,
	previous *insightsv1alpha1.MachineConfigPoolProgressInsightStatus, now time.Time) (insightsv1alpha1.MachineConfigPoolProgressInsightStatus, []health.Insight) {
	status := Pool(pool, nodes, previous, now)
	return status, health.ForPool(&status)
}
