package nodepools

import (
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

const (
	// estimateRefresh is how often a node being updated is looked at again
	// by the clock alone: its estimate counts down in whole minutes.
	estimateRefresh = time.Minute

	// What the insight API accepts.
	maxMessageLength          = insightsv1alpha1.NodeMessageMaxLength
	maxConditionMessageLength = 4096
)

// Group places nodes in their NodePools by the label the
// hosted-cluster-config-operator's node controller copies from their
// Machine (control-plane-operator/hostedclusterconfigoperator/controllers/
// node/node.go). A node that has just joined carries no label until that
// controller syncs it, and belongs to no NodePool yet.
func Group(all []*corev1.Node) map[string][]*corev1.Node {
	pools := map[string][]*corev1.Node{}
	for _, n := range all {
		if name := n.Labels[hosted.NodePoolLabel]; name != "" {
			pools[name] = append(pools[name], n)
		}
	}
	return pools
}

// Input is what a NodePool's assessment depends on.
type Input struct {
	// NodePool names the NodePool; Nodes are the nodes labelled with it.
	NodePool string
	Nodes    []*corev1.Node
	// ControlPlane is the control plane's Kubernetes version
	// (hosted.ControlPlaneKubernetes); empty while it is not known.
	ControlPlane string
	// PreviousNode returns a node's insight status as last written, nil if
	// there is none: it keeps the conditions' transition times.
	PreviousNode func(name string) *insightsv1alpha1.NodeProgressInsightStatus
	// PreviousPool is the NodePool's insight status as last written, nil if
	// none.
	PreviousPool *insightsv1alpha1.MachineConfigPoolProgressInsightStatus
	// Drains are, by node name, the objects the drain of a node the
	// HyperShift drainer drains is judged from (its pods, the budgets, the
	// pending pods); a drained node without them drains unnamed.
	Drains map[string]*nodes.DrainObjects
	// PerNode is how long one of the NodePool's nodes takes to update in
	// place, as learned from its nodes seen to finish
	// (nodes.PerNodeTimes); zero is nodes.DefaultPerNodeTime.
	PerNode time.Duration
	Now     time.Time
}

// NodeResult is a node's desired insight status and the health insights it
// owns.
type NodeResult struct {
	Status insightsv1alpha1.NodeProgressInsightStatus
	Health []health.Insight
	// Finished is how long the node took to update in place when this
	// assessment is the one that sees it finish; zero otherwise.
	Finished time.Duration
}

// Result is a NodePool's assessment: its nodes' insights, in the order of
// their names, its own insight, the health insights it owns, and when any
// of them would next change by the passage of time alone (zero for never).
type Result struct {
	Nodes      []NodeResult
	Pool       insightsv1alpha1.MachineConfigPoolProgressInsightStatus
	PoolHealth []health.Insight
	Next       time.Time
}

// Assess assesses a NodePool and its nodes. A NodePool updates in place
// while one of its nodes has been told a configuration it does not run yet;
// then its nodes' phases come from the in-place upgrader's annotations.
// Otherwise (a Replace NodePool, or an InPlace one between updates) they
// come from what every node shows: its kubelet's release against the
// control plane's.
func Assess(in Input) Result {
	members := slices.Clone(in.Nodes)
	slices.SortFunc(members, func(a, b *corev1.Node) int { return strings.Compare(a.Name, b.Name) })
	p := newPool(members, in.ControlPlane)

	var r Result
	assessed := make([]*assessment, 0, len(members))
	for _, node := range members {
		var previous *insightsv1alpha1.NodeProgressInsightStatus
		if in.PreviousNode != nil {
			previous = in.PreviousNode(node.Name)
		}
		a := p.assessNode(node, in.NodePool, previous, in.Drains[node.Name], perNode(in.PerNode), in.Now)
		insights, next := health.ForNode(&a.status, &a.NodeState, in.Now)
		if a.status.EstimatedToComplete != nil {
			next = earliest(next, in.Now.Add(estimateRefresh))
		}
		r.Next = earliest(r.Next, next)
		r.Nodes = append(r.Nodes, NodeResult{Status: a.status, Health: insights, Finished: a.finished})
		assessed = append(assessed, a)
	}
	r.Pool = p.status(in.NodePool, assessed, in.PreviousPool, in.Now)
	r.PoolHealth = health.ForNodePool(&r.Pool, p.skew())
	return r
}

// What the machine-config daemon writes on a node it updates in place, in
// HyperShift's mode, beyond the annotations pkg/assessment/nodes reads
// (openshift/machine-config-operator pkg/daemon/constants/constants.go).
const (
	// postConfigActionAnnotation is where the daemon says it reboots the
	// node (pkg/daemon/update.go reboot); in HyperShift's mode it never
	// writes the state Rebooting, and it leaves this in place after the
	// reboot (pkg/daemon/daemon.go syncNodeHypershift).
	postConfigActionAnnotation = nodes.AnnotationPrefix + "post-config-action"

	stateDone           = "Done"
	stateRebooting      = "Rebooting"
	stateDegraded       = "Degraded"
	stateUnreconcilable = "Unreconcilable"

	// drainPrefix starts a desiredDrain asking for a drain, as opposed to
	// "uncordon-<hash>" (control-plane-operator/hostedclusterconfigoperator/
	// controllers/drainer/drainer.go handleNodeDrainRequest).
	drainPrefix = "drain-"
)

// updatingInPlace says whether the in-place upgrader has told the node a
// configuration it has not finished moving to: the node still needs the
// upgrade, as the upgrader's nodeNeedsUpgrade judges it
// (control-plane-operator/hostedclusterconfigoperator/controllers/
// inplaceupgrader/inplaceupgrader.go): a drain or uncordon not yet applied,
// a current configuration that is not the desired one, or a daemon not Done.
// A node the upgrader never told anything carries no annotation at all.
func updatingInPlace(a map[string]string) bool {
	desired := a[nodes.DesiredConfigAnnotation]
	if desired == "" {
		return false
	}
	return a[nodes.DesiredDrainAnnotation] != a[nodes.LastAppliedDrainAnnotation] ||
		a[nodes.CurrentConfigAnnotation] != desired ||
		a[nodes.StateAnnotation] != stateDone
}

func perNode(d time.Duration) time.Duration {
	if d <= 0 {
		return nodes.DefaultPerNodeTime
	}
	return d
}

func earliest(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero() || a.Before(b):
		return a
	}
	return b
}
