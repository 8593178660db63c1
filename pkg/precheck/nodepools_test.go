package precheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// poolNode is a ready node of a NodePool with that kubelet, labelled and
// annotated as HyperShift makes it (control-plane-operator/
// hostedclusterconfigoperator/controllers/node/node.go copies the
// NodePool label; CAPI sets the machine annotations).
func poolNode(name, pool, kubelet string) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name,
			Labels: map[string]string{hosted.NodePoolLabel: pool, "node-role.kubernetes.io/worker": ""},
			Annotations: map[string]string{
				"cluster.x-k8s.io/machine":           pool + "-" + name,
				"cluster.x-k8s.io/owner-name":        pool + "-7d4b9",
				"cluster.x-k8s.io/cluster-namespace": "clusters-example",
			}},
		Status: corev1.NodeStatus{
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
			NodeInfo:   corev1.NodeSystemInfo{KubeletVersion: kubelet, OSImage: "Red Hat Enterprise Linux CoreOS 418.94.202503101234-0"},
		},
	}
}

// kubeAPIServer is the ClusterOperator the hosted-cluster-config-operator
// writes, with the control plane's Kubernetes version (…/resources/
// clusteroperators.go, the kube-apiserver VersionMapping).
func kubeAPIServer(release, kube string) *configv1.ClusterOperator {
	co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: hosted.KubeAPIServer}}
	co.Status.Versions = []configv1.OperandVersion{{Name: "operator", Version: release}, {Name: "raw-internal", Version: release}}
	if kube != "" {
		co.Status.Versions = append(co.Status.Versions, configv1.OperandVersion{Name: hosted.KubeAPIServer, Version: kube})
	}
	co.Status.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue, Reason: "AsExpected"},
		{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse, Reason: "AsExpected"},
		{Type: configv1.OperatorDegraded, Status: configv1.ConditionFalse, Reason: "AsExpected"},
		{Type: configv1.OperatorUpgradeable, Status: configv1.ConditionTrue, Reason: "AsExpected"},
	}
	return co
}

func separately(target string) seen {
	return seen{uidNodePoolsSeparate, "status", "The update to " + target + " updates the control plane only: the NodePools are updated separately, from the management cluster"}
}

func TestNodePools(t *testing.T) {
	for _, tc := range []struct {
		name    string
		current string
		// operatorRelease is the kube-apiserver ClusterOperator's, when it
		// is not current.
		operatorRelease string
		target          string
		kube            string
		nodes           []*corev1.Node
		want            []seen
		wantScope       []insightsv1alpha1.InsightResource
	}{
		{
			name: "no NodePool nodes", current: "4.18.3", target: "4.19.2", kube: "1.31.6",
			want: []seen{separately("4.19.2")},
		},
		{
			name: "a patch update keeps every NodePool within the skew", current: "4.18.3", target: "4.18.9", kube: "1.31.6",
			nodes: []*corev1.Node{poolNode("a-1", "workers-a", "v1.28.15+f67aeb3")},
			want:  []seen{separately("4.18.9")},
		},
		{
			name: "three behind after the update is within the skew", current: "4.18.3", target: "4.19.2", kube: "1.31.6",
			nodes: []*corev1.Node{poolNode("a-1", "workers-a", "v1.29.10+67d3387")},
			want:  []seen{separately("4.19.2")},
		},
		{
			name: "the oldest kubelet of a NodePool counts, and only the NodePool behind is named", current: "4.18.3", target: "4.19.2", kube: "1.31.6",
			nodes: []*corev1.Node{
				poolNode("a-1", "workers-a", "v1.31.6+a1b2c3d"),
				poolNode("b-1", "workers-b", "v1.29.10+67d3387"),
				poolNode("b-2", "workers-b", "v1.28.15+f67aeb3"),
			},
			want: []seen{separately("4.19.2"), {"nodepool/workers-b/skew", "error",
				"NodePool workers-b runs 4.15 (oldest kubelet v1.28.15+f67aeb3): after the update to 4.19.2 it would be 4 minor releases behind the control plane, more than the 3 supported"}},
		},
		{
			name: "an update to 5.0 counts 5.0 as 4.23", current: "4.22.4", target: "5.0.1", kube: "1.35.2",
			nodes: []*corev1.Node{poolNode("a-1", "workers-a", "v1.33.4"), poolNode("b-1", "workers-b", "v1.32.9")},
			want: []seen{separately("5.0.1"), {"nodepool/workers-b/skew", "error",
				"NodePool workers-b runs 4.19 (oldest kubelet v1.32.9): after the update to 5.0.1 it would be 4 minor releases behind the control plane, more than the 3 supported"}},
		},
		{
			name: "within 5.y", current: "5.0.1", target: "5.2.0", kube: "1.36.1",
			nodes: []*corev1.Node{poolNode("a-1", "workers-a", "v1.34.2")},
			want: []seen{separately("5.2.0"), {"nodepool/workers-a/skew", "error",
				"NodePool workers-a runs 4.21 (oldest kubelet v1.34.2): after the update to 5.2.0 it would be 4 minor releases behind the control plane, more than the 3 supported"}},
		},
		{
			name: "while the control plane updates, the release of its Kubernetes counts", current: "4.19.2", operatorRelease: "4.18.3", target: "4.19.2", kube: "1.31.6",
			nodes: []*corev1.Node{poolNode("b-1", "workers-b", "v1.28.15+f67aeb3")},
			want: []seen{separately("4.19.2"), {"nodepool/workers-b/skew", "error",
				"NodePool workers-b runs 4.15 (oldest kubelet v1.28.15+f67aeb3): after the update to 4.19.2 it would be 4 minor releases behind the control plane, more than the 3 supported"}},
		},
		{
			name: "the control plane's Kubernetes is not known", current: "4.18.3", target: "4.19.2",
			nodes: []*corev1.Node{poolNode("a-1", "workers-a", "v1.28.15")},
			want: []seen{separately("4.19.2"), {uidNodePoolsSkew, "warning",
				"Whether the update to 4.19.2 leaves a NodePool outside the supported version skew could not be checked: the ClusterOperator kube-apiserver does not say the control plane's Kubernetes version"}},
		},
		{
			name: "a kubelet version that cannot be read", current: "4.18.3", target: "4.19.2", kube: "1.31.6",
			nodes: []*corev1.Node{poolNode("a-1", "workers-a", "v1.31.6"), poolNode("a-2", "workers-a", "")},
			want: []seen{separately("4.19.2"), {"nodepool/workers-a/skew-unchecked", "warning",
				"Whether the update to 4.19.2 leaves NodePool workers-a outside the supported version skew could not be checked: the kubelet version of node a-2 cannot be read"}},
		},
		{
			name: "a kubelet that cannot be read does not hide one outside the skew", current: "4.18.3", target: "4.19.2", kube: "1.31.6",
			nodes: []*corev1.Node{poolNode("b-1", "workers-b", "v1.28.15"), poolNode("b-2", "workers-b", "")},
			want: []seen{separately("4.19.2"), {"nodepool/workers-b/skew", "error",
				"NodePool workers-b runs 4.15 (oldest kubelet v1.28.15): after the update to 4.19.2 it would be 4 minor releases behind the control plane, more than the 3 supported"}},
		},
		{
			name: "the control plane's Kubernetes cannot be read", current: "4.18.3", target: "4.19.2", kube: "4.18.3",
			nodes: []*corev1.Node{poolNode("a-1", "workers-a", "v1.28.15")},
			want: []seen{separately("4.19.2"), {uidNodePoolsSkew, "warning",
				"Whether the update to 4.19.2 leaves a NodePool outside the supported version skew could not be checked: the control plane's Kubernetes version \"4.18.3\" cannot be read"}},
		},
		{
			name: "a node that has not been given its NodePool yet", current: "4.18.3", target: "4.19.2", kube: "1.31.6",
			nodes: []*corev1.Node{func() *corev1.Node {
				n := poolNode("new", "", "v1.20.0")
				delete(n.Labels, hosted.NodePoolLabel)
				return n
			}()},
			want: []seen{separately("4.19.2")},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			operatorRelease := tc.operatorRelease
			if operatorRelease == "" {
				operatorRelease = tc.current
			}
			in := Input{ClusterVersion: clusterVersion(running(tc.current)), Target: tc.target, Topology: hosted.Hosted, Nodes: tc.nodes, Now: now,
				ClusterOperators: []*configv1.ClusterOperator{kubeAPIServer(operatorRelease, tc.kube)}}
			got := nodePools(&in)
			if diff := cmp.Diff(tc.want, seenOf(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNodePoolSkewFindingSaysWhatToDo(t *testing.T) {
	in := Input{ClusterVersion: clusterVersion(running("4.18.3")), Target: "4.19.2", Topology: hosted.Hosted, Now: now,
		Nodes:            []*corev1.Node{poolNode("b-1", "workers-b", "v1.28.15+f67aeb3")},
		ClusterOperators: []*configv1.ClusterOperator{kubeAPIServer("4.18.3", "1.31.6")}}
	got := nodePools(&in)
	if len(got) != 2 {
		t.Fatalf("got %d findings, want 2", len(got))
	}
	want := insightsv1alpha1.UpdateInsightScope{
		Type:       insightsv1alpha1.ScopeTypeWorkerPool,
		WorkerPool: []insightsv1alpha1.InsightResource{{Group: "hypershift.openshift.io", Kind: "NodePool", Name: "workers-b"}},
		Resources:  []insightsv1alpha1.InsightResource{{Group: "hypershift.openshift.io", Kind: "NodePool", Name: "workers-b"}, {Kind: "Node", Name: "b-1"}},
	}
	if diff := cmp.Diff(want, got[1].Scope); diff != "" {
		t.Errorf("scope (-want +got):\n%s", diff)
	}
	if d := got[1].Impact.Description; !strings.Contains(d, "Update the NodePool to 4.16 or later first") || !strings.Contains(d, "a release at most 4.18") {
		t.Errorf("description does not say what to do: %s", d)
	}
}

// On a hosted control plane the update moves no node: the checks of the
// pools' nodes give way to the NodePools', and nothing says
// MachineConfigPool.
func TestHostedRunChecksTheControlPlaneAndTheNodePools(t *testing.T) {
	cordoned := poolNode("a-2", "workers-a", "v1.28.15")
	cordoned.Spec.Unschedulable = true
	cordoned.Status.Conditions[0].Status = corev1.ConditionFalse
	in := func(topology hosted.Topology) Input {
		return Input{
			ClusterVersion: clusterVersion(running("4.18.3"), offering("4.19.2")), Target: "4.19.2", Topology: topology, Now: now,
			ClusterOperators: []*configv1.ClusterOperator{kubeAPIServer("4.18.3", "1.31.6")},
			Nodes:            []*corev1.Node{poolNode("a-1", "workers-a", "v1.31.6"), cordoned},
			AdminGates:       gatesOf(),
			AdminAcks:        acksOf(),
			CloudCredential:  cloudCredential(operatorv1.CloudCredentialsModeDefault, ""),
		}
	}
	uids := func(findings []insightsv1alpha1.UpdateInsight) []string {
		var out []string
		for _, f := range findings {
			out = append(out, f.UID)
		}
		return out
	}
	hostedFindings := Run(in(hosted.Hosted))
	want := []string{uidNodePoolsSeparate, "nodepool/workers-a/skew", uidDuration}
	if diff := cmp.Diff(want, uids(hostedFindings)); diff != "" {
		t.Errorf("hosted findings (-want +got):\n%s", diff)
	}
	for _, f := range hostedFindings {
		if text := f.Impact.Summary + f.Impact.Description; strings.Contains(text, "MachineConfigPool") || strings.Contains(text, "machine-config") {
			t.Errorf("%s speaks of the machine-config operator: %s", f.UID, text)
		}
		for _, r := range append(f.Scope.WorkerPool, f.Scope.Resources...) {
			if r.Kind == "MachineConfigPool" {
				t.Errorf("%s names a MachineConfigPool", f.UID)
			}
		}
	}
	if got := hostedFindings[len(hostedFindings)-1].Impact.Summary; got != "The update to 4.19.2 should take about 1h: the control plane (as long as its last update); its NodePools, updated apart, ~20m (2 nodes in 1 NodePool)" {
		t.Errorf("duration = %q", got)
	}

	// The same cluster taken for a standalone one is checked as before.
	standalone := uids(Run(in(hosted.Standalone)))
	for _, uid := range []string{"node/a-2/not-ready", "node/a-2/unschedulable"} {
		if !slices.Contains(standalone, uid) {
			t.Errorf("standalone findings %v lack %s", standalone, uid)
		}
	}
	if slices.Contains(standalone, uidNodePoolsSeparate) {
		t.Errorf("standalone findings %v speak of NodePools", standalone)
	}
}
