package managedupgrade

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// The labels of a control plane node, whose drains the Managed Upgrade
// Operator's node keeper leaves alone.
var controlPlaneLabels = []string{"node-role.kubernetes.io/master", "node-role.kubernetes.io/control-plane"}

// NeedsDrains says whether the insights of these UpgradeConfigs read
// Input.Drains: only while an update is upgrading does the operator force
// drains. The informer lists a drained node's pods only then.
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

func drainStart(n *corev1.Node) (metav1.Time, bool) {
	if n == nil || !n.Spec.Unschedulable || slices.ContainsFunc(controlPlaneLabels, func(l string) bool { _, ok := n.Labels[l]; return ok }) {
		return metav1.Time{}, false
	}
	for _, t := range n.Spec.Taints {
		if t.Key == corev1.TaintNodeUnschedulable && t.Effect == corev1.TaintEffectNoSchedule && t.TimeAdded != nil && !t.TimeAdded.IsZero() {
			return *t.TimeAdded, true
		}
	}
	return metav1.Time{}, false
}

// Drains are the worker nodes being drained (DrainedNodes), by name, each
// BlockedByPDB when one of its pods cannot be evicted: a pod still running
// and not a DaemonSet's (a drain leaves those), that a budget of its
// namespace allowing no disruption selects. pods may hold other nodes'
// pods. Pool is left empty: the aggregator places an insight about a node
// by the node.
func Drains(nodes []*corev1.Node, pods []*corev1.Pod, budgets []*policyv1.PodDisruptionBudget) []NodeDrain {
	blocking := blockingSelectors(budgets)
	var out []NodeDrain
	for _, n := range nodes {
		started, ok := drainStart(n)
		if !ok {
			continue
		}
		out = append(out, NodeDrain{
			Node:    n.Name,
			Started: started.Time,
			BlockedByPDB: slices.ContainsFunc(pods, func(p *corev1.Pod) bool {
				return p != nil && p.Spec.NodeName == n.Name && evictable(p) &&
					slices.ContainsFunc(blocking[p.Namespace], func(s labels.Selector) bool { return s.Matches(labels.Set(p.Labels)) })
			}),
		})
	}
	slices.SortFunc(out, func(a, b NodeDrain) int { return strings.Compare(a.Node, b.Node) })
	return out
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
