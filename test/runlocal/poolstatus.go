package main

import (
	"crypto/md5" //nolint:gosec // a name, as the machine-config operator makes it, not a secret
	"fmt"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// renderedName is the name the machine-config operator's render controller
// gives a pool's rendered configuration, rendered-<pool>-<md5 hex>
// (getMachineConfigHashedName in pkg/controller/render/hash.go of
// openshift/machine-config-operator). It hashes the merged MachineConfig's
// spec; the played configurations have none (nor have the recorded ones:
// only their metadata was recorded), so the pool and the release it renders
// for stand in for it.
func renderedName(pool, version string) string {
	return fmt.Sprintf("rendered-%s-%x", pool, md5.Sum([]byte(pool+"\n"+version))) //nolint:gosec
}

// renderedConfig is the rendered configuration of pool for version, in the
// shape the render controller creates it (generateRenderedMachineConfig in
// pkg/controller/render/render_controller.go): owned by its pool as its
// controller, and annotated with the release it renders. Its other
// annotation, generated-by-controller-version, is the machine-config
// operator's commit, which a played release does not have; nothing reads
// it.
func renderedConfig(pool *machineconfigurationv1.MachineConfigPool, version string) *machineconfigurationv1.MachineConfig {
	return &machineconfigurationv1.MachineConfig{ObjectMeta: metav1.ObjectMeta{
		Name:        renderedName(pool.Name, version),
		Annotations: map[string]string{nodes.ReleaseImageVersionAnnotation: version},
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(pool,
			machineconfigurationv1.SchemeGroupVersion.WithKind("MachineConfigPool"))},
	}}
}

// poolStatus is a pool's status as the machine-config operator's node
// controller computes it from the pool and its nodes (calculateStatus in
// pkg/controller/node/status.go, for a pool that is not layered, without the
// ImageModeStatusReporting feature: the counts come from the nodes'
// annotations, GetMachinesByState in pkg/controller/common/helpers.go). The
// pool's status.configuration moves to its spec.configuration only once
// every node is updated, ready and available; until then the pool is
// Updated=False, Updating=True.
func poolStatus(pool *machineconfigurationv1.MachineConfigPool, members []*corev1.Node, now time.Time) machineconfigurationv1.MachineConfigPoolStatus {
	var updated, ready, unavailable, degraded int32
	for _, node := range members {
		done := nodeDone(node)
		if done && node.Annotations[nodes.DesiredConfigAnnotation] == pool.Spec.Configuration.Name {
			updated++
			if nodeReady(node) {
				ready++
			}
		}
		if state := node.Annotations[nodes.StateAnnotation]; state == "Degraded" || state == "Unreconcilable" {
			degraded++
		}
		if unavailableForUpdate(node, done) {
			unavailable++
		}
	}
	total := int32(len(members))
	status := machineconfigurationv1.MachineConfigPoolStatus{
		ObservedGeneration:      pool.Generation,
		MachineCount:            total,
		UpdatedMachineCount:     updated,
		ReadyMachineCount:       ready,
		UnavailableMachineCount: unavailable,
		DegradedMachineCount:    degraded,
		Configuration:           pool.Status.Configuration,
		Conditions:              append([]machineconfigurationv1.MachineConfigPoolCondition(nil), pool.Status.Conditions...),
	}
	line := "MachineConfig " + pool.Spec.Configuration.Name
	if updated == total && ready == total && unavailable == 0 {
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdated, corev1.ConditionTrue, "All nodes are updated with "+line, now)
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdating, corev1.ConditionFalse, "", now)
		status.Configuration = pool.Spec.Configuration
		return status
	}
	setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdated, corev1.ConditionFalse, "", now)
	if pool.Spec.Paused {
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdating, corev1.ConditionFalse, "Pool is paused; will not update to "+line, now)
	} else {
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdating, corev1.ConditionTrue, "All nodes are updating to "+line, now)
	}
	return status
}

// nodeDone is the machine-config daemon done with the configuration it was
// told to use (IsNodeDone in pkg/controller/common/layered_node_state.go,
// without an image).
func nodeDone(node *corev1.Node) bool {
	current, desired := node.Annotations[nodes.CurrentConfigAnnotation], node.Annotations[nodes.DesiredConfigAnnotation]
	return current != "" && current == desired && node.Annotations[nodes.StateAnnotation] == "Done"
}

// nodeReady is CheckNodeReady of layered_node_state.go: Ready, without disk
// pressure or an unavailable network, and schedulable.
func nodeReady(node *corev1.Node) bool {
	for _, cond := range node.Status.Conditions {
		switch {
		case cond.Type == corev1.NodeReady && cond.Status != corev1.ConditionTrue,
			cond.Type == corev1.NodeDiskPressure && cond.Status != corev1.ConditionFalse,
			cond.Type == corev1.NodeNetworkUnavailable && cond.Status != corev1.ConditionFalse:
			return false
		}
	}
	return !node.Spec.Unschedulable
}

// unavailableForUpdate is IsUnavailableForUpdate of layered_node_state.go:
// a node not ready, or one the daemon works on and has not failed on.
func unavailableForUpdate(node *corev1.Node, done bool) bool {
	if !nodeReady(node) {
		return true
	}
	if done {
		return false
	}
	failing := node.Annotations[nodes.CurrentConfigAnnotation] != node.Annotations[nodes.DesiredConfigAnnotation] &&
		(node.Annotations[nodes.StateAnnotation] == "Degraded" || node.Annotations[nodes.StateAnnotation] == "Unreconcilable")
	return !failing
}

// setPoolCondition is SetMachineConfigPoolCondition of
// pkg/apihelpers/apihelpers.go: an unchanged condition stays as it is, a
// changed one moves to the end, keeping its transition time while its
// status stays.
func setPoolCondition(status *machineconfigurationv1.MachineConfigPoolStatus, t machineconfigurationv1.MachineConfigPoolConditionType, s corev1.ConditionStatus, message string, now time.Time) {
	cond := machineconfigurationv1.MachineConfigPoolCondition{Type: t, Status: s, Message: message, LastTransitionTime: metav1.NewTime(now)}
	var kept []machineconfigurationv1.MachineConfigPoolCondition
	for _, c := range status.Conditions {
		if c.Type != t {
			kept = append(kept, c)
			continue
		}
		if c.Status == s && c.Reason == "" && c.Message == message {
			return
		}
		if c.Status == s {
			cond.LastTransitionTime = c.LastTransitionTime
		}
	}
	status.Conditions = append(kept, cond)
}
