package managedupgrade

import (
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/drain"
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

// drainPolicy is how a node the node keeper watches is drained: the
// machine-config operator drains it, evicting with its Helper's options
// (drain.MCO), and the Managed Upgrade Operator's node keeper only deletes
// pods on top, by its own strategies (forcedDrains, muoPDBPod,
// daemonSetOwned; pkg/drain/strategy.go). A pod a budget holds is reported
// at once, as the node keeper's timers count from the cordon; its level is
// the insight's own.
var drainPolicy = func() drain.Policy {
	p := drain.MCO
	p.WarnAfter, p.ErrorAfter = 0, 0
	return p
}()

// Drains are the worker nodes being drained (DrainedNodes), by name, with
// the pods that budgets keep each from draining: those whose eviction the
// drain model, under drainPolicy at now, says a budget refuses (one that
// allows no disruption, one not synced, or more than one selecting the
// pod). Each says whether the Managed Upgrade Operator counts it a
// PodDisruptionBudget's pod, by its own rule (muoPDBPod). pods may hold
// other nodes' pods. Pool is left empty: the aggregator places an insight
// about a node by the node.
func Drains(nodes []*corev1.Node, pods []*corev1.Pod, budgets []*policyv1.PodDisruptionBudget, now time.Time) []NodeDrain {
	byName := map[string]*corev1.Pod{}
	for _, p := range pods {
		if p != nil {
			byName[p.Namespace+"/"+p.Name] = p
		}
	}
	var out []NodeDrain
	for _, n := range nodes {
		started, ok := drainStart(n)
		if !ok {
			continue
		}
		d := NodeDrain{Node: n.Name, Started: started.Time}
		for _, p := range pods {
			// The node keeper's PDB-DELETE strategy stays to apply while the
			// node has such a pod, whatever its phase (pkg/drain/strategy.go,
			// podDeleteStrategy.go IsValid).
			if p != nil && p.Spec.NodeName == n.Name && muoPDBPod(p, budgets) && !daemonSetOwned(p) {
				d.PDBPods = true
			}
		}
		for _, v := range drain.Node(drain.Input{Node: n, Pods: pods, Budgets: budgets, Policy: drainPolicy, Started: started.Time, Now: now}) {
			if v.Verdict != drain.Blocking || len(v.Budgets) == 0 || v.Level(drainPolicy, now) == "" {
				continue
			}
			p := byName[v.Namespace+"/"+v.Name]
			d.Blocking = append(d.Blocking, BlockingPod{Namespace: v.Namespace, Name: v.Name, Reason: v.Reason, PDBPod: muoPDBPod(p, budgets), DaemonSetOwned: daemonSetOwned(p)})
		}
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
