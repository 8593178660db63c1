package olm

import (
	"fmt"
	"strings"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

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
