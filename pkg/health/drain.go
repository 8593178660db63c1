package health

import (
	"fmt"
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// DrainBlockedPrefix starts the problem of a health insight about a pod that
// holds a node's drain; the drain model's reason follows, e.g.
// DrainBlockedBudgetAtLimit.
const DrainBlockedPrefix = "DrainBlocked"

const drainDocs = "https://github.com/update-insights/update-insights-operator/blob/main/docs/insights.md#drains-held"

// Drainer is what drains a node: the policy whose thresholds level a block,
// and what it does while a pod holds the drain, which the insight says.
type Drainer struct {
	Policy drain.Policy
	// Meanwhile is a sentence or two on the drainer's retries and errors.
	Meanwhile string
}

// MachineConfigDrainer is the machine-config controller's drain controller
// (drain.MCO).
var MachineConfigDrainer = Drainer{Policy: drain.MCO, Meanwhile: fmt.Sprintf(
	"The machine-config controller tries the drain again every minute, then every five, "+
		"and after %s raises its drain error (the MCCDrainError alert); the node's update waits until the pod is gone.", drain.MCO.ErrorAfter)}

// HyperShiftDrainer is the HyperShift drainer of the NodePools updated in
// place (drain.HyperShift): a refused attempt, after its Helper's 90s
// timeout, is an error controller-runtime requeues with its rate limiter's
// backoff (5ms doubling up to 1000s), and any change of the node requeues
// it at once (control-plane-operator/hostedclusterconfigoperator/
// controllers/drainer/drainer.go and setup.go).
var HyperShiftDrainer = Drainer{Policy: drain.HyperShift, Meanwhile: fmt.Sprintf(
	"The HyperShift drainer tries the drain again, each attempt giving up after %s, then less and less often (up to every 16m40s) "+
		"and whenever the node changes; it raises no error, and the node's in-place update waits until the pod is gone.", drain.HyperShift.WarnAfter)}

// forDrain returns a health insight for each pod that has held the node's
// drain long enough (the drainer's thresholds: for the machine-config
// controller, a Warning once its first attempt failed, an Error once it
// would raise its drain error), scoped to the node, the pod and its
// budgets, and when the level or the words of a block would next change by
// the passage of time alone.
func forDrain(s *insightsv1alpha1.NodeProgressInsightStatus, d Drainer, blocks []drain.Pod, now time.Time) ([]Insight, time.Time) {
	var insights []Insight
	var next time.Time
	for _, b := range blocks {
		next = earliest(next, nextLevel(b, d.Policy, now))
		level := b.Level(d.Policy, now)
		if level == "" {
			continue
		}
		resources := []insightsv1alpha1.ResourceRef{nodeResource.ref(s.Name), podResource.namespacedRef(b.Namespace, b.Name)}
		for _, budget := range b.Budgets {
			resources = append(resources, podDisruptionBudgetResource.namespacedRef(budget.Namespace, budget.Name))
		}
		insights = append(insights, nodeInsight(DrainBlockedPrefix+string(b.Reason), s.ScopeType, resources, b.Since,
			insightsv1alpha1.InsightImpact{
				Level:       level,
				Type:        insightsv1alpha1.UpdateStalledImpactType,
				Summary:     text.OneLine(fmt.Sprintf("Pod %s/%s holds the drain of node %s: %s", b.Namespace, b.Name, s.Name, b.Why()), maxSummaryLength),
				Description: text.Truncate(drainDescription(b, d), maxDescriptionLength),
			}, drainDocs))
	}
	return insights, next
}

// drainDescription says since when the pod holds the drain, what to do, and
// what the drainer does meanwhile. It states a time, not how long: the
// insight is written once and read for as long as it stands.
func drainDescription(b drain.Pod, d Drainer) string {
	held := "The drain waits for it"
	if !b.Since.IsZero() {
		held = fmt.Sprintf("It has held the drain since %s", b.Since.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("%s: %s. %s %s", held, b.Why(), b.Remedy(), d.Meanwhile)
}

// nextLevel is when a block's level or words next change by the passage of
// time alone, zero for never: a threshold, or the end of the pod's grace
// period, after which something else holds it.
func nextLevel(b drain.Pod, policy drain.Policy, now time.Time) time.Time {
	if b.Reason == drain.GracePeriod && b.GraceEnds.After(now) {
		return earliest(b.GraceEnds, nextThreshold(b, policy, now))
	}
	return nextThreshold(b, policy, now)
}

// nextThreshold is when a block's level next changes, zero for never.
func nextThreshold(b drain.Pod, policy drain.Policy, now time.Time) time.Time {
	start := b.Since
	if start.IsZero() {
		return time.Time{}
	}
	for _, after := range []time.Duration{policy.WarnAfter, policy.ErrorAfter} {
		if due := start.Add(after); after > 0 && now.Before(due) {
			return due
		}
	}
	return time.Time{}
}

// earliest is the earlier of two times, either zero for none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// DrainHeld reads a health insight's resources as forDrain writes them: the
// node whose drain a pod holds, the pod and its budgets as namespace/name;
// false for an insight about anything else.
func DrainHeld(resources []insightsv1alpha1.ResourceRef) (node, pod string, budgets []string, ok bool) {
	for _, r := range resources {
		switch {
		case r.Group == nodeResource.group && r.Resource == nodeResource.resource:
			node = r.Name
		case r.Group == podResource.group && r.Resource == podResource.resource:
			pod = r.Namespace + "/" + r.Name
		case r.Group == podDisruptionBudgetResource.group && r.Resource == podDisruptionBudgetResource.resource:
			budgets = append(budgets, r.Namespace+"/"+r.Name)
		}
	}
	return node, pod, budgets, node != "" && pod != ""
}
