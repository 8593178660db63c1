package hostednodepools

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// Problem reasons.
const (
	reasonBeyondSupportedSkew  = "BeyondSupportedSkew"
	reasonAheadOfControlPlane  = "AheadOfControlPlane"
	reasonInPlaceUpgradeFailed = "InplaceUpgradeFailed"
	reasonHeldMachine          = "MachineHeld"
	reasonMoreProblems         = "MoreProblems"
)

// heldAfter is how long a Machine may hold the rollout before that is a
// problem, when how long a machine takes is not known: a drain that waits on
// a disruption budget rarely clears by itself past half an hour.
const heldAfter = 30 * time.Minute

// skewLimit is HyperShift's policy (support/supportedversion/version.go
// ValidateVersionSkew), worded as the guest's NodePool insights word it.
var skewLimit = hosted.SkewLimit + " and none ahead"

// skewProblem is what HyperShift refuses of the NodePool's release against
// the control plane's: more than MaxMinorsBehind minors behind, or ahead.
func skewProblem(np *hypershift.NodePool, version, controlPlane string) *insightsv1alpha1.HostedProblem {
	if version == "" || controlPlane == "" {
		return nil
	}
	behind, err := hosted.ReleaseMinorsBehind(controlPlane, version)
	if err != nil {
		return nil
	}
	p := &insightsv1alpha1.HostedProblem{Level: insightsv1alpha1.ErrorImpactLevel}
	switch {
	case behind > hosted.MaxMinorsBehind:
		p.Reason = reasonBeyondSupportedSkew
		p.Message = fmt.Sprintf("NodePool %s runs %s, %d minor releases behind the control plane's %s; %s. Update the NodePool's spec.release.image.", np.Name, version, behind, controlPlane, skewLimit)
	case behind < 0:
		p.Reason = reasonAheadOfControlPlane
		p.Message = fmt.Sprintf("NodePool %s is at %s, ahead of the control plane's %s; %s. Update the HostedCluster first.", np.Name, version, controlPlane, skewLimit)
	default:
		return nil
	}
	if c := np.Condition(hypershift.NodePoolSupportedVersionSkew); c != nil && c.Status == corev1.ConditionFalse {
		p.Since = c.LastTransitionTime.DeepCopy()
	}
	return p
}

// conditionProblems are the NodePool conditions HyperShift sets False when
// it cannot roll the NodePool's release out (conditions.go): an image it
// cannot read, a payload it cannot generate.
func conditionProblems(np *hypershift.NodePool) []insightsv1alpha1.HostedProblem {
	var problems []insightsv1alpha1.HostedProblem
	for _, t := range []string{hypershift.NodePoolValidReleaseImage, hypershift.NodePoolValidGeneratedPayload} {
		c := np.Condition(t)
		if c == nil || c.Status != corev1.ConditionFalse {
			continue
		}
		reason := c.Reason
		if reason == "" {
			reason = t + "False"
		}
		problems = append(problems, insightsv1alpha1.HostedProblem{
			Level:   insightsv1alpha1.ErrorImpactLevel,
			Reason:  reason,
			Message: fmt.Sprintf("NodePool %s is %s False: %s", np.Name, t, c.Message),
			Since:   c.LastTransitionTime.DeepCopy(),
		})
	}
	return problems
}

// inPlaceProblem is a node the in-place upgrader failed to update.
func inPlaceProblem(in Input) *insightsv1alpha1.HostedProblem {
	msg, ms := inPlaceDegraded(in)
	if msg == "" {
		return nil
	}
	p := &insightsv1alpha1.HostedProblem{
		Level:    insightsv1alpha1.ErrorImpactLevel,
		Reason:   reasonInPlaceUpgradeFailed,
		Message:  msg,
		Resource: &insightsv1alpha1.ResourceRef{Group: hypershift.ClusterAPIGroup, Resource: hypershift.MachineSets.Resource, Namespace: ms.Namespace, Name: ms.Name},
	}
	if c := in.NodePool.Condition(hypershift.NodePoolUpdatingVersion); c != nil && c.Status == corev1.ConditionFalse {
		p.Since = c.LastTransitionTime.DeepCopy()
	}
	return p
}

// heldProblem is a Machine that has held the rollout past twice how long a
// machine takes, or past heldAfter when that is not known.
func heldProblem(h *insightsv1alpha1.HoldingMachine, in Input) *insightsv1alpha1.HostedProblem {
	if h == nil || h.Since == nil {
		return nil
	}
	limit := heldAfter
	if in.PerMachine > 0 {
		limit = 2 * in.PerMachine
	}
	held := in.Now.Sub(h.Since.Time)
	if held < limit {
		return nil
	}
	msg := fmt.Sprintf("Machine %s has held the rollout for %s (%s)", h.Name, held.Round(time.Minute), h.Reason)
	if budgets := blockingBudgets(h.Message); len(budgets) > 0 {
		msg += fmt.Sprintf("; its drain waits on the PodDisruptionBudgets %s in the hosted cluster", strings.Join(budgets, ", "))
	}
	if h.Message != "" {
		msg += ": " + h.Message
	}
	p := &insightsv1alpha1.HostedProblem{
		Level:   insightsv1alpha1.WarningImpactLevel,
		Reason:  reasonHeldMachine,
		Message: msg,
		Since:   &metav1.Time{Time: h.Since.Time},
	}
	for _, m := range in.Machines {
		if m != nil && m.Name == h.Name {
			p.Resource = &insightsv1alpha1.ResourceRef{Group: hypershift.ClusterAPIGroup, Resource: hypershift.Machines.Resource, Namespace: m.Namespace, Name: m.Name}
			break
		}
	}
	return p
}

// budgetRE finds the budgets a drain's evictions are refused by in Cluster
// API's Deleting message: the API server's refusal, "The disruption budget
// %s needs %d healthy pods and has %d currently" (kubernetes
// pkg/registry/core/pod/storage/eviction.go), as cluster-api's drain
// quotes it (core/reconcilers/machine/drain/drain.go
// EvictionResult.ConditionMessage).
var budgetRE = regexp.MustCompile(`The disruption budget (\S+) needs \d+ healthy pods`)

// blockingBudgets are the budgets named in a drain's message, once each, in
// order.
func blockingBudgets(message string) []string {
	var budgets []string
	for _, m := range budgetRE.FindAllStringSubmatch(message, maxProblems) {
		if !slices.Contains(budgets, m[1]) {
			budgets = append(budgets, m[1])
		}
	}
	return budgets
}
