package precheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// The uids of the findings about the ClusterVersion; a risk's is
// riskUIDPrefix and its name.
const (
	uidNoClusterVersion = "cluster-version-missing"
	uidFailing          = "cluster-failing"
	uidInProgress       = "update-in-progress"
	uidNotUpgradeable   = "not-upgradeable"
	uidNotOffered       = "not-offered"
	uidAlreadyThere     = "already-at-target"
	uidDowngrade        = "downgrade"
	uidStaleOffer       = "cannot-retrieve-updates"
	riskUIDPrefix       = "risk/"
)

const (
	// conditionFailing says the cluster-version operator cannot reconcile
	// the release; openshift/api has no constant for it.
	conditionFailing = configv1.ClusterStatusConditionType("Failing")
	// conditionalUpdateRiskApplies says whether a conditional update risk
	// applies to this cluster.
	conditionalUpdateRiskApplies = "Applies"
	// conditionRecommended says whether a conditional update is
	// recommended for this cluster.
	conditionRecommended = "Recommended"
)

func clusterVersionMissing(in *Input) []insightsv1alpha1.UpdateInsight {
	if in.ClusterVersion != nil {
		return nil
	}
	return []insightsv1alpha1.UpdateInsight{finding{
		uid: uidNoClusterVersion, level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
		scope:   controlPlane(clusterVersionResource()),
		summary: "The cluster has no ClusterVersion: nothing can be said of an update, and nothing would perform it",
	}.insight(in.Now)}
}

// clusterFailing: the cluster-version operator cannot reconcile the release
// the cluster runs, so it would not take a new one well either.
func clusterFailing(in *Input) []insightsv1alpha1.UpdateInsight {
	cv := in.ClusterVersion
	if cv == nil {
		return nil
	}
	f := finding{uid: uidFailing, scope: controlPlane(clusterVersionResource())}
	switch c := v1helpers.FindStatusCondition(cv.Status.Conditions, conditionFailing); {
	case c == nil:
		f.level, f.impact = insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.UnknownImpactType
		f.summary = "The ClusterVersion does not say whether the cluster is failing (no Failing condition)"
		f.description = "`oc describe clusterversion` may say why the cluster-version operator reports no Failing condition."
	case c.Status == configv1.ConditionFalse:
		return nil
	default:
		f.level, f.impact = insightsv1alpha1.ErrorInsightLevel, insightsv1alpha1.UpdateStalledImpactType
		f.summary = fmt.Sprintf("The cluster is failing (Failing=%s, %s)", c.Status, c.Reason)
		f.description = c.Message
	}
	return []insightsv1alpha1.UpdateInsight{f.insight(in.Now)}
}

// updateInProgress: a new update waits for the one in progress, or is it.
// Like oc's recommend, it quotes the ClusterVersion's Progressing message,
// which says what the cluster is working towards and how far it is.
func updateInProgress(in *Input) []insightsv1alpha1.UpdateInsight {
	cv := in.ClusterVersion
	if cv == nil || !updatestatus.Pending(cv) {
		return nil
	}
	desired := cv.Status.Desired.Version
	f := finding{
		uid: uidInProgress, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UpdateSpeedImpactType,
		scope: controlPlane(clusterVersionResource()),
	}
	progress := ""
	if c := v1helpers.FindStatusCondition(cv.Status.Conditions, configv1.OperatorProgressing); c != nil && c.Status == configv1.ConditionTrue && c.Message != "" {
		progress = " (" + strings.TrimSuffix(firstLine(c.Message), ".") + ")"
	}
	if desired == in.Target {
		f.level, f.impact = insightsv1alpha1.InfoInsightLevel, insightsv1alpha1.NoneImpactType
		f.summary = fmt.Sprintf("The update to %s is already in progress%s", in.Target, progress)
	} else {
		f.summary = fmt.Sprintf("An update to %s is in progress%s: let it complete before updating to %s", orUnknown(desired), progress, in.Target)
		f.description = "Changing the target of an update in progress leaves the cluster part on one release and part on another until the new update completes."
	}
	return []insightsv1alpha1.UpdateInsight{f.insight(in.Now)}
}

// notUpgradeable: Upgradeable=False blocks minor and major updates; patch
// updates proceed regardless. The rule is the cluster-version operator's
// Upgradeable precondition (pkg/payload/precondition/clusterversion/
// upgradeable.go): from the current release (CurrentRelease), a target at
// or below it, or of the same major.minor, is not blocked; a current
// release that does not parse is a warning that blocks nothing
// (InvalidCurrentVersion), a target that does not parse is blocked
// (InvalidDesiredVersion). The warning it records when a patch update
// retargets a minor update in progress is updateInProgress' finding.
func notUpgradeable(in *Input) []insightsv1alpha1.UpdateInsight {
	cv := in.ClusterVersion
	if cv == nil {
		return nil
	}
	c := v1helpers.FindStatusCondition(cv.Status.Conditions, configv1.OperatorUpgradeable)
	if c == nil || c.Status != configv1.ConditionFalse {
		return nil
	}
	current, errCurrent := semver.Parse(CurrentRelease(cv))
	target, errTarget := semver.Parse(in.Target)
	f := finding{
		uid: uidNotUpgradeable, level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
		scope:       controlPlane(clusterVersionResource()),
		description: c.Message,
	}
	switch {
	case errCurrent != nil:
		f.level, f.impact = insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.UnknownImpactType
		f.summary = fmt.Sprintf("Upgradeable=False (%s), which blocks minor updates, but the cluster's release %q is not a version: "+
			"the cluster-version operator does not hold the update to %s back on it (InvalidCurrentVersion)", c.Reason, CurrentRelease(cv), in.Target)
	case errTarget != nil:
		f.summary = fmt.Sprintf("Upgradeable=False (%s), and %q is not a version: the cluster-version operator will not start the update (InvalidDesiredVersion)",
			c.Reason, in.Target)
	case !newerMinor(current, target):
		return nil
	default:
		f.summary = fmt.Sprintf("Upgradeable=False (%s): the cluster-version operator will not start the minor update from %d.%d to %d.%d",
			c.Reason, current.Major, current.Minor, target.Major, target.Minor)
	}
	return []insightsv1alpha1.UpdateInsight{f.insight(in.Now)}
}

// notOffered: the target should be an update the cluster's channel offers;
// a conditional one carries the risks an administrator accepts first.
func notOffered(in *Input) []insightsv1alpha1.UpdateInsight {
	cv := in.ClusterVersion
	if cv == nil {
		return nil
	}
	if !updatestatus.Pending(cv) && cv.Status.Desired.Version == in.Target {
		return []insightsv1alpha1.UpdateInsight{finding{
			uid: uidAlreadyThere, level: insightsv1alpha1.InfoInsightLevel, impact: insightsv1alpha1.NoneImpactType,
			scope:   controlPlane(clusterVersionResource()),
			summary: fmt.Sprintf("The cluster already runs %s", in.Target),
		}.insight(in.Now)}
	}
	if cv.Status.Desired.Version == in.Target {
		// The update to it is in progress: updateInProgress says so, and
		// the offered updates are those from it.
		return nil
	}
	if current, err := semver.Parse(CurrentRelease(cv)); err == nil {
		if target, err := semver.Parse(in.Target); err == nil && target.LT(current) {
			return []insightsv1alpha1.UpdateInsight{downgrade(in, current, target)}
		}
	}
	for _, r := range cv.Status.AvailableUpdates {
		if r.Version == in.Target {
			return staleOffer(in)
		}
	}
	for i := range cv.Status.ConditionalUpdates {
		if u := &cv.Status.ConditionalUpdates[i]; u.Release.Version == in.Target {
			return append(staleOffer(in), conditionalRisks(in, u)...)
		}
	}
	f := finding{
		uid: uidNotOffered, level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
		scope:   controlPlane(clusterVersionResource()),
		summary: fmt.Sprintf("%s is not an update offered to this cluster in channel %q", in.Target, cv.Spec.Channel),
		description: "The update service offers neither a recommended nor a conditional update to this release. " +
			"An update to it is not supported from this version, or the channel does not carry it.",
	}
	if c := v1helpers.FindStatusCondition(cv.Status.Conditions, configv1.RetrievedUpdates); c != nil && c.Status != configv1.ConditionTrue {
		f.description += fmt.Sprintf(" The cluster cannot retrieve its updates (%s): %s", c.Reason, c.Message)
	}
	return []insightsv1alpha1.UpdateInsight{f.insight(in.Now)}
}

// staleOffer: while the cluster-version operator cannot retrieve the
// updates, the ones it offers are those it last retrieved: the update
// service may no longer recommend the target, or know new risks of it.
// `oc adm upgrade recommend` (pkg/cli/admin/upgrade/recommend/recommend.go)
// warns "Cannot refresh available updates" whenever RetrievedUpdates is
// there and not True, an issue (CannotRetrieveUpdates) to accept.
func staleOffer(in *Input) []insightsv1alpha1.UpdateInsight {
	c := v1helpers.FindStatusCondition(in.ClusterVersion.Status.Conditions, configv1.RetrievedUpdates)
	if c == nil || c.Status == configv1.ConditionTrue {
		return nil
	}
	state := fmt.Sprintf("RetrievedUpdates=%s", c.Status)
	if c.Reason != "" {
		state += ", " + c.Reason
	}
	return []insightsv1alpha1.UpdateInsight{finding{
		uid: uidStaleOffer, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
		scope:   controlPlane(clusterVersionResource()),
		summary: fmt.Sprintf("The cluster cannot refresh its available updates (%s): the offer of %s may be stale", state, in.Target),
		description: fmt.Sprintf("%s\nThe update to %s is offered from what the cluster-version operator last retrieved of the update service: "+
			"since then, the service may have stopped recommending it, or learned of risks this cluster does not know of. "+
			"`oc adm upgrade` says when the updates can be retrieved again; until then, check the release's errata and known issues by hand.",
			c.Message, in.Target),
	}.insight(in.Now)}
}

// downgrade: a target below the current release is never offered, and
// the cluster-version operator's Rollback precondition
// (pkg/payload/precondition/clusterversion/rollback.go) refuses it
// (LowDesiredVersion) unless it is the cluster's previous release within
// the same z-stream: the first history entry that is not the current
// release.
func downgrade(in *Input, current, target semver.Version) insightsv1alpha1.UpdateInsight {
	cv := in.ClusterVersion
	which := "which the cluster runs"
	if updatestatus.Pending(cv) {
		which = "the release the cluster is updating to"
	}
	f := finding{
		uid: uidDowngrade, level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
		scope:   controlPlane(clusterVersionResource()),
		summary: fmt.Sprintf("%s is older than %s, %s: it is not offered, and downgrades are not supported", in.Target, current, which),
		description: "OpenShift updates only forward. A release older than the current one, even an older z-stream of the same minor, " +
			"is never offered. ",
	}
	previous, ok := previousRelease(cv, current)
	switch {
	case ok && previous.EQ(target) && previous.Major == current.Major && previous.Minor == current.Minor:
		f.description += fmt.Sprintf("The cluster-version operator would take it, as a rollback to the cluster's previous release %s within the z-stream, "+
			"but such a rollback is not supported.", previous)
	case ok:
		f.description += fmt.Sprintf("The cluster-version operator refuses it (LowDesiredVersion): the only rollback it takes is to the cluster's "+
			"previous release, %s, within the same minor.", previous)
	default:
		f.description += "The cluster-version operator refuses it (LowDesiredVersion): the cluster has no previous release to roll back to."
	}
	return f.insight(in.Now)
}

// previousRelease is the release before the current one, as the
// cluster-version operator's Rollback precondition finds it: the first
// history entry whose version or image is not the desired one; false when
// there is none, or it does not parse.
func previousRelease(cv *configv1.ClusterVersion, current semver.Version) (semver.Version, bool) {
	for _, h := range cv.Status.History {
		if h.Version != current.String() || h.Image != cv.Status.Desired.Image {
			v, err := semver.Parse(h.Version)
			return v, err == nil
		}
	}
	return semver.Version{}, false
}

// conditionalRisks are the risks of a conditional update that apply to the
// cluster: those the cluster-version operator asks to accept. A risk that
// may apply, but of which that cannot be told, is a warning: an error-level
// finding makes an administrator accept a risk, and `upgrade` writes it into
// the ClusterVersion, so it is raised only for a risk known to apply.
func conditionalRisks(in *Input, u *configv1.ConditionalUpdate) []insightsv1alpha1.UpdateInsight {
	recommended := meta.FindStatusCondition(u.Conditions, conditionRecommended)
	if recommended != nil && recommended.Status == metav1.ConditionTrue {
		return nil
	}
	risks := slices.Clone(u.Risks)
	for _, r := range in.ClusterVersion.Status.ConditionalUpdateRisks {
		if slices.Contains(u.RiskNames, r.Name) && !slices.ContainsFunc(risks, func(known configv1.ConditionalUpdateRisk) bool { return known.Name == r.Name }) {
			risks = append(risks, r)
		}
	}
	var out []insightsv1alpha1.UpdateInsight
	for _, r := range risks {
		f := finding{
			uid: riskUIDPrefix + r.Name, level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
			scope:       controlPlane(clusterVersionResource()),
			summary:     fmt.Sprintf("Conditional update risk %s applies to the update to %s: %s", r.Name, in.Target, firstLine(r.Message)),
			description: r.Message,
			reference:   r.URL,
		}
		switch applies, why := riskApplies(r, recommended); applies {
		case doesNotApply:
			continue
		case undecided:
			f.level = insightsv1alpha1.WarningInsightLevel
			f.summary = fmt.Sprintf("Whether conditional update risk %s applies to the update to %s is not known: %s", r.Name, in.Target, firstLine(r.Message))
			f.description = fmt.Sprintf("%s\n\nThe cluster-version operator could not tell whether the risk applies to this cluster: %s", r.Message, why)
		}
		out = append(out, f.insight(in.Now))
	}
	if len(out) == 0 && recommended != nil {
		// Not recommended, for a reason no risk names. That the update is
		// not recommended is certain when the condition is False; when it is
		// Unknown, the evaluation failed and nothing is known to apply.
		f := finding{
			uid: riskUIDPrefix + recommended.Reason, level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
			scope:       controlPlane(clusterVersionResource()),
			summary:     fmt.Sprintf("The update to %s is not recommended (%s): %s", in.Target, recommended.Reason, firstLine(recommended.Message)),
			description: recommended.Message,
		}
		if recommended.Status != metav1.ConditionFalse {
			f.level = insightsv1alpha1.WarningInsightLevel
			f.summary = fmt.Sprintf("Whether the update to %s is recommended is not known (%s): %s", in.Target, recommended.Reason, firstLine(recommended.Message))
		}
		out = append(out, f.insight(in.Now))
	}
	return out
}

// applicability is whether a conditional update risk applies to the
// cluster.
type applicability int

const (
	doesNotApply applicability = iota
	applies
	undecided
)

// riskApplies tells whether a risk of an update that is not recommended
// applies, and when that is undecided, why.
//
// A risk's own Applies condition says so where the cluster-version operator
// writes one. Before it did, only the update's Recommended condition tells,
// as the operator's evaluateConditionalUpdate (pkg/cvo/availableupdates.go)
// writes it: every risk that applies adds "<message> <url>" to the
// condition's message (paragraphs joined by blank lines), and makes its
// name the reason when it is the only one (MultipleReasons otherwise); a
// risk it could not evaluate adds "Could not evaluate exposure to update
// risk <name> (<error>)" (before 99032b27, 4.14: "Exposure to <name> is
// unknown due to an evaluation failure: <error>\n<message> <url>", which
// holds the "<message> <url>" of a risk that applies, so it is looked for
// first) and makes the status Unknown. A risk the condition does not name
// was evaluated, and does not apply.
func riskApplies(r configv1.ConditionalUpdateRisk, recommended *metav1.Condition) (applicability, string) {
	if c := meta.FindStatusCondition(r.Conditions, conditionalUpdateRiskApplies); c != nil {
		switch c.Status {
		case metav1.ConditionTrue:
			return applies, ""
		case metav1.ConditionFalse:
			return doesNotApply, ""
		default:
			return undecided, fmt.Sprintf("%s: %s", c.Reason, c.Message)
		}
	}
	switch {
	case recommended == nil:
		return undecided, "the update has no Recommended condition"
	case recommended.Reason == r.Name:
		return applies, ""
	}
	for _, unknown := range []string{"Could not evaluate exposure to update risk " + r.Name + " ", "Exposure to " + r.Name + " is unknown due to an evaluation failure: "} {
		if i := strings.Index(recommended.Message, unknown); i >= 0 {
			return undecided, firstLine(recommended.Message[i:])
		}
	}
	if strings.Contains(recommended.Message, r.Message+" "+r.URL) {
		return applies, ""
	}
	return doesNotApply, ""
}

// clusterOperators: an unavailable operator is one more to fail during the
// update; a degraded one may keep it from completing.
func clusterOperators(in *Input) []insightsv1alpha1.UpdateInsight {
	var out []insightsv1alpha1.UpdateInsight
	for _, co := range in.ClusterOperators {
		resource := insightsv1alpha1.InsightResource{Group: configv1.GroupName, Kind: "ClusterOperator", Name: co.Name}
		if c := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable); c != nil && c.Status == configv1.ConditionFalse {
			out = append(out, finding{
				uid: "clusteroperator/" + co.Name + "/unavailable", level: insightsv1alpha1.ErrorInsightLevel, impact: insightsv1alpha1.APIAvailabilityImpactType,
				scope:       controlPlane(resource),
				summary:     fmt.Sprintf("Cluster operator %s is not available (%s)", co.Name, c.Reason),
				description: c.Message,
			}.insight(in.Now))
		}
		if c := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorDegraded); c != nil && c.Status == configv1.ConditionTrue {
			out = append(out, finding{
				uid: "clusteroperator/" + co.Name + "/degraded", level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
				scope:       controlPlane(resource),
				summary:     fmt.Sprintf("Cluster operator %s is degraded (%s)", co.Name, c.Reason),
				description: c.Message,
			}.insight(in.Now))
		}
	}
	return out
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown version"
	}
	return s
}
