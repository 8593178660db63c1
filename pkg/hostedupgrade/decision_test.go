package hostedupgrade

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

var started = metav1.NewTime(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))

func image(version string) string {
	return "quay.io/openshift-release-dev/ocp-release:" + version + "-multi"
}

// hostedCluster is a HostedCluster at version, completed, offered the
// available updates; its spec asks for version.
func hostedCluster(version string, available ...string) *hypershift.HostedClusterUpdate {
	hc := &hypershift.HostedClusterUpdate{
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "payments"},
		Spec:       hypershift.HostedClusterSpec{Release: hypershift.Release{Image: image(version)}},
		Status: hypershift.HostedClusterUpdateStatus{Version: &hypershift.OfferedVersionStatus{
			Desired: hypershift.DesiredRelease{Version: version, Image: image(version)},
			History: []configv1.UpdateHistory{{Version: version, Image: image(version), State: configv1.CompletedUpdate, StartedTime: started}},
		}},
	}
	for _, a := range available {
		hc.Status.Version.AvailableUpdates = append(hc.Status.Version.AvailableUpdates, hypershift.DesiredRelease{Version: a, Image: image(a)})
	}
	return hc
}

func withCondition(hc *hypershift.HostedClusterUpdate, conditionType string, status metav1.ConditionStatus, reason, message string) *hypershift.HostedClusterUpdate {
	hc.Status.Conditions = append(hc.Status.Conditions, metav1.Condition{Type: conditionType, Status: status, Reason: reason, Message: message})
	return hc
}

func nodePool(name, cluster, version string) *hypershift.NodePool {
	return &hypershift.NodePool{
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: name},
		Spec:       hypershift.NodePoolSpec{ClusterName: cluster, Release: hypershift.Release{Image: image(version)}},
		Status:     hypershift.NodePoolStatus{Version: version},
	}
}

func TestControlPlane(t *testing.T) {
	notUpgradeable := func(hc *hypershift.HostedClusterUpdate) *hypershift.HostedClusterUpdate {
		return withCondition(hc, hypershift.ClusterVersionUpgradeable, metav1.ConditionFalse, "AdminAckRequired", "Kubernetes 1.32 removes APIs")
	}
	for _, tc := range []struct {
		name                string
		hc                  *hypershift.HostedClusterUpdate
		nodePools           []*hypershift.NodePool
		target              string
		allowNotRecommended bool
		want                Decision
	}{
		{
			name:   "an available update",
			hc:     hostedCluster("4.17.3", "4.17.5", "4.18.2"),
			target: "4.18.2",
			want:   Decision{Image: image("4.18.2")},
		},
		{
			name: "already asked for",
			hc: func() *hypershift.HostedClusterUpdate {
				hc := hostedCluster("4.17.3", "4.17.5")
				hc.Spec.Release.Image = image("4.17.5")
				return hc
			}(),
			target: "4.17.5",
			want:   Decision{Already: true},
		},
		{
			name:   "not offered",
			hc:     hostedCluster("4.17.3", "4.17.5", "4.18.2"),
			target: "4.19.0",
			want:   Decision{Refusals: []string{"4.19.0 is not an update offered to this hosted cluster. Offered: 4.18.2, 4.17.5."}},
		},
		{
			name:   "no status.version yet",
			hc:     &hypershift.HostedClusterUpdate{ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "payments"}},
			target: "4.18.2",
			want:   Decision{Refusals: []string{"the HostedCluster has no status.version yet: its control plane has reported no version, so no update is offered to it"}},
		},
		{
			// hostedcluster_controller.go isUpgrading.
			name:   "a minor update while ClusterVersionUpgradeable is False",
			hc:     notUpgradeable(hostedCluster("4.17.3", "4.17.5", "4.18.2")),
			target: "4.18.2",
			want: Decision{Refusals: []string{"4.18.2 is a minor update, which HyperShift does not start while ClusterVersionUpgradeable is False " +
				"(AdminAckRequired: Kubernetes 1.32 removes APIs); a patch update is allowed"}},
		},
		{
			name:   "a patch update while ClusterVersionUpgradeable is False",
			hc:     notUpgradeable(hostedCluster("4.17.3", "4.17.5", "4.18.2")),
			target: "4.17.5",
			want:   Decision{Image: image("4.17.5")},
		},
		{
			name: "a minor update forced by the annotation naming its image",
			hc: func() *hypershift.HostedClusterUpdate {
				hc := notUpgradeable(hostedCluster("4.17.3", "4.18.2"))
				hc.Annotations = map[string]string{hypershift.ForceUpgradeToAnnotation: image("4.18.2")}
				return hc
			}(),
			target: "4.18.2",
			want:   Decision{Image: image("4.18.2")},
		},
		{
			// hostedcluster_controller.go isProgressing.
			name:   "reconciliation paused",
			hc:     withCondition(hostedCluster("4.17.3", "4.17.5"), hypershift.ReconciliationActive, metav1.ConditionFalse, "ReconciliationPaused", "Reconciliation paused until: true"),
			target: "4.17.5",
			want:   Decision{Refusals: []string{"HyperShift starts no update while ReconciliationActive is False (ReconciliationPaused: Reconciliation paused until: true)"}},
		},
		{
			name:   "an invalid image asked for now does not hold a new one",
			hc:     withCondition(hostedCluster("4.17.3", "4.17.5"), hypershift.ValidReleaseImage, metav1.ConditionFalse, "InvalidImage", "failed to lookup release image"),
			target: "4.17.5",
			want:   Decision{Image: image("4.17.5")},
		},
		{
			// support/supportedversion/version.go ValidateVersionSkew.
			name:      "a NodePool that would fall four minors behind",
			hc:        hostedCluster("4.17.3", "4.18.2"),
			nodePools: []*hypershift.NodePool{nodePool("old", "payments", "4.14.9"), nodePool("fine", "payments", "4.15.1"), nodePool("other", "ledger", "4.12.0")},
			target:    "4.18.2",
			want: Decision{Refusals: []string{"NodePool clusters/old runs 4.14.9, which would be 4 minor releases behind 4.18.2; " +
				"HyperShift supports NodePools up to 3 behind their control plane: update it first"}},
		},
		{
			name:      "a NodePool with no version yet",
			hc:        hostedCluster("4.17.3", "4.17.5"),
			nodePools: []*hypershift.NodePool{nodePool("new", "payments", "")},
			target:    "4.17.5",
			want: Decision{Image: image("4.17.5"), Warnings: []string{
				"NodePool clusters/new reports no version yet: its skew against 4.17.5 is not checked"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ControlPlane(tc.hc, tc.nodePools, tc.target, tc.allowNotRecommended)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConditionalUpdates(t *testing.T) {
	conditional := func(status metav1.ConditionStatus) *hypershift.HostedClusterUpdate {
		hc := hostedCluster("4.17.3")
		hc.Status.Version.ConditionalUpdates = []hypershift.ConditionalUpdate{{
			Release:    hypershift.DesiredRelease{Version: "4.17.6", Image: image("4.17.6")},
			Risks:      []hypershift.ConditionalUpdateRisk{{Name: "AWSOldBootImages", Message: "Nodes may fail to boot", URL: "https://issues.redhat.com/browse/OCPBUGS-1"}},
			Conditions: []metav1.Condition{{Type: "Recommended", Status: status, Reason: "AWSOldBootImages", Message: "Nodes may fail to boot"}},
		}}
		return hc
	}
	for _, tc := range []struct {
		name                string
		hc                  *hypershift.HostedClusterUpdate
		allowNotRecommended bool
		want                Decision
	}{
		{name: "recommended", hc: conditional(metav1.ConditionTrue), want: Decision{Image: image("4.17.6")}},
		{
			name: "not recommended",
			hc:   conditional(metav1.ConditionFalse),
			want: Decision{Refusals: []string{"4.17.6 is a conditional update not recommended for this cluster: risks AWSOldBootImages " +
				"(Recommended=False: Nodes may fail to boot); --allow-not-recommended updates to it anyway"}},
		},
		{
			name:                "not recommended, allowed",
			hc:                  conditional(metav1.ConditionFalse),
			allowNotRecommended: true,
			want: Decision{Image: image("4.17.6"), Warnings: []string{
				"4.17.6 is a conditional update not recommended for this cluster: risks AWSOldBootImages (Recommended=False: Nodes may fail to boot)"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ControlPlane(tc.hc, nil, "4.17.6", tc.allowNotRecommended)); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNodePool(t *testing.T) {
	// A control plane that completed 4.17.3, then 4.18.2.
	updated := func() *hypershift.HostedClusterUpdate {
		hc := hostedCluster("4.18.2")
		hc.Status.Version.History = append(hc.Status.Version.History,
			configv1.UpdateHistory{Version: "4.17.3", Image: image("4.17.3"), State: configv1.CompletedUpdate, StartedTime: started})
		return hc
	}
	// A control plane on its way from 4.18.2 to 4.19.1.
	updating := func() *hypershift.HostedClusterUpdate {
		hc := updated()
		hc.Status.Version.Desired = hypershift.DesiredRelease{Version: "4.19.1", Image: image("4.19.1")}
		hc.Status.Version.History = append([]configv1.UpdateHistory{{Version: "4.19.1", Image: image("4.19.1"), State: configv1.PartialUpdate, StartedTime: started}}, hc.Status.Version.History...)
		return hc
	}
	for _, tc := range []struct {
		name   string
		np     *hypershift.NodePool
		hc     *hypershift.HostedClusterUpdate
		target string
		want   Decision
	}{
		{name: "to the control plane's release", np: nodePool("workers", "payments", "4.17.3"), hc: updated(), target: "4.18.2", want: Decision{Image: image("4.18.2")}},
		{name: "already asked for", np: nodePool("workers", "payments", "4.18.2"), hc: updated(), target: "4.18.2", want: Decision{Already: true}},
		{
			name: "to a release the control plane is still updating to", np: nodePool("workers", "payments", "4.18.2"), hc: updating(), target: "4.19.1",
			want: Decision{Refusals: []string{"4.19.1 is not a release the control plane of clusters/payments runs or ran (4.18.2): a NodePool runs a release of its control plane; update the control plane first"}},
		},
		{
			name: "back to an older minor", np: nodePool("workers", "payments", "4.18.2"), hc: updated(), target: "4.17.3",
			want: Decision{Refusals: []string{"4.17.3 is a minor release older than 4.18.2, which the NodePool runs"}},
		},
		{
			name: "of another cluster", np: nodePool("workers", "ledger", "4.17.3"), hc: updated(), target: "4.18.2",
			want: Decision{Refusals: []string{"NodePool clusters/workers belongs to HostedCluster clusters/ledger, not clusters/payments"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, NodePool(tc.np, tc.hc, tc.target)); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
		})
	}
}
