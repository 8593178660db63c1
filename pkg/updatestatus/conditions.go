// Package updatestatus computes the UpdateStatus: whether the control plane
// and each worker pool have an update pending and whether it can progress,
// with every informer's insights placed, bounded and ordered. It is pure:
// objects and answers in, the desired status out.
package updatestatus

import (
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// Reasons of the UpdatePending and UpdateActive conditions, besides the
// API's Completed, Paused and AwaitingWindow.
const (
	ReasonReleaseNotReconciled = "ReleaseNotReconciled"
	ReasonReleaseReconciled    = "ReleaseReconciled"
	ReasonUpdateScheduled      = "UpdateScheduled"
	ReasonUpdating             = "Updating"
	ReasonNoClusterVersion     = "NoClusterVersion"
	ReasonNodesNotReconciled   = "NodesNotReconciled"
	ReasonNodesReconciled      = "NodesReconciled"
	ReasonAwaitingControlPlane = "AwaitingControlPlane"
	ReasonWorkerNodesUpdating  = "WorkersUpdating"
	ReasonNodePoolBehind       = "NodePoolBehind"
	ReasonNodePoolNotUpdating  = "NodePoolNotUpdating"
)

// controlPlaneConditions are UpdatePending and UpdateActive of the control
// plane: pending until the ClusterVersion's newest history entry is the
// desired release, completed, or while an informer says a schedule holds an
// update the ClusterVersion does not have yet (a managed update waits for
// its window before it sets the desired release); active while pending and
// no informer says a schedule holds it.
func controlPlaneConditions(cv *configv1.ClusterVersion, held *insightsv1alpha1.UpdateInsight) (pending, active metav1.Condition) {
	pending = metav1.Condition{Type: insightsv1alpha1.UpdatePending}
	active = metav1.Condition{Type: insightsv1alpha1.UpdateActive}
	if cv == nil {
		pending.Status, pending.Reason, pending.Message = metav1.ConditionUnknown, ReasonNoClusterVersion, "There is no ClusterVersion."
		active.Status, active.Reason, active.Message = metav1.ConditionUnknown, ReasonNoClusterVersion, "There is no ClusterVersion."
		return pending, active
	}
	desired := cv.Status.Desired
	if !Pending(cv) && held != nil {
		pending.Status, pending.Reason = metav1.ConditionTrue, ReasonUpdateScheduled
		pending.Message = fmt.Sprintf("The ClusterVersion has reconciled to %s, and an update is scheduled: %s.", release(desired), held.Impact.Summary)
		active.Status, active.Reason, active.Message = metav1.ConditionFalse, insightsv1alpha1.UpdateAwaitingWindow, awaiting(held)
		return pending, active
	}
	if !Pending(cv) {
		pending.Status, pending.Reason = metav1.ConditionFalse, ReasonReleaseReconciled
		pending.Message = fmt.Sprintf("The ClusterVersion has reconciled to %s.", release(desired))
		active.Status, active.Reason = metav1.ConditionFalse, insightsv1alpha1.UpdateCompleted
		active.Message = fmt.Sprintf("The update to %s has completed.", release(desired))
		return pending, active
	}
	pending.Status, pending.Reason = metav1.ConditionTrue, ReasonReleaseNotReconciled
	pending.Message = fmt.Sprintf("The ClusterVersion has not reconciled to %s.", release(desired))
	if held != nil {
		active.Status, active.Reason, active.Message = metav1.ConditionFalse, insightsv1alpha1.UpdateAwaitingWindow, awaiting(held)
		return pending, active
	}
	active.Status, active.Reason = metav1.ConditionTrue, ReasonUpdating
	active.Message = fmt.Sprintf("The control plane is updating to %s.", release(desired))
	return pending, active
}

// Pending says whether the ClusterVersion has an update pending: its newest
// history entry is not the desired release, completed.
func Pending(cv *configv1.ClusterVersion) bool {
	desired := cv.Status.Desired
	history := cv.Status.History
	return len(history) == 0 || history[0].State != configv1.CompletedUpdate ||
		(desired.Image != "" && history[0].Image != desired.Image) || (desired.Version != "" && history[0].Version != desired.Version)
}

// poolConditions are UpdatePending and UpdateActive of a worker pool, from
// its insight: pending while some of its nodes are outdated; active while
// pending, the pool is not paused, no schedule holds it, and the control
// plane no longer holds it back.
func poolConditions(pool *insightsv1alpha1.MachineConfigPoolProgressInsight, controlPlanePending bool, held *insightsv1alpha1.UpdateInsight) (pending, active metav1.Condition) {
	pending = metav1.Condition{Type: insightsv1alpha1.UpdatePending}
	active = metav1.Condition{Type: insightsv1alpha1.UpdateActive}
	total, outdated := summary(pool, insightsv1alpha1.NodesTotal), summary(pool, insightsv1alpha1.NodesOutdated)
	updating := meta.FindStatusCondition(pool.Status.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating)
	if outdated == 0 {
		pending.Status, pending.Reason = metav1.ConditionFalse, ReasonNodesReconciled
		pending.Message = fmt.Sprintf("All %d nodes are updated.", total)
		if controlPlanePending {
			// The pool has not started on the update yet: the control plane
			// goes first.
			active.Status, active.Reason = metav1.ConditionFalse, ReasonAwaitingControlPlane
			active.Message = "The pool's nodes are updated after the control plane."
		} else {
			active.Status, active.Reason = metav1.ConditionFalse, insightsv1alpha1.UpdateCompleted
			active.Message = "The pool's nodes are updated."
		}
		return pending, active
	}
	pending.Status, pending.Reason = metav1.ConditionTrue, ReasonNodesNotReconciled
	pending.Message = fmt.Sprintf("%d of %d nodes are outdated.", outdated, total)
	switch {
	case updating != nil && updating.Reason == nodes.PoolReasonPaused:
		active.Status, active.Reason = metav1.ConditionFalse, insightsv1alpha1.UpdatePaused
		active.Message = "The pool is paused: its nodes are not updated until it is unpaused."
	case held != nil:
		active.Status, active.Reason, active.Message = metav1.ConditionFalse, insightsv1alpha1.UpdateAwaitingWindow, awaiting(held)
	case controlPlanePending && (updating == nil || updating.Status != metav1.ConditionTrue):
		// No node of the pool is being updated while the control plane
		// updates: the pool's turn comes after it.
		active.Status, active.Reason = metav1.ConditionFalse, ReasonAwaitingControlPlane
		active.Message = "The pool's nodes are updated after the control plane."
	default:
		active.Status, active.Reason = metav1.ConditionTrue, ReasonWorkerNodesUpdating
		active.Message = fmt.Sprintf("%d of %d nodes are outdated and being updated.", outdated, total)
	}
	return pending, active
}

// nodePoolConditions are UpdatePending and UpdateActive of a HyperShift
// NodePool, from its insight. The only release the cluster knows for a
// NodePool's nodes is the control plane's (the NodePool's own is on the
// management cluster): pending while some nodes do not run it. A NodePool is
// updated apart from the control plane, when its own release changes, so it
// never waits for the control plane: active only while its nodes are being
// replaced or updated in place, unless a schedule holds it. A NodePool
// Behind the control plane, or otherwise outdated with no node updating, is
// not active, and says why in the words of its insight.
func nodePoolConditions(pool *insightsv1alpha1.MachineConfigPoolProgressInsight, held *insightsv1alpha1.UpdateInsight) (pending, active metav1.Condition) {
	pending = metav1.Condition{Type: insightsv1alpha1.UpdatePending}
	active = metav1.Condition{Type: insightsv1alpha1.UpdateActive}
	total, outdated := summary(pool, insightsv1alpha1.NodesTotal), summary(pool, insightsv1alpha1.NodesOutdated)
	updating := meta.FindStatusCondition(pool.Status.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating)
	behind := pool.Status.Assessment == insightsv1alpha1.PoolBehind
	if outdated == 0 && !behind {
		pending.Status, pending.Reason = metav1.ConditionFalse, ReasonNodesReconciled
		pending.Message = fmt.Sprintf("All %d nodes are updated.", total)
		active.Status, active.Reason = metav1.ConditionFalse, insightsv1alpha1.UpdateCompleted
		active.Message = "The NodePool's nodes are updated."
		return pending, active
	}
	pending.Status, pending.Reason = metav1.ConditionTrue, ReasonNodesNotReconciled
	pending.Message = fmt.Sprintf("%d of %d nodes do not run the control plane's release.", outdated, total)
	switch {
	case behind:
		active.Status, active.Reason = metav1.ConditionFalse, ReasonNodePoolBehind
		active.Message = "The NodePool runs an older release than the control plane, and none of its nodes is being updated."
		if updating != nil && updating.Message != "" {
			active.Message = updating.Message
		}
	case updating == nil || updating.Status != metav1.ConditionTrue:
		active.Status, active.Reason = metav1.ConditionFalse, ReasonNodePoolNotUpdating
		active.Message = "None of the NodePool's nodes is being updated: NodePools are updated apart from the control plane."
	case held != nil:
		active.Status, active.Reason, active.Message = metav1.ConditionFalse, insightsv1alpha1.UpdateAwaitingWindow, awaiting(held)
	default:
		active.Status, active.Reason = metav1.ConditionTrue, ReasonWorkerNodesUpdating
		active.Message = fmt.Sprintf("%d of %d nodes are outdated and being updated.", outdated, total)
	}
	return pending, active
}

// summary is a pool's count of nodes of one kind.
func summary(pool *insightsv1alpha1.MachineConfigPoolProgressInsight, kind insightsv1alpha1.NodeSummaryType) int32 {
	for _, s := range pool.Status.Summaries {
		if s.Type == kind {
			return s.Count
		}
	}
	return 0
}

// awaiting says what schedule holds an update, and until when.
func awaiting(held *insightsv1alpha1.UpdateInsight) string {
	if finish := held.Remediation.EstimatedFinish; finish != nil {
		return fmt.Sprintf("%s (until %s)", held.Impact.Summary, finish.UTC().Format(time.RFC3339))
	}
	return held.Impact.Summary
}

func release(r configv1.Release) string {
	if r.Version != "" {
		return r.Version
	}
	if r.Image != "" {
		return r.Image
	}
	return "its desired release"
}

// withTransitionTimes sets each condition's transition time: kept from the
// previous conditions when its status did not change, now otherwise.
func withTransitionTimes(conditions []metav1.Condition, previous []metav1.Condition, now time.Time) []metav1.Condition {
	out := make([]metav1.Condition, 0, len(conditions))
	for _, c := range conditions {
		c.LastTransitionTime = metav1.NewTime(now)
		if p := meta.FindStatusCondition(previous, c.Type); p != nil && p.Status == c.Status {
			c.LastTransitionTime = p.LastTransitionTime
		}
		out = append(out, c)
	}
	return out
}
