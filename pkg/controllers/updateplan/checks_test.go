package updateplan

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	machineconfigurationlisters "github.com/openshift/client-go/machineconfiguration/listers/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
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

// failedBuild is the MachineOSBuild of the worker pool's configuration
// rendered-worker-3 that failed, its conditions as the build controller
// writes them (pkg/apihelpers/machineosbuild.go,
// MachineOSBuildFailedConditions) and its times as it sets them
// (pkg/controller/build/imagebuilder/base.go).
func failedBuild() *machineconfigurationv1.MachineOSBuild {
	start, end := metav1.NewTime(now.Add(-time.Hour)), metav1.NewTime(now.Add(-50*time.Minute))
	condition := func(t machineconfigurationv1.BuildProgress, status metav1.ConditionStatus, reason, message string) metav1.Condition {
		return metav1.Condition{Type: string(t), Status: status, Reason: reason, Message: message, LastTransitionTime: end}
	}
	return &machineconfigurationv1.MachineOSBuild{
		ObjectMeta: metav1.ObjectMeta{Name: "worker-c", CreationTimestamp: metav1.NewTime(now.Add(-61 * time.Minute))},
		Spec: machineconfigurationv1.MachineOSBuildSpec{
			MachineConfig:   machineconfigurationv1.MachineConfigReference{Name: "rendered-worker-3"},
			MachineOSConfig: machineconfigurationv1.MachineOSConfigReference{Name: "worker"},
		},
		Status: machineconfigurationv1.MachineOSBuildStatus{
			Conditions: []metav1.Condition{
				condition(machineconfigurationv1.MachineOSBuildPrepared, metav1.ConditionFalse, "Prepared", "Build Prepared and Pending"),
				condition(machineconfigurationv1.MachineOSBuilding, metav1.ConditionFalse, "Building", "Image Build In Progress"),
				condition(machineconfigurationv1.MachineOSBuildFailed, metav1.ConditionTrue, "Failed", "Build Failed"),
				condition(machineconfigurationv1.MachineOSBuildInterrupted, metav1.ConditionFalse, "Interrupted", "Build Interrupted"),
				condition(machineconfigurationv1.MachineOSBuildSucceeded, metav1.ConditionFalse, "Ready", "Build Ready"),
			},
			BuildStart: &start, BuildEnd: &end,
		},
	}
}

// The pre-checks read the image-mode pools' MachineOSConfigs and
// MachineOSBuilds where the cluster serves them; a cluster that does not
// gets the pre-checks it got before, and one whose pools have no
// MachineOSConfig has no build read.
func TestChecksReadTheImageModePools(t *testing.T) {
	// A finding's identity names its resources.
	const workerPool = "update-insights-operator/WorkerPool/MachineConfigPool.machineconfiguration.openshift.io/worker,"
	mosc := &machineconfigurationv1.MachineOSConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "worker", Annotations: map[string]string{imagemode.CurrentBuildAnnotation: "worker-c"}},
		Spec:       machineconfigurationv1.MachineOSConfigSpec{MachineConfigPool: machineconfigurationv1.MachineConfigPoolReference{Name: "worker"}},
	}
	for _, tc := range []struct {
		name         string
		served       bool
		configs      []*machineconfigurationv1.MachineOSConfig
		wantConfigs  []string
		wantBuilds   []string
		wantFindings []string
	}{
		{
			name:         "the cluster serves no MachineOSConfigs",
			wantFindings: []string{durationID},
		},
		{
			name:         "served, and no pool has a MachineOSConfig",
			served:       true,
			wantFindings: []string{durationID},
		},
		{
			name:        "served, and the worker pool is image-mode",
			served:      true,
			configs:     []*machineconfigurationv1.MachineOSConfig{mosc},
			wantConfigs: []string{"worker"},
			wantBuilds:  []string{"worker-c"},
			wantFindings: []string{
				durationID,
				workerPool + "MachineOSBuild.machineconfiguration.openshift.io/worker-c,MachineOSConfig.machineconfiguration.openshift.io/worker/pool/worker/image-build-failed",
				workerPool + "MachineOSConfig.machineconfiguration.openshift.io/worker/pool/worker/image-rebuild",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			pool, err := h.controller.pools.Get("worker")
			if err != nil {
				t.Fatal(err)
			}
			pool = pool.DeepCopy()
			pool.Spec.Configuration.Name = "rendered-worker-3"
			h.add(h.pools, pool)
			if tc.served {
				configs, builds := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}), cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
				for _, c := range tc.configs {
					h.add(configs, c)
				}
				h.add(builds, failedBuild())
				h.controller.machineOSConfigs = machineconfigurationlisters.NewMachineOSConfigLister(configs)
				h.controller.machineOSBuilds = machineconfigurationlisters.NewMachineOSBuildLister(builds)
			}
			cluster, err := h.controller.cluster()
			if err != nil {
				t.Fatal(err)
			}
			in, ready, err := h.controller.checksInput(context.Background(), "4.17.2", cluster, now)
			if err != nil || !ready {
				t.Fatalf("checks input: ready %t, %v", ready, err)
			}
			var gotConfigs, gotBuilds []string
			for _, c := range in.MachineOSConfigs {
				gotConfigs = append(gotConfigs, c.Name)
			}
			for _, b := range in.MachineOSBuilds {
				gotBuilds = append(gotBuilds, b.Name)
			}
			if diff := cmp.Diff([][]string{tc.wantConfigs, tc.wantBuilds}, [][]string{gotConfigs, gotBuilds}); diff != "" {
				t.Errorf("MachineOSConfigs and MachineOSBuilds read (-want +got):\n%s", diff)
			}
			h.createPlan("4.17.2", "r1")
			h.sync("4.17.2")
			if diff := cmp.Diff(tc.wantFindings, viewOf(h.plan("4.17.2")).Findings); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
