package hostedupgrade

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// MaxNodePoolSkew is how many minor releases a NodePool may run behind its
// control plane (support/supportedversion/version.go ValidateVersionSkew).
const MaxNodePoolSkew = 3

// Decision is what to write, or why nothing is.
type Decision struct {
	// Image is the release image to set in spec.release.image; empty when
	// the update is refused or already asked for.
	Image string
	// Already says that spec.release.image asks for the release already.
	Already bool
	// Refusals say why the update is refused, each on its own.
	Refusals []string
	// Warnings are what the update goes ahead despite.
	Warnings []string
}

// ControlPlane decides an update of hc's control plane to target, with the
// NodePools of its namespace (those of other clusters are left out). Not
// recommended conditional updates are refused unless allowNotRecommended.
func ControlPlane(hc *hypershift.HostedClusterUpdate, nodePools []*hypershift.NodePool, target string, allowNotRecommended bool) Decision {
	var d Decision
	v := hc.Status.Version
	if v == nil {
		d.Refusals = append(d.Refusals, "the HostedCluster has no status.version yet: its control plane has reported no version, so no update is offered to it")
		return d
	}
	image, refusal, warning := offered(v, target, allowNotRecommended)
	if image != "" && image == hc.Spec.Release.Image {
		d.Already = true
		return d
	}
	if refusal != "" {
		d.Refusals = append(d.Refusals, refusal)
	}
	if warning != "" {
		d.Warnings = append(d.Warnings, warning)
	}
	d.Refusals = append(d.Refusals, held(hc)...)
	if r := upgradeable(hc, image, target); r != "" {
		d.Refusals = append(d.Refusals, r)
	}
	if r := downgrade(v.Desired.Version, target); r != "" {
		d.Refusals = append(d.Refusals, r)
	}
	r, w := skew(hc, nodePools, target)
	d.Refusals, d.Warnings = append(d.Refusals, r...), append(d.Warnings, w...)
	if len(d.Refusals) == 0 {
		d.Image = image
	}
	return d
}

// offered is the pull spec the guest is offered for target, or why it is
// not offered or not recommended. The guest's cluster-version operator
// evaluates a conditional update's risks in its Recommended condition.
func offered(v *hypershift.OfferedVersionStatus, target string, allowNotRecommended bool) (image, refusal, warning string) {
	for _, r := range v.AvailableUpdates {
		if r.Version == target && r.Image != "" {
			return r.Image, "", ""
		}
	}
	for _, u := range v.ConditionalUpdates {
		if u.Release.Version != target || u.Release.Image == "" {
			continue
		}
		recommended := meta.FindStatusCondition(u.Conditions, "Recommended")
		if recommended != nil && recommended.Status == metav1.ConditionTrue {
			return u.Release.Image, "", ""
		}
		why := fmt.Sprintf("%s is a conditional update not recommended for this cluster%s", target, risks(u, recommended))
		if !allowNotRecommended {
			return u.Release.Image, why + "; --allow-not-recommended updates to it anyway", ""
		}
		return u.Release.Image, "", why
	}
	if target == v.Desired.Version && v.Desired.Image != "" {
		// The release the control plane is at or on its way to.
		return v.Desired.Image, "", ""
	}
	return "", fmt.Sprintf("%s is not an update offered to this hosted cluster. %s", target, offers(v)), ""
}

// risks names a conditional update's risks and the guest's evaluation.
func risks(u hypershift.ConditionalUpdate, recommended *metav1.Condition) string {
	var names []string
	for _, r := range u.Risks {
		names = append(names, r.Name)
	}
	out := ""
	if len(names) > 0 {
		out = ": risks " + strings.Join(names, ", ")
	}
	switch {
	case recommended == nil:
		out += " (not evaluated yet)"
	default:
		out += fmt.Sprintf(" (Recommended=%s: %s)", recommended.Status, recommended.Message)
	}
	return out
}

// offers lists the versions offered, as oc adm upgrade does.
func offers(v *hypershift.OfferedVersionStatus) string {
	var versions []string
	for _, r := range v.AvailableUpdates {
		versions = append(versions, r.Version)
	}
	for _, u := range v.ConditionalUpdates {
		versions = append(versions, u.Release.Version+" (conditional)")
	}
	if len(versions) == 0 {
		return "No updates are offered to it."
	}
	slices.SortFunc(versions, compareOffers)
	return "Offered: " + strings.Join(versions, ", ") + "."
}

// compareOffers orders offered versions newest first, as oc lists them.
func compareOffers(a, b string) int {
	va, errA := semver.Parse(strings.TrimSuffix(a, " (conditional)"))
	vb, errB := semver.Parse(strings.TrimSuffix(b, " (conditional)"))
	if errA != nil || errB != nil {
		return strings.Compare(a, b)
	}
	return vb.Compare(va)
}

// held are the conditions under which HyperShift starts no update at all:
// isProgressing in hypershift-operator/controllers/hostedcluster/
// hostedcluster_controller.go returns Blocked while any is False.
// ValidReleaseImage is left out: it judges the image spec.release names now,
// which the update replaces; the rule it applies to the new one is
// downgrade's.
func held(hc *hypershift.HostedClusterUpdate) []string {
	var out []string
	for _, t := range []string{hypershift.SupportedHostedCluster, hypershift.ValidHostedClusterConfiguration, hypershift.ReconciliationActive} {
		if c := meta.FindStatusCondition(hc.Status.Conditions, t); c != nil && c.Status == metav1.ConditionFalse {
			out = append(out, fmt.Sprintf("HyperShift starts no update while %s is False (%s: %s)", t, c.Reason, c.Message))
		}
	}
	return out
}

// upgradeable is why HyperShift would not start a minor update while the
// guest says ClusterVersionUpgradeable=False (isUpgrading in
// hostedcluster_controller.go): a patch update, spec.controlPlaneRelease set
// and the force-upgrade-to annotation naming the image are exempt.
func upgradeable(hc *hypershift.HostedClusterUpdate, image, target string) string {
	c := meta.FindStatusCondition(hc.Status.Conditions, hypershift.ClusterVersionUpgradeable)
	if c == nil || c.Status == metav1.ConditionTrue || hc.Spec.ControlPlaneRelease != nil {
		return ""
	}
	if image != "" && hc.Annotations[hypershift.ForceUpgradeToAnnotation] == image {
		return ""
	}
	current, errC := semver.Parse(hc.Status.Version.Desired.Version)
	next, errN := semver.Parse(target)
	if errC == nil && errN == nil && current.Major == next.Major && current.Minor == next.Minor {
		return ""
	}
	return fmt.Sprintf("%s is a minor update, which HyperShift does not start while ClusterVersionUpgradeable is False (%s: %s); a patch update is allowed",
		target, c.Reason, c.Message)
}

// downgrade is why HyperShift's ValidReleaseImage would refuse target after
// current: a minor release older than the one the control plane is on
// (support/supportedversion/version.go IsValidReleaseVersion).
func downgrade(current, target string) string {
	if current == "" {
		return ""
	}
	behind, err := hosted.ReleaseMinorsBehind(current, target)
	if err != nil || behind <= 0 {
		return ""
	}
	return fmt.Sprintf("%s is a minor release older than %s, which HyperShift refuses (y-stream downgrade)", target, current)
}

// skew is why the NodePools of hc would fall out of the supported skew if
// its control plane ran target, and the NodePools whose skew cannot be
// told.
func skew(hc *hypershift.HostedClusterUpdate, nodePools []*hypershift.NodePool, target string) (refusals, warnings []string) {
	for _, np := range nodePools {
		if np.Namespace != hc.Namespace || np.Spec.ClusterName != hc.Name {
			continue
		}
		if np.Status.Version == "" {
			warnings = append(warnings, fmt.Sprintf("NodePool %s/%s reports no version yet: its skew against %s is not checked", np.Namespace, np.Name, target))
			continue
		}
		behind, err := hosted.ReleaseMinorsBehind(target, np.Status.Version)
		switch {
		case err != nil:
			warnings = append(warnings, fmt.Sprintf("NodePool %s/%s: its skew against %s is not checked: %v", np.Namespace, np.Name, target, err))
		case behind > MaxNodePoolSkew:
			refusals = append(refusals, fmt.Sprintf("NodePool %s/%s runs %s, which would be %d minor releases behind %s; HyperShift supports NodePools up to %d behind their control plane: update it first",
				np.Namespace, np.Name, np.Status.Version, behind, target, MaxNodePoolSkew))
		}
	}
	return refusals, warnings
}
