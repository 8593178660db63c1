package olm

import (
	"fmt"
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// PlanInput is what the findings of an UpdatePlan are made of.
type PlanInput struct {
	Cluster
	// Current is the release the cluster-version operator takes the
	// cluster to be at: status.desired of its ClusterVersion, the
	// update's target while one is under way. Target is the plan's.
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

// unhealthy: an operator whose CSV has not succeeded for Settle or longer
// is unhealthy before the update starts.
func unhealthy(in PlanInput) []finding {
	var out []finding
	for _, csv := range in.installed() {
		if csv.Status.Phase == operatorsv1alpha1.CSVPhaseSucceeded || beingReplaced(csv) {
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
