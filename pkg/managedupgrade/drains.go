package managedupgrade

import (
	"cmp"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// The label of a control plane node, whose drains the Managed Upgrade
// Operator's node keeper leaves alone: it reads this one only
// (controllers/nodekeeper/ignoremaster_predicate.go).
const masterLabel = "node-role.kubernetes.io/master"

// NeedsDrains says whether the insights of these UpgradeConfigs read
// Input.Drains: only while an update is upgrading does the operator force
// drains. The informer caches a drained node's pods only then.
func NeedsDrains(configs []*upgradev1alpha1.UpgradeConfig) bool {
	return slices.ContainsFunc(updates(configs), func(u update) bool { return u.phase() == upgradev1alpha1.PhaseUpgrading })
}

// DrainedNodes are the worker nodes being drained, as the operator's node
// keeper sees them: unschedulable, with the NoSchedule taint of the cordon
// that says when it began. A cordon without that time says nothing of
// when the operator forces the drain, and is left out.
func DrainedNodes(nodes []*corev1.Node) []*corev1.Node {
	var out []*corev1.Node
	for _, n := range nodes {
		if _, ok := drainStart(n); ok {
			out = append(out, n)
		}
	}
	return out
}

// WorkerNodes counts the nodes the node keeper may drain: those not
// labelled master.
func WorkerNodes(nodes []*corev1.Node) int {
	n := 0
	for _, node := range nodes {
		if node == nil {
			continue
		}
		if _, master := node.Labels[masterLabel]; !master {
			n++
		}
	}
	return n
}

func drainStart(n *corev1.Node) (metav1.Time, bool) {
	if n == nil || !n.Spec.Unschedulable {
		return metav1.Time{}, false
	}
	if _, master := n.Labels[masterLabel]; master {
		return metav1.Time{}, false
	}
	for _, t := range n.Spec.Taints {
		if t.Key == corev1.TaintNodeUnschedulable && t.Effect == corev1.TaintEffectNoSchedule && t.TimeAdded != nil && !t.TimeAdded.IsZero() {
			return *t.TimeAdded, true
		}
	}
	return metav1.Time{}, false
}

// Drains are the worker nodes being drained (DrainedNodes), by name, with
// the pods that keep each from draining: pods the drain evicts (still
// running, not a DaemonSet's) that a budget of their namespace allowing no
// disruption selects, which the eviction API refuses to evict. Each says
// whether the Managed Upgrade Operator counts it a PodDisruptionBudget's
// pod, by its own rule (muoPDBPod). pods may hold other nodes' pods. Pool
// is left empty: the aggregator places an insight about a node by the node.
func Drains(nodes []*corev1.Node, pods []*corev1.Pod, budgets []*policyv1.PodDisruptionBudget) []NodeDrain {
	blocking := blockingSelectors(budgets)
	var out []NodeDrain
	for _, n := range nodes {
		started, ok := drainStart(n)
		if !ok {
			continue
		}
		d := NodeDrain{Node: n.Name, Started: started.Time}
		for _, p := range pods {
			if p == nil || p.Spec.NodeName != n.Name || !evictable(p) {
				continue
			}
			pdbPod, daemonSet := muoPDBPod(p, budgets), daemonSetOwned(p)
			d.PDBPods = d.PDBPods || (pdbPod && !daemonSet)
			if slices.ContainsFunc(blocking[p.Namespace], func(s labels.Selector) bool { return s.Matches(labels.Set(p.Labels)) }) {
				d.Blocking = append(d.Blocking, BlockingPod{Namespace: p.Namespace, Name: p.Name, PDBPod: pdbPod, DaemonSetOwned: daemonSet})
			}
		}
		slices.SortFunc(d.Blocking, func(a, b BlockingPod) int {
			return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
		})
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b NodeDrain) int { return strings.Compare(a.Node, b.Node) })
	return out
}

// muoPDBPod is the Managed Upgrade Operator's rule for a pod that a
// PodDisruptionBudget protects, which decides when it deletes the pod
// (pkg/drain/pod_predicates.go containsMatchLabel): one label of the pod
// equals one pair of the matchLabels of any budget of the cluster, in any
// namespace, whatever the budget allows; matchExpressions are not read.
func muoPDBPod(p *corev1.Pod, budgets []*policyv1.PodDisruptionBudget) bool {
	for _, b := range budgets {
		if b == nil || b.Spec.Selector == nil {
			continue
		}
		for k, v := range b.Spec.Selector.MatchLabels {
			if value, ok := p.Labels[k]; ok && value == v {
				return true
			}
		}
	}
	return false
}

// daemonSetOwned is the Managed Upgrade Operator's rule for a DaemonSet's
// pod, which it never deletes: any owner of kind DaemonSet
// (pkg/drain/pod_predicates.go isDaemonSet).
func daemonSetOwned(p *corev1.Pod) bool {
	return slices.ContainsFunc(p.OwnerReferences, func(o metav1.OwnerReference) bool { return o.Kind == "DaemonSet" })
}

// blockingSelectors are the selectors of the budgets that allow no
// disruption, by namespace. An empty selector, or one that does not parse,
// selects nothing: such a budget guards no pod a drain can be sure of, and
// counting every pod of its namespace would report drains blocked that
// are not.
func blockingSelectors(budgets []*policyv1.PodDisruptionBudget) map[string][]labels.Selector {
	out := map[string][]labels.Selector{}
	for _, b := range budgets {
		if b == nil || b.Status.DisruptionsAllowed > 0 || b.Spec.Selector == nil {
			continue
		}
		selector, err := metav1.LabelSelectorAsSelector(b.Spec.Selector)
		if err != nil || selector.Empty() {
			continue
		}
		out[b.Namespace] = append(out[b.Namespace], selector)
	}
	return out
}

// evictable says a drain evicts the pod: it still runs, and no DaemonSet
// controls it.
func evictable(p *corev1.Pod) bool {
	if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		return false
	}
	owner := metav1.GetControllerOf(p)
	return owner == nil || owner.Kind != "DaemonSet"
}
