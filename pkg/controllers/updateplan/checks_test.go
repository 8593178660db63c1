package updateplan

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// The pre-checks' estimate reads how long a node of each pool takes to
// update as it was learned: a standalone cluster's by MachineConfigPool,
// a hosted one's by NodePool, whose label its nodes carry.
func TestChecksReadTheLearnedPerNodeTimes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		topology hosted.Topology
		nodes    []*corev1.Node
		want     map[string]time.Duration
	}{
		{
			name:     "standalone: the MachineConfigPools",
			topology: hosted.Standalone,
			want:     map[string]time.Duration{"worker": 7 * time.Minute},
		},
		{
			name:     "hosted: the NodePools",
			topology: hosted.Hosted,
			nodes: []*corev1.Node{
				{ObjectMeta: metav1.ObjectMeta{Name: "a-1", Labels: map[string]string{hosted.NodePoolLabel: "workers-a"}}},
				{ObjectMeta: metav1.ObjectMeta{Name: "b-1", Labels: map[string]string{hosted.NodePoolLabel: "workers-b"}}},
			},
			want: map[string]time.Duration{"workers-a": 13 * time.Minute, "workers-b": nodes.DefaultPerNodeTime},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.controller.topology = tc.topology
			h.controller.perNode = &nodes.PerNodeTimes{}
			h.controller.perNode.Observe("worker", 7*time.Minute)
			h.controller.perNode.Observe("workers-a", 13*time.Minute)
			cluster, err := h.controller.cluster()
			if err != nil {
				t.Fatal(err)
			}
			if tc.topology == hosted.Hosted {
				cluster.pools, cluster.nodes = nil, tc.nodes
			}
			in, ready, err := h.controller.checksInput(context.Background(), "4.17.2", cluster, now)
			if err != nil || !ready {
				t.Fatalf("checks input: ready %t, %v", ready, err)
			}
			if diff := cmp.Diff(tc.want, in.PerNode); diff != "" {
				t.Errorf("per-node times (-want +got):\n%s", diff)
			}
		})
	}
}
