package prechecks

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// plan175 is a plan of 4.17.5, which clusterVersion is not offered, with
// these labels.
func plan175(labels map[string]string) *insightsv1alpha1.UpdatePlan {
	return &insightsv1alpha1.UpdatePlan{
		ObjectMeta: metav1.ObjectMeta{Name: "4.17.5", UID: "uid-175", Labels: labels},
		Spec:       insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.5", EvaluationRequest: "r0"},
	}
}

// A release the cluster is not offered is said so first, then checked as
// any other, as oc adm upgrade recommend --version evaluates what applies to
// any update; its plan is deleted once printed unless --allow-not-offered
// keeps it, and findings are accepted only in a plan that is kept.
func TestATargetNotOffered(t *testing.T) {
	oneOff := map[string]string{insightsv1alpha1.OneOffCheckLabel: "true"}
	first := "Warning: 4.17.5 is not an update offered to this cluster: upgrade refuses it until it is. " + offers
	deleted := "UpdatePlan 4.17.5 was deleted, as 4.17.5 is not offered: to keep it, and accept its findings before it is offered, add --allow-not-offered."
	notReady := "the update to 4.17.5 is not ready: not accepted: OVNHang, slow-etcd"
	testCases := []struct {
		name     string
		existing []*insightsv1alpha1.UpdatePlan
		lag      int
		args     []string
		// wantFirst and wantLast are stdout's first and last lines, errOut
		// stderr.
		wantFirst, wantLast, errOut string
		wantErr                     string
		// plans are the plans left, each with its labels; nil for none.
		plans map[string]map[string]string
	}{
		{
			name: "said first, checked, and its plan deleted", args: []string{"--to", "4.17.5"},
			wantFirst: first, wantLast: deleted, wantErr: notReady,
		},
		{
			name: "for a script, the deletion said on stderr", args: []string{"--to", "4.17.5", "-o", "json"},
			wantFirst: "{", wantLast: "}", errOut: deleted + "\n", wantErr: notReady,
		},
		{
			name: "deleted when the command gives up too", args: []string{"--to", "4.17.5", "--timeout", "50ms"}, lag: 1 << 30,
			errOut:  "UpdatePlan 4.17.5: waiting for the findings of mco (0s)\n",
			wantErr: "gave up on UpdatePlan 4.17.5 after 50ms (--timeout) waiting for the findings of mco",
		},
		{
			name: "kept on request", args: []string{"--to", "4.17.5", "--allow-not-offered"},
			wantFirst: first, wantLast: "Run with --details for descriptions, references and identities; accept findings with --accept NAME[,NAME...]",
			wantErr: notReady, plans: map[string]map[string]string{"4.17.5": nil},
		},
		{
			name: "a plan someone keeps is kept", args: []string{"--to", "4.17.5"}, existing: []*insightsv1alpha1.UpdatePlan{plan175(nil)},
			wantFirst: first, wantLast: "Run with --details for descriptions, references and identities; accept findings with --accept NAME[,NAME...]",
			wantErr: notReady, plans: map[string]map[string]string{"4.17.5": nil},
		},
		{
			name: "a one-off plan a killed check left is deleted", args: []string{"--to", "4.17.5"}, existing: []*insightsv1alpha1.UpdatePlan{plan175(oneOff)},
			wantFirst: first, wantLast: deleted, wantErr: notReady,
		},
		{
			name: "a one-off plan is kept on request", args: []string{"--to", "4.17.5", "--allow-not-offered"}, existing: []*insightsv1alpha1.UpdatePlan{plan175(oneOff)},
			wantFirst: first, wantLast: "Run with --details for descriptions, references and identities; accept findings with --accept NAME[,NAME...]",
			wantErr: notReady, plans: map[string]map[string]string{"4.17.5": nil},
		},
		{
			name: "accepting needs a plan that is kept", args: []string{"--to", "4.17.5", "--accept", riskID}, existing: []*insightsv1alpha1.UpdatePlan{plan175(oneOff)},
			wantErr: "4.17.5 is not an update offered to this cluster: findings are accepted only in a plan that is kept, " +
				"which --allow-not-offered asks for; nothing was accepted. " + offers,
			plans: map[string]map[string]string{"4.17.5": oneOff},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			client, clock := setUp(tc.lag, tc.existing...)
			newClients := fakeClientsWith(client, kubefake.NewSimpleClientset(), configfake.NewSimpleClientset(clusterVersion()))
			out, errOut, err := runWithClients(t, newClients, clock, tc.args...)
			if diff := cmp.Diff(tc.wantErr, errString(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if got := lines[0]; got != tc.wantFirst {
				t.Errorf("stdout begins %q, want %q:\n%s", got, tc.wantFirst, out)
			}
			if got := lines[len(lines)-1]; got != tc.wantLast {
				t.Errorf("stdout ends %q, want %q:\n%s", got, tc.wantLast, out)
			}
			if diff := cmp.Diff(tc.errOut, errOut); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			list, err := client.Tracker().List(plans, plans.GroupVersion().WithKind("UpdatePlan"), "")
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]map[string]string
			for _, p := range list.(*insightsv1alpha1.UpdatePlanList).Items {
				// A label removed may leave an empty map.
				if len(p.Labels) == 0 {
					p.Labels = nil
				}
				if got == nil {
					got = map[string]map[string]string{}
				}
				got[p.Name] = p.Labels
			}
			if diff := cmp.Diff(tc.plans, got); diff != "" {
				t.Errorf("plans and their labels (-want +got):\n%s", diff)
			}
		})
	}
}
