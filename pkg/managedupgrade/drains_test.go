package managedupgrade

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/drain"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// cordoned is a worker node cordoned by the operator's drain that long ago.
func cordoned(name string, d time.Duration, options ...func(*corev1.Node)) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"node-role.kubernetes.io/worker": ""}},
		Spec: corev1.NodeSpec{
			Unschedulable: true,
			Taints:        []corev1.Taint{{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule, TimeAdded: ago(d)}},
		},
	}
	for _, o := range options {
		o(n)
	}
	return n
}

// podOn is a running pod, Ready as the kubelet reports it.
func podOn(node, namespace, name string, labels map[string]string, options ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: labels},
		Spec:       corev1.PodSpec{NodeName: node},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
	for _, o := range options {
		o(p)
	}
	return p
}

// budget needs two healthy pods and has two more that it allows to be
// disrupted, its status as the disruption controller computes it.
func budget(namespace, name string, allowed int32, selector *metav1.LabelSelector) *policyv1.PodDisruptionBudget {
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Generation: 1},
		Spec:       policyv1.PodDisruptionBudgetSpec{Selector: selector},
		Status: policyv1.PodDisruptionBudgetStatus{
			ObservedGeneration: 1, DisruptionsAllowed: allowed, CurrentHealthy: 2 + allowed, DesiredHealthy: 2, ExpectedPods: 2 + allowed,
		},
	}
}

func TestDrains(t *testing.T) {
	app := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
	db := map[string]string{"app": "db"}
	blocking := []*policyv1.PodDisruptionBudget{budget("shop", "db", 0, app)}
	for _, tc := range []struct {
		name    string
		nodes   []*corev1.Node
		pods    []*corev1.Pod
		budgets []*policyv1.PodDisruptionBudget
		want    []NodeDrain
	}{
		{name: "nothing"},
		{
			name:  "drained nodes by name, not blocked without pods",
			nodes: []*corev1.Node{cordoned("worker-b", 5*time.Minute), cordoned("worker-a", time.Hour)},
			want:  []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Hour)}, {Node: "worker-b", Started: now.Add(-5 * time.Minute)}},
		},
		{
			name: "schedulable, without the taint, or without its time: not drained",
			nodes: []*corev1.Node{
				cordoned("schedulable", time.Minute, func(n *corev1.Node) { n.Spec.Unschedulable = false }),
				cordoned("untainted", time.Minute, func(n *corev1.Node) { n.Spec.Taints = nil }),
				cordoned("no-time", time.Minute, func(n *corev1.Node) { n.Spec.Taints[0].TimeAdded = nil }),
				cordoned("no-execute", time.Minute, func(n *corev1.Node) { n.Spec.Taints[0].Effect = corev1.TaintEffectNoExecute }),
			},
		},
		{
			// The node keeper leaves out the master label alone
			// (controllers/nodekeeper/ignoremaster_predicate.go).
			name: "master nodes are not the node keeper's",
			nodes: []*corev1.Node{
				cordoned("master-0", time.Minute, func(n *corev1.Node) { n.Labels["node-role.kubernetes.io/master"] = "" }),
				cordoned("cp-0", time.Minute, func(n *corev1.Node) { n.Labels["node-role.kubernetes.io/control-plane"] = "" }),
			},
			want: []NodeDrain{{Node: "cp-0", Started: now.Add(-time.Minute)}},
		},
		{
			name:    "a pod a budget allowing no disruption selects blocks its node only",
			nodes:   []*corev1.Node{cordoned("worker-a", time.Minute), cordoned("worker-b", time.Minute)},
			pods:    []*corev1.Pod{podOn("worker-a", "shop", "db-0", db), podOn("worker-b", "shop", "web-0", map[string]string{"app": "web"})},
			budgets: blocking,
			want: []NodeDrain{
				{Node: "worker-a", Started: now.Add(-time.Minute), Blocking: []BlockingPod{{Namespace: "shop", Name: "db-0", Reason: drain.BudgetAtLimit, PDBPod: true}}, PDBPods: true},
				{Node: "worker-b", Started: now.Add(-time.Minute)},
			},
		},
		{
			name:  "budgets that allow a disruption, of another namespace, or selecting nothing do not block",
			nodes: []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods:  []*corev1.Pod{podOn("worker-a", "shop", "db-0", db)},
			budgets: []*policyv1.PodDisruptionBudget{
				budget("shop", "allows", 1, app),
				budget("other", "db", 0, app),
				budget("shop", "no-selector", 0, nil),
				budget("shop", "invalid", 0, &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}}),
			},
			// The operator's own rule counts the pod a budget's all the
			// same: one of its labels is a pair of a budget's matchLabels.
			want: []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute), PDBPods: true}},
		},
		{
			name:  "finished pods and a DaemonSet's do not block",
			nodes: []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods: []*corev1.Pod{
				podOn("worker-a", "shop", "done", db, func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }),
				podOn("worker-a", "shop", "failed", db, func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed }),
				podOn("worker-a", "shop", "agent", db, func(p *corev1.Pod) {
					p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "agent", Controller: ptr.To(true)}}
				}),
			},
			budgets: blocking,
			// The operator's PDB-DELETE strategy reads no phase
			// (pkg/drain/strategy.go): a finished pod a budget's matchLabels
			// name keeps it to apply.
			want: []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute), PDBPods: true}},
		},
		{
			name:  "a pod a ReplicaSet controls blocks",
			nodes: []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods: []*corev1.Pod{podOn("worker-a", "shop", "db-0", db, func(p *corev1.Pod) {
				p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "db", Controller: ptr.To(true)}}
			})},
			budgets: blocking,
			want:    []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute), Blocking: []BlockingPod{{Namespace: "shop", Name: "db-0", Reason: drain.BudgetAtLimit, PDBPod: true}}, PDBPods: true}},
		},
		{
			// eviction.go, canIgnorePDB: a pending pod is deleted without a
			// look at its budgets. The operator counts it a budget's all
			// the same.
			name:    "a pending pod does not block",
			nodes:   []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods:    []*corev1.Pod{podOn("worker-a", "shop", "db-0", db, func(p *corev1.Pod) { p.Status.Phase = corev1.PodPending })},
			budgets: blocking,
			want:    []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute), PDBPods: true}},
		},
		{
			// eviction.go: an unready pod is deleted without using up a
			// disruption while its budget has the healthy pods it needs.
			name:  "a pod not ready, of a budget with the healthy pods it needs, does not block",
			nodes: []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods: []*corev1.Pod{podOn("worker-a", "shop", "db-0", db, func(p *corev1.Pod) {
				p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
			})},
			budgets: blocking,
			want:    []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute), PDBPods: true}},
		},
		{
			// eviction.go, getPodDisruptionBudgets: in policy/v1 an empty
			// selector selects every pod of the namespace.
			name:    "a budget with an empty selector blocks every pod of its namespace",
			nodes:   []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods:    []*corev1.Pod{podOn("worker-a", "shop", "web-0", map[string]string{"app": "web"})},
			budgets: []*policyv1.PodDisruptionBudget{budget("shop", "everything", 0, &metav1.LabelSelector{})},
			want: []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute),
				Blocking: []BlockingPod{{Namespace: "shop", Name: "web-0", Reason: drain.BudgetAtLimit}}}},
		},
		{
			// eviction.go: a pod more than one budget selects is refused
			// outright, whatever the budgets allow.
			name:    "a pod two budgets select blocks, even when both allow a disruption",
			nodes:   []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods:    []*corev1.Pod{podOn("worker-a", "shop", "db-0", db)},
			budgets: []*policyv1.PodDisruptionBudget{budget("shop", "db", 1, app), budget("shop", "everything", 1, &metav1.LabelSelector{})},
			want: []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute),
				Blocking: []BlockingPod{{Namespace: "shop", Name: "db-0", Reason: drain.MultipleBudgets, PDBPod: true}}, PDBPods: true}},
		},
		{
			// eviction.go, checkAndDecrement: a status the disruption
			// controller has not computed for the budget's generation.
			name:  "a budget whose status is older than its spec blocks, whatever it allows",
			nodes: []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods:  []*corev1.Pod{podOn("worker-a", "shop", "db-0", db)},
			budgets: []*policyv1.PodDisruptionBudget{func() *policyv1.PodDisruptionBudget {
				b := budget("shop", "db", 1, app)
				b.Generation = 2
				return b
			}()},
			want: []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute),
				Blocking: []BlockingPod{{Namespace: "shop", Name: "db-0", Reason: drain.BudgetNotSynced, PDBPod: true}}, PDBPods: true}},
		},
		{
			// Its eviction went through: the drain waits for it to go
			// (k8s.io/kubectl/pkg/drain drain.go, waitForDelete), and no
			// budget holds it.
			name:  "a deleted pod is not a budget's block",
			nodes: []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods: []*corev1.Pod{podOn("worker-a", "shop", "db-0", db, func(p *corev1.Pod) {
				p.DeletionTimestamp, p.DeletionGracePeriodSeconds = ago(-time.Minute), ptr.To(int64(120))
			})},
			budgets: blocking,
			want:    []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute), PDBPods: true}},
		},
		{
			name:  "a budget selecting by matchExpressions blocks a pod the operator does not count a budget's",
			nodes: []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods:  []*corev1.Pod{podOn("worker-a", "shop", "db-0", db)},
			budgets: []*policyv1.PodDisruptionBudget{budget("shop", "db", 0, &metav1.LabelSelector{
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"db"}}},
			})},
			want: []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute), Blocking: []BlockingPod{{Namespace: "shop", Name: "db-0", Reason: drain.BudgetAtLimit}}}},
		},
		{
			name:  "the operator counts a pod a budget's by one label of any budget, in any namespace",
			nodes: []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods:  []*corev1.Pod{podOn("worker-a", "shop", "web-0", map[string]string{"tier": "frontend", "app": "web"})},
			budgets: []*policyv1.PodDisruptionBudget{budget("elsewhere", "mixed", 1, &metav1.LabelSelector{
				MatchLabels: map[string]string{"tier": "frontend", "app": "other"},
			})},
			want: []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute), PDBPods: true}},
		},
		{
			name:  "a pod any owner of which is a DaemonSet is never the operator's to delete",
			nodes: []*corev1.Node{cordoned("worker-a", time.Minute)},
			pods: []*corev1.Pod{podOn("worker-a", "shop", "db-0", db, func(p *corev1.Pod) {
				p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "agent"}}
			})},
			budgets: blocking,
			want:    []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute), Blocking: []BlockingPod{{Namespace: "shop", Name: "db-0", Reason: drain.BudgetAtLimit, PDBPod: true, DaemonSetOwned: true}}}},
		},
		{
			name:    "nil entries are skipped",
			nodes:   []*corev1.Node{nil, cordoned("worker-a", time.Minute)},
			pods:    []*corev1.Pod{nil},
			budgets: []*policyv1.PodDisruptionBudget{nil},
			want:    []NodeDrain{{Node: "worker-a", Started: now.Add(-time.Minute)}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Drains(tc.nodes, tc.pods, tc.budgets, now)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("drains (-want +got):\n%s", diff)
			}
			var drained []string
			for _, n := range DrainedNodes(tc.nodes) {
				drained = append(drained, n.Name)
			}
			slices.Sort(drained)
			var want []string
			for _, d := range tc.want {
				want = append(want, d.Node)
			}
			if diff := cmp.Diff(want, drained); diff != "" {
				t.Errorf("drained nodes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNeedsDrains(t *testing.T) {
	for _, tc := range []struct {
		name    string
		configs []*upgradev1alpha1.UpgradeConfig
		want    bool
	}{
		{name: "none"},
		{name: "scheduled", configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig()}},
		{name: "upgrading", configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(running(upgradev1alpha1.PhaseUpgrading, ago(time.Hour)))}, want: true},
		{name: "upgraded", configs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(running(upgradev1alpha1.PhaseUpgraded, ago(time.Hour)))}},
		{name: "one of two upgrading", configs: []*upgradev1alpha1.UpgradeConfig{nil, upgradeConfig(), upgradeConfig(running(upgradev1alpha1.PhaseUpgrading, ago(time.Hour)))}, want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NeedsDrains(tc.configs); got != tc.want {
				t.Errorf("NeedsDrains = %t, want %t", got, tc.want)
			}
		})
	}
}

func TestWorkerNodes(t *testing.T) {
	master := cordoned("master-0", time.Minute, func(n *corev1.Node) { n.Labels["node-role.kubernetes.io/master"] = "" })
	if got := WorkerNodes([]*corev1.Node{nil, master, cordoned("worker-a", time.Minute), {}}); got != 2 {
		t.Errorf("WorkerNodes = %d, want 2: every node but the master", got)
	}
}

// The insight on a blocked drain says budgets allow no disruption only
// when that is why the eviction API refuses the pods.
func TestBlockedDrainSaysWhyTheEvictionAPIRefuses(t *testing.T) {
	const atLimit = "PodDisruptionBudgets that allow no disruption keep these pods on the node"
	const refused = "The eviction API refuses to evict these pods, by the PodDisruptionBudgets that select them"
	for _, tc := range []struct {
		reason drain.Reason
		want   string
	}{
		{drain.BudgetAtLimit, atLimit},
		{drain.MultipleBudgets, refused},
		{drain.BudgetNotSynced, refused},
	} {
		t.Run(string(tc.reason), func(t *testing.T) {
			d := NodeDrain{Node: "worker-a", Started: now.Add(-30 * time.Minute), PDBPods: true,
				Blocking: []BlockingPod{{Namespace: "shop", Name: "db-0", Reason: tc.reason, PDBPod: true}}}
			in := Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgradeConfig(workersUpdating())}, Drains: []NodeDrain{d}, Config: shipped(t), Now: now}
			var found bool
			for _, i := range StatusInsights(in) {
				if strings.HasPrefix(i.Impact.Summary, "Node worker-a: a PodDisruptionBudget blocks its drain") {
					found = true
					if !strings.Contains(i.Impact.Description, tc.want) {
						t.Errorf("description %q does not say %q", i.Impact.Description, tc.want)
					}
				}
			}
			if !found {
				t.Fatal("no insight on the blocked drain")
			}
		})
	}
}
