package planview

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestAccept(t *testing.T) {
	withSpec := func(accepted ...insightsv1alpha1.AcceptedInsight) *insightsv1alpha1.UpdatePlan {
		p := plan()
		p.Spec.AcceptedInsights = accepted
		return p
	}
	// twoRisks has, beside the risk OVNHang, an informer's finding of that
	// uid: "OVNHang" names neither.
	twoRisks := plan()
	twoRisks.Status.ControlPlane.Informers = append(twoRisks.Status.ControlPlane.Informers, insightsv1alpha1.InformerPlanInsights{
		Name: "ovn-informer",
		Insights: []insightsv1alpha1.UpdatePlanInsight{{UpdateInsight: insight("OVNHang", insightsv1alpha1.WarningInsightLevel, "OVN hangs"),
			Identity: "ovn-informer/ControlPlane//OVNHang"}},
	})
	other := insightsv1alpha1.AcceptedInsight{UpdateInformer: "gone", UID: "gone/ControlPlane//old", Accepted: true}
	risk := insightsv1alpha1.AcceptedInsight{UpdateInformer: "update-insights-operator", UID: riskID, Accepted: true}
	reboot := insightsv1alpha1.AcceptedInsight{UpdateInformer: "mco", UID: rebootID, Accepted: true}
	testCases := []struct {
		name       string
		plan       *insightsv1alpha1.UpdatePlan
		identities []string
		informers  []string
		want       Acceptance
		wantErr    string
	}{
		{
			name: "merged with what the spec accepts", plan: withSpec(other), identities: []string{riskID},
			want: Acceptance{AcceptedInsights: []insightsv1alpha1.AcceptedInsight{other, risk}, Identities: []string{riskID}, Changed: true},
		},
		{
			name: "already accepted", plan: withSpec(risk), identities: []string{riskID},
			want: Acceptance{AcceptedInsights: []insightsv1alpha1.AcceptedInsight{risk}, Identities: []string{riskID}},
		},
		{
			name: "accepted again after being refused", plan: withSpec(insightsv1alpha1.AcceptedInsight{UpdateInformer: "mco", UID: rebootID}), identities: []string{rebootID},
			want: Acceptance{AcceptedInsights: []insightsv1alpha1.AcceptedInsight{reboot}, Identities: []string{rebootID}, Changed: true},
		},
		{
			name: "all of an informer's, without its status-level findings", plan: plan(), informers: []string{"update-insights-operator"},
			want: Acceptance{AcceptedInsights: []insightsv1alpha1.AcceptedInsight{risk}, Identities: []string{riskID}, Changed: true},
		},
		{
			name: "an identity and an informer, once each", plan: plan(), identities: []string{rebootID, rebootID}, informers: []string{"mco"},
			want: Acceptance{AcceptedInsights: []insightsv1alpha1.AcceptedInsight{reboot}, Identities: []string{rebootID}, Changed: true},
		},
		{
			name: "by short name, as the table prints it", plan: plan(), identities: []string{"OVNHang,slow-reboot"},
			want: Acceptance{AcceptedInsights: []insightsv1alpha1.AcceptedInsight{risk, reboot}, Identities: []string{riskID, rebootID}, Changed: true},
		},
		{
			name: "a name that no longer tells one finding is refused, naming them", plan: twoRisks, identities: []string{"OVNHang"},
			wantErr: "nothing accepted in UpdatePlan 4.17.3: naming several findings: OVNHang (now risk/OVNHang, ovn-informer/OVNHang)",
		},
		{
			name: "unknown identities and informers are named, and nothing accepted", plan: plan(),
			identities: []string{riskID, "mco/WorkerPool/Node/worker-9/slow-reboot", "typo"}, informers: []string{"mco", "nobody"},
			wantErr: "nothing accepted in UpdatePlan 4.17.3: not among the plan's findings: mco/WorkerPool/Node/worker-9/slow-reboot, typo; no finding in the plan is from nobody",
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Accept(tc.plan, tc.identities, tc.informers)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Accept (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReflects(t *testing.T) {
	testCases := []struct {
		name       string
		plan       *insightsv1alpha1.UpdatePlan
		identities []string
		want       bool
	}{
		{name: "shown accepted", plan: plan(riskID), identities: []string{riskID}, want: true},
		{name: "not yet", plan: plan(riskID), identities: []string{riskID, rebootID}},
		{name: "a finding gone needs no acceptance", plan: plan(), identities: []string{"mco/ControlPlane//gone"}, want: true},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Reflects(tc.plan, tc.identities); got != tc.want {
				t.Errorf("Reflects = %t, want %t", got, tc.want)
			}
		})
	}
}
