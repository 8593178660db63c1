package precheck

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// seen is what a test checks of a finding.
type seen struct{ UID, Level, Summary string }

func seenOf(insights []insightsv1alpha1.UpdateInsight) []seen {
	var out []seen
	for _, i := range insights {
		out = append(out, seen{i.UID, string(i.Impact.Level), i.Impact.Summary})
	}
	return out
}

// clusterVersion runs 4.16.3, completed, healthy, with 4.16.5 and 4.17.2
// offered, options applied in order.
func clusterVersion(options ...func(*configv1.ClusterVersion)) *configv1.ClusterVersion {
	started := metav1.NewTime(now.Add(-48 * time.Hour))
	completed := metav1.NewTime(now.Add(-47 * time.Hour))
	cv := &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Spec:       configv1.ClusterVersionSpec{Channel: "stable-4.17"},
		Status: configv1.ClusterVersionStatus{
			Desired: configv1.Release{Version: "4.16.3", Image: "quay.io/release@4.16.3"},
			History: []configv1.UpdateHistory{
				{Version: "4.16.3", Image: "quay.io/release@4.16.3", State: configv1.CompletedUpdate, StartedTime: started, CompletionTime: &completed},
				{Version: "4.16.0", Image: "quay.io/release@4.16.0", State: configv1.CompletedUpdate},
			},
			Conditions: []configv1.ClusterOperatorStatusCondition{
				{Type: conditionFailing, Status: configv1.ConditionFalse},
				{Type: configv1.OperatorUpgradeable, Status: configv1.ConditionTrue},
			},
			AvailableUpdates: []configv1.Release{{Version: "4.16.5"}, {Version: "4.17.2"}},
		},
	}
	for _, o := range options {
		o(cv)
	}
	return cv
}

func condition(t configv1.ClusterStatusConditionType, status configv1.ConditionStatus, reason, message string) func(*configv1.ClusterVersion) {
	return func(cv *configv1.ClusterVersion) {
		for i := range cv.Status.Conditions {
			if cv.Status.Conditions[i].Type == t {
				cv.Status.Conditions[i] = configv1.ClusterOperatorStatusCondition{Type: t, Status: status, Reason: reason, Message: message}
				return
			}
		}
		cv.Status.Conditions = append(cv.Status.Conditions, configv1.ClusterOperatorStatusCondition{Type: t, Status: status, Reason: reason, Message: message})
	}
}

func updatingTo(version string) func(*configv1.ClusterVersion) {
	return func(cv *configv1.ClusterVersion) {
		cv.Status.Desired = configv1.Release{Version: version, Image: "quay.io/release@" + version}
		cv.Status.History = append([]configv1.UpdateHistory{{Version: version, Image: cv.Status.Desired.Image, State: configv1.PartialUpdate}}, cv.Status.History...)
		condition(configv1.OperatorProgressing, configv1.ConditionTrue, "", "Working towards "+version+": 106 of 863 done (12% complete)")(cv)
	}
}

// running makes the cluster run version, completed, instead of 4.16.3.
func running(version string) func(*configv1.ClusterVersion) {
	return func(cv *configv1.ClusterVersion) {
		cv.Status.Desired = configv1.Release{Version: version, Image: "quay.io/release@" + version}
		cv.Status.History[0].Version, cv.Status.History[0].Image = version, cv.Status.Desired.Image
	}
}

// offering makes versions the cluster's recommended updates.
func offering(versions ...string) func(*configv1.ClusterVersion) {
	return func(cv *configv1.ClusterVersion) {
		cv.Status.AvailableUpdates = nil
		for _, v := range versions {
			cv.Status.AvailableUpdates = append(cv.Status.AvailableUpdates, configv1.Release{Version: v, Image: "quay.io/release@" + v})
		}
	}
}

// notRecommended offers target as a conditional update with risks, not
// recommended as recommended says.
func notRecommended(target string, recommended metav1.Condition, risks ...configv1.ConditionalUpdateRisk) func(*configv1.ClusterVersion) {
	return func(cv *configv1.ClusterVersion) {
		recommended.Type = "Recommended"
		cv.Status.ConditionalUpdates = []configv1.ConditionalUpdate{{
			Release:    configv1.Release{Version: target},
			Risks:      risks,
			Conditions: []metav1.Condition{recommended},
		}}
	}
}

func risk(name, url, message string, applies metav1.ConditionStatus) configv1.ConditionalUpdateRisk {
	r := configv1.ConditionalUpdateRisk{Name: name, URL: url, Message: message}
	if applies != "" {
		r.Conditions = []metav1.Condition{{Type: conditionalUpdateRiskApplies, Status: applies, Reason: "Evaluated"}}
	}
	return r
}

func TestClusterVersionChecks(t *testing.T) {
	tests := []struct {
		name   string
		cv     *configv1.ClusterVersion
		target string
		want   []seen
	}{
		{
			name: "a healthy cluster and an offered patch update", cv: clusterVersion(), target: "4.16.5",
		},
		{
			name: "no ClusterVersion", target: "4.16.5",
			want: []seen{{uidNoClusterVersion, "error", "The cluster has no ClusterVersion: nothing can be said of an update, and nothing would perform it"}},
		},
		{
			name: "failing", target: "4.16.5",
			cv:   clusterVersion(condition(conditionFailing, configv1.ConditionTrue, "ClusterOperatorDegraded", "Cluster operator etcd is degraded")),
			want: []seen{{uidFailing, "error", "The cluster is failing (Failing=True, ClusterOperatorDegraded)"}},
		},
		{
			name: "no Failing condition", target: "4.16.5",
			cv: clusterVersion(func(cv *configv1.ClusterVersion) {
				cv.Status.Conditions = cv.Status.Conditions[1:]
			}),
			want: []seen{{uidFailing, "warning", "The ClusterVersion does not say whether the cluster is failing (no Failing condition)"}},
		},
		{
			name: "an update to another release in progress", target: "4.17.2",
			cv:   clusterVersion(updatingTo("4.16.5")),
			want: []seen{{uidInProgress, "warning", "An update to 4.16.5 is in progress (Working towards 4.16.5: 106 of 863 done (12% complete)): let it complete before updating to 4.17.2"}},
		},
		{
			name: "the update to the target in progress", target: "4.16.5",
			cv:   clusterVersion(updatingTo("4.16.5")),
			want: []seen{{uidInProgress, "info", "The update to 4.16.5 is already in progress (Working towards 4.16.5: 106 of 863 done (12% complete))"}},
		},
		{
			name: "an update in progress whose ClusterVersion says nothing of its progress", target: "4.16.5",
			cv:   clusterVersion(updatingTo("4.16.5"), condition(configv1.OperatorProgressing, configv1.ConditionTrue, "", "")),
			want: []seen{{uidInProgress, "info", "The update to 4.16.5 is already in progress"}},
		},
		{
			name: "not upgradeable, a minor update", target: "4.17.2",
			cv:   clusterVersion(condition(configv1.OperatorUpgradeable, configv1.ConditionFalse, "AdminAckRequired", "Kubernetes 1.30 removes APIs")),
			want: []seen{{uidNotUpgradeable, "error", "Upgradeable=False (AdminAckRequired): the cluster-version operator will not start the minor update from 4.16 to 4.17"}},
		},
		{
			name: "not upgradeable, a patch update proceeds", target: "4.16.5",
			cv: clusterVersion(condition(configv1.OperatorUpgradeable, configv1.ConditionFalse, "AdminAckRequired", "Kubernetes 1.30 removes APIs")),
		},
		{
			name: "not upgradeable, a current version that is not one", target: "4.17.2",
			cv: clusterVersion(condition(configv1.OperatorUpgradeable, configv1.ConditionFalse, "AdminAckRequired", "ack"), func(cv *configv1.ClusterVersion) {
				cv.Status.History[0].Version, cv.Status.Desired.Version = "garbage", "garbage"
			}),
			want: []seen{{uidNotUpgradeable, "warning", `Upgradeable=False (AdminAckRequired), which blocks minor updates, but the cluster's release "garbage" is not a version: ` +
				"the cluster-version operator does not hold the update to 4.17.2 back on it (InvalidCurrentVersion)"}},
		},
		{
			name: "not upgradeable, a target that is not a version", target: "4.17",
			cv: clusterVersion(condition(configv1.OperatorUpgradeable, configv1.ConditionFalse, "AdminAckRequired", "ack")),
			want: []seen{
				{uidNotUpgradeable, "error", `Upgradeable=False (AdminAckRequired), and "4.17" is not a version: the cluster-version operator will not start the update (InvalidDesiredVersion)`},
				{uidNotOffered, "error", `4.17 is not an update offered to this cluster in channel "stable-4.17"`},
			},
		},
		{
			name: "not upgradeable, a patch update while a minor update is in progress", target: "4.17.5",
			cv: clusterVersion(running("4.16.20"), updatingTo("4.17.3"), offering("4.17.5"),
				condition(configv1.OperatorUpgradeable, configv1.ConditionFalse, "AdminAckRequired", "Kubernetes 1.31 removes APIs")),
			want: []seen{{uidInProgress, "warning", "An update to 4.17.3 is in progress (Working towards 4.17.3: 106 of 863 done (12% complete)): let it complete before updating to 4.17.5"}},
		},
		{
			name: "not upgradeable, an older release is the rollback precondition's", target: "4.16.1",
			cv:   clusterVersion(condition(configv1.OperatorUpgradeable, configv1.ConditionFalse, "AdminAckRequired", "ack")),
			want: []seen{{uidDowngrade, "error", "4.16.1 is older than 4.16.3, which the cluster runs: it is not offered, and downgrades are not supported"}},
		},
		{
			name: "the release a minor update in progress goes to", target: "4.17.3",
			cv:   clusterVersion(running("4.16.20"), updatingTo("4.17.3"), offering("4.17.5")),
			want: []seen{{uidInProgress, "info", "The update to 4.17.3 is already in progress (Working towards 4.17.3: 106 of 863 done (12% complete))"}},
		},
		{
			name: "an older z-stream of the release a minor update in progress goes to", target: "4.17.1",
			cv: clusterVersion(running("4.16.20"), updatingTo("4.17.3"), offering("4.17.5")),
			want: []seen{
				{uidInProgress, "warning", "An update to 4.17.3 is in progress (Working towards 4.17.3: 106 of 863 done (12% complete)): let it complete before updating to 4.17.1"},
				{uidDowngrade, "error", "4.17.1 is older than 4.17.3, the release the cluster is updating to: it is not offered, and downgrades are not supported"},
			},
		},
		{
			name: "a newer z-stream of the release a minor update in progress leaves", target: "4.16.21",
			cv: clusterVersion(running("4.16.20"), updatingTo("4.17.3"), offering("4.17.5")),
			want: []seen{
				{uidInProgress, "warning", "An update to 4.17.3 is in progress (Working towards 4.17.3: 106 of 863 done (12% complete)): let it complete before updating to 4.16.21"},
				{uidDowngrade, "error", "4.16.21 is older than 4.17.3, the release the cluster is updating to: it is not offered, and downgrades are not supported"},
			},
		},
		{
			name: "already at the target", cv: clusterVersion(), target: "4.16.3",
			want: []seen{{uidAlreadyThere, "info", "The cluster already runs 4.16.3"}},
		},
		{
			name: "an older z-stream", cv: clusterVersion(), target: "4.16.1",
			want: []seen{{uidDowngrade, "error", "4.16.1 is older than 4.16.3, which the cluster runs: it is not offered, and downgrades are not supported"}},
		},
		{
			name: "an older minor", cv: clusterVersion(), target: "4.15.20",
			want: []seen{{uidDowngrade, "error", "4.15.20 is older than 4.16.3, which the cluster runs: it is not offered, and downgrades are not supported"}},
		},
		{
			name: "not offered, and updates cannot be retrieved", target: "4.18.0",
			cv:   clusterVersion(condition(configv1.RetrievedUpdates, configv1.ConditionFalse, "RemoteFailed", "Unable to retrieve available updates")),
			want: []seen{{uidNotOffered, "error", `4.18.0 is not an update offered to this cluster in channel "stable-4.17"`}},
		},
		{
			name: "offered, from updates the cluster can no longer refresh", target: "4.16.5",
			cv:   clusterVersion(condition(configv1.RetrievedUpdates, configv1.ConditionFalse, "RemoteFailed", "Unable to retrieve available updates: Get \"https://api.openshift.com/api/upgrades_info/v1/graph\": dial tcp: i/o timeout")),
			want: []seen{{uidStaleOffer, "warning", "The cluster cannot refresh its available updates (RetrievedUpdates=False, RemoteFailed): the offer of 4.16.5 may be stale"}},
		},
		{
			name: "offered as a conditional update, from updates the cluster can no longer refresh", target: "4.17.3",
			cv: clusterVersion(condition(configv1.RetrievedUpdates, configv1.ConditionUnknown, "", ""),
				notRecommended("4.17.3", metav1.Condition{Status: metav1.ConditionTrue, Reason: "AsExpected"}, risk("LegacyRisk", "https://example.com", "Old clusters break.", ""))),
			want: []seen{{uidStaleOffer, "warning", "The cluster cannot refresh its available updates (RetrievedUpdates=Unknown): the offer of 4.17.3 may be stale"}},
		},
		{
			name: "conditional, with risks named in status.conditionalUpdateRisks", target: "4.17.3",
			cv: clusterVersion(func(cv *configv1.ClusterVersion) {
				cv.Status.ConditionalUpdates = []configv1.ConditionalUpdate{{
					Release:    configv1.Release{Version: "4.17.3"},
					RiskNames:  []string{"AROBrokenDNSMasq", "OVNHang"},
					Conditions: []metav1.Condition{{Type: "Recommended", Status: metav1.ConditionFalse, Reason: "MultipleReasons"}},
				}}
				cv.Status.ConditionalUpdateRisks = []configv1.ConditionalUpdateRisk{
					risk("AROBrokenDNSMasq", "https://issues.redhat.com/browse/OCPBUGS-1", "ARO clusters lose DNS.\nSee the bug.", metav1.ConditionFalse),
					risk("OVNHang", "https://issues.redhat.com/browse/OCPBUGS-2", "OVN may hang on nodes with many pods.", metav1.ConditionTrue),
					risk("Unrelated", "https://example.com", "Not this update's.", metav1.ConditionTrue),
				}
			}),
			want: []seen{{"risk/OVNHang", "error", "Conditional update risk OVNHang applies to the update to 4.17.3: OVN may hang on nodes with many pods."}},
		},
		{
			name: "conditional, with risks inline and no per-risk evaluation", target: "4.17.3",
			cv: clusterVersion(func(cv *configv1.ClusterVersion) {
				cv.Status.ConditionalUpdates = []configv1.ConditionalUpdate{{
					Release:    configv1.Release{Version: "4.17.3"},
					Risks:      []configv1.ConditionalUpdateRisk{risk("LegacyRisk", "not a url", "Old clusters break.\nDetails.", "")},
					Conditions: []metav1.Condition{{Type: "Recommended", Status: metav1.ConditionFalse, Reason: "LegacyRisk"}},
				}}
			}),
			want: []seen{{"risk/LegacyRisk", "error", "Conditional update risk LegacyRisk applies to the update to 4.17.3: Old clusters break."}},
		},
		{
			name: "conditional and recommended: no risk applies", target: "4.17.3",
			cv: clusterVersion(func(cv *configv1.ClusterVersion) {
				cv.Status.ConditionalUpdates = []configv1.ConditionalUpdate{{
					Release:    configv1.Release{Version: "4.17.3"},
					Risks:      []configv1.ConditionalUpdateRisk{risk("LegacyRisk", "https://example.com", "Old clusters break.", "")},
					Conditions: []metav1.Condition{{Type: "Recommended", Status: metav1.ConditionTrue, Reason: "AsExpected"}},
				}}
			}),
		},
		{
			name: "conditional, not recommended for a reason no risk names", target: "4.17.3",
			cv:   clusterVersion(notRecommended("4.17.3", metav1.Condition{Status: metav1.ConditionFalse, Reason: "Blocked", Message: "Blocked by policy."})),
			want: []seen{{"risk/Blocked", "error", "The update to 4.17.3 is not recommended (Blocked): Blocked by policy."}},
		},
		{
			name: "conditional, the evaluation failed and no risk is named", target: "4.17.3",
			cv:   clusterVersion(notRecommended("4.17.3", metav1.Condition{Status: metav1.ConditionUnknown, Reason: "EvaluationFailed", Message: "Could not evaluate exposure to OVNHang"})),
			want: []seen{{"risk/EvaluationFailed", "warning", "Whether the update to 4.17.3 is recommended is not known (EvaluationFailed): Could not evaluate exposure to OVNHang"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &Input{ClusterVersion: tt.cv, Target: tt.target, Now: now}
			var got []insightsv1alpha1.UpdateInsight
			for _, c := range []check{clusterVersionMissing, clusterFailing, updateInProgress, notUpgradeable, notOffered} {
				got = append(got, c(in)...)
			}
			if diff := cmp.Diff(tt.want, seenOf(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// A risk's finding carries what an administrator needs to decide: its
// message and its URL, the reference only when the API accepts it.
func TestRiskFindingsCarryTheirMessageAndURL(t *testing.T) {
	cv := clusterVersion(func(cv *configv1.ClusterVersion) {
		cv.Status.ConditionalUpdates = []configv1.ConditionalUpdate{{
			Release: configv1.Release{Version: "4.17.3"},
			Risks: []configv1.ConditionalUpdateRisk{
				risk("WithURL", "https://issues.redhat.com/browse/OCPBUGS-2", "First line.\nSecond line.", metav1.ConditionTrue),
				risk("WithoutURL", "see the bug", "Broken.", metav1.ConditionTrue),
			},
		}}
	})
	got := notOffered(&Input{ClusterVersion: cv, Target: "4.17.3", Now: now})
	type carried struct{ Description, Reference string }
	var carriedOf []carried
	for _, i := range got {
		carriedOf = append(carriedOf, carried{i.Impact.Description, i.Remediation.Reference})
	}
	want := []carried{{"First line.\nSecond line.", "https://issues.redhat.com/browse/OCPBUGS-2"}, {"Broken.", ""}}
	if diff := cmp.Diff(want, carriedOf); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestClusterOperatorChecks(t *testing.T) {
	operator := func(name string, conditions ...configv1.ClusterOperatorStatusCondition) *configv1.ClusterOperator {
		return &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: configv1.ClusterOperatorStatus{Conditions: conditions}}
	}
	healthy := []configv1.ClusterOperatorStatusCondition{{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue}, {Type: configv1.OperatorDegraded, Status: configv1.ConditionFalse}}
	got := clusterOperators(&Input{Now: now, ClusterOperators: []*configv1.ClusterOperator{
		operator("etcd", healthy...),
		operator("ingress", configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorAvailable, Status: configv1.ConditionFalse, Reason: "IngressUnavailable", Message: "no router pods"},
			configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorDegraded, Status: configv1.ConditionTrue, Reason: "IngressDegraded"}),
		operator("dns", configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorDegraded, Status: configv1.ConditionTrue, Reason: "DNSDegraded"}),
		operator("no-conditions"),
	}})
	want := []seen{
		{"clusteroperator/ingress/unavailable", "error", "Cluster operator ingress is not available (IngressUnavailable)"},
		{"clusteroperator/ingress/degraded", "warning", "Cluster operator ingress is degraded (IngressDegraded)"},
		{"clusteroperator/dns/degraded", "warning", "Cluster operator dns is degraded (DNSDegraded)"},
	}
	if diff := cmp.Diff(want, seenOf(got)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// Whatever a component writes, a finding is one the API accepts.
func TestFindingsAreBoundedToTheAPI(t *testing.T) {
	long := strings.Repeat("x", 10000)
	cv := clusterVersion(condition(conditionFailing, configv1.ConditionTrue, "Reason", long))
	got := Run(Input{ClusterVersion: cv, Target: "4.16.5", AlertsUnreadable: errors.New(long), Now: now})
	if len(got) == 0 {
		t.Fatal("no findings")
	}
	for _, i := range got {
		if len(i.Impact.Summary) > maxSummaryLength || strings.Contains(i.Impact.Summary, "\n") || len(i.Impact.Description) > maxDescriptionLength {
			t.Errorf("finding %s is not bounded: summary %d bytes, description %d", i.UID, len(i.Impact.Summary), len(i.Impact.Description))
		}
		if i.AcquisitionTime == nil || !i.AcquisitionTime.Time.Equal(now) {
			t.Errorf("finding %s acquired at %v, want %v", i.UID, i.AcquisitionTime, now)
		}
	}
}

// Without per-risk Applies conditions, the update's Recommended condition
// tells which risks apply, in the shapes the cluster-version operator's
// evaluateConditionalUpdate writes it.
func TestRiskApplicabilityFromTheRecommendedCondition(t *testing.T) {
	a := risk("ARiskName", "https://issues.redhat.com/browse/OCPBUGS-1", "A breaks.", "")
	b := risk("BRiskName", "https://issues.redhat.com/browse/OCPBUGS-2", "B breaks.", "")
	c := risk("CRiskName", "https://issues.redhat.com/browse/OCPBUGS-3", "C breaks.", "")
	// unknownExposure is the cluster-version operator's message for a risk
	// it could not evaluate.
	unknownExposure := func(r configv1.ConditionalUpdateRisk, err string) string {
		return fmt.Sprintf("Could not evaluate exposure to update risk %s (%s)\n  %s description: %s\n  %s URL: %s", r.Name, err, r.Name, r.Message, r.Name, r.URL)
	}
	// legacyUnknownExposure is that message before 99032b27 (4.14),
	// evaluateConditionalUpdate's in pkg/cvo/availableupdates.go.
	legacyUnknownExposure := func(r configv1.ConditionalUpdateRisk, err string) string {
		return fmt.Sprintf("Exposure to %s is unknown due to an evaluation failure: %v\n%s %s", r.Name, err, r.Message, r.URL)
	}
	tests := []struct {
		name        string
		recommended *metav1.Condition
		risks       []configv1.ConditionalUpdateRisk
		want        []seen
	}{
		{
			name:        "three risks, two named in a MultipleReasons message",
			recommended: &metav1.Condition{Status: metav1.ConditionFalse, Reason: "MultipleReasons", Message: "A breaks. https://issues.redhat.com/browse/OCPBUGS-1\n\nC breaks. https://issues.redhat.com/browse/OCPBUGS-3"},
			risks:       []configv1.ConditionalUpdateRisk{a, b, c},
			want: []seen{
				{"risk/ARiskName", "error", "Conditional update risk ARiskName applies to the update to 4.17.3: A breaks."},
				{"risk/CRiskName", "error", "Conditional update risk CRiskName applies to the update to 4.17.3: C breaks."},
			},
		},
		{
			name:        "one risk of three, named by the reason",
			recommended: &metav1.Condition{Status: metav1.ConditionFalse, Reason: "BRiskName", Message: "B breaks. https://issues.redhat.com/browse/OCPBUGS-2"},
			risks:       []configv1.ConditionalUpdateRisk{a, b, c},
			want:        []seen{{"risk/BRiskName", "error", "Conditional update risk BRiskName applies to the update to 4.17.3: B breaks."}},
		},
		{
			name:        "a risk whose name is no condition reason",
			recommended: &metav1.Condition{Status: metav1.ConditionFalse, Reason: "ExposedToRisks", Message: "Odd breaks. https://example.com/odd"},
			risks:       []configv1.ConditionalUpdateRisk{a, risk("odd name", "https://example.com/odd", "Odd breaks.", "")},
			want:        []seen{{"risk/odd name", "error", "Conditional update risk odd name applies to the update to 4.17.3: Odd breaks."}},
		},
		{
			name: "one risk applies, one could not be evaluated",
			recommended: &metav1.Condition{Status: metav1.ConditionFalse, Reason: "MultipleReasons",
				Message: unknownExposure(c, "no alerts client") + "\n\nB breaks. https://issues.redhat.com/browse/OCPBUGS-2"},
			risks: []configv1.ConditionalUpdateRisk{a, b, c},
			want: []seen{
				{"risk/BRiskName", "error", "Conditional update risk BRiskName applies to the update to 4.17.3: B breaks."},
				{"risk/CRiskName", "warning", "Whether conditional update risk CRiskName applies to the update to 4.17.3 is not known: C breaks."},
			},
		},
		{
			name: "one risk applies, one could not be evaluated, in the words of a 4.12 cluster",
			recommended: &metav1.Condition{Status: metav1.ConditionFalse, Reason: "MultipleReasons",
				Message: "B breaks. https://issues.redhat.com/browse/OCPBUGS-2\n\n" + legacyUnknownExposure(c, "client-side throttling: only 4m0s has elapsed")},
			risks: []configv1.ConditionalUpdateRisk{a, b, c},
			want: []seen{
				{"risk/BRiskName", "error", "Conditional update risk BRiskName applies to the update to 4.17.3: B breaks."},
				{"risk/CRiskName", "warning", "Whether conditional update risk CRiskName applies to the update to 4.17.3 is not known: C breaks."},
			},
		},
		{
			name:        "the only risk could not be evaluated, in the words of a 4.12 cluster",
			recommended: &metav1.Condition{Status: metav1.ConditionUnknown, Reason: "EvaluationFailed", Message: legacyUnknownExposure(a, "no alerts client")},
			risks:       []configv1.ConditionalUpdateRisk{a},
			want:        []seen{{"risk/ARiskName", "warning", "Whether conditional update risk ARiskName applies to the update to 4.17.3 is not known: A breaks."}},
		},
		{
			name:        "no Recommended condition yet",
			recommended: nil,
			risks:       []configv1.ConditionalUpdateRisk{a},
			want:        []seen{{"risk/ARiskName", "warning", "Whether conditional update risk ARiskName applies to the update to 4.17.3 is not known: A breaks."}},
		},
		{
			name:        "a per-risk Applies condition that is Unknown",
			recommended: &metav1.Condition{Status: metav1.ConditionUnknown, Reason: "EvaluationFailed", Message: "whatever"},
			risks:       []configv1.ConditionalUpdateRisk{risk("PromQLRisk", "https://example.com/p", "P breaks.", metav1.ConditionUnknown)},
			want:        []seen{{"risk/PromQLRisk", "warning", "Whether conditional update risk PromQLRisk applies to the update to 4.17.3 is not known: P breaks."}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cv := clusterVersion(func(cv *configv1.ClusterVersion) {
				u := configv1.ConditionalUpdate{Release: configv1.Release{Version: "4.17.3"}, Risks: tt.risks}
				if tt.recommended != nil {
					r := *tt.recommended
					r.Type = "Recommended"
					u.Conditions = []metav1.Condition{r}
				}
				cv.Status.ConditionalUpdates = []configv1.ConditionalUpdate{u}
			})
			got := notOffered(&Input{ClusterVersion: cv, Target: "4.17.3", Now: now})
			if diff := cmp.Diff(tt.want, seenOf(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
