package olm

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// TestIncompatibleVersions is which plans an operator's
// olm.maxOpenShiftVersion blocks.
func TestIncompatibleVersions(t *testing.T) {
	testCases := []struct {
		name            string
		current, target string
		max             string // raw JSON
		blocked         bool
	}{
		{name: "minor update past the operator's max", current: "4.16.20", target: "4.17.3", max: `"4.16"`, blocked: true},
		{name: "minor update to the operator's max", current: "4.16.20", target: "4.17.3", max: `"4.17"`},
		{name: "minor update below the operator's max", current: "4.16.20", target: "4.17.3", max: `"4.18"`},
		{name: "a target two minors on, past the max", current: "4.16.20", target: "4.18.1", max: `"4.17"`, blocked: true},
		{name: "a target two minors on, at the max", current: "4.16.20", target: "4.18.1", max: `"4.18"`},
		{name: "a number max, 4.10, is not 4.1", current: "4.9.5", target: "4.10.2", max: `4.10`},
		{name: "patch update at the max", current: "4.16.20", target: "4.16.21", max: `"4.16"`},
		{name: "patch update on a cluster already past the max", current: "4.16.20", target: "4.16.21", max: `"4.15"`},
		{name: "an older target", current: "4.17.1", target: "4.16.5", max: `"4.15"`},
		{name: "an older major target", current: "5.0.1", target: "4.22.5", max: `"4.15"`},
		{name: "a target that is not a version", current: "4.16.20", target: "stable-4.17", max: `"4.15"`},
		{name: "a current version that is not known", current: "", target: "4.17.3", max: `"4.15"`},
		{name: "a prerelease target of the next minor", current: "4.16.20", target: "4.17.0-rc.1", max: `"4.16"`, blocked: true},
		{name: "a v-prefixed target", current: "4.16.20", target: "v4.17.3", max: `"4.16"`, blocked: true},
		{name: "a major update past the max", current: "4.16.20", target: "5.0.0", max: `"4.16"`, blocked: true},
		{name: "invalid max blocks a minor update", current: "4.16.20", target: "4.17.3", max: `"4.17.1"`, blocked: true},
		{name: "invalid max does not block a patch update", current: "4.16.20", target: "4.16.21", max: `"bad_version"`},
		// 4.23 and 5.0 are the same release (OLM's normalizeOCPVersion).
		{name: "4.22 to 4.23, max 4.23", current: "4.22.3", target: "4.23.0", max: `"4.23"`},
		{name: "4.22 to 4.23, max 5.0", current: "4.22.3", target: "4.23.0", max: `"5.0"`},
		{name: "4.22 to 4.23, max 4.22", current: "4.22.3", target: "4.23.0", max: `"4.22"`, blocked: true},
		{name: "4.22 to 5.0, max 4.23", current: "4.22.3", target: "5.0.0", max: `"4.23"`},
		{name: "4.22 to 5.0, max 4.22", current: "4.22.3", target: "5.0.0", max: `"4.22"`, blocked: true},
		// On 4.23, OLM's next minor is 5.1: it sets Upgradeable=False for
		// a max of 4.23 or 5.0 (helpers_test.go, case OCP4.23), which
		// blocks the major update to 5.0.
		{name: "4.23 to 5.0, max 4.23", current: "4.23.2", target: "5.0.1", max: `"4.23"`, blocked: true},
		{name: "4.23 to 5.0, max 5.0", current: "4.23.2", target: "5.0.1", max: `"5.0"`, blocked: true},
		{name: "4.23 to 5.0, max 5.1", current: "4.23.2", target: "5.0.1", max: `"5.1"`},
		{name: "5.0 to 5.1, max 4.23", current: "5.0.1", target: "5.1.0", max: `"4.23"`, blocked: true},
		{name: "5.0 to 5.1, max 5.1", current: "5.0.1", target: "5.1.0", max: `"5.1"`},
		// On 4.22, OLM's next minor is 4.23, not normalized, while the
		// max is: a max of 4.24 is not below it, and OLM lets the
		// cluster leave 4.22 whatever the target.
		{name: "4.22 to 4.23, max 4.24", current: "4.22.3", target: "4.23.0", max: `"4.24"`},
		{name: "4.22 to 5.0, max 4.24", current: "4.22.3", target: "5.0.0", max: `"4.24"`},
		// Once on 5.0 (or 4.23), OLM's next minor is 5.1, above 4.24.
		{name: "4.22 to 5.1, max 4.24", current: "4.22.3", target: "5.1.0", max: `"4.24"`, blocked: true},
		{name: "4.23 to 5.0, max 4.24", current: "4.23.2", target: "5.0.1", max: `"4.24"`, blocked: true},
		// A plan for 5.0 from before 4.22 ends with the update from 4.22,
		// where OLM's next minor is 4.23.
		{name: "4.21 to 5.0, max 4.22", current: "4.21.9", target: "5.0.0", max: `"4.22"`, blocked: true},
		{name: "4.21 to 5.0, max 4.23", current: "4.21.9", target: "5.0.0", max: `"4.23"`},
		{name: "4.21 to 5.0, max 4.24", current: "4.21.9", target: "5.0.0", max: `"4.24"`},
		// Current is the release the cluster-version operator updates
		// to (its status.desired): mid-update from 4.16.20 to 4.17.3, a
		// plan for 4.17.5 is a patch update.
		{name: "mid-update to 4.17.3, a plan for 4.17.5, max 4.16", current: "4.17.3", target: "4.17.5", max: `"4.16"`},
		{name: "mid-update to 4.17.3, a plan for 4.18.1, max 4.17", current: "4.17.3", target: "4.18.1", max: `"4.17"`, blocked: true},
		{name: "mid-update to 4.17.3, a plan for 4.18.1, max 4.18", current: "4.17.3", target: "4.18.1", max: `"4.18"`},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			in := PlanInput{
				Cluster: Cluster{CSVs: []*operatorsv1alpha1.ClusterServiceVersion{newCSV("operators", "op.v1", withMax(tc.max))}},
				Current: tc.current, Target: tc.target, Now: now,
			}
			var want []string
			if tc.blocked {
				want = []string{"max-openshift-version/operators/op.v1"}
			}
			if diff := cmp.Diff(want, uids(Plan(in))); diff != "" {
				t.Errorf("uids (-want +got):\n%s", diff)
			}
		})
	}
}

// TestIncompatibleCSVs is which CSVs count: every one that is not a copy,
// whatever its phase.
func TestIncompatibleCSVs(t *testing.T) {
	testCases := []struct {
		name string
		csv  *operatorsv1alpha1.ClusterServiceVersion
		want []string
	}{
		{name: "Succeeded", csv: newCSV("ns", "op.v1", withMax(`"4.16"`)), want: []string{"max-openshift-version/ns/op.v1"}},
		{
			name: "Replacing: the old CSV blocks until OLM deletes it",
			csv:  newCSV("ns", "op.v1", withMax(`"4.16"`), withPhase(operatorsv1alpha1.CSVPhaseReplacing, "BeingReplaced")),
			want: []string{"max-openshift-version/ns/op.v1"},
		},
		{
			name: "Pending",
			csv:  newCSV("ns", "op.v1", withMax(`"4.16"`), withPhase(operatorsv1alpha1.CSVPhasePending, "RequirementsNotMet")),
			want: []string{"max-openshift-version/ns/op.v1"},
		},
		{name: "a copy by reason", csv: newCSV("ns", "op.v1", withMax(`"4.16"`), copiedBy("reason"))},
		{name: "a copy by annotation", csv: newCSV("ns", "op.v1", withMax(`"4.16"`), copiedBy("annotation"))},
		{name: "a copy by label", csv: newCSV("ns", "op.v1", withMax(`"4.16"`), copiedBy("label"))},
		{name: "an invalid declaration of a copy", csv: newCSV("ns", "op.v1", withMax(`"4.16.1"`), copiedBy("label"))},
		{name: "no declaration", csv: newCSV("ns", "op.v1")},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			in := PlanInput{
				Cluster: Cluster{CSVs: []*operatorsv1alpha1.ClusterServiceVersion{tc.csv}},
				Current: "4.16.20", Target: "4.17.3", Now: now,
			}
			// Succeeded CSVs only, so that unhealthy finds nothing;
			// the others are checked for max-openshift-version alone.
			var got []string
			for _, u := range uids(Plan(in)) {
				if strings.HasPrefix(u, "max-openshift-version/") {
					got = append(got, u)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("uids (-want +got):\n%s", diff)
			}
		})
	}
}

// findingText is what an insight says, for comparing.
type findingText struct {
	UID       string
	Level     insightsv1alpha1.UpdateInsightLevel
	Impact    insightsv1alpha1.InsightImpactType
	Resources []insightsv1alpha1.InsightResource
	Summary   string
}

func textOf(i insightsv1alpha1.UpdateInsight) findingText {
	return findingText{UID: i.UID, Level: i.Impact.Level, Impact: insightsv1alpha1.InsightImpactType(i.Impact.Type), Resources: i.Scope.Resources, Summary: i.Impact.Summary}
}

func TestIncompatibleFinding(t *testing.T) {
	csv := newCSV("logging", "es.v5.8.2", withMax(`"4.16"`), withDisplayName("OpenShift Elasticsearch Operator", "5.8.2"))
	testCases := []struct {
		name  string
		csv   *operatorsv1alpha1.ClusterServiceVersion
		subs  []*operatorsv1alpha1.Subscription
		plans []*operatorsv1alpha1.InstallPlan
		// others are more CSVs, whose findings are not looked at.
		others []*operatorsv1alpha1.ClusterServiceVersion
		want   findingText
		// current and target are 4.16.20 and 4.17.3 unless set.
		current, target string
		says            []string
		denies          []string
	}{
		{
			name: "Subscription with Manual approval",
			csv:  csv,
			subs: []*operatorsv1alpha1.Subscription{newSub("logging", "es", "es.v5.8.2", manual("install-abc"), func(s *operatorsv1alpha1.Subscription) { s.Spec.Channel = "stable-5.8" })},
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2"), subRes("logging", "es")},
				Summary:   "Operator OpenShift Elasticsearch Operator 5.8.2 (logging/es.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17",
			},
			says: []string{
				"olm.maxOpenShiftVersion 4.16. On a cluster running 4.16 or later, OLM sets Upgradeable=False", "cannot reach 4.17",
				"Subscription logging/es", "channel stable-5.8", "catalog redhat-operators", "approval is Manual",
				"Update the operator to a version that supports 4.17", "approve the InstallPlan of a version that supports 4.17",
				"oc delete subscription es -n logging", "oc delete clusterserviceversion es.v5.8.2 -n logging",
			},
			denies: []string{"no Subscription installed it", "Automatic"},
		},
		{
			name: "Subscription with Automatic approval, default channel, no catalog",
			csv:  csv,
			subs: []*operatorsv1alpha1.Subscription{newSub("logging", "es", "es.v5.8.2", func(s *operatorsv1alpha1.Subscription) {
				s.Spec.Channel, s.Spec.CatalogSource = "", ""
			})},
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2"), subRes("logging", "es")},
				Summary:   "Operator OpenShift Elasticsearch Operator 5.8.2 (logging/es.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17",
			},
			says: []string{
				"Subscription logging/es", "its package's default channel", "its catalog", "approval is Automatic",
				"oc delete subscription es -n logging", "oc delete clusterserviceversion es.v5.8.2 -n logging",
			},
			denies: []string{"no Subscription installed it", "Manual"},
		},
		{
			name: "Automatic Subscription whose update waits in a Manual InstallPlan",
			csv:  csv,
			subs: []*operatorsv1alpha1.Subscription{
				newSub("logging", "es", "es.v5.8.2", manual("install-q7m2x"), func(s *operatorsv1alpha1.Subscription) {
					s.Spec.InstallPlanApproval = operatorsv1alpha1.ApprovalAutomatic
				}),
				newSub("logging", "cluster-logging", "cluster-logging.v5.8.2", manual("install-q7m2x")),
			},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("logging", "install-q7m2x", "RequiresApproval", false, "cluster-logging.v5.8.3", "es.v5.8.3")},
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2"), subRes("logging", "es")},
				Summary:   "Operator OpenShift Elasticsearch Operator 5.8.2 (logging/es.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17",
			},
			says: []string{
				"its approval is Automatic, but its next update waits in InstallPlan logging/install-q7m2x (to install cluster-logging.v5.8.3, es.v5.8.3), " +
					"which OLM made Manual for a Manual Subscription of the namespace",
				"approve the plan if that version supports 4.17 (oc patch installplan install-q7m2x -n logging --type merge -p '{\"spec\":{\"approved\":true}}');",
			},
			denies: []string{"as soon as the channel offers one"},
		},
		{
			name:  "Manual Subscription whose update waits",
			csv:   csv,
			subs:  []*operatorsv1alpha1.Subscription{newSub("logging", "es", "es.v5.8.2", manual("install-q7m2x"))},
			plans: []*operatorsv1alpha1.InstallPlan{newPlan("logging", "install-q7m2x", "RequiresApproval", false, "es.v5.8.3")},
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2"), subRes("logging", "es")},
				Summary:   "Operator OpenShift Elasticsearch Operator 5.8.2 (logging/es.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17",
			},
			says: []string{
				"its approval is Manual, and its next update waits in InstallPlan logging/install-q7m2x (to install es.v5.8.3)",
				"approve the plan if that version supports 4.17 (oc patch installplan install-q7m2x -n logging",
			},
			denies: []string{"approve the InstallPlan of a version"},
		},
		{
			name: "Replacing: the block clears when OLM deletes the old CSV",
			csv:  replaced(operatorsv1alpha1.CSVPhaseReplacing),
			subs: []*operatorsv1alpha1.Subscription{newSub("logging", "es", "es.v5.8.3")},
			others: []*operatorsv1alpha1.ClusterServiceVersion{
				newCSV("logging", "es.v5.8.3", withMax(`"4.18"`), componentOf("es"), withPhase(operatorsv1alpha1.CSVPhaseInstalling, "InstallWaiting")),
			},
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2"), subRes("logging", "es")},
				Summary:   "Operator OpenShift Elasticsearch Operator 5.8.2 (logging/es.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17 until it deletes this CSV, which it is replacing",
			},
			says: []string{
				"On a cluster running 4.16 or later, OLM sets Upgradeable=False",
				"OLM counts every CSV but its copies, in any phase: it is replacing this one with es.v5.8.3, now Installing (InstallWaiting), by Subscription logging/es. " +
					"The operator's update is under way, and the block clears when OLM deletes the old CSV, which it does once es.v5.8.3 has succeeded. " +
					"es.v5.8.3 supports 4.17.",
			},
			denies: []string{"Update the operator to a version", "oc delete"},
		},
		{
			name: "Deleting: the replacement succeeded",
			csv:  replaced(operatorsv1alpha1.CSVPhaseDeleting),
			subs: []*operatorsv1alpha1.Subscription{newSub("logging", "es", "es.v5.8.3")},
			others: []*operatorsv1alpha1.ClusterServiceVersion{
				newCSV("logging", "es.v5.8.3", withMax(`"4.18"`), componentOf("es")),
			},
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2"), subRes("logging", "es")},
				Summary:   "Operator OpenShift Elasticsearch Operator 5.8.2 (logging/es.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17 until it deletes this CSV, which it replaced",
			},
			says: []string{
				"OLM counts every CSV but its copies, in any phase: it replaced this one with es.v5.8.3, now Succeeded (InstallSucceeded), by Subscription logging/es, and deletes it. " +
					"The block clears once it is gone. es.v5.8.3 supports 4.17.",
			},
			denies: []string{"Update the operator to a version", "oc delete"},
		},
		{
			name: "Replacing with a successor capped too",
			csv:  replaced(operatorsv1alpha1.CSVPhaseReplacing),
			subs: []*operatorsv1alpha1.Subscription{newSub("logging", "es", "es.v5.8.3")},
			others: []*operatorsv1alpha1.ClusterServiceVersion{
				newCSV("logging", "es.v5.8.3", withMax(`"4.16"`), componentOf("es"), withPhase(operatorsv1alpha1.CSVPhaseInstalling, "InstallWaiting")),
			},
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2"), subRes("logging", "es")},
				Summary:   "Operator OpenShift Elasticsearch Operator 5.8.2 (logging/es.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17 until it deletes this CSV, which it is replacing",
			},
			says:   []string{"once es.v5.8.3 has succeeded. es.v5.8.3 does not support 4.17 either: see its own finding."},
			denies: []string{"oc delete"},
		},
		{
			name: "Replacing, an invalid declaration",
			csv:  newCSV("logging", "es.v5.8.2", withMax(`"4.16.1"`), componentOf("es"), withPhase(operatorsv1alpha1.CSVPhaseReplacing, "BeingReplaced")),
			subs: []*operatorsv1alpha1.Subscription{newSub("logging", "es", "es.v5.8.3")},
			others: []*operatorsv1alpha1.ClusterServiceVersion{
				newCSV("logging", "es.v5.8.3", withMax(`"4.18"`), componentOf("es"), withPhase(operatorsv1alpha1.CSVPhaseInstalling, "InstallWaiting")),
			},
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2"), subRes("logging", "es")},
				Summary:   "Operator logging/es.v5.8.2 declares an invalid olm.maxOpenShiftVersion: OLM blocks every minor update, 4.17 among them, until it deletes this CSV, which it is replacing",
			},
			says:   []string{"it is replacing this one with es.v5.8.3, now Installing (InstallWaiting), by Subscription logging/es", "es.v5.8.3 supports 4.17."},
			denies: []string{"oc delete"},
		},
		{
			name: "Replacing, no Subscription known",
			csv:  replaced(operatorsv1alpha1.CSVPhaseReplacing),
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2")},
				Summary:   "Operator OpenShift Elasticsearch Operator 5.8.2 (logging/es.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17 until it deletes this CSV, which it is replacing",
			},
			says: []string{
				"it is replacing this one. The operator's update is under way, and the block clears when OLM deletes the old CSV, which it does once its replacement has succeeded.",
				"no Subscription installed it", "oc delete clusterserviceversion es.v5.8.2 -n logging",
			},
		},
		{
			name: "no Subscription",
			csv:  csv,
			subs: []*operatorsv1alpha1.Subscription{newSub("other", "es", "es.v5.8.2")},
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2")},
				Summary:   "Operator OpenShift Elasticsearch Operator 5.8.2 (logging/es.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17",
			},
			says:   []string{"no Subscription installed it", "oc delete clusterserviceversion es.v5.8.2 -n logging"},
			denies: []string{"oc delete subscription"},
		},
		{
			name: "invalid declaration, no display name",
			csv:  newCSV("logging", "es.v5.8.2", withMax(`"4.16.1"`)),
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2")},
				Summary:   "Operator logging/es.v5.8.2 declares an invalid olm.maxOpenShiftVersion: OLM blocks every minor update, 4.17 among them",
			},
			says: []string{
				"property olm.maxOpenShiftVersion must specify only <major>.<minor> version, got invalid value 4.16.1",
				"Upgradeable=False", "oc delete clusterserviceversion es.v5.8.2 -n logging",
			},
		},
		{
			name:    "4.23 to 5.0, max 5.0: OLM counts 4.23 as 5.0",
			csv:     newCSV("logging", "es.v5.8.2", withMax(`"5.0"`)),
			current: "4.23.2", target: "5.0.1",
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2")},
				Summary:   "Operator logging/es.v5.8.2 supports OpenShift up to 5.0, which OLM counts as the release the cluster runs: OLM blocks the update to 5.0",
			},
			says: []string{
				"olm.maxOpenShiftVersion 5.0", "OLM counts OpenShift 4.23 and 5.0 as one release", "cannot reach 5.0",
				"Update the operator to a version that supports 5.1",
			},
			denies: []string{"On a cluster running 5.0", "supports 5.0"},
		},
		{
			name:    "4.23 to 5.0, max 4.24: OLM counts 4.24 as before 5.0",
			csv:     newCSV("logging", "es.v5.8.2", withMax(`"4.24"`)),
			current: "4.23.2", target: "5.0.1",
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2")},
				Summary:   "Operator logging/es.v5.8.2 supports OpenShift up to 4.24: OLM blocks the update to 5.0",
			},
			says: []string{
				"olm.maxOpenShiftVersion 4.24. OLM counts OpenShift 4.23 as 5.0, after 4.24: on a cluster running 4.23 or later, OLM sets Upgradeable=False",
				"cannot reach 5.0", "Update the operator to a version that supports 5.1",
			},
			denies: []string{"On a cluster running 4.24"},
		},
		{
			name:    "4.16 to 4.18, max 4.17: OLM blocks once the cluster runs 4.17",
			csv:     newCSV("logging", "es.v5.8.2", withMax(`"4.17"`)),
			current: "4.16.20", target: "4.18.1",
			want: findingText{
				UID: "max-openshift-version/logging/es.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("logging", "es.v5.8.2")},
				Summary:   "Operator logging/es.v5.8.2 supports OpenShift up to 4.17: OLM blocks the update to 4.18",
			},
			says: []string{"On a cluster running 4.17 or later, OLM sets Upgradeable=False", "cannot reach 4.18", "supports 4.18"},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			in := PlanInput{
				Cluster: Cluster{CSVs: append([]*operatorsv1alpha1.ClusterServiceVersion{tc.csv}, tc.others...), Subscriptions: tc.subs, InstallPlans: tc.plans},
				Current: "4.16.20", Target: "4.17.3", Now: now,
			}
			if tc.current != "" {
				in.Current, in.Target = tc.current, tc.target
			}
			got := slices.DeleteFunc(Plan(in), func(i insightsv1alpha1.UpdateInsight) bool {
				return i.UID != "max-openshift-version/"+tc.csv.Namespace+"/"+tc.csv.Name
			})
			if len(got) != 1 {
				t.Fatalf("got %d insights %v, want 1", len(got), uids(got))
			}
			if diff := cmp.Diff(tc.want, textOf(got[0])); diff != "" {
				t.Errorf("insight (-want +got):\n%s", diff)
			}
			d := got[0].Impact.Description
			for _, s := range tc.says {
				if !strings.Contains(d, s) {
					t.Errorf("description does not say %q:\n%s", s, d)
				}
			}
			for _, s := range tc.denies {
				if strings.Contains(d, s) {
					t.Errorf("description says %q:\n%s", s, d)
				}
			}
			checkBounds(t, got)
		})
	}
}

// replaced is the elasticsearch operator's CSV, capped at 4.16, as OLM
// writes it once a newer CSV replaces it (transitionCSVState in
// pkg/controller/operators/olm/operator.go of operator-lifecycle-manager):
// Replacing until the newer one succeeds, then Deleting. Its Subscription
// has moved on: only OLM's component label tells whose it is.
func replaced(phase operatorsv1alpha1.ClusterServiceVersionPhase) *operatorsv1alpha1.ClusterServiceVersion {
	reason, message := "BeingReplaced", "being replaced by csv: es.v5.8.3"
	if phase == operatorsv1alpha1.CSVPhaseDeleting {
		reason, message = "Replaced", "has been replaced by a newer ClusterServiceVersion that has successfully installed."
	}
	return newCSV("logging", "es.v5.8.2", withMax(`"4.16"`), withDisplayName("OpenShift Elasticsearch Operator", "5.8.2"), componentOf("es"),
		func(csv *operatorsv1alpha1.ClusterServiceVersion) {
			csv.Status.Phase, csv.Status.Reason, csv.Status.Message = phase, reason, message
		})
}

// longPackage is a package of 52 characters: "<package>.openshift-logging"
// cut to 63 characters ends with "openshift-".
const longPackage = "a-package-whose-name-is-long-enough-for-olm-to-cut-i"

// TestSubscriptionOf is which Subscription installed a CSV: in its
// namespace, the one that installed it, else the one installing it.
func TestSubscriptionOf(t *testing.T) {
	installing := newSub("ns", "installing", "op.v0", func(s *operatorsv1alpha1.Subscription) { s.Status.CurrentCSV = "op.v1" })
	testCases := []struct {
		name string
		csv  *operatorsv1alpha1.ClusterServiceVersion // op.v1 in ns unless set
		subs []*operatorsv1alpha1.Subscription
		want string
	}{
		{name: "the installed CSV's", subs: []*operatorsv1alpha1.Subscription{newSub("ns", "installed", "op.v1")}, want: "ns/installed"},
		{name: "the installing one when none installed it", subs: []*operatorsv1alpha1.Subscription{installing}, want: "ns/installing"},
		{
			name: "the one that installed it over one installing it, listed first",
			subs: []*operatorsv1alpha1.Subscription{installing, newSub("ns", "installed", "op.v1")},
			want: "ns/installed",
		},
		{name: "not in another namespace", subs: []*operatorsv1alpha1.Subscription{newSub("other", "installed", "op.v1")}},
		{name: "not of another CSV", subs: []*operatorsv1alpha1.Subscription{newSub("ns", "installed", "op.v2")}},
		{
			name: "moved on to the successor: by OLM's component label",
			csv:  newCSV("ns", "op.v1", componentOf("op")),
			subs: []*operatorsv1alpha1.Subscription{newSub("ns", "other", "other.v1"), newSub("ns", "op", "op.v2")},
			want: "ns/op",
		},
		{
			name: "the installed CSV's over the label's",
			csv:  newCSV("ns", "op.v1", componentOf("op")),
			subs: []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v2"), newSub("ns", "installed", "op.v1")},
			want: "ns/installed",
		},
		{
			name: "the label of a package in another namespace",
			csv:  newCSV("ns", "op.v1", componentOf("op")),
			subs: []*operatorsv1alpha1.Subscription{newSub("other", "op", "op.v2")},
		},
		{
			name: "a label OLM cut to 63 characters, then of its trailing dash",
			csv: newCSV("openshift-logging", "op.v1", func(csv *operatorsv1alpha1.ClusterServiceVersion) {
				csv.Labels = map[string]string{"operators.coreos.com/" + longPackage + ".openshift": ""}
			}),
			subs: []*operatorsv1alpha1.Subscription{newSub("openshift-logging", longPackage, "op.v2")},
			want: "openshift-logging/" + longPackage,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			csv := tc.csv
			if csv == nil {
				csv = newCSV("ns", "op.v1")
			}
			sub := Cluster{Subscriptions: tc.subs}.subscriptionOf(csv)
			got := ""
			if sub != nil {
				got = sub.Namespace + "/" + sub.Name
			}
			if got != tc.want {
				t.Errorf("subscriptionOf = %q, want %q", got, tc.want)
			}
		})
	}
}
