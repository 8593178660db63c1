package statusview_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// workerPool is the insight of a progressing worker pool of one node.
func workerPool(name string) *insightsv1alpha1.MachineConfigPoolProgressInsight {
	return &insightsv1alpha1.MachineConfigPoolProgressInsight{Status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
		Name:       name,
		ScopeType:  insightsv1alpha1.ScopeTypeWorkerPool,
		Assessment: insightsv1alpha1.PoolProgressing,
		Summaries:  []insightsv1alpha1.NodeSummary{{Type: insightsv1alpha1.NodesTotal, Count: 1}, {Type: insightsv1alpha1.NodesOutdated, Count: 1}},
	}}
}

// poolNode is the insight of a pending node of a worker pool, named after it.
func poolNode(pool string) *insightsv1alpha1.NodeProgressInsight {
	return &insightsv1alpha1.NodeProgressInsight{Status: insightsv1alpha1.NodeProgressInsightStatus{
		Name:         pool + "-0",
		PoolResource: insightsv1alpha1.ResourceRef{Name: pool},
		ScopeType:    insightsv1alpha1.ScopeTypeWorkerPool,
	}}
}

// TestWorkerPoolOrder checks that the pool table and the node tables list
// the worker pools in the same order, the reference's: the default worker
// pool first, then the custom pools by name, however the insights are listed.
func TestWorkerPoolOrder(t *testing.T) {
	testCases := []struct {
		name string
		// pools have an insight, poolsOnlyFromNodes do not; each has a node.
		pools, poolsOnlyFromNodes []string
		want                      []string
	}{
		{name: "one pool", pools: []string{"worker"}, want: []string{"worker"}},
		{
			name:  "the default pool before a custom pool whose name sorts before it",
			pools: []string{"infra", "worker"},
			want:  []string{"worker", "infra"},
		},
		{
			name:  "custom pools by name, whichever way the insights come",
			pools: []string{"zbeast", "infra", "worker", "gpu"},
			want:  []string{"worker", "gpu", "infra", "zbeast"},
		},
		{name: "custom pools only", pools: []string{"infra", "gpu"}, want: []string{"gpu", "infra"}},
		{
			name:               "pools known only from their nodes' insights",
			poolsOnlyFromNodes: []string{"infra", "worker"},
			want:               []string{"worker", "infra"},
		},
		{
			name:               "pools with and without insights",
			pools:              []string{"infra"},
			poolsOnlyFromNodes: []string{"worker", "gpu"},
			want:               []string{"worker", "gpu", "infra"},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			in := &statusview.Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{progressing}}
			for _, name := range tc.pools {
				in.MachineConfigPools = append(in.MachineConfigPools, workerPool(name))
			}
			for _, name := range append(tc.pools, tc.poolsOnlyFromNodes...) {
				in.Nodes = append(in.Nodes, poolNode(name))
			}
			s, err := statusview.Build(in, now)
			if err != nil {
				t.Fatal(err)
			}
			var built []string
			for _, p := range s.WorkerPools {
				built = append(built, p.Name)
			}
			if diff := cmp.Diff(tc.want, built); diff != "" {
				t.Errorf("Status.WorkerPools (-want +got):\n%s", diff)
			}

			var out bytes.Buffer
			if err := statusview.WriteText(&out, s, statusview.Details{Nodes: true}); err != nil {
				t.Fatal(err)
			}
			rows, nodeTables := poolOrderOf(out.String())
			if diff := cmp.Diff(tc.want, rows); diff != "" {
				t.Errorf("rows of the pool table (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, nodeTables); diff != "" {
				t.Errorf("node tables (-want +got):\n%s", diff)
			}
		})
	}
}

// poolOrderOf returns the pools in the order of the rows of the worker pool
// table and in that of the node tables of a text.
func poolOrderOf(text string) (rows, nodeTables []string) {
	inTable := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "WORKER POOL "):
			inTable = true
		case line == "":
			inTable = false
		case inTable:
			rows = append(rows, strings.Fields(line)[0])
		case strings.HasPrefix(line, "Worker Pool Nodes: "):
			nodeTables = append(nodeTables, strings.TrimPrefix(line, "Worker Pool Nodes: "))
		}
	}
	return rows, nodeTables
}
