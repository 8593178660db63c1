package olm

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

func TestPlanFixture(t *testing.T) {
	planNow := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	testCases := []struct {
		name, target string
		want         []string
	}{
		{
			name: "minor update", target: "4.17.3",
			want: []string{
				"max-openshift-version/openshift-operators-redhat/elasticsearch-operator.v5.8.2",
				"install-plan-approval/openshift-operators-redhat/install-7xkqp",
				"unhealthy/etcd/etcdoperator.v0.9.4",
				"unhealthy/foo/foo-operator.v1.2.0",
				"deprecated-channel/etcd/etcd",
			},
		},
		{
			name: "patch update: the operator capped at 4.16 does not block it", target: "4.16.21",
			want: []string{
				"install-plan-approval/openshift-operators-redhat/install-7xkqp",
				"unhealthy/etcd/etcdoperator.v0.9.4",
				"unhealthy/foo/foo-operator.v1.2.0",
				"deprecated-channel/etcd/etcd",
			},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Plan(PlanInput{Cluster: load(t, operatorsFixture), Current: "4.16.20", Target: tc.target, Now: planNow})
			if diff := cmp.Diff(tc.want, uids(got)); diff != "" {
				t.Errorf("uids (-want +got):\n%s", diff)
			}
			for _, i := range got {
				if i.AcquisitionTime == nil || !i.AcquisitionTime.Time.Equal(planNow) {
					t.Errorf("insight %s acquired at %v, want %v", i.UID, i.AcquisitionTime, planNow)
				}
				if i.Scope.Type != insightsv1alpha1.ScopeTypeControlPlane {
					t.Errorf("insight %s: scope %s, want ControlPlane", i.UID, i.Scope.Type)
				}
			}
			checkBounds(t, got)
		})
	}
}

// TestPlanUpdatesFixture: the InstallPlan two Subscriptions point at is
// one finding naming both; the Automatic Subscription's capped operator
// names that plan; the old CSV OLM is replacing names its Subscription,
// found by OLM's component label.
func TestPlanUpdatesFixture(t *testing.T) {
	planNow := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	got := Plan(PlanInput{Cluster: load(t, updatesFixture), Current: "4.16.20", Target: "4.17.3", Now: planNow})
	var texts []findingText
	for _, i := range got {
		texts = append(texts, textOf(i))
	}
	want := []findingText{
		{
			UID: "max-openshift-version/openshift-logging/loki-operator.v5.8.2", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
			Resources: []insightsv1alpha1.InsightResource{csvRes("openshift-logging", "loki-operator.v5.8.2"), subRes("openshift-logging", "loki-operator")},
			Summary:   "Operator Loki Operator 5.8.2 (openshift-logging/loki-operator.v5.8.2) supports OpenShift up to 4.16: OLM blocks the update to 4.17",
		},
		{
			UID: "max-openshift-version/openshift-operators/quay-operator.v3.11.4", Level: insightsv1alpha1.ErrorInsightLevel, Impact: insightsv1alpha1.UpdateStalledImpactType,
			Resources: []insightsv1alpha1.InsightResource{csvRes("openshift-operators", "quay-operator.v3.11.4"), subRes("openshift-operators", "quay-operator")},
			Summary:   "Operator Red Hat Quay 3.11.4 (openshift-operators/quay-operator.v3.11.4) supports OpenShift up to 4.16: OLM blocks the update to 4.17 until it deletes this CSV, which it is replacing",
		},
		{
			UID: "install-plan-approval/openshift-logging/install-q7m2x", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.NoneImpactType,
			Resources: []insightsv1alpha1.InsightResource{
				subRes("openshift-logging", "cluster-logging"), subRes("openshift-logging", "loki-operator"), planRes("openshift-logging", "install-q7m2x"),
			},
			Summary: "Operator update waiting for approval: InstallPlan openshift-logging/install-q7m2x of Subscriptions cluster-logging, loki-operator would install cluster-logging.v5.8.3, loki-operator.v5.8.3",
		},
		{
			UID: "unhealthy/openshift-operators/quay-operator.v3.12.1", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.UnknownImpactType,
			Resources: []insightsv1alpha1.InsightResource{csvRes("openshift-operators", "quay-operator.v3.12.1"), subRes("openshift-operators", "quay-operator")},
			Summary:   "Operator Red Hat Quay 3.12.1 (openshift-operators/quay-operator.v3.12.1) is Installing (InstallWaiting), not Succeeded since 2026-11-21T09:00:11Z",
		},
	}
	if diff := cmp.Diff(want, texts); diff != "" {
		t.Errorf("insights (-want +got):\n%s", diff)
	}
	checkBounds(t, got)
}

func TestPlanUnhealthy(t *testing.T) {
	fullEarly := now.Add(-24 * time.Hour)
	testCases := []struct {
		name string
		csv  *operatorsv1alpha1.ClusterServiceVersion
		want []findingText
	}{
		{name: "Succeeded", csv: newCSV("ns", "op.v1")},
		{name: "Failed for under Settle", csv: newCSV("ns", "op.v1", failedSince(now.Add(-Settle+time.Second)))},
		{
			name: "Failed for Settle",
			csv:  newCSV("ns", "op.v1", failedSince(now.Add(-Settle)), withDisplayName("Op", "1.0.0")),
			want: []findingText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.UnknownImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("ns", "op.v1")},
				Summary:   "Operator Op 1.0.0 (ns/op.v1) is Failed (ComponentUnhealthy), not Succeeded since 2026-11-22T09:50:00Z",
			}},
		},
		{
			name: "Failed for long, retried since: it left Succeeded at the first Failed after it",
			csv: newCSV("ns", "op.v1", withHistory(
				entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", now.Add(-5 * time.Hour)},
				entry{operatorsv1alpha1.CSVPhaseFailed, "ComponentUnhealthy", now.Add(-4 * time.Hour)},
				entry{operatorsv1alpha1.CSVPhasePending, "NeedsReinstall", now.Add(-3 * time.Minute)},
				entry{operatorsv1alpha1.CSVPhaseFailed, "ComponentUnhealthy", now.Add(-time.Minute)},
			)),
			want: []findingText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.UnknownImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("ns", "op.v1")},
				Summary:   "Operator ns/op.v1 is Failed (ComponentUnhealthy), not Succeeded since 2026-11-22T06:00:00Z",
			}},
		},
		{
			name: "never Succeeded, the whole history kept",
			csv:  newCSV("ns", "op.v1", neverSucceeded(3, now.Add(-time.Hour))),
			want: []findingText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.UnknownImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("ns", "op.v1")},
				Summary:   "Operator ns/op.v1 is InstallReady (AllRequirementsMet), not Succeeded since 2026-11-22T09:00:00Z",
			}},
		},
		{
			name: "never Succeeded in a full history: or earlier",
			csv:  newCSV("ns", "op.v1", neverSucceeded(20, fullEarly)),
			want: []findingText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.UnknownImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("ns", "op.v1")},
				Summary:   "Operator ns/op.v1 is Installing (InstallSucceeded), not Succeeded since 2026-11-21T10:00:00Z or earlier",
			}},
		},
		{
			name: "no history, no time",
			csv: newCSV("ns", "op.v1", func(csv *operatorsv1alpha1.ClusterServiceVersion) {
				csv.Status = operatorsv1alpha1.ClusterServiceVersionStatus{}
			}),
			want: []findingText{{
				UID: "unhealthy/ns/op.v1", Level: insightsv1alpha1.WarningInsightLevel, Impact: insightsv1alpha1.UnknownImpactType,
				Resources: []insightsv1alpha1.InsightResource{csvRes("ns", "op.v1")},
				Summary:   "Operator ns/op.v1 is without a phase, not Succeeded",
			}},
		},
		{name: "a Failed copy", csv: newCSV("ns", "op.v1", failedSince(now.Add(-time.Hour)), copiedBy("reason"))},
		{name: "a Failed copy by label", csv: newCSV("ns", "op.v1", failedSince(now.Add(-time.Hour)), copiedBy("label"))},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Plan(PlanInput{
				Cluster: Cluster{CSVs: []*operatorsv1alpha1.ClusterServiceVersion{tc.csv}},
				Current: "4.16.20", Target: "4.16.21", Now: now,
			})
			var texts []findingText
			for _, i := range got {
				texts = append(texts, textOf(i))
			}
			if diff := cmp.Diff(tc.want, texts); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			checkBounds(t, got)
		})
	}
}

func TestUnhealthyDescription(t *testing.T) {
	csv := newCSV("ns", "op.v1", failedSince(now.Add(-time.Hour)), func(csv *operatorsv1alpha1.ClusterServiceVersion) {
		csv.Status.RequirementStatus = []operatorsv1alpha1.RequirementStatus{
			{Kind: "CustomResourceDefinition", Name: "foos.example.com", Status: "Present"},
			{Kind: "APIService", Name: "v1.foo", Status: "DeploymentFound"},
			{Kind: "CustomResourceDefinition", Name: "bars.example.com", Status: "NotPresent", Message: "CRD is not present"},
			{Kind: "ServiceAccount", Name: "op", Status: "Present", Dependents: []operatorsv1alpha1.DependentStatus{
				{Kind: "ClusterPolicyRule", Status: "Satisfied"},
				{Kind: "PolicyRule", Status: "NotSatisfied", Message: `rule {"verbs":["get"]} not satisfied`},
			}},
		}
	})
	got := Plan(PlanInput{Cluster: Cluster{CSVs: []*operatorsv1alpha1.ClusterServiceVersion{csv}}, Current: "4.16.20", Target: "4.16.21", Now: now})
	if len(got) != 1 {
		t.Fatalf("got %v, want one insight", uids(got))
	}
	want := "Phase Failed (ComponentUnhealthy): message of ComponentUnhealthy.\n" +
		"Requirement not met: CustomResourceDefinition bars.example.com is NotPresent: CRD is not present\n" +
		`Requirement not met: ServiceAccount op needs PolicyRule NotSatisfied: rule {"verbs":["get"]} not satisfied` + "\n" +
		"An operator that is unhealthy before the update is hard to tell from one the update broke: fix it first, or accept this finding."
	if diff := cmp.Diff(want, got[0].Impact.Description); diff != "" {
		t.Errorf("description (-want +got):\n%s", diff)
	}
}

func TestDeprecated(t *testing.T) {
	const message = "The 'alpha' channel is no longer supported. Please switch to the 'stable' channel."
	finding := func(what string) findingText {
		return findingText{
			UID: "deprecated-" + what + "/ns/op", Level: insightsv1alpha1.InfoInsightLevel, Impact: insightsv1alpha1.NoneImpactType,
			Resources: []insightsv1alpha1.InsightResource{subRes("ns", "op")},
			Summary:   "Subscription ns/op: its " + what + " is deprecated",
		}
	}
	testCases := []struct {
		name       string
		conditions []subOption
		want       []findingText
	}{
		{name: "package", conditions: []subOption{withCondition("PackageDeprecated", "True", message)}, want: []findingText{finding("package")}},
		{name: "channel", conditions: []subOption{withCondition("ChannelDeprecated", "True", message)}, want: []findingText{finding("channel")}},
		{name: "bundle", conditions: []subOption{withCondition("BundleDeprecated", "True", message)}, want: []findingText{finding("bundle")}},
		{
			name: "all three, with the aggregate Deprecated",
			conditions: []subOption{
				withCondition("BundleDeprecated", "True", message), withCondition("PackageDeprecated", "True", message),
				withCondition("ChannelDeprecated", "True", message), withCondition("Deprecated", "True", message),
			},
			want: []findingText{finding("bundle"), finding("package"), finding("channel")},
		},
		{name: "the aggregate Deprecated alone", conditions: []subOption{withCondition("Deprecated", "True", message)}},
		{name: "status False", conditions: []subOption{withCondition("ChannelDeprecated", "False", message)}},
		{name: "status Unknown", conditions: []subOption{withCondition("ChannelDeprecated", "Unknown", message)}},
		{name: "another condition", conditions: []subOption{withCondition("CatalogSourcesUnhealthy", "True", message)}},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Plan(PlanInput{
				Cluster: Cluster{Subscriptions: []*operatorsv1alpha1.Subscription{newSub("ns", "op", "op.v1", tc.conditions...)}},
				Current: "4.16.20", Target: "4.17.3", Now: now,
			})
			var texts []findingText
			for _, i := range got {
				texts = append(texts, textOf(i))
				if i.Impact.Description != message {
					t.Errorf("insight %s: description %q, want OLM's message %q", i.UID, i.Impact.Description, message)
				}
			}
			if diff := cmp.Diff(tc.want, texts); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
		})
	}
}
