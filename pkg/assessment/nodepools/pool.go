package nodepools

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// Reasons of a NodePool's Updating and Healthy conditions beyond those of a
// MachineConfigPool (pkg/assessment/nodes).
const (
	// PoolReasonBehindControlPlane: every node runs an older release than
	// the control plane and none is being updated.
	PoolReasonBehindControlPlane = "BehindControlPlane"
	// PoolReasonBeyondSupportedSkew: a node runs more minor releases behind
	// the control plane than HyperShift supports.
	PoolReasonBeyondSupportedSkew = "BeyondSupportedSkew"
)

// pool is what a NodePool's nodes say together, which each node's phase is
// judged against.
type pool struct {
	controlPlane        release
	controlPlaneVersion string
	// inPlaceTargets are the configurations the in-place upgrader has told
	// nodes that have not finished moving to them: the NodePool updates in
	// place while there is one. Between two nodes' turns every told node may
	// be done for a moment; the NodePool then reads as between updates.
	inPlaceTargets map[string]bool
	// newest and oldest are the newest and oldest kubelet releases of the
	// nodes, with the kubelet versions that show them.
	newest, oldest               release
	newestKubelet, oldestKubelet string
	releases                     map[string]bool
	// replacing says whether cluster-api marked one of the nodes as of an
	// outdated revision: the NodePool's MachineDeployment rolls out.
	replacing bool
}

func newPool(members []*corev1.Node, controlPlane string) *pool {
	p := &pool{controlPlane: releaseOf(controlPlane), controlPlaneVersion: controlPlane,
		inPlaceTargets: map[string]bool{}, releases: map[string]bool{}}
	for _, n := range members {
		if updatingInPlace(n.Annotations) {
			p.inPlaceTargets[n.Annotations[nodes.DesiredConfigAnnotation]] = true
		}
		p.replacing = p.replacing || hosted.IsOutdatedRevision(n)
		kubelet := n.Status.NodeInfo.KubeletVersion
		r := releaseOf(kubelet)
		if !r.ok {
			continue
		}
		p.releases[r.version.String()] = true
		if !p.newest.ok || r.version.GT(p.newest.version) {
			p.newest, p.newestKubelet = r, kubelet
		}
		if !p.oldest.ok || r.version.LT(p.oldest.version) {
			p.oldest, p.oldestKubelet = r, kubelet
		}
	}
	return p
}

func (p *pool) updatingInPlace() bool { return len(p.inPlaceTargets) > 0 }

// skew is how far the NodePool's oldest node runs behind the control plane.
func (p *pool) skew() health.NodePoolSkew {
	if !p.oldest.ok || !p.controlPlane.ok {
		return health.NodePoolSkew{}
	}
	return health.NodePoolSkew{Kubelet: p.oldestKubelet, ControlPlane: p.controlPlaneVersion,
		MinorsBehind: int(p.controlPlane.version.Minor) - int(p.oldest.version.Minor)}
}

// behind says whether every node runs one release older than the control
// plane's: a NodePool left behind, not one being rolled out.
func (p *pool) behind() bool {
	return p.controlPlane.ok && p.oldest.ok && len(p.releases) == 1 && p.oldest.version.LT(p.controlPlane.version) &&
		!p.replacing && !p.updatingInPlace()
}

// counts are a NodePool's nodes by state.
type counts struct {
	total, updated, available, progressing, draining, degraded int32
}

func count(assessed []*assessment) counts {
	var c counts
	for _, a := range assessed {
		n := &a.status
		c.total++
		degraded := meta.IsStatusConditionTrue(n.Conditions, insightsv1alpha1.NodeProgressInsightDegraded)
		if meta.IsStatusConditionTrue(n.Conditions, insightsv1alpha1.NodeProgressInsightAvailable) {
			c.available++
		}
		if degraded {
			c.degraded++
		}
		updating := meta.FindStatusCondition(n.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
		switch updating.Reason {
		case insightsv1alpha1.NodeCompleted:
			c.updated++
		case insightsv1alpha1.NodeDraining:
			c.draining++
		}
		// A degraded node is stuck, not progressing.
		if updating.Status == metav1.ConditionTrue && !degraded {
			c.progressing++
		}
	}
	return c
}

// status computes the NodePool's insight status from its nodes'. previous is
// the insight as last written, nil if none: it keeps the conditions'
// transition times.
func (p *pool) status(name string, assessed []*assessment, previous *insightsv1alpha1.MachineConfigPoolProgressInsightStatus, now time.Time) insightsv1alpha1.MachineConfigPoolProgressInsightStatus {
	c := count(assessed)
	outdated := c.total - c.updated
	ref := hosted.NodePool(name)
	status := insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
		Name:              name,
		Resource:          &ref,
		ScopeType:         insightsv1alpha1.ScopeTypeWorkerPool,
		CompletionPercent: 100,
		Summaries: []insightsv1alpha1.NodeSummary{
			{Type: insightsv1alpha1.NodesTotal, Count: c.total},
			{Type: insightsv1alpha1.NodesAvailable, Count: c.available},
			{Type: insightsv1alpha1.NodesProgressing, Count: c.progressing},
			{Type: insightsv1alpha1.NodesOutdated, Count: outdated},
			{Type: insightsv1alpha1.NodesDraining, Count: c.draining},
			{Type: insightsv1alpha1.NodesExcluded, Count: 0},
			{Type: insightsv1alpha1.NodesDegraded, Count: c.degraded},
		},
	}
	if c.total > 0 {
		status.CompletionPercent = c.updated * 100 / c.total
	}

	// Nodes of more than one release show a Replace rollout: new nodes join
	// at the NodePool's new release before the old ones go; so does the
	// outdated-revision taint, from the rollout's start.
	rollingOut := len(p.releases) > 1 || p.replacing
	updating := metav1.Condition{Type: insightsv1alpha1.MachineConfigPoolProgressInsightUpdating, Status: metav1.ConditionFalse}
	switch {
	case outdated == 0:
		updating.Reason = nodes.PoolReasonCompleted
		updating.Message = fmt.Sprintf("All %d nodes run the control plane's Kubernetes release %s", c.total, p.controlPlaneVersion)
	case p.updatingInPlace() || rollingOut || c.progressing > 0:
		updating.Status, updating.Reason = metav1.ConditionTrue, nodes.PoolReasonProgressing
		updating.Message = fmt.Sprintf("%d of %d nodes are updated, %d are updating", c.updated, c.total, c.progressing)
	case p.behind():
		updating.Reason = PoolReasonBehindControlPlane
		updating.Message = fmt.Sprintf("The NodePool's nodes run kubelet %s, %s. NodePools are updated apart from the control plane, and %s.",
			p.oldestKubelet, behindNote(p.oldest, p.controlPlane, p.controlPlaneVersion), hosted.SkewLimit)
	case !p.controlPlane.ok:
		updating.Status, updating.Reason = metav1.ConditionUnknown, insightsv1alpha1.NodeCannotDetermine
		updating.Message = "The control plane's Kubernetes version is not known: the kube-apiserver ClusterOperator does not carry it yet"
	default:
		updating.Reason = nodes.PoolReasonPending
		updating.Message = fmt.Sprintf("%d of %d nodes are updated; none is updating", c.updated, c.total)
	}

	healthy := metav1.Condition{Type: insightsv1alpha1.MachineConfigPoolProgressInsightHealthy, Status: metav1.ConditionTrue,
		Reason: insightsv1alpha1.NodeAsExpected, Message: "No node is degraded"}
	skew := p.skew()
	switch {
	case c.degraded > 0:
		healthy.Status, healthy.Reason = metav1.ConditionFalse, nodes.PoolReasonNodesDegraded
		healthy.Message = fmt.Sprintf("%d of %d nodes are degraded", c.degraded, c.total)
	case skew.MinorsBehind > hosted.MaxMinorsBehind:
		healthy.Status, healthy.Reason = metav1.ConditionFalse, PoolReasonBeyondSupportedSkew
		healthy.Message = fmt.Sprintf("NodePool %s is %d minor releases behind the control plane, beyond the %d HyperShift supports: "+
			"its nodes run kubelet %s, the control plane Kubernetes %s", name, skew.MinorsBehind, hosted.MaxMinorsBehind, skew.Kubelet, skew.ControlPlane)
	}

	switch {
	case c.degraded > 0:
		status.Assessment = insightsv1alpha1.PoolDegraded
	case outdated == 0:
		status.Assessment = insightsv1alpha1.PoolCompleted
	case updating.Status == metav1.ConditionTrue:
		status.Assessment = insightsv1alpha1.PoolProgressing
	case updating.Reason == PoolReasonBehindControlPlane:
		status.Assessment = insightsv1alpha1.PoolBehind
	default:
		status.Assessment = insightsv1alpha1.PoolPending
	}

	var previousConditions []metav1.Condition
	if previous != nil {
		previousConditions = previous.Conditions
	}
	for _, cond := range []metav1.Condition{updating, healthy} {
		cond.LastTransitionTime = metav1.NewTime(now)
		if prev := meta.FindStatusCondition(previousConditions, cond.Type); prev != nil && prev.Status == cond.Status {
			cond.LastTransitionTime = prev.LastTransitionTime
		}
		status.Conditions = append(status.Conditions, cond)
	}
	return status
}
