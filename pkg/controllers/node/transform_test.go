package node

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// TestStrippedObjectsAssessTheSame checks, over every recorded cluster, that
// the caches' stripped objects give the very insights the whole objects
// give, and that they are smaller.
func TestStrippedObjectsAssessTheSame(t *testing.T) {
	files, err := filepath.Glob("../../../test/testdata/oc-examples/*-cv.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded clusters: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(f, "-cv.yaml")
		t.Run(filepath.Base(name), func(t *testing.T) {
			c, err := analyze.Load(analyze.Paths{
				ClusterVersions: f, MachineConfigPools: name + "-mcp.yaml", MachineConfigs: name + "-mc.yaml", Nodes: name + "-node.yaml",
			})
			if err != nil {
				t.Fatal(err)
			}
			stripped := &analyze.Cluster{ClusterVersions: c.ClusterVersions}
			var before, after int
			for _, n := range c.Nodes {
				s := strip(t, StripNode, n).(*corev1.Node)
				stripped.Nodes = append(stripped.Nodes, s)
				before, after = before+size(t, n), after+size(t, s)
			}
			for _, p := range c.MachineConfigPools {
				stripped.MachineConfigPools = append(stripped.MachineConfigPools, strip(t, StripMachineConfiguration, p).(*machineconfigurationv1.MachineConfigPool))
			}
			for _, mc := range c.MachineConfigs {
				s := strip(t, StripMachineConfiguration, mc).(*machineconfigurationv1.MachineConfig)
				stripped.MachineConfigs = append(stripped.MachineConfigs, s)
				before, after = before+size(t, mc), after+size(t, s)
			}
			now := c.ClusterVersions[0].Status.Conditions[0].LastTransitionTime.Time
			if diff := cmp.Diff(analyze.Insights(c, now), analyze.Insights(stripped, now)); diff != "" {
				t.Errorf("insights from stripped objects differ (-whole +stripped):\n%s", diff)
			}
			// Most recordings were already trimmed of node images; the
			// scale benchmark measures what stripping saves on real nodes.
			if after >= before {
				t.Errorf("stripped nodes and configs take %d bytes, whole ones %d", after, before)
			}
			t.Logf("nodes and MachineConfigs: %d bytes whole, %d stripped", before, after)
			again := strip(t, StripNode, stripped.Nodes[0])
			if diff := cmp.Diff(stripped.Nodes[0], again); diff != "" {
				t.Errorf("stripping is not idempotent (-once +twice):\n%s", diff)
			}
		})
	}
}

func strip(t *testing.T, transform func(any) (any, error), obj any) any {
	t.Helper()
	out, err := transform(obj)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func size(t *testing.T, obj any) int {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

func TestStripKeepsWhatOtherTypesAre(t *testing.T) {
	cm := &corev1.ConfigMap{Data: map[string]string{"a": "b"}}
	for _, transform := range []func(any) (any, error){StripNode, StripMachineConfig, StripMachineConfigPool, StripMachineConfiguration} {
		if out := strip(t, transform, cm); out != any(cm) {
			t.Errorf("a transform changed an object of another type")
		}
	}
	if _, ok := nodes.VersionOf(strip(t, StripMachineConfig, &machineconfigurationv1.MachineConfig{}).(*machineconfigurationv1.MachineConfig)); ok {
		t.Errorf("a MachineConfig without a version got one")
	}
}

// The pre-checks estimate a pool's update from how many of its nodes may
// update at once: that survives the cache.
func TestStripKeepsAPoolsMaxUnavailable(t *testing.T) {
	pool := &machineconfigurationv1.MachineConfigPool{Spec: machineconfigurationv1.MachineConfigPoolSpec{MaxUnavailable: ptr.To(intstr.FromString("25%"))}}
	stripped, err := StripMachineConfigPool(pool)
	if err != nil {
		t.Fatal(err)
	}
	if got := stripped.(*machineconfigurationv1.MachineConfigPool).Spec.MaxUnavailable; got == nil || got.String() != "25%" {
		t.Errorf("maxUnavailable %v, want 25%%", got)
	}
}

func TestStripNodeKeepsTheKubeletOfANodePoolsNode(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   string
	}{
		{name: "a MachineConfigPool's node", labels: map[string]string{"node-role.kubernetes.io/worker": ""}},
		{name: "a NodePool's node", labels: map[string]string{hosted.NodePoolLabel: "workers-a"}, want: "v1.31.6+a1b2c3d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: tc.labels}}
			n.Status.NodeInfo = corev1.NodeSystemInfo{KubeletVersion: "v1.31.6+a1b2c3d", OSImage: "Red Hat Enterprise Linux CoreOS 418.94"}
			got := strip(t, StripNode, n).(*corev1.Node).Status.NodeInfo
			if diff := cmp.Diff(corev1.NodeSystemInfo{KubeletVersion: tc.want}, got); diff != "" {
				t.Errorf("nodeInfo (-want +got):\n%s", diff)
			}
		})
	}
}
