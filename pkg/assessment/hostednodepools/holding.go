package hostednodepools

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// Cluster API's v1beta2 Machine conditions and the Deleting reasons that
// keep a Machine, and the rollout behind it, waiting (cluster-api
// api/core/v1beta2/machine_types.go; set by core/reconcilers/machine/
// machine_controller.go reconcileDelete).
const (
	machineDeleting             = "Deleting"
	machineInfrastructureReady  = "InfrastructureReady"
	machineBootstrapConfigReady = "BootstrapConfigReady"
	machineNodeHealthy          = "NodeHealthy"

	deletingDrainingNode           = "DrainingNode"
	deletingWaitingForVolumeDetach = "WaitingForVolumeDetach"
)

// joinGrace is how long a new Machine may go without a node before it is
// said to hold the rollout: a cloud instance boots, ignites and joins in a
// few minutes, so a quarter of an hour without a node is waiting on
// something.
const joinGrace = 15 * time.Minute

// holdingMachine is the Machine the rollout waits on, and why, as Cluster
// API's Machine controller says: the longest-deleting one (a drain, its
// volumes, its hooks, its infrastructure), else the oldest new one that has
// gone joinGrace without a node.
func holdingMachine(in Input) *insightsv1alpha1.HoldingMachine {
	var held *insightsv1alpha1.HoldingMachine
	for _, m := range in.Machines {
		if m == nil || m.Name == "" || m.DeletionTimestamp == nil {
			continue
		}
		h := deletingMachine(m)
		if held == nil || earlier(h.Since, held.Since) {
			held = h
		}
	}
	if held != nil {
		return held
	}
	for _, m := range in.Machines {
		if m == nil || m.Name == "" || m.DeletionTimestamp != nil || m.Status.NodeRef != nil {
			continue
		}
		if m.CreationTimestamp.IsZero() || in.Now.Sub(m.CreationTimestamp.Time) < joinGrace {
			continue
		}
		h := joiningMachine(m)
		if held == nil || earlier(h.Since, held.Since) {
			held = h
		}
	}
	return held
}

// deletingMachine is why a Machine being deleted is not gone: its Deleting
// condition, which names, while draining, the pods the drain waits on
// (core/reconcilers/machine/drain/drain.go: "Drain not completed yet
// (started at %s):" and a line per kind of pod).
func deletingMachine(m *hypershift.Machine) *insightsv1alpha1.HoldingMachine {
	h := &insightsv1alpha1.HoldingMachine{Name: m.Name, Reason: "Deleting", Since: m.DeletionTimestamp.DeepCopy()}
	if m.Status.NodeRef != nil {
		h.Node = m.Status.NodeRef.Name
	}
	if c := condition(m.Status.Conditions, machineDeleting); c != nil && c.Status == metav1.ConditionTrue {
		h.Reason, h.Message = c.Reason, c.Message
	}
	if d := m.Status.Deletion; d != nil {
		switch {
		case h.Reason == deletingDrainingNode && d.NodeDrainStartTime != nil:
			h.Since = d.NodeDrainStartTime.DeepCopy()
		case h.Reason == deletingWaitingForVolumeDetach && d.WaitForNodeVolumeDetachStartTime != nil:
			h.Since = d.WaitForNodeVolumeDetachStartTime.DeepCopy()
		}
	}
	return h
}

// joiningMachine is why a new Machine has no node yet: the first of its
// readiness conditions, in the order the Machine controller goes through
// them, that is not True (machine_controller.go reconcile: bootstrap,
// infrastructure, node), else its phase.
func joiningMachine(m *hypershift.Machine) *insightsv1alpha1.HoldingMachine {
	h := &insightsv1alpha1.HoldingMachine{Name: m.Name, Reason: "WaitingForNode", Since: m.CreationTimestamp.DeepCopy()}
	for _, t := range []string{machineBootstrapConfigReady, machineInfrastructureReady, machineNodeHealthy} {
		if c := condition(m.Status.Conditions, t); c != nil && c.Status != metav1.ConditionTrue {
			h.Message = fmt.Sprintf("%s is %s: %s", t, c.Status, c.Message)
			if c.Reason != "" {
				h.Reason = c.Reason
			}
			return h
		}
	}
	if m.Status.Phase != "" {
		h.Message = "The Machine is " + m.Status.Phase + " and has no node yet"
	}
	return h
}

func condition(conditions []metav1.Condition, t string) *metav1.Condition {
	for i := range conditions {
		if conditions[i].Type == t {
			return &conditions[i]
		}
	}
	return nil
}

// earlier says whether a is before b, an unknown time last.
func earlier(a, b *metav1.Time) bool {
	switch {
	case a == nil:
		return false
	case b == nil:
		return true
	}
	return a.Before(b)
}
