package drain

import (
	"fmt"
	"strings"
	"time"
)

// String names the budget as namespace/name.
func (b Budget) String() string { return b.Namespace + "/" + b.Name }

// numbers are the budget's numbers as the disruption controller wrote them.
func (b Budget) numbers() string {
	return fmt.Sprintf("%d of %d expected pods healthy, %d needed", b.CurrentHealthy, b.ExpectedPods, b.DesiredHealthy)
}

// Why says, in a clause, what holds a blocking pod: "" for a pod that does
// not block.
func (p Pod) Why() string {
	if p.Verdict != Blocking {
		return ""
	}
	switch p.Reason {
	case BudgetAtLimit:
		why := fmt.Sprintf("PodDisruptionBudget %s allows no disruption (%s)", p.budget(), p.budgetNumbers())
		if len(p.NotReady) > 0 {
			why += ": it waits for " + p.peers()
		}
		return why
	case ReplacementUnschedulable:
		return fmt.Sprintf("PodDisruptionBudget %s allows no disruption, and its pod %s cannot be scheduled", p.budget(), strings.Join(p.Unschedulable, ", "))
	case MultipleBudgets:
		all := "all"
		if len(p.Budgets) == 2 {
			all = "both"
		}
		return fmt.Sprintf("PodDisruptionBudgets %s %s select it, and the eviction API refuses a pod more than one budget selects", p.budgetNames(), all)
	case BudgetNotSynced:
		return fmt.Sprintf("the disruption controller has not computed the status of PodDisruptionBudget %s, and the eviction API refuses until it has", p.budget())
	case Finalizer:
		return fmt.Sprintf("it was deleted and finalizer %s holds it", strings.Join(p.Finalizers, ", "))
	case GracePeriod:
		// The time it ends, not how long it has left: the words are stored
		// and read later.
		if !p.GraceEnds.IsZero() {
			return fmt.Sprintf("it was deleted and its grace period ends at %s", p.GraceEnds.UTC().Format(time.RFC3339))
		}
		return "it was deleted and its kubelet has not finished stopping it"
	case NodeNotReady:
		return "it was deleted, and the node's kubelet, not ready, does not confirm it"
	case Refused:
		return "the drain refuses to remove it under its options"
	}
	return string(p.Reason)
}

// Remedy says what an administrator can do about a blocking pod: "" for a
// pod that does not block.
func (p Pod) Remedy() string {
	if p.Verdict != Blocking {
		return ""
	}
	owner := "its workload"
	if p.Owner != "" {
		owner = p.Owner
	}
	// A finalizer's controller is the one its name's prefix names, not the
	// pod's owner. A deleted pod's grace period was fixed by its deletion,
	// and the API server lets a later delete only shorten it (apiserver
	// pkg/registry/rest/delete.go, BeforeDelete).
	switch {
	case p.Reason == BudgetAtLimit && p.Owner == "":
		// A bare pod (a control plane guard pod is one): no workload
		// scales it, and its budget counts the pods it selects as they are.
		waits := "more of the pods it selects to be ready"
		if len(p.NotReady) > 0 {
			waits = p.peers()
		}
		return fmt.Sprintf("Nothing scales a bare pod: PodDisruptionBudget %s allows a disruption only once it has more healthy pods, and waits for %s. "+
			"Find why they are not ready (a control plane guard pod is ready while its operand on that node is healthy), or relax the budget's minAvailable or maxUnavailable.",
			p.budget(), waits)
	case p.Reason == BudgetAtLimit && len(p.NotReady) > 0 && !p.OwnerGone:
		return fmt.Sprintf("Find why the pods it waits for are not ready (%s: their events and readiness probes say), scale %s up so that PodDisruptionBudget %s allows a disruption, "+
			"or relax the budget's minAvailable or maxUnavailable.", p.peers(), p.Owner, p.budget())
	case p.Reason == BudgetAtLimit && p.OwnerGone:
		return fmt.Sprintf("Nothing recreates the pod: its %s is gone. Delete the pod if it is no longer needed (a delete, unlike the drain's eviction, "+
			"does not ask its budget), or relax PodDisruptionBudget %s's minAvailable or maxUnavailable.", p.Owner, p.budget())
	}
	switch p.Reason {
	case BudgetAtLimit:
		return fmt.Sprintf("Scale %s up so that PodDisruptionBudget %s allows a disruption, or relax the budget's minAvailable or maxUnavailable.", owner, p.budget())
	case ReplacementUnschedulable:
		return fmt.Sprintf("Make room for %s (its events say why the scheduler cannot place it), or relax PodDisruptionBudget %s.", strings.Join(p.Unschedulable, ", "), p.budget())
	case MultipleBudgets:
		return fmt.Sprintf("Change PodDisruptionBudgets %s so that only one selects the pod.", p.budgetNames())
	case BudgetNotSynced:
		return fmt.Sprintf("Check the kube-controller-manager, whose disruption controller computes PodDisruptionBudget %s's status.", p.budget())
	case Finalizer:
		return fmt.Sprintf("Find the controller that owns finalizer %s (the prefix of its name usually says which) and why it does not remove it; remove it by hand only if that controller is gone.", strings.Join(p.Finalizers, ", "))
	case GracePeriod:
		return "Wait for the pod to stop, or, if it need not take that long, delete it again with a shorter --grace-period; lower terminationGracePeriodSeconds in its workload for the next drain."
	case NodeNotReady:
		return "Bring the node's kubelet back, or, if the node is gone for good, delete the pod with --force --grace-period=0."
	case Refused:
		return "Remove the pod by hand, or drain with options that allow it."
	}
	return ""
}

// namedPeers is how many not-ready pods the words name before they count
// the rest.
const namedPeers = 2

// peers names the pods the budget waits for: each on its node, not ready
// since a time (a time, not how long: the words are stored). They are in
// the budget's namespace, which the words have just named: a summary has
// 256 characters.
func (p Pod) peers() string {
	var named []string
	for _, peer := range p.NotReady[:min(len(p.NotReady), namedPeers)] {
		s := fmt.Sprintf("pod %s on node %s, not ready", peer.Name, peer.Node)
		if !peer.Since.IsZero() {
			s += " since " + peer.Since.UTC().Format(time.RFC3339)
		}
		named = append(named, s)
	}
	s := strings.Join(named, "; ")
	if rest := len(p.NotReady) - len(named); rest > 0 {
		s += fmt.Sprintf("; and %d more not ready", rest)
	}
	return s
}

func (p Pod) budget() string {
	if len(p.Budgets) == 0 {
		return "(unknown)"
	}
	return p.Budgets[0].String()
}

func (p Pod) budgetNumbers() string {
	if len(p.Budgets) == 0 {
		return "no numbers"
	}
	return p.Budgets[0].numbers()
}

func (p Pod) budgetNames() string {
	names := make([]string, len(p.Budgets))
	for i, b := range p.Budgets {
		names[i] = b.String()
	}
	return strings.Join(names, " and ")
}
