package olm

import (
	"fmt"
	"strings"

	"github.com/blang/semver/v4"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// incompatible: an operator that declares an olm.maxOpenShiftVersion below
// the target's minor release, or an invalid one, makes OLM report
// Upgradeable=False (IncompatibleOperatorsInstalled), which keeps the
// cluster-version operator from starting a minor update; a patch update
// proceeds regardless. OLM counts every CSV that is not a copy, whatever
// its phase (incompatibleOperators lists them all): an old CSV being
// replaced blocks until OLM deletes it.
func incompatible(in PlanInput) []finding {
	target, err := semver.ParseTolerant(in.Target)
	if err != nil {
		return nil
	}
	current, err := semver.ParseTolerant(in.Current)
	if err != nil || (target.Major == current.Major && target.Minor <= current.Minor) || target.Major < current.Major {
		return nil
	}
	targetMinor := fmt.Sprintf("%d.%d", target.Major, target.Minor)
	// need is what OLM compares an operator's normalized max with on the
	// last hop to the target. Supporting the target's minor release
	// suffices, unless need is beyond it: 5.1 from 4.23 to 5.0, which OLM
	// counts as one release.
	need := required(current, target)
	beyondTarget := need.GT(normalize(target))
	needMinor := targetMinor
	if beyondTarget {
		needMinor = fmt.Sprintf("%d.%d", need.Major, need.Minor)
	}
	var out []finding
	for _, csv := range in.installed() {
		max, err := MaxOpenShiftVersion(csv)
		if err == nil && (max == nil || !normalize(*max).LT(need)) {
			continue
		}
		sub := in.subscriptionOf(csv)
		f := finding{
			uid: uid("max-openshift-version", csv.Namespace, csv.Name), level: insightsv1alpha1.ErrorInsightLevel,
			impact: insightsv1alpha1.UpdateStalledImpactType, resources: resourcesOf(csv, sub),
		}
		// what to do, and until when OLM blocks: while it replaces the
		// CSV, what to do is wait.
		what, until := remedy(csv, sub, in.waitingPlan(sub), needMinor), ""
		if u, replacing, ok := in.replacement(csv, sub, need, needMinor); ok {
			until = "until it deletes this CSV, " + u
			if replacing != "" {
				what = replacing
			} else {
				what = replacementUnknown(csv) + "\n" + what
			}
		}
		if err != nil {
			f.summary = fmt.Sprintf("Operator %s declares an invalid olm.maxOpenShiftVersion: OLM blocks every minor update, %s among them", operatorName(csv), targetMinor)
			if until != "" {
				f.summary += ", " + until
			}
			f.description = fmt.Sprintf("OLM cannot read the newest OpenShift release the operator supports (%v), and so sets Upgradeable=False "+
				"(IncompatibleOperatorsInstalled) on its ClusterOperator operator-lifecycle-manager: the cluster-version operator will not start a minor update.\n%s",
				err, what)
		} else {
			supports := fmt.Sprintf("supports OpenShift up to %d.%d", max.Major, max.Minor)
			if beyondTarget && normalize(*max).EQ(normalize(current)) {
				supports += ", which OLM counts as the release the cluster runs"
			}
			f.summary = fmt.Sprintf("Operator %s %s: OLM blocks the update to %s", operatorName(csv), supports, targetMinor)
			if until != "" {
				f.summary += " " + until
			}
			f.description = fmt.Sprintf("The operator declares olm.maxOpenShiftVersion %d.%d. %s, OLM sets Upgradeable=False "+
				"(IncompatibleOperatorsInstalled) on its ClusterOperator operator-lifecycle-manager, and the cluster-version operator then starts "+
				"patch updates only: the cluster cannot reach %s.\n%s", max.Major, max.Minor, runningText(*max), targetMinor, what)
		}
		out = append(out, f)
	}
	return out
}

// replacement: OLM counts an old CSV it is replacing (Replacing) or has
// replaced (Deleting) until it deletes it, and it deletes it once the
// replacement succeeded (transitionCSVState in
// pkg/controller/operators/olm/operator.go of operator-lifecycle-manager).
// ok says whether csv is such a CSV, until how the summary ends. text
// says where the replacement is, when its Subscription names it (as its
// current CSV): what it waits for, and whether the replacement supports
// need; empty when the replacement is not known.
func (c Cluster) replacement(csv *operatorsv1alpha1.ClusterServiceVersion, sub *operatorsv1alpha1.Subscription,
	need semver.Version, needMinor string) (until, text string, ok bool) {
	var deleting bool
	switch csv.Status.Phase {
	case operatorsv1alpha1.CSVPhaseReplacing:
		until = "which it is replacing"
	case operatorsv1alpha1.CSVPhaseDeleting:
		until, deleting = "which it replaced", true
	default:
		return "", "", false
	}
	if sub == nil || sub.Status.CurrentCSV == "" || sub.Status.CurrentCSV == csv.Name {
		return until, "", true
	}
	next := sub.Status.CurrentCSV
	const absent = "not created yet"
	phase := absent
	var nextMax *semver.Version
	var nextErr error
	if n := c.csv(csv.Namespace, next); n != nil {
		phase = "now " + phaseOf(n)
		nextMax, nextErr = MaxOpenShiftVersion(n)
	}
	var b strings.Builder
	if deleting {
		fmt.Fprintf(&b, "OLM counts every CSV but its copies, in any phase: it replaced this one with %s, %s, by Subscription %s/%s, and deletes it. "+
			"The block clears once it is gone.", next, phase, sub.Namespace, sub.Name)
	} else {
		fmt.Fprintf(&b, "OLM counts every CSV but its copies, in any phase: it is replacing this one with %s, %s, by Subscription %s/%s. "+
			"The operator's update is under way, and the block clears when OLM deletes the old CSV, which it does once %s has succeeded.",
			next, phase, sub.Namespace, sub.Name, next)
	}
	switch {
	case phase == absent:
	case nextErr != nil:
		fmt.Fprintf(&b, " %s declares an invalid olm.maxOpenShiftVersion: see its own finding.", next)
	case nextMax == nil || !normalize(*nextMax).LT(need):
		fmt.Fprintf(&b, " %s supports %s.", next, needMinor)
	default:
		fmt.Fprintf(&b, " %s does not support %s either: see its own finding.", next, needMinor)
	}
	return until, b.String(), true
}

// replacementUnknown says that OLM replaces csv by a CSV no Subscription
// names.
func replacementUnknown(csv *operatorsv1alpha1.ClusterServiceVersion) string {
	if csv.Status.Phase == operatorsv1alpha1.CSVPhaseDeleting {
		return "OLM counts every CSV but its copies, in any phase: it replaced this one, and deletes it. The block clears once it is gone."
	}
	return "OLM counts every CSV but its copies, in any phase: it is replacing this one. The operator's update is under way, and the block " +
		"clears when OLM deletes the old CSV, which it does once its replacement has succeeded."
}

// runningText says on which clusters OLM blocks the next minor release
// for an operator whose max is max.
func runningText(max semver.Version) string {
	from := blockedFrom(max)
	switch n := normalize(max); {
	case from.EQ(max):
		return fmt.Sprintf("On a cluster running %d.%d or later", max.Major, max.Minor)
	case n.EQ(semver.Version{Major: 5}):
		return "OLM counts OpenShift 4.23 and 5.0 as one release: on a cluster running it or later"
	default:
		return fmt.Sprintf("OLM counts OpenShift 4.23 as 5.0, after %d.%d: on a cluster running 4.23 or later", max.Major, max.Minor)
	}
}

// remedy says how to make the operator support the target's minor release:
// update it through its Subscription, or remove it. waiting is the
// InstallPlan the Subscription points at when it waits for approval: OLM
// installs nothing newer, whatever the Subscription's approval, until it
// is approved.
func remedy(csv *operatorsv1alpha1.ClusterServiceVersion, sub *operatorsv1alpha1.Subscription, waiting *operatorsv1alpha1.InstallPlan, targetMinor string) string {
	remove := fmt.Sprintf("oc delete clusterserviceversion %s -n %s", csv.Name, csv.Namespace)
	if sub == nil {
		return fmt.Sprintf("Update the operator to a version that supports %s before the cluster update; no Subscription installed it, so update it "+
			"the way it was installed. Or remove it: %s.", targetMinor, remove)
	}
	channel := sub.Spec.Channel
	if channel == "" {
		channel = "its package's default channel"
	} else {
		channel = "channel " + channel
	}
	catalog := sub.Spec.CatalogSource
	if catalog == "" {
		catalog = "its catalog"
	} else {
		catalog = "catalog " + catalog
	}
	var approval string
	switch manual := approvalOf(sub) == operatorsv1alpha1.ApprovalManual; {
	case waiting != nil:
		approval = fmt.Sprintf("its next update waits in InstallPlan %s/%s (to install %s)",
			waiting.Namespace, waiting.Name, strings.Join(waiting.Spec.ClusterServiceVersionNames, ", "))
		if manual {
			approval = "its approval is Manual, and " + approval
		} else {
			approval = "its approval is Automatic, but " + approval + ", which OLM made Manual for a Manual Subscription of the namespace"
		}
		approval += fmt.Sprintf(": approve the plan if that version supports %s (%s)", targetMinor, approveCommand(waiting))
	case manual:
		approval = "its approval is Manual, so approve the InstallPlan of a version that supports " + targetMinor
	default:
		approval = "its approval is Automatic, so OLM installs a newer version as soon as the channel offers one"
	}
	return fmt.Sprintf("Update the operator to a version that supports %s before the cluster update: its Subscription %s/%s follows %s of %s, and %s; "+
		"if no version in that channel supports %s, move the Subscription to a channel that has one. Or remove the operator: "+
		"oc delete subscription %s -n %s, then %s.",
		targetMinor, sub.Namespace, sub.Name, channel, catalog, approval, targetMinor, sub.Name, sub.Namespace, remove)
}

func resourcesOf(csv *operatorsv1alpha1.ClusterServiceVersion, sub *operatorsv1alpha1.Subscription) []insightsv1alpha1.InsightResource {
	resources := []insightsv1alpha1.InsightResource{csvResource(csv)}
	if sub != nil {
		resources = append(resources, subscriptionResource(sub))
	}
	return resources
}
