package precheck

import (
	"fmt"
	"strings"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// The states of the machine-config daemon that keep a node from updating.
var daemonDegraded = map[string]bool{"Degraded": true, "Unreconcilable": true}

// nodeScope is the scope of a finding about nodes of a pool: the control
// plane for the master pool's, else that worker pool.
func nodeScope(pool string, resources ...insightsv1alpha1.InsightResource) insightsv1alpha1.UpdateInsightScope {
	if pool == "" || nodes.ScopeType(pool) == insightsv1alpha1.ScopeTypeControlPlane {
		return controlPlane(resources...)
	}
	return insightsv1alpha1.UpdateInsightScope{
		Type:       insightsv1alpha1.ScopeTypeWorkerPool,
		WorkerPool: []insightsv1alpha1.InsightResource{poolResource(pool)},
		Resources:  resources,
	}
}

func poolResource(name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: machineconfigurationv1.GroupName, Kind: "MachineConfigPool", Name: name}
}

func nodeResource(name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Kind: "Node", Name: name}
}

// NodePools maps each node to the name of its pool, by the machine-config
// controller's rules; a pool with a malformed selector selects no node, as
// there. A node in no pool is left out.
func NodePools(nodeList []*corev1.Node, pools []*machineconfigurationv1.MachineConfigPool) map[string]string {
	membership, _ := nodes.NewPools(pools)
	out := make(map[string]string, len(nodeList))
	for _, n := range nodeList {
		if p := membership.Of(n.Labels); p != nil {
			out[n.Name] = p.Name
		}
	}
	return out
}

// members is which pool each node is in, and how many nodes each pool has:
// worked out once per run, for every check that needs it.
type members struct {
	poolOf map[string]string
	pools  map[string]*machineconfigurationv1.MachineConfigPool
	count  map[string]int
}

func (in *Input) members() *members {
	if in.membership == nil {
		m := &members{poolOf: NodePools(in.Nodes, in.Pools), pools: map[string]*machineconfigurationv1.MachineConfigPool{}, count: map[string]int{}}
		for _, p := range in.Pools {
			m.pools[p.Name] = p
		}
		for _, pool := range m.poolOf {
			m.count[pool]++
		}
		in.membership = m
	}
	return in.membership
}

// nodeProblems: a node that is not ready or cordoned counts against its
// pool's maxUnavailable before the update starts; one whose daemon is
// degraded will not update at all.
func nodeProblems(in *Input) []insightsv1alpha1.UpdateInsight {
	poolOf := in.members().poolOf
	var out []insightsv1alpha1.UpdateInsight
	for _, n := range in.Nodes {
		pool := poolOf[n.Name]
		scope := nodeScope(pool, nodeResource(n.Name))
		if ready := nodeCondition(n, corev1.NodeReady); ready == nil || ready.Status != corev1.ConditionTrue {
			f := finding{
				uid: "node/" + n.Name + "/not-ready", level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.ClusterCapacityImpactType,
				scope:       scope,
				summary:     fmt.Sprintf("Node %s is not ready: it counts against its pool's maxUnavailable and may stall the pool's update", n.Name),
				description: "The node's Ready condition is not True.",
			}
			if ready != nil {
				f.description = fmt.Sprintf("Ready=%s (%s): %s", ready.Status, ready.Reason, ready.Message)
			}
			out = append(out, f.insight(in.Now))
		}
		if n.Spec.Unschedulable && !drainedForAnUpdate(n) {
			out = append(out, finding{
				uid: "node/" + n.Name + "/unschedulable", level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.ClusterCapacityImpactType,
				scope:   scope,
				summary: fmt.Sprintf("Node %s is cordoned: it counts against its pool's maxUnavailable, and the update will uncordon it", n.Name),
				description: "A node marked unschedulable by hand is made schedulable again by the machine-config daemon once the node is updated, " +
					"and counts as unavailable meanwhile, so fewer of its pool's nodes update at once.",
			}.insight(in.Now))
		}
		if state := n.Annotations[nodes.StateAnnotation]; daemonDegraded[state] {
			out = append(out, finding{
				uid: "node/" + n.Name + "/daemon-degraded", level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
				scope:       scope,
				summary:     fmt.Sprintf("The machine-config daemon on node %s is %s: the node will not update until that is resolved", n.Name, state),
				description: n.Annotations[nodes.ReasonAnnotation],
			}.insight(in.Now))
		}
	}
	return out
}

// pausedPools: the nodes of a paused pool keep the release they run; a
// paused master pool keeps the control plane's update from completing.
func pausedPools(in *Input) []insightsv1alpha1.UpdateInsight {
	count := in.members().count
	var out []insightsv1alpha1.UpdateInsight
	for _, p := range in.Pools {
		if !p.Spec.Paused || count[p.Name] == 0 {
			continue
		}
		f := finding{
			uid: "pool/" + p.Name + "/paused", level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.NoneImpactType,
			scope:   nodeScope(p.Name, poolResource(p.Name)),
			summary: fmt.Sprintf("Pool %s is paused: its %d nodes will not be updated until it is unpaused", p.Name, count[p.Name]),
			description: "Pausing a worker pool defers its nodes' update, within the version skew the kubelet allows. " +
				"Unpause the pool when its nodes may be updated.",
		}
		if nodes.ScopeType(p.Name) == insightsv1alpha1.ScopeTypeControlPlane {
			f.level, f.impact = insightsv1alpha1.ErrorInsightLevel, insightsv1alpha1.UpdateStalledImpactType
			f.summary = fmt.Sprintf("Pool %s is paused: the control plane's update will not complete until it is unpaused", p.Name)
			f.description = "The control plane nodes must run the new release for the update to complete."
		}
		out = append(out, f.insight(in.Now))
	}
	return out
}

// drainedForAnUpdate says the machine-config daemon cordoned the node to
// drain it for an update in progress, which uncordons it when done: not a
// cordon someone left.
func drainedForAnUpdate(n *corev1.Node) bool {
	return strings.HasPrefix(n.Annotations[nodes.DesiredDrainAnnotation], "drain-") ||
		strings.HasPrefix(n.Annotations[nodes.LastAppliedDrainAnnotation], "drain-")
}

func nodeCondition(n *corev1.Node, t corev1.NodeConditionType) *corev1.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == t {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

// nodeList names up to three nodes, and counts the others.
func nodeList(names []string) string {
	const shown = 3
	if len(names) == 1 {
		return "node " + names[0]
	}
	if len(names) <= shown {
		return "nodes " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("nodes %s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}
