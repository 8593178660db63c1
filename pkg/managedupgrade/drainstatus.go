package managedupgrade

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// forcedDrains say, of each worker whose drain PodDisruptionBudgets block,
// when the Managed Upgrade Operator's node keeper deletes the pods that
// block it (pkg/drain/strategy.go, podDeleteStrategy.go): with grace 0, a
// pod it counts a budget's (muoPDBPod) once the UpgradeConfig's
// PDBForceDrainTimeout and nodeDrain.expectedNodeDrainTime have passed
// since the drain started, any other once nodeDrain.timeOut has; never one
// of a namespace nodeDrain.ignoredNamespacePatterns matches, and nothing at
// all with nodeDrain.disableDrainStrategies. It also says of a drain past
// the time the node keeper counts it failed. The node keeper acts for the
// update running alone.
func forcedDrains(u update, in Input) []protocol.Insight {
	if u.phase() != upgradev1alpha1.PhaseUpgrading {
		return nil
	}
	var out []protocol.Insight
	for _, d := range in.Drains {
		if d.Node == "" || d.Started.IsZero() {
			continue
		}
		scope := protocol.Scope{Type: protocol.ScopeWorkerPool, Resources: []protocol.Resource{{Kind: "Node", Name: d.Node}, u.resource()}}
		if d.Pool != "" {
			scope.WorkerPool = []protocol.Resource{pool(d.Pool)}
		}
		if len(d.Blocking) > 0 {
			out = append(out, blockedDrain(u, in, d, scope))
		}
		if i, ok := drainTimedOut(u, in, d, scope); ok {
			out = append(out, i)
		}
	}
	return out
}

func blockedDrain(u update, in Input, d NodeDrain, scope protocol.Scope) protocol.Insight {
	pdbWait := time.Duration(u.config.Spec.PDBForceDrainTimeout)*time.Minute + in.Config.ExpectedNodeDrainTime
	var lines, never []string
	var forced time.Time
	for _, p := range d.Blocking {
		name := p.Namespace + "/" + p.Name
		switch {
		case p.DaemonSetOwned:
			never = append(never, name)
			lines = append(lines, fmt.Sprintf("- %s: never deleted, a DaemonSet owns it", name))
		case in.Config.ignored(p.Namespace):
			never = append(never, name)
			lines = append(lines, fmt.Sprintf("- %s: never deleted, its namespace matches nodeDrain.ignoredNamespacePatterns", name))
		case p.PDBPod:
			at := d.Started.Add(pdbWait)
			forced = later(forced, at)
			lines = append(lines, fmt.Sprintf("- %s: deleted at %s, after PDBForceDrainTimeout (%d minutes) and nodeDrain.expectedNodeDrainTime (%s)",
				name, timestamp(at), u.config.Spec.PDBForceDrainTimeout, text.Minutes(in.Config.ExpectedNodeDrainTime)))
		default:
			// A budget selects it by matchExpressions alone, which the node
			// keeper does not read: it deletes the pod with those no budget
			// protects.
			at := d.Started.Add(in.Config.NodeDrainTimeout)
			forced = later(forced, at)
			lines = append(lines, fmt.Sprintf("- %s: deleted at %s, after nodeDrain.timeOut (%s): its budget selects it by matchExpressions, which the Managed Upgrade Operator does not read",
				name, timestamp(at), text.Minutes(in.Config.NodeDrainTimeout)))
		}
	}
	description := fmt.Sprintf("The drain started at %s. PodDisruptionBudgets that allow no disruption keep these pods on the node, so its eviction waits.", timestamp(d.Started))
	if slices.ContainsFunc(d.Blocking, refusedWhateverAllowed) {
		description = fmt.Sprintf("The drain started at %s. The eviction API refuses to evict these pods, by the PodDisruptionBudgets that select them "+
			"(one that allows no disruption, one whose status the disruption controller has not computed, or more than one), so the drain waits.", timestamp(d.Started))
	}
	var summary string
	i := insight(d.Started, u.uid("force-drain", d.Node), scope, protocol.LevelWarning, protocol.ImpactApplicationAvailability, "", "")
	switch {
	case in.Config.DisableDrainStrategies:
		summary = fmt.Sprintf("Node %s: a PodDisruptionBudget blocks its drain, which the Managed Upgrade Operator does not force", d.Node)
		description += " The Managed Upgrade Operator's drain strategies are disabled (nodeDrain.disableDrainStrategies): it deletes no pod, and the drain waits until the budgets allow it. Scale up the workloads the budgets protect, or relax the budgets."
		i.Impact.Type = protocol.ImpactUpdateStalled
	case len(never) > 0:
		summary = fmt.Sprintf("Node %s: a PodDisruptionBudget blocks its drain, and the Managed Upgrade Operator does not force it: %s", d.Node, strings.Join(never, ", "))
		description += " The Managed Upgrade Operator deletes them, with grace period 0, as follows:\n" + strings.Join(lines, "\n") + "\nThe drain waits for the pods it never deletes until their budgets allow it."
		i.Impact.Type = protocol.ImpactUpdateStalled
	default:
		when := "at " + timestamp(forced)
		if forced.After(in.Now) {
			when += ", in " + text.Minutes(forced.Sub(in.Now))
		}
		summary = fmt.Sprintf("Node %s: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it %s", d.Node, when)
		description += " The Managed Upgrade Operator deletes them, with grace period 0, whatever their budgets allow, at its first reconcile past:\n" + strings.Join(lines, "\n")
		i.Remediation.EstimatedFinish = finishAt(forced)
	}
	i.Impact.Summary = text.OneLine(summary, maxSummaryLength)
	i.Impact.Description = text.Truncate(description, maxDescriptionLength)
	return i
}

// refusedWhateverAllowed says the eviction API refuses the pod whatever
// its budgets allow: more than one selects it, or the disruption controller
// has not computed its budget's status.
func refusedWhateverAllowed(p BlockingPod) bool {
	return p.Reason == drain.MultipleBudgets || p.Reason == drain.BudgetNotSynced
}

// drainTimedOut reports a drain the node keeper counts failed
// (pkg/drain/nodeDrainStrategy.go HasFailed): nodeDrain.timeOut after it
// started with the strategies disabled; otherwise once no strategy is left
// to apply and nodeDrain.expectedNodeDrainTime has passed after the last.
// The node keeper then raises its alert (metric
// upgradeoperator_node_drain_timeout) and fails nothing. The last strategy
// is taken to be the latest that applies, the PodDisruptionBudgets' when the
// node has pods it counts theirs: a drain whose later strategies have no pod
// left fails sooner in the operator, and is reported here later, not
// wrongly.
func drainTimedOut(u update, in Input, d NodeDrain, scope protocol.Scope) (protocol.Insight, bool) {
	failsAt := d.Started.Add(in.Config.NodeDrainTimeout)
	if !in.Config.DisableDrainStrategies {
		last := in.Config.NodeDrainTimeout
		if d.PDBPods {
			last = max(last, time.Duration(u.config.Spec.PDBForceDrainTimeout)*time.Minute+in.Config.ExpectedNodeDrainTime)
		}
		failsAt = d.Started.Add(last + in.Config.ExpectedNodeDrainTime)
	}
	if !in.Now.After(failsAt) {
		return protocol.Insight{}, false
	}
	return insight(failsAt, u.uid("drain-timed-out", d.Node), scope, protocol.LevelWarning, protocol.ImpactUpdateSpeed,
		fmt.Sprintf("Node %s has drained for %s, past the Managed Upgrade Operator's drain timeout", d.Node, text.Minutes(in.Now.Sub(d.Started))),
		fmt.Sprintf("The drain started at %s. The Managed Upgrade Operator counted it failed at %s and raises its node drain timeout alert; it fails nothing, and the drain goes on. Look for pods on the node that do not terminate.",
			timestamp(d.Started), timestamp(failsAt))), true
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
