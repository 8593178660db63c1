package planview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CheckVersion refuses a target that is not a release version: a semantic
// version, as `oc adm upgrade --to` requires one (semver.Parse in Complete,
// pkg/cli/admin/upgrade/upgrade.go of openshift/oc) and as the
// cluster-version operator parses the versions of releases. Nothing else
// names a release an UpdatePlan or a ClusterVersion can be about.
func CheckVersion(target string) error {
	if _, err := semver.Parse(target); err != nil {
		return fmt.Errorf("--to %q is not a release version such as 4.17.3 or 4.18.0-ec.2 (%v)", target, err)
	}
	return nil
}

// Offered says whether the cluster is offered an update to target: in
// status.availableUpdates, or in status.conditionalUpdates, recommended or
// not.
func Offered(cv *configv1.ClusterVersion, target string) bool {
	return slices.ContainsFunc(cv.Status.AvailableUpdates, func(r configv1.Release) bool { return r.Version == target }) ||
		slices.ContainsFunc(cv.Status.ConditionalUpdates, func(u configv1.ConditionalUpdate) bool { return u.Release.Version == target })
}

// NotOffered is the sentence that says target is not offered, and what is;
// empty when it is offered.
func NotOffered(cv *configv1.ClusterVersion, target string) string {
	if Offered(cv, target) {
		return ""
	}
	return fmt.Sprintf("%s is not an update offered to this cluster: upgrade refuses it until it is. %s", target, Offers(cv))
}

// Offers says which releases the cluster is offered, as `oc adm upgrade`
// lists them: the recommended updates (status.availableUpdates), then the
// conditional updates that are not, each list newest first. It says too
// when the cluster cannot retrieve its updates, for what it is offered
// may then be out of date.
func Offers(cv *configv1.ClusterVersion) string {
	var recommended, other []configv1.Release
	labels := map[string]string{}
	for _, r := range cv.Status.AvailableUpdates {
		recommended = append(recommended, r)
		labels[r.Version] = "recommended"
	}
	for _, u := range cv.Status.ConditionalUpdates {
		if _, ok := labels[u.Release.Version]; ok {
			continue
		}
		switch c := meta.FindStatusCondition(u.Conditions, "Recommended"); {
		case c == nil:
			labels[u.Release.Version] = "conditional, no Recommended condition"
		case c.Status == metav1.ConditionTrue:
			labels[u.Release.Version] = "recommended"
		case c.Status == metav1.ConditionFalse:
			labels[u.Release.Version] = "not recommended: " + c.Reason
		default:
			labels[u.Release.Version] = fmt.Sprintf("Recommended=%s: %s", c.Status, c.Reason)
		}
		other = append(other, u.Release)
	}
	var list []string
	for _, releases := range [][]configv1.Release{recommended, other} {
		slices.SortStableFunc(releases, newestFirst)
		for _, r := range releases {
			list = append(list, fmt.Sprintf("%s (%s)", r.Version, labels[r.Version]))
		}
	}
	offered := "no update"
	if len(list) > 0 {
		offered = strings.Join(list, ", ")
	}
	s := fmt.Sprintf("The cluster is offered %s.", offered)
	if cv.Spec.Channel != "" {
		s = fmt.Sprintf("In channel %q, the cluster is offered %s.", cv.Spec.Channel, offered)
	}
	if c := v1helpers.FindStatusCondition(cv.Status.Conditions, configv1.RetrievedUpdates); c != nil && c.Status != configv1.ConditionTrue {
		s += fmt.Sprintf(" It cannot retrieve its updates (RetrievedUpdates=%s, %s): %s", c.Status, c.Reason, strings.TrimSuffix(firstLine(c.Message), "."))
		s = strings.TrimSuffix(s, ": ") + "."
	}
	return s
}

// WithOffers completes the refusal of a target with the releases the
// cluster is offered, or with why they cannot be listed: readErr, the error
// reading the ClusterVersion.
func WithOffers(refusal error, cv *configv1.ClusterVersion, readErr error) error {
	if readErr != nil {
		return fmt.Errorf("%w. The releases offered cannot be listed: %v", refusal, readErr)
	}
	return fmt.Errorf("%w. %s", refusal, Offers(cv))
}

// newestFirst orders releases as oc's sortReleasesBySemanticVersions: the
// newest version first, versions that do not parse after those that do.
func newestFirst(a, b configv1.Release) int {
	va, errA := semver.Parse(a.Version)
	vb, errB := semver.Parse(b.Version)
	switch {
	case errA == nil && errB == nil:
		return vb.Compare(va)
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return strings.Compare(b.Version, a.Version)
}
