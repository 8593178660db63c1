package planview

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// clusterVersion runs 4.17.1 and is offered 4.17.2, and 4.17.3 with the
// risk OVNHang, which applies, and MachineAPI, which does not.
func clusterVersion(recommended metav1.ConditionStatus) *configv1.ClusterVersion {
	return &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Spec:       configv1.ClusterVersionSpec{Channel: "stable-4.17"},
		Status: configv1.ClusterVersionStatus{
			Desired:          configv1.Release{Version: "4.17.1", Image: "quay.io/openshift-release-dev/ocp-release@sha256:1"},
			History:          []configv1.UpdateHistory{{State: configv1.CompletedUpdate, Version: "4.17.1", Image: "quay.io/openshift-release-dev/ocp-release@sha256:1"}},
			AvailableUpdates: []configv1.Release{{Version: "4.17.2", Image: "quay.io/openshift-release-dev/ocp-release@sha256:2"}},
			ConditionalUpdates: []configv1.ConditionalUpdate{{
				Release:    configv1.Release{Version: "4.17.3", Image: "quay.io/openshift-release-dev/ocp-release@sha256:3"},
				Risks:      []configv1.ConditionalUpdateRisk{{Name: "OVNHang"}},
				RiskNames:  []string{"MachineAPI"},
				Conditions: []metav1.Condition{{Type: "Recommended", Status: recommended, Reason: "OVNHang", Message: "OVN may hang.\nSee the bug."}},
			}},
		},
	}
}

func TestDesiredUpdate(t *testing.T) {
	accepting := clusterVersion(metav1.ConditionFalse)
	accepting.Spec.DesiredUpdate = &configv1.Update{Version: "4.17.1", AcceptRisks: []configv1.AcceptRisk{{Name: "Earlier"}, {Name: "OVNHang"}}}
	testCases := []struct {
		name                string
		cv                  *configv1.ClusterVersion
		target              string
		acceptedRisks       []string
		allowNotRecommended bool
		want                Desired
		wantErr             string
	}{
		{
			name: "recommended", cv: clusterVersion(metav1.ConditionFalse), target: "4.17.2",
			want: Desired{Update: configv1.Update{Version: "4.17.2", Image: "quay.io/openshift-release-dev/ocp-release@sha256:2"}},
		},
		{
			name: "not recommended, its risks accepted", cv: clusterVersion(metav1.ConditionFalse), target: "4.17.3",
			acceptedRisks: []string{"OVNHang", "MachineAPI", "SomeOtherUpdatesRisk"}, allowNotRecommended: true,
			want: Desired{
				Update: configv1.Update{Version: "4.17.3", Image: "quay.io/openshift-release-dev/ocp-release@sha256:3",
					AcceptRisks: []configv1.AcceptRisk{{Name: "OVNHang"}, {Name: "MachineAPI"}}},
				Warnings: []string{"the update to 4.17.3 is not recommended, and its risks are accepted (Recommended=False OVNHang: OVN may hang.)"},
			},
		},
		{
			name: "the risks the cluster accepts already are kept", cv: accepting, target: "4.17.3",
			acceptedRisks: []string{"OVNHang"}, allowNotRecommended: true,
			want: Desired{
				Update: configv1.Update{Version: "4.17.3", Image: "quay.io/openshift-release-dev/ocp-release@sha256:3",
					AcceptRisks: []configv1.AcceptRisk{{Name: "Earlier"}, {Name: "OVNHang"}}},
				Warnings: []string{"the update to 4.17.3 is not recommended, and its risks are accepted (Recommended=False OVNHang: OVN may hang.)"},
			},
		},
		{
			name: "conditional and recommended", cv: clusterVersion(metav1.ConditionTrue), target: "4.17.3",
			want: Desired{Update: configv1.Update{Version: "4.17.3", Image: "quay.io/openshift-release-dev/ocp-release@sha256:3"}},
		},
		{
			name: "not recommended and not allowed", cv: clusterVersion(metav1.ConditionFalse), target: "4.17.3",
			wantErr: "the update to 4.17.3 is not recommended (Recommended=False OVNHang: OVN may hang.); accept its risks in the UpdatePlan, or use --allow-not-recommended",
		},
		{
			name: "not offered", cv: clusterVersion(metav1.ConditionFalse), target: "4.18.0",
			wantErr: `4.18.0 is offered neither as a recommended nor as a conditional update to this cluster (channel "stable-4.17")`,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DesiredUpdate(tc.cv, tc.target, tc.acceptedRisks, tc.allowNotRecommended)
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
				t.Errorf("DesiredUpdate (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAcceptedRisks(t *testing.T) {
	p := plan(riskID, rebootID)
	// An informer's finding that looks like a risk is not the operator's.
	p.Status.ControlPlane.Informers = append(p.Status.ControlPlane.Informers, p.Status.ControlPlane.Informers[0])
	p.Status.ControlPlane.Informers[1].Name = "mco"
	if diff := cmp.Diff([]string{"OVNHang"}, AcceptedRisks(p)); diff != "" {
		t.Errorf("AcceptedRisks (-want +got):\n%s", diff)
	}
	if got := AcceptedRisks(plan(rebootID)); got != nil {
		t.Errorf("AcceptedRisks of a plan that accepts no risk = %v", got)
	}
}

func TestAlready(t *testing.T) {
	running := clusterVersion(metav1.ConditionTrue)
	updating := clusterVersion(metav1.ConditionTrue)
	updating.Status.History[0].State = configv1.PartialUpdate
	testCases := []struct {
		name   string
		cv     *configv1.ClusterVersion
		target string
		want   string
	}{
		{name: "the release it runs", cv: running, target: "4.17.1", want: "info: Cluster is already at version 4.17.1"},
		{name: "another release", cv: running, target: "4.17.2"},
		{name: "the release it updates to", cv: updating, target: "4.17.1", want: "info: Cluster is already updating to version 4.17.1"},
		{name: "another release while updating", cv: updating, target: "4.17.2"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Already(tc.cv, tc.target)); diff != "" {
				t.Errorf("Already (-want +got):\n%s", diff)
			}
		})
	}
}
