package precheck

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// completedUpdates is a history of updates that took these durations, the
// newest first, ending with the installation.
func completedUpdates(took ...time.Duration) []configv1.UpdateHistory {
	var history []configv1.UpdateHistory
	for i, d := range took {
		started := metav1.NewTime(now.Add(-time.Duration(i+1) * 30 * 24 * time.Hour))
		completed := metav1.NewTime(started.Add(d))
		history = append(history, configv1.UpdateHistory{State: configv1.CompletedUpdate, Version: "4.16.3", StartedTime: started, CompletionTime: &completed})
	}
	installed := metav1.NewTime(now.Add(-365 * 24 * time.Hour))
	return append(history, configv1.UpdateHistory{State: configv1.CompletedUpdate, Version: "4.15.0", StartedTime: installed, CompletionTime: &installed})
}

func nodesOf(role string, n int) []*corev1.Node {
	var out []*corev1.Node
	for i := range n {
		out = append(out, node(role+"-"+string(rune('a'+i%26))+string(rune('a'+i/26)), role))
	}
	return out
}

func TestDuration(t *testing.T) {
	workers := append(nodesOf("worker", 20), nodesOf("infra", 4)...)
	tests := []struct {
		name    string
		history []configv1.UpdateHistory
		pools   []*machineconfigurationv1.MachineConfigPool
		nodes   []*corev1.Node
		perNode map[string]time.Duration
		want    string
	}{
		{
			name:    "from the cluster's history and the pools' learned times",
			history: completedUpdates(50*time.Minute, 55*time.Minute, 70*time.Minute, 40*time.Minute, 58*time.Minute, 300*time.Minute),
			pools: []*machineconfigurationv1.MachineConfigPool{
				machinePool("master", false, nil),
				machinePool("worker", false, ptr.To(intstr.FromString("25%"))),
				machinePool("infra", false, ptr.To(intstr.FromInt32(1))),
			},
			nodes:   append(nodesOf("master", 3), workers...),
			perNode: map[string]time.Duration{"worker": 9 * time.Minute, "infra": 12 * time.Minute},
			// Worker: 5 at a time, 4 batches of 9m; infra: 4 batches of 12m.
			want: "The update to 4.17.2 should take about 1h43m: the control plane ~55m (the median of its last 5 updates), then the workers ~48m (24 nodes in 2 pools)",
		},
		{
			name:    "an even number of updates, a paused pool, a default per-node time",
			history: completedUpdates(50*time.Minute, 60*time.Minute),
			pools:   []*machineconfigurationv1.MachineConfigPool{machinePool("worker", false, ptr.To(intstr.FromInt32(2))), machinePool("infra", true, nil)},
			nodes:   workers,
			want:    "The update to 4.17.2 should take about 2h35m: the control plane ~55m (the median of its last 2 updates), then the workers ~1h40m (20 nodes in 1 pool)",
		},
		{
			name:    "a freshly installed cluster without workers",
			history: completedUpdates(),
			pools:   []*machineconfigurationv1.MachineConfigPool{machinePool("master", false, nil)},
			nodes:   nodesOf("master", 3),
			want:    "The update to 4.17.2 should take about 1h: the control plane ~1h (a default: the cluster has completed no update), and no worker node to update",
		},
		{
			name:    "an update in progress is not a completed one",
			history: append([]configv1.UpdateHistory{{State: configv1.PartialUpdate, StartedTime: metav1.NewTime(now.Add(-time.Hour))}}, completedUpdates(42*time.Minute)...),
			pools:   []*machineconfigurationv1.MachineConfigPool{machinePool("worker", false, ptr.To(intstr.FromString("garbage")))},
			nodes:   nodesOf("worker", 1),
			want:    "The update to 4.17.2 should take about 52m: the control plane ~42m (as long as its last update), then the workers ~10m (1 node in 1 pool)",
		},
		{
			name:    "workers faster than a minute",
			history: completedUpdates(42 * time.Minute),
			pools:   []*machineconfigurationv1.MachineConfigPool{machinePool("worker", false, nil)},
			nodes:   nodesOf("worker", 3),
			perNode: map[string]time.Duration{"worker": 5 * time.Second},
			want:    "The update to 4.17.2 should take about 42m: the control plane ~42m (as long as its last update), then the workers under a minute (3 nodes in 1 pool)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cv := clusterVersion(func(cv *configv1.ClusterVersion) { cv.Status.History = tt.history })
			got := duration(&Input{ClusterVersion: cv, Target: "4.17.2", Pools: tt.pools, Nodes: tt.nodes, PerNode: tt.perNode, Now: now})
			want := []seen{{uidDuration, "status", tt.want}}
			if diff := cmp.Diff(want, seenOf(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// A hosted control plane's update moves no node: its time is the control
// plane's, and each NodePool's, updated apart one node at a time, is told
// beside it from what the NodePool controller learned of its nodes.
func TestHostedDuration(t *testing.T) {
	joining := poolNode("c-1", "", "v1.31.6")
	delete(joining.Labels, hosted.NodePoolLabel)
	tests := []struct {
		name    string
		nodes   []*corev1.Node
		perNode map[string]time.Duration
		want    []string
	}{
		{
			name: "NodePools with a learned and a default time; a node that has just joined is in none",
			nodes: []*corev1.Node{poolNode("a-1", "workers-a", "v1.31.6"), poolNode("a-2", "workers-a", "v1.31.6"), poolNode("a-3", "workers-a", "v1.31.6"),
				poolNode("b-1", "workers-b", "v1.31.6"), joining},
			perNode: map[string]time.Duration{"workers-a": 14 * time.Minute},
			want: []string{
				"The update to 4.19.2 should take about 42m: the control plane (as long as its last update); its NodePools, updated apart, ~42m (4 nodes in 2 NodePools)",
				"NodePool workers-a: 3 nodes, one at a time, ~14m each: ~42m.",
				"NodePool workers-b: 1 node, one at a time, ~10m each: ~10m.",
			},
		},
		{
			name:  "no node in a NodePool",
			nodes: []*corev1.Node{joining},
			want:  []string{"The update to 4.19.2 should take about 42m: the control plane (as long as its last update)", "The control plane is hosted: its update moves no node."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cv := clusterVersion(func(cv *configv1.ClusterVersion) { cv.Status.History = completedUpdates(42 * time.Minute) })
			got := hostedDuration(&Input{ClusterVersion: cv, Target: "4.19.2", Topology: hosted.Hosted, Nodes: tt.nodes, PerNode: tt.perNode, Now: now})
			if len(got) != 1 {
				t.Fatalf("findings: %v, want one", seenOf(got))
			}
			lines := strings.Split(got[0].Impact.Description, "\n")
			if diff := cmp.Diff(tt.want, append([]string{got[0].Impact.Summary}, lines[min(1, len(lines)-1):]...)); diff != "" {
				t.Errorf("summary and description's breakdown (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDurationSaysWhatThePerNodeTimeIsBasedOn(t *testing.T) {
	pools := []*machineconfigurationv1.MachineConfigPool{machinePool("worker", false, nil)}
	tests := []struct {
		name string
		p90  map[string]time.Duration
		want string
	}{
		{name: "learned this run", want: "Pool worker: 3 nodes, 1 at a time, ~12m each: ~36m."},
		{name: "recorded nodes that disagree: a range", p90: map[string]time.Duration{"worker": 19 * time.Minute},
			want: "Pool worker: 3 nodes, 1 at a time, ~12m to ~19m each (the median and 90th percentile of its nodes in the last recorded update): ~36m to ~57m."},
		{name: "recorded nodes that agree", p90: map[string]time.Duration{"worker": 12 * time.Minute},
			want: "Pool worker: 3 nodes, 1 at a time, ~12m each (its nodes' median in the last recorded update): ~36m."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &Input{ClusterVersion: clusterVersion(), Target: "4.17.2", Pools: pools, Nodes: nodesOf("worker", 3),
				PerNode: map[string]time.Duration{"worker": 12 * time.Minute}, PerNodeP90: tt.p90, Now: now}
			breakdown := workersDuration(in).breakdown
			if diff := cmp.Diff([]string{tt.want}, breakdown); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// An image-mode pool's nodes wait on its OS image build, which the update
// runs first: its line counts the build as long as the median of its past
// builds, and says its time is not known when it has none.
func TestDurationCountsImageBuilds(t *testing.T) {
	past := []*machineconfigurationv1.MachineOSBuild{
		machineOSBuild("worker-a", "worker", "rendered-worker-1", 30, imagemode.Succeeded, 40*time.Minute),
		machineOSBuild("worker-b", "worker", "rendered-worker-2", 20, imagemode.Succeeded, 20*time.Minute),
		machineOSBuild("worker-c", "worker", "rendered-worker-3", 10, imagemode.Succeeded, 25*time.Minute),
	}
	tests := []struct {
		name    string
		paused  bool
		configs []*machineconfigurationv1.MachineOSConfig
		builds  []*machineconfigurationv1.MachineOSBuild
		p90     map[string]time.Duration
		want    []string
	}{
		{
			name:   "no MachineOSConfig: as before",
			builds: past,
			want: []string{
				"The update to 4.17.2 should take about 1h18m: the control plane ~42m (as long as its last update), then the workers ~36m (3 nodes in 1 pool)",
				"Pool worker: 3 nodes, 1 at a time, ~12m each: ~36m.",
			},
		},
		{
			name:    "past builds: their median first",
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds:  past,
			want: []string{
				"The update to 4.17.2 should take about 1h43m: the control plane ~42m (as long as its last update), then the workers ~1h1m (3 nodes in 1 pool)",
				"Pool worker: its OS image build first, ~25m (the median of its last 3 builds), then 3 nodes, 1 at a time, ~12m each: ~1h1m.",
			},
		},
		{
			name:    "one past build, and nodes that disagree",
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds:  past[2:],
			p90:     map[string]time.Duration{"worker": 19 * time.Minute},
			want: []string{
				"The update to 4.17.2 should take about 1h43m: the control plane ~42m (as long as its last update), then the workers ~1h1m (3 nodes in 1 pool)",
				"Pool worker: its OS image build first, ~25m (as long as its last build), then 3 nodes, 1 at a time, " +
					"~12m to ~19m each (the median and 90th percentile of its nodes in the last recorded update): ~1h1m to ~1h22m.",
			},
		},
		{
			name:    "no past build: not known",
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds:  []*machineconfigurationv1.MachineOSBuild{machineOSBuild("worker-c", "worker", "rendered-worker-3", 1, imagemode.Failed, 5*time.Minute)},
			want: []string{
				"The update to 4.17.2 should take about 1h18m: the control plane ~42m (as long as its last update), then the workers ~36m (3 nodes in 1 pool), " +
					"not counting the OS image build of pool worker, whose time is not known",
				"Pool worker: its OS image build first, whose time is not known (MachineOSConfig worker has no past build to tell), then 3 nodes, 1 at a time, ~12m each: ~36m and the build.",
			},
		},
		{
			name:    "a paused layered pool does not update",
			paused:  true,
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds:  past,
			want:    []string{"The update to 4.17.2 should take about 42m: the control plane ~42m (as long as its last update), and no worker node to update"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cv := clusterVersion(func(cv *configv1.ClusterVersion) { cv.Status.History = completedUpdates(42 * time.Minute) })
			got := duration(&Input{ClusterVersion: cv, Target: "4.17.2",
				Pools: []*machineconfigurationv1.MachineConfigPool{layeredPool("master", false, "rendered-master-2"), layeredPool("worker", tt.paused, "rendered-worker-3")},
				Nodes: append(nodesOf("master", 3), nodesOf("worker", 3)...), MachineOSConfigs: tt.configs, MachineOSBuilds: tt.builds,
				PerNode: map[string]time.Duration{"worker": 12 * time.Minute}, PerNodeP90: tt.p90, Now: now})
			if len(got) != 1 {
				t.Fatalf("findings: %v, want one", seenOf(got))
			}
			lines := strings.Split(got[0].Impact.Description, "\n")
			if diff := cmp.Diff(tt.want, append([]string{got[0].Impact.Summary}, lines[1:]...)); diff != "" {
				t.Errorf("summary and description's breakdown (-want +got):\n%s", diff)
			}
		})
	}
}
