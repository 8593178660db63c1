package hostedclusters

import (
	"fmt"
	"sort"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

const (
	// maxMessageLength is HostedProblem.Message's MaxLength.
	maxMessageLength = 4096
	// maxReasonLength is HostedProblem.Reason's MaxLength.
	maxReasonLength = 1024
	// maxProblems is the status's Problems MaxItems.
	maxProblems = 16
	// maxQuoted bounds a quoted upstream message, leaving room in a
	// problem's message for what is said around it.
	maxQuoted = 3072
	// maxComponentDetail bounds what is said of one ControlPlaneComponent.
	maxComponentDetail = 300
)

// Problem reasons. Each is a word of this package's own, never a reason
// copied from upstream, so that the Healthy condition, which takes the worst
// problem's reason, always has a valid condition reason.
const (
	reasonBlocked                        = "Blocked"
	reasonForceUpgradeAnnotationMismatch = "ForceUpgradeAnnotationMismatch"
	reasonClusterVersionFailing          = "ClusterVersionFailing"
	reasonUpdateStalled                  = "UpdateStalled"
	reasonComponentsNotRolledOut         = "ControlPlaneComponentsNotRolledOut"
	reasonMoreProblems                   = "MoreProblems"
)

// upgradeableBlockedPrefix starts HyperShift's Progressing message when
// isUpgrading refuses an update (hypershift-operator/controllers/
// hostedcluster/hostedcluster_controller.go isProgressing).
const upgradeableBlockedPrefix = hypershift.ClusterVersionUpgradeable + " condition is false: "

// blockingConditions are the HostedCluster conditions any of which, False,
// makes isProgressing refuse to progress (hostedcluster_controller.go
// isProgressing), each with what to do about it.
var blockingConditions = []struct{ conditionType, advice string }{
	{hypershift.ValidReleaseImage, "Set spec.release.image to a release image HyperShift can pull and supports."},
	{hypershift.SupportedHostedCluster, "This HyperShift operator does not support the HostedCluster: change what the message names, or run a HyperShift operator that supports it."},
	{hypershift.ValidHostedClusterConfiguration, "Fix the HostedCluster's spec as the message says."},
	{hypershift.ReconciliationActive, "Remove or move spec.pausedUntil to let HyperShift reconcile again."},
}

// isBlocking says HyperShift refuses to roll out what is asked: its
// Progressing condition is False, reason Blocked (hostedcluster_controller.go
// reconcile sets it when lookupReleaseImage or isProgressing fails), and an
// update is requested (the control plane's image differs from the one the
// guest desires) or under way. At a completed update and without a new
// release asked, the same refusal holds only the next update.
func (a *assessor) isBlocking() bool {
	c := meta.FindStatusCondition(a.hc.Status.Conditions, hypershift.HostedClusterProgressing)
	if c == nil || c.Status != metav1.ConditionFalse || c.Reason != hypershift.BlockedReason {
		return false
	}
	v := a.hc.Status.Version
	if v == nil || len(v.History) == 0 {
		return true
	}
	return a.requested() || v.History[0].State != configv1.CompletedUpdate
}

// requested says the HostedCluster asks for a release its guest does not
// desire yet (hostedcluster_controller.go isUpgrading).
func (a *assessor) requested() bool {
	v := a.hc.Status.Version
	image := a.hc.ControlPlaneReleaseImage()
	return v != nil && image != "" && image != v.Desired.Image
}

// failing is the guest cluster-version operator's Failing condition when
// True: HyperShift copies it to the HostedCluster inverted, as
// ClusterVersionSucceeding False, with the operator's reason and message
// (hostedcluster_controller.go, "Copy the CVO conditions from the HCP").
func (a *assessor) failing() *metav1.Condition {
	c := meta.FindStatusCondition(a.hc.Status.Conditions, hypershift.ClusterVersionSucceeding)
	if c == nil || c.Status != metav1.ConditionFalse {
		return nil
	}
	return c
}

// problems are the control plane's problems, unsorted.
func (a *assessor) problems(status *insightsv1alpha1.HostedClusterProgressInsightStatus, components []*hypershift.ControlPlaneComponent) []insightsv1alpha1.HostedProblem {
	ps := a.blockedProblems()
	if c := a.failing(); c != nil {
		what := "the update is failing"
		if status.Assessment == insightsv1alpha1.HostedClusterAssessmentCompleted {
			what = "applying the release is failing"
		}
		ps = append(ps, a.problem(insightsv1alpha1.ErrorImpactLevel, reasonClusterVersionFailing, c.LastTransitionTime,
			fmt.Sprintf("The guest's cluster-version operator says %s (Failing=True, reason %s): %s. The guest's ClusterVersion and the ClusterOperators it names tell why.",
				what, quoteReason(c.Reason), a.quote(c.Message, hypershift.ClusterVersionSucceeding))))
	}
	if status.Assessment == insightsv1alpha1.HostedClusterAssessmentStalled {
		ps = append(ps, a.problem(insightsv1alpha1.WarningImpactLevel, reasonUpdateStalled, *status.LastObservedProgress,
			fmt.Sprintf("Completion has stayed at %d%% since %s, more than %s past the estimate. The other problems, and the guest's ClusterVersion, may tell what holds it.",
				status.CompletionPercent, status.LastObservedProgress.UTC().Format(time.RFC3339), text.Minutes(stalledAfter))))
	}
	if p, ok := a.componentsProblem(components); ok {
		ps = append(ps, p)
	}
	return ps
}

// blockedProblems are the causes of HyperShift's refusal, Error while they
// hold a requested update, less while they would only hold the next.
func (a *assessor) blockedProblems() []insightsv1alpha1.HostedProblem {
	var ps []insightsv1alpha1.HostedProblem
	for _, b := range blockingConditions {
		c := meta.FindStatusCondition(a.hc.Status.Conditions, b.conditionType)
		if c == nil || c.Status != metav1.ConditionFalse {
			continue
		}
		level, effect := insightsv1alpha1.ErrorImpactLevel, "HyperShift does not roll out the requested release while it is."
		if !a.blocking {
			level, effect = insightsv1alpha1.WarningImpactLevel, "HyperShift will not start an update while it is."
			if b.conditionType == hypershift.ReconciliationActive {
				level = insightsv1alpha1.InfoImpactLevel
			}
		}
		ps = append(ps, a.problem(level, b.conditionType, c.LastTransitionTime,
			fmt.Sprintf("The HostedCluster's %s condition is False (reason %s): %s. %s %s",
				b.conditionType, quoteReason(c.Reason), a.quote(c.Message, b.conditionType), effect, b.advice)))
	}

	progressing := meta.FindStatusCondition(a.hc.Status.Conditions, hypershift.HostedClusterProgressing)
	upgradeable := meta.FindStatusCondition(a.hc.Status.Conditions, hypershift.ClusterVersionUpgradeable)
	image := text.Truncate(a.hc.ControlPlaneReleaseImage(), 1024)
	refused := ""
	if a.blocking {
		refused, _ = strings.CutPrefix(progressing.Message, upgradeableBlockedPrefix)
		if refused == progressing.Message {
			refused = ""
		}
	}
	switch {
	case refused == "cluster version is not upgradeable" && upgradeable != nil:
		// isUpgrading: a minor update while the guest is not upgradeable,
		// neither forced nor exempt (a patch update, or
		// spec.controlPlaneRelease set, is not held).
		// The update has been held since it was both requested and not
		// upgradeable: the later of Progressing's turn to Blocked and
		// Upgradeable's to False.
		since := upgradeable.LastTransitionTime
		if progressing.LastTransitionTime.After(since.Time) {
			since = progressing.LastTransitionTime
		}
		ps = append(ps, a.problem(insightsv1alpha1.ErrorImpactLevel, hypershift.ClusterVersionUpgradeable, since,
			fmt.Sprintf("HyperShift does not start the minor update to %s while the guest cluster is not upgradeable: %s is %s (reason %s): %s. Resolve what it says in the guest cluster; patch updates are not held. To update anyway, accepting the risk, set the annotation %s=%s.",
				image, hypershift.ClusterVersionUpgradeable, upgradeable.Status, quoteReason(upgradeable.Reason), a.quote(upgradeable.Message, hypershift.ClusterVersionUpgradeable),
				hypershift.ForceUpgradeToAnnotation, image)))
	case strings.HasPrefix(refused, "force upgrade annotation is present but does not match"):
		ps = append(ps, a.problem(insightsv1alpha1.ErrorImpactLevel, reasonForceUpgradeAnnotationMismatch, progressing.LastTransitionTime,
			fmt.Sprintf("The annotation %s names %s, not the requested release %s, so HyperShift does not force the update while the guest cluster is not upgradeable. Set the annotation to the requested release image, or remove it.",
				hypershift.ForceUpgradeToAnnotation, text.Truncate(a.hc.Annotations[hypershift.ForceUpgradeToAnnotation], 1024), image)))
	case upgradeable != nil && upgradeable.Status == metav1.ConditionFalse:
		ps = append(ps, a.notUpgradeable(upgradeable, image))
	}

	if a.blocking && len(ps) == 0 {
		ps = append(ps, a.problem(insightsv1alpha1.ErrorImpactLevel, reasonBlocked, progressing.LastTransitionTime,
			fmt.Sprintf("HyperShift does not roll out the requested release %s: its Progressing condition is False (reason Blocked): %s",
				image, a.quote(progressing.Message, hypershift.HostedClusterProgressing))))
	}
	return ps
}

// notUpgradeable is ClusterVersionUpgradeable False while it holds no
// update: it holds the next minor one (isUpgrading), which is worth knowing
// but not a fault. An update forced past it is a risk taken.
func (a *assessor) notUpgradeable(upgradeable *metav1.Condition, image string) insightsv1alpha1.HostedProblem {
	quoted := fmt.Sprintf("%s is False (reason %s): %s", hypershift.ClusterVersionUpgradeable, quoteReason(upgradeable.Reason), a.quote(upgradeable.Message, hypershift.ClusterVersionUpgradeable))
	if forced, ok := a.hc.Annotations[hypershift.ForceUpgradeToAnnotation]; ok && forced == a.hc.ControlPlaneReleaseImage() && a.minorUnderWay() {
		return a.problem(insightsv1alpha1.WarningImpactLevel, hypershift.ClusterVersionUpgradeable, upgradeable.LastTransitionTime,
			fmt.Sprintf("The update to %s proceeds though the guest cluster is not upgradeable, because the annotation %s names it: %s.", image, hypershift.ForceUpgradeToAnnotation, quoted))
	}
	return a.problem(insightsv1alpha1.InfoImpactLevel, hypershift.ClusterVersionUpgradeable, upgradeable.LastTransitionTime,
		fmt.Sprintf("The guest cluster is not upgradeable: %s. HyperShift will not start a minor update until it is, unless forced with the annotation %s; patch updates are not held.", quoted, hypershift.ForceUpgradeToAnnotation))
}

// minorUnderWay says a minor update is requested or under way. A requested
// one's version is not known here (HyperShift reads it from the release
// image), so a request counts; an update under way is minor when its
// version's major.minor differs from the previous completed one's.
func (a *assessor) minorUnderWay() bool {
	if a.requested() {
		return true
	}
	v := a.hc.Status.Version
	if v == nil || len(v.History) < 2 || v.History[0].State != configv1.PartialUpdate {
		return false
	}
	previous := versions(v).Previous
	return previous != nil && majorMinor(previous.Version) != majorMinor(v.History[0].Version)
}

// majorMinor is "4.17" of "4.17.1".
func majorMinor(version string) string {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return version
	}
	return parts[0] + "." + parts[1]
}

// componentsProblem names the ControlPlaneComponents that have not rolled
// out the control plane's target while an update is under way: a component
// has when it reports the version and RolloutComplete True, as HyperShift
// itself judges (control-plane-operator/controllers/hostedcontrolplane/
// controlplaneversion.go reconcileControlPlaneVersion, allComponentsAtVersion;
// support/controlplane-component/status.go sets the version only once the
// rollout completes). The rollout of management-side components is part of
// every update, so this is Info while the update is within its estimate and
// a Warning past it, never an Error by itself.
func (a *assessor) componentsProblem(components []*hypershift.ControlPlaneComponent) (insightsv1alpha1.HostedProblem, bool) {
	v := a.hc.Status.Version
	if v == nil || len(v.History) == 0 || v.History[0].State != configv1.PartialUpdate {
		return insightsv1alpha1.HostedProblem{}, false
	}
	cpv := &a.hc.Status.ControlPlaneVersion
	target := cpv.Desired.Version
	if target == "" {
		target = v.Desired.Version
	}
	if target == "" {
		return insightsv1alpha1.HostedProblem{}, false
	}

	var pending []string
	for _, c := range components {
		rollout := meta.FindStatusCondition(c.Status.Conditions, hypershift.ControlPlaneComponentRolloutComplete)
		if c.Status.Version == target && rollout != nil && rollout.Status == metav1.ConditionTrue {
			continue
		}
		// Each part is cut before it is folded onto one line: folding
		// reads all of a string, and a component's message is another
		// component's to bound.
		detail := "no version yet"
		if c.Status.Version != "" {
			detail = "at " + text.Truncate(c.Status.Version, maxComponentDetail)
		}
		if rollout == nil {
			detail += ", no RolloutComplete condition"
		} else {
			detail += fmt.Sprintf(", RolloutComplete=%s (%s): %s", text.Truncate(string(rollout.Status), 16),
				text.Truncate(rollout.Reason, maxComponentDetail), text.Truncate(rollout.Message, maxComponentDetail))
		}
		pending = append(pending, text.OneLine(text.Truncate(c.Name, maxComponentDetail)+": "+detail, maxComponentDetail))
	}
	sort.Strings(pending)

	// status.controlPlaneVersion is written by newer HyperShift only
	// (hostedcluster_controller.go propagateControlPlaneVersion); without
	// it, nothing is said of it.
	var cpvPartial *hypershift.ControlPlaneUpdateHistory
	if len(cpv.History) > 0 && cpv.History[0].State == configv1.PartialUpdate {
		cpvPartial = &cpv.History[0]
	}
	if len(pending) == 0 && cpvPartial == nil {
		return insightsv1alpha1.HostedProblem{}, false
	}

	var b strings.Builder
	if len(pending) > 0 {
		fmt.Fprintf(&b, "%d of %d control plane components have not rolled out %s: %s.", len(pending), len(components),
			text.Truncate(target, insightsv1alpha1.VersionMaxLength), strings.Join(pending, "; "))
	}
	var since metav1.Time
	if cpvPartial != nil {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "The HostedCluster's status.controlPlaneVersion says the rollout of %s, started at %s, is not complete.",
			text.Truncate(cpvPartial.Version, insightsv1alpha1.VersionMaxLength), cpvPartial.StartedTime.UTC().Format(time.RFC3339))
		since = cpvPartial.StartedTime
	}
	level := insightsv1alpha1.InfoImpactLevel
	if a.remaining != nil && *a.remaining < 0 {
		level = insightsv1alpha1.WarningImpactLevel
	}
	where := fmt.Sprintf("the ControlPlaneComponents of namespace %s", hypershift.ControlPlaneNamespace(a.hc.Namespace, a.hc.Name))
	return a.problem(level, reasonComponentsNotRolledOut, since, text.Cut(b.String(), maxMessageLength, where)), true
}

// problem makes a problem, dated by the object behind it when it says, else
// by when it was first seen: the previous status's problem of that reason,
// or now.
func (a *assessor) problem(level insightsv1alpha1.InsightImpactLevel, reason string, since metav1.Time, message string) insightsv1alpha1.HostedProblem {
	p := insightsv1alpha1.HostedProblem{Level: level, Reason: reason, Message: text.Truncate(message, maxMessageLength)}
	switch {
	case !since.IsZero():
		p.Since = since.DeepCopy()
	default:
		p.Since = timePtr(a.now)
		for i := range a.prev.Problems {
			if prev := &a.prev.Problems[i]; prev.Reason == reason && prev.Since != nil {
				p.Since = prev.Since.DeepCopy()
				break
			}
		}
	}
	return p
}

// quote bounds a message of the HostedCluster's condition of type t, saying
// where the whole of it is when it is cut.
func (a *assessor) quote(message, t string) string {
	// Every quote is followed by a sentence of ours: its own full stop
	// would make two.
	message = strings.TrimSuffix(strings.TrimSpace(message), ".")
	if message == "" {
		return "(no message)"
	}
	return text.Cut(text.OneLine(text.Truncate(message, 4*maxQuoted), 4*maxQuoted), maxQuoted, a.where+" status.conditions["+t+"]")
}

// quoteReason bounds an upstream condition reason quoted in a message.
func quoteReason(reason string) string {
	if reason == "" {
		return "none"
	}
	return text.OneLine(text.Truncate(reason, 512), 128)
}

// worstNodePoolProblem is the most serious Warning-or-worse problem of the
// NodePools, the first of them among equals, saying how many more there are.
func worstNodePoolProblem(pools []insightsv1alpha1.NodePoolProgressInsightStatus) (insightsv1alpha1.HostedProblem, bool) {
	var worst *insightsv1alpha1.HostedProblem
	more := 0
	for i := range pools {
		for j := range pools[i].Problems {
			p := &pools[i].Problems[j]
			if insightsv1alpha1.ImpactLevelRank(p.Level) > insightsv1alpha1.ImpactLevelRank(insightsv1alpha1.WarningImpactLevel) {
				continue
			}
			if worst != nil {
				more++
			}
			if worst == nil || insightsv1alpha1.ImpactLevelRank(p.Level) < insightsv1alpha1.ImpactLevelRank(worst.Level) {
				worst = p
			}
		}
	}
	if worst == nil {
		return insightsv1alpha1.HostedProblem{}, false
	}
	out := *worst.DeepCopy()
	out.Message = "A NodePool: " + out.Message
	suffix := ""
	if more > 0 {
		suffix = fmt.Sprintf(" (and %d more NodePool problems)", more)
	}
	out.Message = text.Truncate(out.Message, maxMessageLength-len(suffix)) + suffix
	out.Reason = text.Truncate(out.Reason, maxReasonLength)
	if out.Reason == "" {
		out.Reason = "NodePoolProblem"
	}
	return out, true
}

// sortProblems orders problems the most serious first, keeping the order
// among equals.
func sortProblems(ps []insightsv1alpha1.HostedProblem) []insightsv1alpha1.HostedProblem {
	out := append([]insightsv1alpha1.HostedProblem(nil), ps...)
	sort.SliceStable(out, func(i, j int) bool {
		return insightsv1alpha1.ImpactLevelRank(out[i].Level) < insightsv1alpha1.ImpactLevelRank(out[j].Level)
	})
	return out
}

// bound sorts problems and keeps what the API takes: beyond the 16th, the
// last kept says how many were cut, at the level of the worst of them, and
// their reasons.
func bound(ps []insightsv1alpha1.HostedProblem) []insightsv1alpha1.HostedProblem {
	ps = sortProblems(ps)
	if len(ps) <= maxProblems {
		return ps
	}
	kept, cut := ps[:maxProblems-1], ps[maxProblems-1:]
	reasons := make([]string, 0, len(cut))
	for _, p := range cut {
		reasons = append(reasons, p.Reason)
	}
	marker := insightsv1alpha1.HostedProblem{
		Level:   cut[0].Level,
		Reason:  reasonMoreProblems,
		Message: text.Truncate(fmt.Sprintf("%d more problems not shown, of reasons: %s", len(cut), strings.Join(reasons, ", ")), maxMessageLength),
	}
	return append(kept, marker)
}
