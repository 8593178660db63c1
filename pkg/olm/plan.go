package olm

import (
	"fmt"
	"strings"
	"time"

	"github.com/blang/semver/v4"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// PlanInput is what the findings of an UpdatePlan are made of.
type PlanInput struct {
	Cluster
	// Current is the version the cluster runs, Target the plan's.
	Current, Target string
	Now             time.Time
}

// Plan returns what OLM's operators say of updating to the target: each
// installed operator that does not support it, each operator update that
// waits for approval, each operator already unhealthy, each deprecation.
func Plan(in PlanInput) []insightsv1alpha1.UpdateInsight {
	var out []insightsv1alpha1.UpdateInsight
	for _, check := range []func(PlanInput) []finding{incompatible, awaitingApproval, unhealthy, deprecated} {
		for _, f := range check(in) {
			f.acquired = in.Now
			out = append(out, f.insight())
		}
	}
	return out
}

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
		if err != nil {
			f.summary = fmt.Sprintf("Operator %s declares an invalid olm.maxOpenShiftVersion: OLM blocks every minor update, %s among them", operatorName(csv), targetMinor)
			f.description = fmt.Sprintf("OLM cannot read the newest OpenShift release the operator supports (%v), and so sets Upgradeable=False "+
				"(IncompatibleOperatorsInstalled) on its ClusterOperator operator-lifecycle-manager: the cluster-version operator will not start a minor update.\n%s",
				err, remedy(csv, sub, in.waitingPlan(sub), needMinor))
		} else {
			supports := fmt.Sprintf("supports OpenShift up to %d.%d", max.Major, max.Minor)
			if beyondTarget && normalize(*max).EQ(normalize(current)) {
				supports += ", which OLM counts as the release the cluster runs"
			}
			what := remedy(csv, sub, in.waitingPlan(sub), needMinor)
			if until, replacing, ok := in.replacement(csv, sub, need, needMinor); ok {
				supports += ": OLM blocks the update to " + targetMinor + " until it deletes this CSV, " + until
				if replacing != "" {
					what = replacing
				} else {
					what = replacementUnknown(csv) + "\n" + what
				}
			} else {
				supports += ": OLM blocks the update to " + targetMinor
			}
			f.summary = fmt.Sprintf("Operator %s %s", operatorName(csv), supports)
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

// awaitingApproval: an InstallPlan that waits for approval holds back the
// operator updates of every Subscription that points at it, which an
// administrator usually wants installed before the cluster updates. OLM
// makes one InstallPlan for the Subscriptions of a namespace it resolves
// together, points each updated one at it, and makes it Manual when any
// Subscription of the namespace is Manual (syncResolvingNamespace and
// createInstallPlan in pkg/controller/operators/catalog/operator.go of
// operator-lifecycle-manager): an Automatic Subscription then waits behind
// its Manual neighbour. One finding per plan, whatever points at it.
func awaitingApproval(in PlanInput) []finding {
	var out []finding
	for _, plan := range sortedPlans(in.InstallPlans) {
		if !waitsForApproval(plan) {
			continue
		}
		subs := in.subscriptionsOn(plan)
		if len(subs) == 0 {
			continue
		}
		var names, described, automatic []string
		var resources []insightsv1alpha1.InsightResource
		for _, sub := range subs {
			names = append(names, sub.Name)
			described = append(described, fmt.Sprintf("%s/%s (package %s, %s approval)", sub.Namespace, sub.Name, sub.Spec.Package, approvalOf(sub)))
			if approvalOf(sub) == operatorsv1alpha1.ApprovalAutomatic {
				automatic = append(automatic, sub.Name)
			}
			resources = append(resources, subscriptionResource(sub))
		}
		csvs := strings.Join(plan.Spec.ClusterServiceVersionNames, ", ")
		var b strings.Builder
		fmt.Fprintf(&b, "InstallPlan %s/%s waits for approval to install %s, for %s %s.", plan.Namespace, plan.Name, csvs,
			plural("Subscription", len(subs)), strings.Join(described, ", "))
		if len(automatic) > 0 {
			fmt.Fprintf(&b, " OLM makes one InstallPlan for the Subscriptions of a namespace it resolves together, Manual when any Subscription of the "+
				"namespace is Manual (%s): %s %s, whose approval is Automatic, %s behind its Manual neighbour.",
				manualNeighbours(in.Subscriptions, plan.Namespace), plural("Subscription", len(automatic)), strings.Join(automatic, ", "), verb("waits", len(automatic)))
		}
		fmt.Fprintf(&b, " Operators are best updated before the cluster: approve it with %s, or accept this finding to update the cluster first.", approveCommand(plan))
		out = append(out, finding{
			uid: uid("install-plan-approval", plan.Namespace, plan.Name), level: insightsv1alpha1.WarningInsightLevel,
			impact: insightsv1alpha1.NoneImpactType, resources: append(resources, installPlanResource(plan)),
			summary: fmt.Sprintf("Operator update waiting for approval: InstallPlan %s/%s of %s %s would install %s",
				plan.Namespace, plan.Name, plural("Subscription", len(subs)), strings.Join(names, ", "), csvs),
			description: b.String(),
		})
	}
	return out
}

// manualNeighbours names the Subscriptions of namespace with Manual
// approval, which made its InstallPlan Manual; OLM decided when it made
// the plan, and they may have changed since.
func manualNeighbours(subs []*operatorsv1alpha1.Subscription, namespace string) string {
	var manual []string
	for _, s := range sortedSubscriptions(subs) {
		if s.Namespace == namespace && approvalOf(s) == operatorsv1alpha1.ApprovalManual {
			manual = append(manual, s.Name)
		}
	}
	if len(manual) == 0 {
		return "none is now: one was when OLM made the plan"
	}
	return "here " + strings.Join(manual, ", ")
}

func approveCommand(plan *operatorsv1alpha1.InstallPlan) string {
	return fmt.Sprintf(`oc patch installplan %s -n %s --type merge -p '{"spec":{"approved":true}}'`, plan.Name, plan.Namespace)
}

func plural(noun string, n int) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// verb is a verb in the third person, for n subjects.
func verb(singular string, n int) string {
	if n == 1 {
		return singular
	}
	return strings.TrimSuffix(singular, "s")
}

// unhealthy: an operator whose CSV has not succeeded for Settle or longer
// is unhealthy before the update starts.
func unhealthy(in PlanInput) []finding {
	var out []finding
	for _, csv := range in.installed() {
		if csv.Status.Phase == operatorsv1alpha1.CSVPhaseSucceeded {
			continue
		}
		since, exact := notSucceededSince(csv)
		if !since.IsZero() && in.Now.Sub(since) < Settle {
			continue
		}
		out = append(out, finding{
			uid: uid("unhealthy", csv.Namespace, csv.Name), level: insightsv1alpha1.WarningInsightLevel,
			impact: insightsv1alpha1.UnknownImpactType, resources: resourcesOf(csv, in.subscriptionOf(csv)),
			summary:     fmt.Sprintf("Operator %s is %s, not Succeeded%s", operatorName(csv), phaseOf(csv), sinceText(since, exact)),
			description: state(csv) + "\nAn operator that is unhealthy before the update is hard to tell from one the update broke: fix it first, or accept this finding.",
		})
	}
	return out
}

// deprecated: OLM marks a Subscription whose package, channel or bundle
// its catalog deprecates; the operator may get no update for the target.
func deprecated(in PlanInput) []finding {
	var out []finding
	for _, sub := range sortedSubscriptions(in.Subscriptions) {
		for _, c := range sub.Status.Conditions {
			what, ok := deprecations[c.Type]
			if !ok || c.Status != "True" {
				continue
			}
			out = append(out, finding{
				uid: uid("deprecated-"+what, sub.Namespace, sub.Name), level: insightsv1alpha1.InfoInsightLevel,
				impact: insightsv1alpha1.NoneImpactType, resources: []insightsv1alpha1.InsightResource{subscriptionResource(sub)},
				summary:     fmt.Sprintf("Subscription %s/%s: its %s is deprecated", sub.Namespace, sub.Name, what),
				description: c.Message,
			})
		}
	}
	return out
}

// deprecations name what each deprecation condition is about.
var deprecations = map[string]string{
	operatorsv1alpha1.SubscriptionPackageDeprecated: "package",
	operatorsv1alpha1.SubscriptionChannelDeprecated: "channel",
	operatorsv1alpha1.SubscriptionBundleDeprecated:  "bundle",
}

func phaseOf(csv *operatorsv1alpha1.ClusterServiceVersion) string {
	if csv.Status.Phase == "" {
		return "without a phase"
	}
	if csv.Status.Reason == "" {
		return string(csv.Status.Phase)
	}
	return fmt.Sprintf("%s (%s)", csv.Status.Phase, csv.Status.Reason)
}

func sinceText(since time.Time, exact bool) string {
	switch {
	case since.IsZero():
		return ""
	case exact:
		return " since " + since.UTC().Format(time.RFC3339)
	default:
		return " since " + since.UTC().Format(time.RFC3339) + " or earlier"
	}
}
