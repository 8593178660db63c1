package olm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// TestAwaitingApproval is one finding per InstallPlan that waits for
// approval and that a Subscription points at. OLM makes one InstallPlan
// for every Subscription of a namespace it resolves together, Manual when
// any Subscription of the namespace is (syncResolvingNamespace in
// pkg/controller/operators/catalog/operator.go of
// operator-lifecycle-manager), and points each updated Subscription at it.
func TestAwaitingApproval(t *testing.T) {
	automatic := func(s *operatorsv1alpha1.Subscription) {
		s.Spec.InstallPlanApproval = operatorsv1alpha1.ApprovalAutomatic
	}
	testCases := []struct {
		name  string
		subs  []*operatorsv1alpha1.Subscription
		plans []*operatorsv1alpha1.InstallPlan
		want  []findingText
		says  []string
	}{
		{
			name:  "Manual, the plan requires approval",
			subs:  []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"))},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-abc", "RequiresApproval", false, "op.v2", "dep.v3")},
			want: []findingText{{
				UID: "install-plan-approval/ns/install-abc", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.NoneImpactType,
				Resources: []insightsv1alpha1.InsightResource{subRes("ns", "op"), planRes("ns", "install-abc")},
				Summary:   "Operator update waiting for approval: InstallPlan ns/install-abc of Subscription op would install op.v2, dep.v3",
			}},
			says: []string{"Subscription ns/op (package op, Manual approval)", "install op.v2, dep.v3", "oc patch installplan install-abc -n ns"},
		},
		{
			name: "two Subscriptions, one Automatic, one Manual, on one plan: one finding naming both",
			subs: []*operatorsv1alpha1.Subscription{
				newSub("ns", "op", "op.v1", manual("install-abc")),
				newSub("ns", "auto", "auto.v1", manual("install-abc"), automatic),
			},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-abc", "RequiresApproval", false, "op.v2", "auto.v2")},
			want: []findingText{{
				UID: "install-plan-approval/ns/install-abc", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.NoneImpactType,
				Resources: []insightsv1alpha1.InsightResource{subRes("ns", "auto"), subRes("ns", "op"), planRes("ns", "install-abc")},
				Summary:   "Operator update waiting for approval: InstallPlan ns/install-abc of Subscriptions auto, op would install op.v2, auto.v2",
			}},
			says: []string{
				"Subscriptions ns/auto (package auto, Automatic approval), ns/op (package op, Manual approval)",
				"Manual when any Subscription of the namespace is Manual (here op)",
				"Subscription auto, whose approval is Automatic, waits behind its Manual neighbour",
				"oc patch installplan install-abc -n ns --type merge -p '{\"spec\":{\"approved\":true}}'",
			},
		},
		{
			name: "two Manual Subscriptions on one plan: one finding, not one each",
			subs: []*operatorsv1alpha1.Subscription{
				newSub("ns", "a", "a.v1", manual("install-abc")),
				newSub("ns", "b", "b.v1", manual("install-abc")),
			},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-abc", "RequiresApproval", false, "a.v2", "b.v2")},
			want: []findingText{{
				UID: "install-plan-approval/ns/install-abc", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.NoneImpactType,
				Resources: []insightsv1alpha1.InsightResource{subRes("ns", "a"), subRes("ns", "b"), planRes("ns", "install-abc")},
				Summary:   "Operator update waiting for approval: InstallPlan ns/install-abc of Subscriptions a, b would install a.v2, b.v2",
			}},
			says: []string{"Subscriptions ns/a (package a, Manual approval), ns/b (package b, Manual approval)"},
		},
		{
			name: "an Automatic Subscription behind a Manual one that has no update",
			subs: []*operatorsv1alpha1.Subscription{
				newSub("ns", "auto", "auto.v1", manual("install-abc"), automatic),
				newSub("ns", "op", "op.v1", manual("install-old")),
			},
			plans: []*operatorsv1alpha1.InstallPlan{
				newPlan("ns", "install-abc", "RequiresApproval", false, "auto.v2"),
				newPlan("ns", "install-old", "Complete", true, "op.v1"),
			},
			want: []findingText{{
				UID: "install-plan-approval/ns/install-abc", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.NoneImpactType,
				Resources: []insightsv1alpha1.InsightResource{subRes("ns", "auto"), planRes("ns", "install-abc")},
				Summary:   "Operator update waiting for approval: InstallPlan ns/install-abc of Subscription auto would install auto.v2",
			}},
			says: []string{"(here op)", "Subscription auto, whose approval is Automatic, waits behind its Manual neighbour"},
		},
		{
			name:  "an Automatic Subscription on a Manual plan, no Manual Subscription left",
			subs:  []*operatorsv1alpha1.Subscription{newSub("ns", "auto", "auto.v1", manual("install-abc"), automatic)},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-abc", "RequiresApproval", false, "auto.v2")},
			want: []findingText{{
				UID: "install-plan-approval/ns/install-abc", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.NoneImpactType,
				Resources: []insightsv1alpha1.InsightResource{subRes("ns", "auto"), planRes("ns", "install-abc")},
				Summary:   "Operator update waiting for approval: InstallPlan ns/install-abc of Subscription auto would install auto.v2",
			}},
			says: []string{"(none is now: one was when OLM made the plan)", "waits behind its Manual neighbour"},
		},
		{
			name:  "approval unset, which is Automatic, on a Manual plan",
			subs:  []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"), func(s *operatorsv1alpha1.Subscription) { s.Spec.InstallPlanApproval = "" })},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-abc", "RequiresApproval", false, "op.v2")},
			want: []findingText{{
				UID: "install-plan-approval/ns/install-abc", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.NoneImpactType,
				Resources: []insightsv1alpha1.InsightResource{subRes("ns", "op"), planRes("ns", "install-abc")},
				Summary:   "Operator update waiting for approval: InstallPlan ns/install-abc of Subscription op would install op.v2",
			}},
			says: []string{"Subscription ns/op (package op, Automatic approval)"},
		},
		{
			name:  "an Automatic plan, which OLM approves as it makes it",
			subs:  []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"), automatic)},
			plans: []*operatorsv1alpha1.InstallPlan{automaticPlan(newPlan("ns", "install-abc", "Installing", true, "op.v2"))},
		},
		{
			name:  "approved",
			subs:  []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"))},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-abc", "RequiresApproval", true, "op.v2")},
		},
		{
			name:  "installing",
			subs:  []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"))},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-abc", "Installing", false, "op.v2")},
		},
		{
			name:  "complete",
			subs:  []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"))},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-abc", "Complete", false, "op.v2")},
		},
		{
			name: "the plan is missing",
			subs: []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"))},
		},
		{
			name:  "a plan of that name in another namespace",
			subs:  []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"))},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("other", "install-abc", "RequiresApproval", false, "op.v2")},
		},
		{
			name:  "a waiting plan no Subscription points at",
			subs:  []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"))},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-old", "RequiresApproval", false, "op.v2")},
		},
		{
			name: "no plan referenced",
			subs: []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", manual("install-abc"), func(s *operatorsv1alpha1.Subscription) {
				s.Status.InstallPlanRef = nil
			})},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("ns", "install-abc", "RequiresApproval", false, "op.v2")},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Plan(PlanInput{
				Cluster: Cluster{Subscriptions: tc.subs, InstallPlans: tc.plans},
				Current: "4.16.20", Target: "4.17.3", Now: now,
			})
			var texts []findingText
			for _, i := range got {
				texts = append(texts, textOf(i))
			}
			if diff := cmp.Diff(tc.want, texts); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			for _, i := range got {
				for _, s := range tc.says {
					if !strings.Contains(i.Impact.Description, s) {
						t.Errorf("description does not say %q:\n%s", s, i.Impact.Description)
					}
				}
			}
			checkBounds(t, got)
		})
	}
}
