package metrics

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// inNodePool moves node insights to the NodePool of the same name, as the
// NodePool controller writes them.
func inNodePool(insights []*insightsv1alpha1.NodeProgressInsight) []*insightsv1alpha1.NodeProgressInsight {
	for _, n := range insights {
		n.Status.PoolResource = hosted.NodePool(n.Status.PoolResource.Name)
	}
	return insights
}

func asNodePool(p *insightsv1alpha1.MachineConfigPoolProgressInsight) *insightsv1alpha1.MachineConfigPoolProgressInsight {
	ref := hosted.NodePool(p.Status.Name)
	p.Status.Resource, p.Status.ScopeType = &ref, insightsv1alpha1.ScopeTypeWorkerPool
	return p
}

// nodePoolSeries are the pool_nodes series of a hosted cluster: the
// nodepool kind's, by phase.
func nodePoolSeries(counts map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for _, phase := range FleetNodePhases {
		out[fmt.Sprintf("%s{phase=%q,pool=%q}", PoolNodesMetric, phase, PoolNodePool)] = counts[phase]
	}
	return out
}

// TestFleetNodePools: on a hosted cluster the NodePools are counted under
// the nodepool kind, whatever their names: a NodePool named worker or
// master is not taken for the MachineConfigPool of that name, and the
// MachineConfigPool kinds, which a hosted cluster has none of, have no
// series.
func TestFleetNodePools(t *testing.T) {
	tests := []struct {
		name string
		in   fleetInput
		want map[string]float64
	}{
		{
			name: "no NodePool and no node: every count zero, no ratio",
			in:   fleetInput{topology: hosted.Hosted},
			want: nodePoolSeries(nil),
		},
		{
			name: "NodePools named worker, master and otherwise are all NodePools",
			in: fleetInput{topology: hosted.Hosted, nodes: inNodePool(append(append(
				nodes("w", "worker", insightsv1alpha1.NodeCompleted, 2, false),
				nodes("m", "master", insightsv1alpha1.NodeDraining, 1, false)...),
				nodes("np", "workers-us-east-1a", insightsv1alpha1.NodeCompleted, 1, false)...))},
			want: merge(
				nodePoolSeries(map[string]float64{PhaseUpdated: 3, PhaseDraining: 1}),
				poolRatios(map[string]float64{PoolNodePool: 3.0 / 4}),
			),
		},
		{
			name: "NodePools' summaries count their nodes",
			in: fleetInput{topology: hosted.Hosted,
				pools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{
					asNodePool(pool("worker", "Progressing", 6, 3)),
					asNodePool(pool("old", "Behind", 2, 2)),
				},
				nodes: inNodePool(nodes("w", "worker", insightsv1alpha1.NodeCompleted, 3, false)),
			},
			want: merge(
				nodePoolSeries(map[string]float64{PhaseUpdated: 3}),
				poolRatios(map[string]float64{PoolNodePool: 3.0 / 8}),
			),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := only(scrape(t, tt.in.collectors(t)...), PoolNodesMetric, PoolCompletionRatioMetric)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("series (-want +got):\n%s", diff)
			}
		})
	}
}
