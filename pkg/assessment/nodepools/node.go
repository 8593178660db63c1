package nodepools

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// assessment is a node's desired insight status and what its NodePool and
// health insights need to know about it.
type assessment struct {
	status insightsv1alpha1.NodeProgressInsightStatus
	health.NodeState
	// finished is how long the node took to update in place, when this
	// assessment sees it finish.
	finished time.Duration
}

// assessNode computes a node's insight status; drained are the objects its
// drain is judged from, nil when not known.
func (p *pool) assessNode(node *corev1.Node, poolName string, previous *insightsv1alpha1.NodeProgressInsightStatus, drained *nodes.DrainObjects, perNode time.Duration, now time.Time) *assessment {
	annotations := node.Annotations
	state := annotations[nodes.StateAnnotation]
	inPlace := updatingInPlace(annotations)

	var updating metav1.Condition
	if p.updatingInPlace() {
		updating = p.inPlacePhase(node, inPlace)
	} else {
		updating = p.kubeletPhase(node)
	}
	updating.Type = insightsv1alpha1.NodeProgressInsightUpdating

	a := &assessment{}
	c := conditions{previous: previous, now: now}
	if p.updatingInPlace() && updating.Reason == insightsv1alpha1.NodeDraining {
		// The HyperShift drainer drains it (drain.HyperShift). The daemon
		// asks the drain as the node's in-place update begins, so the
		// drain counts from then. A Replace NodePool's node is drained by
		// cluster-api's Machine deletion, whose drain is cluster-api's own
		// (internal/controllers/machine/drain: no refusals, the
		// cluster.x-k8s.io/drain label, and MachineDrainRules and a
		// nodeDrainTimeout on the management cluster, which the guest
		// cannot see): its pods are not named.
		a.DrainBlocks = nodes.DrainBlocks(node, drained, drain.HyperShift, c.since(updating), now)
		a.Drainer = &health.HyperShiftDrainer
		updating.Message += nodes.DrainHeld(nodes.Lasting(a.DrainBlocks, drain.HyperShift, now))
	}
	updating.Message = text.Truncate(updating.Message, maxConditionMessageLength)
	a.Updating = updating.Status == metav1.ConditionTrue
	if state == stateDegraded || state == stateUnreconcilable {
		// The daemon in HyperShift's mode writes its error here
		// (openshift/machine-config-operator pkg/daemon/daemon.go
		// updateErrorStateHypershift), which the in-place upgrader quotes
		// when it stops the update (inplaceupgrader.go).
		a.DegradedReason = annotations[nodes.ReasonAnnotation]
		if a.DegradedReason == "" {
			a.DegradedReason = "The machine-config daemon reports the node " + state + " without a reason"
		}
	}
	a.Unavailable = unavailability(node, inPlace && a.DegradedReason == "")

	c.set(updating)
	if a.DegradedReason != "" {
		reason := insightsv1alpha1.NodeMachineConfigDaemonDegraded
		if state == stateUnreconcilable {
			reason = insightsv1alpha1.NodeMachineConfigDaemonUnreconcilable
		}
		c.set(metav1.Condition{Type: insightsv1alpha1.NodeProgressInsightDegraded, Status: metav1.ConditionTrue,
			Reason: reason, Message: text.Truncate(a.DegradedReason, maxConditionMessageLength)})
	} else {
		c.set(metav1.Condition{Type: insightsv1alpha1.NodeProgressInsightDegraded, Status: metav1.ConditionFalse,
			Reason: insightsv1alpha1.NodeAsExpected, Message: "No problem is reported on the node"})
	}
	if u := a.Unavailable; u != nil {
		c.setSince(metav1.Condition{Type: insightsv1alpha1.NodeProgressInsightAvailable, Status: metav1.ConditionFalse,
			Reason: u.Reason, Message: text.Truncate(u.Message, maxConditionMessageLength)}, u.Since)
	} else {
		c.set(metav1.Condition{Type: insightsv1alpha1.NodeProgressInsightAvailable, Status: metav1.ConditionTrue,
			Reason: insightsv1alpha1.NodeAsExpected, Message: "The node is ready and schedulable"})
	}

	// The guest cannot know which OpenShift release a node runs: its
	// NodePool's release is on the management cluster. Version stays empty;
	// the message names the kubelet instead.
	ref := hosted.NodePool(poolName)
	a.status = insightsv1alpha1.NodeProgressInsightStatus{
		Conditions:   c.list,
		Name:         node.Name,
		PoolResource: ref,
		ScopeType:    insightsv1alpha1.ScopeTypeWorkerPool,
		Message:      message(a, node, p, now),
	}
	// Like a MachineConfigPool's node (pkg/assessment/nodes), a node
	// updated in place is expected to take its NodePool's per-node time
	// from when it began, learned from the nodes seen to finish; a
	// replaced node has no such figure.
	if a.Updating && inPlace && a.DegradedReason == "" {
		started := c.get(insightsv1alpha1.NodeProgressInsightUpdating).LastTransitionTime.Time
		a.status.EstimatedToComplete = &metav1.Duration{Duration: remaining(perNode, now.Sub(started))}
	}
	// A node the in-place upgrader told a configuration, seen updating and
	// now at the control plane's release, finished its in-place update:
	// how long it took is what the NodePool's next nodes are expected to
	// take. A replaced node is deleted, never seen to finish.
	if was := previousUpdating(previous); was != nil && was.Status == metav1.ConditionTrue && !inPlace &&
		annotations[nodes.DesiredConfigAnnotation] != "" && updating.Reason == insightsv1alpha1.NodeCompleted {
		a.finished = now.Sub(was.LastTransitionTime.Time)
	}
	return a
}

func previousUpdating(previous *insightsv1alpha1.NodeProgressInsightStatus) *metav1.Condition {
	if previous == nil {
		return nil
	}
	return meta.FindStatusCondition(previous.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
}

// inPlacePhase is a node's phase while its NodePool updates in place, read
// from the annotations as the in-place upgrader, its drainer and the
// machine-config daemon write them.
func (p *pool) inPlacePhase(node *corev1.Node, inPlace bool) metav1.Condition {
	a := node.Annotations
	desired := a[nodes.DesiredConfigAnnotation]
	if !inPlace {
		if desired != "" && p.inPlaceTargets[desired] {
			return metav1.Condition{Status: metav1.ConditionFalse, Reason: insightsv1alpha1.NodeCompleted,
				Message: "The node completed its NodePool's in-place update"}
		}
		// The upgrader tells at most maxUnavailable nodes at once
		// (inplaceupgrader.go getNodesToUpgrade, getAvailableCandidates).
		return metav1.Condition{Status: metav1.ConditionFalse, Reason: insightsv1alpha1.NodePending,
			Message: "The node waits for its turn in its NodePool's in-place update, which updates at most maxUnavailable nodes at once"}
	}
	desiredDrain, lastApplied := a[nodes.DesiredDrainAnnotation], a[nodes.LastAppliedDrainAnnotation]
	cond := metav1.Condition{Status: metav1.ConditionTrue}
	switch {
	case strings.HasPrefix(desiredDrain, drainPrefix) && desiredDrain != lastApplied:
		// The daemon asks the drain; the drainer cordons and drains the
		// node, then copies desiredDrain to lastAppliedDrain (drainer.go).
		cond.Reason, cond.Message = insightsv1alpha1.NodeDraining, "The node is being drained before its in-place update"
	case a[nodes.StateAnnotation] == stateRebooting || rebootingInPlace(node):
		cond.Reason, cond.Message = insightsv1alpha1.NodeRebooting, "The node is rebooting into its new configuration"
	case desiredDrain != lastApplied:
		cond.Reason, cond.Message = insightsv1alpha1.NodeUpdating, "The node runs its new configuration and waits to be uncordoned"
	default:
		cond.Reason, cond.Message = insightsv1alpha1.NodeUpdating, "The node is updating in place"
	}
	return cond
}

// rebootingInPlace says whether the machine-config daemon reboots the node
// into the configuration it is told. The daemon says so in its
// post-config action just before the reboot (openshift/machine-config-
// operator pkg/daemon/update.go reboot), but in HyperShift's mode nothing
// clears it: only syncNode removes it, and syncNodeHypershift never does
// (pkg/daemon/daemon.go). From a node's second in-place update on, it is
// there from the start, and writing it again changes nothing, so a
// leftover cannot be told from a fresh one by the annotation. It counts
// only once the drainer has drained the node for the configuration it is
// told (syncNodeHypershift reboots only then), while the node does not run
// it yet, with a daemon that has not failed (updateErrorStateHypershift
// writes Degraded before any reboot), and while the node shows the reboot:
// its kubelet is down.
func rebootingInPlace(node *corev1.Node) bool {
	a := node.Annotations
	desired := a[nodes.DesiredConfigAnnotation]
	switch {
	case a[postConfigActionAnnotation] != stateRebooting,
		a[nodes.LastAppliedDrainAnnotation] != drainPrefix+desired,
		a[nodes.CurrentConfigAnnotation] == desired,
		a[nodes.StateAnnotation] == stateDegraded || a[nodes.StateAnnotation] == stateUnreconcilable:
		return false
	}
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status != corev1.ConditionTrue
		}
	}
	return true
}

// kubeletPhase is a node's phase from what any node shows: cluster-api's
// outdated-revision taint, and its kubelet's release against the control
// plane's. A Replace NodePool rolls out new nodes with the new kubelet and
// cordons, drains and deletes the old ones (cluster-api's MachineDeployment
// rollout, which the NodePool controller drives: hypershift-operator/
// controllers/nodepool/capi.go). The taint shows the rollout from its
// start: before a new node is labelled with the NodePool, and with
// maxSurge 0 while the first old node drains before any new one exists.
func (p *pool) kubeletPhase(node *corev1.Node) metav1.Condition {
	kubelet := node.Status.NodeInfo.KubeletVersion
	k := releaseOf(kubelet)
	outdated := hosted.IsOutdatedRevision(node)
	switch {
	case outdated && node.Spec.Unschedulable:
		// cluster-api's Machine deletion cordons the node, then drains it
		// (core/reconcilers/machine/machine_controller.go, reconcileDelete
		// and drainNode).
		return metav1.Condition{Status: metav1.ConditionTrue, Reason: insightsv1alpha1.NodeDraining,
			Message: fmt.Sprintf("The node runs kubelet %s and is cordoned: its NodePool's rollout replaces it, its Machine of an outdated revision of the MachineDeployment", kubelet)}
	case outdated:
		return metav1.Condition{Status: metav1.ConditionFalse, Reason: insightsv1alpha1.NodePending,
			Message: fmt.Sprintf("The node runs kubelet %s and waits to be replaced by its NodePool's rollout: its Machine is of an outdated revision of the MachineDeployment", kubelet)}
	case !p.controlPlane.ok:
		return metav1.Condition{Status: metav1.ConditionUnknown, Reason: insightsv1alpha1.NodeCannotDetermine,
			Message: "The control plane's Kubernetes version is not known: the kube-apiserver ClusterOperator does not carry it yet"}
	case !k.ok:
		return metav1.Condition{Status: metav1.ConditionUnknown, Reason: insightsv1alpha1.NodeCannotDetermine,
			Message: fmt.Sprintf("The node's kubelet version %q is not a Kubernetes version", kubelet)}
	case k.version.GTE(p.controlPlane.version):
		return metav1.Condition{Status: metav1.ConditionFalse, Reason: insightsv1alpha1.NodeCompleted,
			Message: fmt.Sprintf("The node runs kubelet %s, the control plane's Kubernetes release %s", kubelet, p.controlPlaneVersion)}
	case p.newest.ok && p.newest.version.GT(k.version) && node.Spec.Unschedulable:
		return metav1.Condition{Status: metav1.ConditionTrue, Reason: insightsv1alpha1.NodeDraining,
			Message: fmt.Sprintf("The node runs kubelet %s and is cordoned while nodes with kubelet %s join its NodePool: it is being replaced", kubelet, p.newestKubelet)}
	case p.newest.ok && p.newest.version.GT(k.version):
		return metav1.Condition{Status: metav1.ConditionFalse, Reason: insightsv1alpha1.NodePending,
			Message: fmt.Sprintf("The node runs kubelet %s while nodes with kubelet %s have joined its NodePool", kubelet, p.newestKubelet)}
	}
	// Behind, not Pending: nothing is scheduled for the node until its
	// NodePool's release changes.
	reason := insightsv1alpha1.NodePending
	if p.behind() {
		reason = insightsv1alpha1.NodeBehind
	}
	return metav1.Condition{Status: metav1.ConditionFalse, Reason: reason,
		Message: fmt.Sprintf("The node runs kubelet %s, %s; NodePools are updated apart from the control plane", kubelet, behindNote(k, p.controlPlane, p.controlPlaneVersion))}
}

// unavailability follows the machine-config controller's notion of an
// unavailable node, which the in-place upgrader's capacity comment cites
// (inplaceupgrader.go getCapacity): not ready, under disk pressure, without
// network, cordoned, or being worked on by its daemon.
func unavailability(node *corev1.Node, daemonWorking bool) *health.Unavailability {
	ready := false
	for i := range node.Status.Conditions {
		cond := &node.Status.Conditions[i]
		since := cond.LastTransitionTime.Time
		switch {
		case cond.Type == corev1.NodeReady && cond.Status != corev1.ConditionTrue:
			return &health.Unavailability{Reason: insightsv1alpha1.NodeNotReady, Message: "Not ready", Condition: cond, Since: since}
		case cond.Type == corev1.NodeDiskPressure && cond.Status != corev1.ConditionFalse:
			return &health.Unavailability{Reason: insightsv1alpha1.NodeDiskPressure, Message: "Disk pressure", Condition: cond, Since: since}
		case cond.Type == corev1.NodeNetworkUnavailable && cond.Status != corev1.ConditionFalse:
			return &health.Unavailability{Reason: insightsv1alpha1.NodeNetworkUnavailable, Message: "Network unavailable", Condition: cond, Since: since}
		case cond.Type == corev1.NodeReady:
			ready = true
		}
	}
	switch {
	case !ready:
		return &health.Unavailability{Reason: insightsv1alpha1.NodeNotReady, Message: "Not ready"}
	case node.Spec.Unschedulable:
		return &health.Unavailability{Reason: insightsv1alpha1.NodeUnschedulable, Message: "Node is marked unschedulable"}
	case daemonWorking:
		return &health.Unavailability{Reason: insightsv1alpha1.NodeMachineConfigDaemonProcessing, Message: "Machine Config Daemon is processing the node"}
	}
	return nil
}

// message is the node's one-line note: what is wrong with it, if anything,
// or which pod holds its drain, then its kubelet and how far it runs behind
// the control plane.
func message(a *assessment, node *corev1.Node, p *pool, now time.Time) string {
	note := skewNote(node.Status.NodeInfo.KubeletVersion, p.controlPlane, p.controlPlaneVersion)
	switch {
	case a.DegradedReason != "":
		return text.OneLine(a.DegradedReason, maxMessageLength)
	case a.Unavailable != nil && !a.Updating:
		return text.OneLine(a.Unavailable.Message+"; "+note, maxMessageLength)
	}
	if held := nodes.DrainNote(nodes.Lasting(a.DrainBlocks, drain.HyperShift, now)); held != "" {
		return text.OneLine(held+"; "+note, maxMessageLength)
	}
	return text.OneLine(note, maxMessageLength)
}

// remaining is what is left of a node's expected update time, in whole
// minutes and never under one, as pkg/assessment/nodes counts it.
func remaining(perNode, elapsed time.Duration) time.Duration {
	left := perNode - elapsed
	if left < time.Minute {
		return time.Minute
	}
	return ((left + time.Minute - 1) / time.Minute) * time.Minute
}

// conditions builds a status's conditions, keeping a condition's transition
// time while its status does not change.
type conditions struct {
	previous *insightsv1alpha1.NodeProgressInsightStatus
	now      time.Time
	list     []metav1.Condition
}

func (c *conditions) set(cond metav1.Condition) { c.setSince(cond, time.Time{}) }

// setSince sets a condition that turned to its status at since, when the
// cluster says; otherwise at its previous transition or now.
func (c *conditions) setSince(cond metav1.Condition, since time.Time) {
	cond.LastTransitionTime = metav1.NewTime(c.since(cond))
	if !since.IsZero() && !since.After(c.now) {
		cond.LastTransitionTime = metav1.NewTime(since)
	}
	c.list = append(c.list, cond)
}

// since is when cond, set without a time of its own, turned to its status:
// its previous transition while its status holds, else now.
func (c *conditions) since(cond metav1.Condition) time.Time {
	if c.previous != nil {
		if p := meta.FindStatusCondition(c.previous.Conditions, cond.Type); p != nil && p.Status == cond.Status {
			return p.LastTransitionTime.Time
		}
	}
	return c.now
}

func (c *conditions) get(conditionType string) *metav1.Condition {
	return meta.FindStatusCondition(c.list, conditionType)
}
