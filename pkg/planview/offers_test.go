package planview

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestCheckVersion(t *testing.T) {
	testCases := []struct {
		target string
		want   string
	}{
		{target: "4.17.3"},
		{target: "4.18.0-ec.2"},
		{target: "4.15.0-0.nightly-2023-10-17-065657"},
		{target: "garbage", want: `--to "garbage" is not a release version such as 4.17.3 or 4.18.0-ec.2 (No Major.Minor.Patch elements found)`},
		{target: "4.17", want: `--to "4.17" is not a release version such as 4.17.3 or 4.18.0-ec.2 (No Major.Minor.Patch elements found)`},
		{target: "v4.17.3", want: `--to "v4.17.3" is not a release version such as 4.17.3 or 4.18.0-ec.2 (Invalid character(s) found in major number "v4")`},
		{target: "4.17.03", want: `--to "4.17.03" is not a release version such as 4.17.3 or 4.18.0-ec.2 (Patch number must not contain leading zeroes "03")`},
	}
	for _, tc := range testCases {
		t.Run(tc.target, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errString(CheckVersion(tc.target))); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOffers(t *testing.T) {
	many := clusterVersion(metav1.ConditionFalse)
	many.Status.AvailableUpdates = []configv1.Release{{Version: "4.17.2"}, {Version: "4.17.10"}, {Version: "4.17.4"}}
	many.Status.ConditionalUpdates = append(many.Status.ConditionalUpdates,
		// The cluster-version operator lists a recommended conditional
		// update among the available ones too: it is named once.
		configv1.ConditionalUpdate{Release: configv1.Release{Version: "4.17.4"}, Conditions: []metav1.Condition{{Type: "Recommended", Status: metav1.ConditionTrue}}},
		configv1.ConditionalUpdate{Release: configv1.Release{Version: "4.17.5"}, Conditions: []metav1.Condition{{Type: "Recommended", Status: metav1.ConditionUnknown, Reason: "EvaluationFailed"}}},
		configv1.ConditionalUpdate{Release: configv1.Release{Version: "4.17.6"}},
	)
	none := clusterVersion(metav1.ConditionFalse)
	none.Spec.Channel = ""
	none.Status.AvailableUpdates, none.Status.ConditionalUpdates = nil, nil
	none.Status.Conditions = []configv1.ClusterOperatorStatusCondition{{Type: configv1.RetrievedUpdates, Status: configv1.ConditionFalse, Reason: "NoChannel", Message: "The update channel has not been configured."}}
	testCases := []struct {
		name string
		cv   *configv1.ClusterVersion
		want string
	}{
		{
			name: "recommended, then not recommended",
			cv:   clusterVersion(metav1.ConditionFalse),
			want: `In channel "stable-4.17", the cluster is offered 4.17.2 (recommended), 4.17.3 (not recommended: OVNHang).`,
		},
		{
			name: "each list newest first, each release once",
			cv:   many,
			want: `In channel "stable-4.17", the cluster is offered 4.17.10 (recommended), 4.17.4 (recommended), 4.17.2 (recommended), ` +
				`4.17.6 (conditional, no Recommended condition), 4.17.5 (Recommended=Unknown: EvaluationFailed), 4.17.3 (not recommended: OVNHang).`,
		},
		{
			name: "nothing, and why",
			cv:   none,
			want: "The cluster is offered no update. It cannot retrieve its updates (RetrievedUpdates=False, NoChannel): The update channel has not been configured.",
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Offers(tc.cv)); diff != "" {
				t.Errorf("Offers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNotOffered(t *testing.T) {
	cv := clusterVersion(metav1.ConditionFalse)
	testCases := []struct {
		target string
		want   string
	}{
		{target: "4.17.2"},
		{target: "4.17.3"},
		{target: "4.17.5", want: `4.17.5 is not an update offered to this cluster: upgrade refuses it until it is. In channel "stable-4.17", the cluster is offered 4.17.2 (recommended), 4.17.3 (not recommended: OVNHang).`},
		{target: "4.17.1", want: `4.17.1 is not an update offered to this cluster: upgrade refuses it until it is. In channel "stable-4.17", the cluster is offered 4.17.2 (recommended), 4.17.3 (not recommended: OVNHang).`},
	}
	for _, tc := range testCases {
		t.Run(tc.target, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, NotOffered(cv, tc.target)); diff != "" {
				t.Errorf("NotOffered (-want +got):\n%s", diff)
			}
			if got := Offered(cv, tc.target); got != (tc.want == "") {
				t.Errorf("Offered = %t", got)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
