package integration

import (
	"context"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// scaleMachineConfigNode is the MachineConfigNode the daemon keeps for a
// node in phase (pkg/upgrademonitor/upgrade_monitor.go,
// generateAndApplyMachineConfigNodes): every condition type, created False
// NotYetOccurred; a node at rest Updated, one draining prepared, cordoned
// and draining.
func scaleMachineConfigNode(i int, phase scalePhase, at metav1.Time) *machineconfigurationv1.MachineConfigNode {
	current, desired := scaleOldWorkerConfig, scaleOldWorkerConfig
	switch phase {
	case scaleUpdated:
		current, desired = scaleNewWorkerConfig, scaleNewWorkerConfig
	case scaleDraining:
		desired = scaleNewWorkerConfig
	}
	name := scaleNodeName(i)
	steps := map[machineconfigurationv1.StateProgress]metav1.Condition{}
	for _, t := range []machineconfigurationv1.StateProgress{
		machineconfigurationv1.MachineConfigNodeUpdatePrepared, machineconfigurationv1.MachineConfigNodeUpdateExecuted,
		machineconfigurationv1.MachineConfigNodeUpdatePostActionComplete, machineconfigurationv1.MachineConfigNodeUpdateComplete,
		machineconfigurationv1.MachineConfigNodeResumed, machineconfigurationv1.MachineConfigNodeUpdateDrained,
		machineconfigurationv1.MachineConfigNodeUpdateFilesAndOS, machineconfigurationv1.MachineConfigNodeUpdateCordoned,
		machineconfigurationv1.MachineConfigNodeUpdateUncordoned, machineconfigurationv1.MachineConfigNodeUpdateRebooted,
		machineconfigurationv1.MachineConfigNodeNodeDegraded, machineconfigurationv1.MachineConfigNodePinnedImageSetsProgressing,
		machineconfigurationv1.MachineConfigNodePinnedImageSetsDegraded,
	} {
		steps[t] = metav1.Condition{Type: string(t), Status: metav1.ConditionFalse, Reason: "NotYetOccurred", Message: "This node has not yet entered the " + string(t) + " phase", LastTransitionTime: at}
	}
	updated := metav1.Condition{Type: string(machineconfigurationv1.MachineConfigNodeUpdated), Status: metav1.ConditionTrue, Reason: "Updated",
		Message: "Node " + name + " Updated", LastTransitionTime: at}
	if phase == scaleDraining {
		updated.Status, updated.Reason, updated.Message = metav1.ConditionFalse, "Updated", "Node "+name+" needs an update"
		steps[machineconfigurationv1.MachineConfigNodeUpdatePrepared] = metav1.Condition{Type: string(machineconfigurationv1.MachineConfigNodeUpdatePrepared), Status: metav1.ConditionTrue,
			Reason: "UpdatePrepared", Message: "Update Compatible. Post Cfg Actions: [] Drain Required: true", LastTransitionTime: at}
		steps[machineconfigurationv1.MachineConfigNodeUpdateExecuted] = metav1.Condition{Type: string(machineconfigurationv1.MachineConfigNodeUpdateExecuted), Status: metav1.ConditionUnknown,
			Reason: "UpdateExecuted", Message: "Draining node. The drain will not be complete until desired drainer drain-" + desired + " matches current drainer uncordon-" + current, LastTransitionTime: at}
		steps[machineconfigurationv1.MachineConfigNodeUpdateCordoned] = metav1.Condition{Type: string(machineconfigurationv1.MachineConfigNodeUpdateCordoned), Status: metav1.ConditionTrue,
			Reason: "UpdateExecutedCordoned", Message: "Cordoned node. The node is reporting Unschedulable = true", LastTransitionTime: at}
		steps[machineconfigurationv1.MachineConfigNodeUpdateDrained] = metav1.Condition{Type: string(machineconfigurationv1.MachineConfigNodeUpdateDrained), Status: metav1.ConditionUnknown,
			Reason: "UpdateExecutedDrained", Message: "Draining node. The drain will not be complete until desired drainer drain-" + desired + " matches current drainer uncordon-" + current, LastTransitionTime: at}
	}
	mcn := &machineconfigurationv1.MachineConfigNode{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: machineconfigurationv1.MachineConfigNodeSpec{
			Node:          machineconfigurationv1.MCOObjectReference{Name: name},
			Pool:          machineconfigurationv1.MCOObjectReference{Name: nodes.WorkerPool},
			ConfigVersion: machineconfigurationv1.MachineConfigNodeSpecMachineConfigVersion{Desired: desired},
		},
		Status: machineconfigurationv1.MachineConfigNodeStatus{
			ObservedGeneration: 2,
			ConfigVersion:      &machineconfigurationv1.MachineConfigNodeStatusMachineConfigVersion{Current: current, Desired: desired},
			Conditions:         []metav1.Condition{updated},
		},
	}
	for _, c := range steps {
		mcn.Status.Conditions = append(mcn.Status.Conditions, c)
	}
	return mcn
}

// createMachineConfigNodes creates every node's MachineConfigNode, with its
// status, and deletes them when the benchmark ends.
func (s *nodeScale) createMachineConfigNodes() {
	b, mcns := s.b, s.mc.MachineconfigurationV1().MachineConfigNodes()
	at := metav1.NewTime(time.Now().Add(-time.Hour).Truncate(time.Second))
	start := time.Now()
	b.Cleanup(func() {
		if err := s.forEachNode(func(i int) error {
			err := mcns.Delete(context.Background(), scaleNodeName(i), metav1.DeleteOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return err
		}); err != nil {
			b.Errorf("deleting the MachineConfigNodes: %v", err)
		}
	})
	if err := s.forEachNode(func(i int) error {
		want := scaleMachineConfigNode(i, s.phaseOf(i), at)
		created, err := mcns.Create(context.Background(), want, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		created.Status = want.Status
		_, err = mcns.UpdateStatus(context.Background(), created, metav1.UpdateOptions{})
		return err
	}); err != nil {
		b.Fatalf("creating the MachineConfigNodes: %v", err)
	}
	b.Logf("created %d MachineConfigNodes in %s", scaleNodes, time.Since(start).Round(time.Millisecond))
}

// touchMachineConfigNodes renews every MachineConfigNode's
// PinnedImageSetsProgressing, which the daemon rewrites with a new time on
// every report (pkg/daemon/pinned_image_set.go): a change that says
// nothing of the node's update.
func (s *nodeScale) touchMachineConfigNodes() {
	mcns := s.mc.MachineconfigurationV1().MachineConfigNodes()
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	if err := s.forEachNode(func(i int) error {
		mcn, err := mcns.Get(context.Background(), scaleNodeName(i), metav1.GetOptions{})
		if err != nil {
			return err
		}
		for j := range mcn.Status.Conditions {
			if c := &mcn.Status.Conditions[j]; c.Type == string(machineconfigurationv1.MachineConfigNodePinnedImageSetsProgressing) {
				c.LastTransitionTime = now
			}
		}
		_, err = mcns.UpdateStatus(context.Background(), mcn, metav1.UpdateOptions{})
		return err
	}); err != nil {
		s.b.Fatalf("renewing the MachineConfigNodes: %v", err)
	}
}
