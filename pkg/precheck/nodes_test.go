package precheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// machinePool selects the nodes with its role label.
func machinePool(name string, paused bool, maxUnavailable *intstr.IntOrString) *machineconfigurationv1.MachineConfigPool {
	return &machineconfigurationv1.MachineConfigPool{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: machineconfigurationv1.MachineConfigPoolSpec{
			NodeSelector:   &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/" + name: ""}},
			Paused:         paused,
			MaxUnavailable: maxUnavailable,
		},
	}
}

// node is a ready node of the pool of that role, options applied.
func node(name, role string, options ...func(*corev1.Node)) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"node-role.kubernetes.io/" + role: ""}, Annotations: map[string]string{}},
		Status:     corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
	}
	for _, o := range options {
		o(n)
	}
	return n
}

// pod is a pod of namespace app on the node, Ready when it runs, as the
// kubelet reports it.
func pod(name, nodeName string, phase corev1.PodPhase) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: name}, Spec: corev1.PodSpec{NodeName: nodeName}, Status: corev1.PodStatus{Phase: phase}}
	if phase == corev1.PodRunning {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	}
	return p
}

// budget is a budget of namespace app that allows that many disruptions,
// with the pods it selects, which it labels as it selects them.
func budget(name string, allowed int32, pods ...*corev1.Pod) Budget {
	label := name
	if len(label) > 63 {
		label = shortHash(name)
	}
	for _, p := range pods {
		p.Labels = map[string]string{"budget": label}
	}
	return Budget{
		PodDisruptionBudget: &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: name},
			Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"budget": label}}},
			Status:     policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: allowed, CurrentHealthy: 2, DesiredHealthy: 2},
		},
		Pods: pods,
	}
}

func TestDisruptionBudgets(t *testing.T) {
	in := &Input{
		Now:   now,
		Pools: []*machineconfigurationv1.MachineConfigPool{machinePool("master", false, nil), machinePool("worker", false, nil), machinePool("infra", true, nil)},
		Nodes: []*corev1.Node{
			node("master-0", "master"), node("worker-0", "worker"), node("worker-1", "worker"), node("worker-2", "worker"),
			node("worker-3", "worker"), node("infra-0", "infra"), node("loose-0", "none"),
		},
		Budgets: []Budget{
			budget("allows-one", 1, pod("one-a", "worker-0", corev1.PodRunning)),
			// The pending pod on worker-2 is evicted whatever its budget
			// (eviction.go, canIgnorePDB), and the finished one too.
			budget("on-workers", 0, pod("a", "worker-3", corev1.PodRunning), pod("b", "worker-1", corev1.PodRunning), pod("c", "worker-1", corev1.PodRunning),
				pod("d", "worker-0", corev1.PodRunning), pod("e", "worker-2", corev1.PodPending), pod("done", "master-0", corev1.PodSucceeded)),
			budget("on-a-master", 0, pod("master-a", "master-0", corev1.PodRunning)),
			budget("not-drained", 0, pod("infra-a", "infra-0", corev1.PodRunning), pod("loose-b", "loose-0", corev1.PodRunning), pod("gone-c", "gone", corev1.PodRunning)),
		},
	}
	got := disruptionBudgets(in)
	want := []seen{
		{"pdb/app/on-workers", "warning", "PodDisruptionBudget app/on-workers allows no disruption: the drain of nodes worker-0, worker-1, worker-3 will wait for it"},
		{"pdb/app/on-a-master", "warning", "PodDisruptionBudget app/on-a-master allows no disruption: the drain of node master-0 will wait for it"},
	}
	if diff := cmp.Diff(want, seenOf(got)); diff != "" {
		t.Fatalf("findings (-want +got):\n%s", diff)
	}
	wantScopes := []insightsv1alpha1.UpdateInsightScope{
		{
			Type: insightsv1alpha1.ScopeTypeWorkerPool, WorkerPool: []insightsv1alpha1.InsightResource{poolResource("worker")},
			Resources: []insightsv1alpha1.InsightResource{
				{Group: "policy", Kind: "PodDisruptionBudget", Namespace: "app", Name: "on-workers"},
				nodeResource("worker-0"), nodeResource("worker-1"), nodeResource("worker-3"),
			},
		},
		controlPlane(insightsv1alpha1.InsightResource{Group: "policy", Kind: "PodDisruptionBudget", Namespace: "app", Name: "on-a-master"}, nodeResource("master-0")),
	}
	if diff := cmp.Diff(wantScopes, []insightsv1alpha1.UpdateInsightScope{got[0].Scope, got[1].Scope}); diff != "" {
		t.Errorf("scopes (-want +got):\n%s", diff)
	}
}

func TestNodeProblems(t *testing.T) {
	notReady := func(n *corev1.Node) {
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionFalse, Reason: "KubeletNotReady", Message: "PLEG is not healthy"}}
	}
	tests := []struct {
		name string
		node *corev1.Node
		want []seen
	}{
		{name: "ready and schedulable", node: node("worker-0", "worker")},
		{
			name: "not ready", node: node("worker-0", "worker", notReady),
			want: []seen{{"node/worker-0/not-ready", "error", "Node worker-0 is not ready: it counts against its pool's maxUnavailable and may stall the pool's update"}},
		},
		{
			name: "no Ready condition", node: node("worker-0", "worker", func(n *corev1.Node) { n.Status.Conditions = nil }),
			want: []seen{{"node/worker-0/not-ready", "error", "Node worker-0 is not ready: it counts against its pool's maxUnavailable and may stall the pool's update"}},
		},
		{
			name: "cordoned", node: node("worker-0", "worker", func(n *corev1.Node) { n.Spec.Unschedulable = true }),
			want: []seen{{"node/worker-0/unschedulable", "warning", "Node worker-0 is cordoned: it counts against its pool's maxUnavailable, and the update will uncordon it"}},
		},
		{
			name: "cordoned by its daemon, to drain it for an update",
			node: node("worker-0", "worker", func(n *corev1.Node) {
				n.Spec.Unschedulable = true
				n.Annotations[nodes.DesiredDrainAnnotation], n.Annotations[nodes.LastAppliedDrainAnnotation] = "drain-rendered-worker-2", "uncordon-rendered-worker-1"
			}),
		},
		{
			name: "its daemon degraded",
			node: node("master-0", "master", func(n *corev1.Node) {
				n.Annotations[nodes.StateAnnotation], n.Annotations[nodes.ReasonAnnotation] = "Degraded", "unexpected on-disk state"
			}),
			want: []seen{{"node/master-0/daemon-degraded", "error", "The machine-config daemon on node master-0 is Degraded: the node will not update until that is resolved"}},
		},
		{
			name: "its daemon working",
			node: node("worker-0", "worker", func(n *corev1.Node) { n.Annotations[nodes.StateAnnotation] = "Working" }),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := nodeProblems(&Input{Now: now, Nodes: []*corev1.Node{tt.node},
				Pools: []*machineconfigurationv1.MachineConfigPool{machinePool("master", false, nil), machinePool("worker", false, nil)}})
			if diff := cmp.Diff(tt.want, seenOf(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPausedPools(t *testing.T) {
	got := pausedPools(&Input{
		Now: now,
		Pools: []*machineconfigurationv1.MachineConfigPool{
			machinePool("master", true, nil), machinePool("worker", false, nil), machinePool("infra", true, nil), machinePool("empty", true, nil),
		},
		Nodes: []*corev1.Node{node("master-0", "master"), node("worker-0", "worker"), node("infra-0", "infra"), node("infra-1", "infra")},
	})
	want := []seen{
		{"pool/master/paused", "error", "Pool master is paused: the control plane's update will not complete until it is unpaused"},
		{"pool/infra/paused", "warning", "Pool infra is paused: its 2 nodes will not be updated until it is unpaused"},
	}
	if diff := cmp.Diff(want, seenOf(got)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
