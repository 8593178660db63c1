package planview

import (
	"fmt"
	"slices"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// riskUIDPrefix starts the uid of the operator's findings that are a
// conditional update's risks; the rest of the uid is the risk's name.
const riskUIDPrefix = "risk/"

// AlreadyAt says whether the cluster already runs target, with no update
// pending: then there is nothing to update, as `oc adm upgrade` says.
func AlreadyAt(cv *configv1.ClusterVersion, target string) bool {
	return cv.Status.Desired.Version == target && !updatestatus.Pending(cv)
}

// AlreadyUpdatingTo says whether an update to target is already in
// progress. `oc adm upgrade --to` answers it as it answers AlreadyAt, since
// it compares target with status.desired alone (Run in
// pkg/cli/admin/upgrade/upgrade.go of openshift/oc): there is nothing to
// start, nor to plan, as the update began.
func AlreadyUpdatingTo(cv *configv1.ClusterVersion, target string) bool {
	return cv.Status.Desired.Version == target && updatestatus.Pending(cv)
}

// Already is the line that says the cluster runs target, or updates to it,
// with no update to start; empty when neither.
func Already(cv *configv1.ClusterVersion, target string) string {
	switch {
	case AlreadyAt(cv, target):
		return "info: Cluster is already at version " + target
	case AlreadyUpdatingTo(cv, target):
		return "info: Cluster is already updating to version " + target
	}
	return ""
}

// AcceptedRisks are the names of the conditional update risks the plan
// accepts: the operator's own accepted findings whose uid names a risk.
func AcceptedRisks(plan *insightsv1alpha1.UpdatePlan) []string {
	var out []string
	for _, f := range Findings(plan) {
		if name, ok := strings.CutPrefix(f.UID, riskUIDPrefix); ok && f.Informer == updatestatus.BuiltinInformer && f.Accepted && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// Desired is the ClusterVersion's spec.desiredUpdate an update sets, and
// what the administrator should be warned of.
type Desired struct {
	Update   configv1.Update
	Warnings []string
}

// DesiredUpdate is the desiredUpdate that updates the cluster to target, as
// `oc adm upgrade --to` sets it: the version and image of the update the
// cluster offers, recommended (status.availableUpdates) or conditional
// (status.conditionalUpdates). A conditional update that is not recommended
// takes allowNotRecommended, as oc's --allow-not-recommended; a plan that
// accepts its risks allows it too. A release offered in neither list is
// refused: the cluster-version operator would not verify it either.
//
// acceptRisks keeps the risks the desiredUpdate already accepts, as oc
// does, and adds those of acceptedRisks that this conditional update has:
// the cluster-version operator then knows the administrator accepted them.
func DesiredUpdate(cv *configv1.ClusterVersion, target string, acceptedRisks []string, allowNotRecommended bool) (Desired, error) {
	var d Desired
	if cv.Spec.DesiredUpdate != nil {
		d.Update.AcceptRisks = slices.Clone(cv.Spec.DesiredUpdate.AcceptRisks)
	}
	for _, r := range cv.Status.AvailableUpdates {
		if r.Version == target {
			d.Update.Version, d.Update.Image = r.Version, r.Image
			return d, nil
		}
	}
	i := slices.IndexFunc(cv.Status.ConditionalUpdates, func(u configv1.ConditionalUpdate) bool { return u.Release.Version == target })
	if i < 0 {
		return Desired{}, fmt.Errorf("%s is offered neither as a recommended nor as a conditional update to this cluster (channel %q)", target, cv.Spec.Channel)
	}
	u := &cv.Status.ConditionalUpdates[i]
	d.Update.Version, d.Update.Image = u.Release.Version, u.Release.Image
	if c := meta.FindStatusCondition(u.Conditions, "Recommended"); c == nil || c.Status != metav1.ConditionTrue {
		reason := "no Recommended condition"
		if c != nil {
			reason = fmt.Sprintf("Recommended=%s %s: %s", c.Status, c.Reason, firstLine(c.Message))
		}
		if !allowNotRecommended {
			return Desired{}, fmt.Errorf("the update to %s is not recommended (%s); accept its risks in the UpdatePlan, or use --allow-not-recommended", target, reason)
		}
		d.Warnings = append(d.Warnings, fmt.Sprintf("the update to %s is not recommended, and its risks are accepted (%s)", target, reason))
	}
	names := slices.Clone(u.RiskNames)
	for _, r := range u.Risks {
		names = append(names, r.Name)
	}
	for _, name := range acceptedRisks {
		if slices.Contains(names, name) && !slices.ContainsFunc(d.Update.AcceptRisks, func(a configv1.AcceptRisk) bool { return a.Name == name }) {
			d.Update.AcceptRisks = append(d.Update.AcceptRisks, configv1.AcceptRisk{Name: name})
		}
	}
	return d, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
