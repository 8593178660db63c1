package olm

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// now is the clock reading of the tests that build their own objects:
// an hour after updateStarted.
var now = updateStarted.Add(time.Hour)

func mtime(t time.Time) *metav1.Time {
	m := metav1.NewTime(t)
	return &m
}

type csvOption func(*operatorsv1alpha1.ClusterServiceVersion)

// newCSV is a CSV the operator installed in namespace, Succeeded since
// long before now, unless options say otherwise.
func newCSV(namespace, name string, options ...csvOption) *operatorsv1alpha1.ClusterServiceVersion {
	installed := updateStarted.Add(-48 * time.Hour)
	csv := &operatorsv1alpha1.ClusterServiceVersion{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   namespace,
			Name:        name,
			Annotations: map[string]string{operatorsv1alpha1.OperatorNamespaceAnnotation: namespace},
		},
		Status: operatorsv1alpha1.ClusterServiceVersionStatus{
			Phase: operatorsv1alpha1.CSVPhaseSucceeded, Reason: "InstallSucceeded", LastTransitionTime: mtime(installed),
			Conditions: []operatorsv1alpha1.ClusterServiceVersionCondition{
				{Phase: operatorsv1alpha1.CSVPhasePending, Reason: "RequirementsUnknown", LastTransitionTime: mtime(installed.Add(-time.Minute))},
				{Phase: operatorsv1alpha1.CSVPhaseSucceeded, Reason: "InstallSucceeded", LastTransitionTime: mtime(installed)},
			},
		},
	}
	for _, o := range options {
		o(csv)
	}
	return csv
}

// withProperties sets the properties annotation as the catalog operator
// projects it.
func withProperties(annotation string) csvOption {
	return func(csv *operatorsv1alpha1.ClusterServiceVersion) {
		csv.Annotations[operatorsv1alpha1.PropertiesAnnotation] = annotation
	}
}

// withMax declares olm.maxOpenShiftVersion with value, raw JSON: `"4.17"`
// is a string, `4.17` a number.
func withMax(value string) csvOption {
	return withProperties(fmt.Sprintf(`{"properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}},{"type":"olm.maxOpenShiftVersion","value":%s}]}`, value))
}

func withDisplayName(name, version string) csvOption {
	return func(csv *operatorsv1alpha1.ClusterServiceVersion) {
		csv.Spec.DisplayName, csv.Spec.Version = name, version
	}
}

// copiedBy makes the CSV a copy OLM made, by the reason, the operator's
// namespace or the label.
func copiedBy(how string) csvOption {
	return func(csv *operatorsv1alpha1.ClusterServiceVersion) {
		switch how {
		case "reason":
			csv.Status.Reason = operatorsv1alpha1.CSVReasonCopied
		case "annotation":
			csv.Annotations[operatorsv1alpha1.OperatorNamespaceAnnotation] = "operators"
		case "label":
			csv.Labels = map[string]string{operatorsv1alpha1.CopiedLabelKey: "operators"}
		default:
			panic("copiedBy " + how)
		}
	}
}

// entry is one entry of a CSV's phase history.
type entry struct {
	phase  operatorsv1alpha1.ClusterServiceVersionPhase
	reason string
	at     time.Time
}

// withHistory replaces the CSV's phase history; its phase, reason and
// transition time become the newest entry's.
func withHistory(entries ...entry) csvOption {
	return func(csv *operatorsv1alpha1.ClusterServiceVersion) {
		csv.Status.Conditions = nil
		for _, e := range entries {
			csv.Status.Conditions = append(csv.Status.Conditions, operatorsv1alpha1.ClusterServiceVersionCondition{
				Phase: e.phase, Reason: e.reason, Message: "message of " + e.reason, LastTransitionTime: mtime(e.at),
			})
		}
		last := entries[len(entries)-1]
		csv.Status.Phase, csv.Status.Reason, csv.Status.LastTransitionTime = last.phase, last.reason, mtime(last.at)
		csv.Status.Message = "message of " + last.reason
	}
}

// failedSince makes the CSV leave Succeeded for Failed at since.
func failedSince(since time.Time) csvOption {
	return withHistory(
		entry{operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded", since.Add(-24 * time.Hour)},
		entry{operatorsv1alpha1.CSVPhaseFailed, "ComponentUnhealthy", since},
	)
}

// neverSucceeded is a history of n entries, none Succeeded, the oldest at
// first, one a minute: OLM retrying an install that keeps failing.
func neverSucceeded(n int, first time.Time) csvOption {
	cycle := []entry{
		{operatorsv1alpha1.CSVPhaseFailed, "ComponentUnhealthy", time.Time{}},
		{operatorsv1alpha1.CSVPhasePending, "NeedsReinstall", time.Time{}},
		{operatorsv1alpha1.CSVPhaseInstallReady, "AllRequirementsMet", time.Time{}},
		{operatorsv1alpha1.CSVPhaseInstalling, "InstallSucceeded", time.Time{}},
	}
	var entries []entry
	for i := range n {
		e := cycle[i%len(cycle)]
		e.at = first.Add(time.Duration(i) * time.Minute)
		entries = append(entries, e)
	}
	return withHistory(entries...)
}

// componentOf labels the CSV as OLM's adoption controller labels the
// installed CSV of a Subscription to package in the CSV's namespace.
func componentOf(pkg string) csvOption {
	return func(csv *operatorsv1alpha1.ClusterServiceVersion) {
		if csv.Labels == nil {
			csv.Labels = map[string]string{}
		}
		csv.Labels["operators.coreos.com/"+pkg+"."+csv.Namespace] = ""
	}
}

func withPhase(phase operatorsv1alpha1.ClusterServiceVersionPhase, reason string) csvOption {
	return func(csv *operatorsv1alpha1.ClusterServiceVersion) {
		csv.Status.Phase, csv.Status.Reason = phase, reason
	}
}

type subOption func(*operatorsv1alpha1.Subscription)

// newSub is a Subscription with Automatic approval whose installed CSV is
// installed.
func newSub(namespace, name, installed string, options ...subOption) *operatorsv1alpha1.Subscription {
	s := &operatorsv1alpha1.Subscription{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: operatorsv1alpha1.SubscriptionSpec{
			Package: name, Channel: "stable", CatalogSource: "redhat-operators", CatalogSourceNamespace: "openshift-marketplace",
			InstallPlanApproval: operatorsv1alpha1.ApprovalAutomatic,
		},
		Status: operatorsv1alpha1.SubscriptionStatus{InstalledCSV: installed, CurrentCSV: installed},
	}
	for _, o := range options {
		o(s)
	}
	return s
}

// manual gives the Subscription Manual approval and its newest InstallPlan.
func manual(plan string) subOption {
	return func(s *operatorsv1alpha1.Subscription) {
		s.Spec.InstallPlanApproval = operatorsv1alpha1.ApprovalManual
		s.Status.InstallPlanRef = &corev1.ObjectReference{
			APIVersion: "operators.coreos.com/v1alpha1", Kind: "InstallPlan", Namespace: s.Namespace, Name: plan,
		}
	}
}

func withCondition(typ, status, message string) subOption {
	return func(s *operatorsv1alpha1.Subscription) {
		s.Status.Conditions = append(s.Status.Conditions, operatorsv1alpha1.SubscriptionCondition{
			Type: typ, Status: corev1.ConditionStatus(status), Reason: "Deprecated", Message: message, LastTransitionTime: mtime(updateStarted),
		})
	}
}

func newPlan(namespace, name, phase string, approved bool, csvs ...string) *operatorsv1alpha1.InstallPlan {
	return &operatorsv1alpha1.InstallPlan{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       operatorsv1alpha1.InstallPlanSpec{ClusterServiceVersionNames: csvs, Approval: operatorsv1alpha1.ApprovalManual, Approved: approved},
		Status:     operatorsv1alpha1.InstallPlanStatus{Phase: phase},
	}
}

// automaticPlan is the plan as OLM makes it when no Subscription of the
// namespace is Manual: Automatic, approved.
func automaticPlan(p *operatorsv1alpha1.InstallPlan) *operatorsv1alpha1.InstallPlan {
	p.Spec.Approval, p.Spec.Approved = operatorsv1alpha1.ApprovalAutomatic, true
	return p
}

func uids(insights []insightsv1alpha1.UpdateInsight) []string {
	var out []string
	for _, i := range insights {
		out = append(out, i.UID)
	}
	return out
}

func csvRes(namespace, name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: "operators.coreos.com", Kind: "ClusterServiceVersion", Namespace: namespace, Name: name}
}

func subRes(namespace, name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: "operators.coreos.com", Kind: "Subscription", Namespace: namespace, Name: name}
}

func planRes(namespace, name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: "operators.coreos.com", Kind: "InstallPlan", Namespace: namespace, Name: name}
}

// checkBounds fails the test for an insight the API would refuse by its
// sizes.
func checkBounds(t *testing.T, insights []insightsv1alpha1.UpdateInsight) {
	t.Helper()
	for _, i := range insights {
		if i.UID == "" || len(i.UID) > 256 {
			t.Errorf("uid %q: %d bytes, want 1 to 256", i.UID, len(i.UID))
		}
		if s := i.Impact.Summary; s == "" || len(s) > 256 || strings.ContainsAny(s, "\n\r") {
			t.Errorf("insight %s: summary of %d bytes, want one line of 1 to 256: %q", i.UID, len(s), s)
		}
		if d := i.Impact.Description; len(d) > 4096 {
			t.Errorf("insight %s: description of %d bytes, want at most 4096", i.UID, len(d))
		}
	}
}
