package hostedclusters

import (
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// The fixtures are in the shapes HyperShift writes; the messages are copied
// from the code named beside each.

var (
	now     = time.Date(2026, 8, 22, 12, 0, 0, 0, time.UTC)
	started = now.Add(-30 * time.Minute)
)

const (
	image415 = "quay.io/openshift-release-dev/ocp-release@sha256:4150000000000000000000000000000000000000000000000000000000000000"
	image416 = "quay.io/openshift-release-dev/ocp-release@sha256:4160000000000000000000000000000000000000000000000000000000000000"
	image417 = "quay.io/openshift-release-dev/ocp-release@sha256:4170000000000000000000000000000000000000000000000000000000000000"
)

func ago(d time.Duration) metav1.Time { return metav1.NewTime(now.Add(-d)) }

func mtime(t time.Time) *metav1.Time { return timePtr(t) }

type hcOption func(*hypershift.HostedCluster)

// hostedCluster is a HostedCluster whose spec asks for image and whose
// guest ClusterVersion status (desired and history, newest first) is as
// given. Its conditions are those HyperShift sets on a healthy cluster
// (hostedcluster_controller.go: ValidReleaseImage "Release image is valid",
// ValidConfiguration "Configuration passes validation",
// SupportedHostedCluster "HostedCluster is supported by operator
// configuration", ReconciliationActive "Reconciliation active on resource"
// (support/util/pausereconcile.go), ClusterVersionUpgradeable from the CVO
// with reason FromClusterVersion when it has none (hcpstatus.go)).
func hostedCluster(image string, desired hypershift.DesiredRelease, history []configv1.UpdateHistory, opts ...hcOption) *hypershift.HostedCluster {
	hc := &hypershift.HostedCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "guest"},
		Spec:       hypershift.HostedClusterSpec{Release: hypershift.Release{Image: image}},
		Status: hypershift.HostedClusterStatus{
			Version: &hypershift.ClusterVersionStatus{Desired: desired, History: history},
			Conditions: []metav1.Condition{
				cond(hypershift.ValidReleaseImage, metav1.ConditionTrue, "AsExpected", "Release image is valid"),
				cond(hypershift.ValidHostedClusterConfiguration, metav1.ConditionTrue, "AsExpected", "Configuration passes validation"),
				cond(hypershift.SupportedHostedCluster, metav1.ConditionTrue, "AsExpected", "HostedCluster is supported by operator configuration"),
				cond(hypershift.ReconciliationActive, metav1.ConditionTrue, "AsExpected", "Reconciliation active on resource"),
				cond(hypershift.ClusterVersionUpgradeable, metav1.ConditionTrue, "FromClusterVersion", ""),
				cond(hypershift.ClusterVersionSucceeding, metav1.ConditionTrue, "FromClusterVersion", ""),
			},
		},
	}
	for _, o := range opts {
		o(hc)
	}
	return hc
}

// completedAt416 is a cluster that installed 4.15.3 and completed an update
// to 4.16.2 that took 50 minutes; HyperShift's Progressing is False,
// AsExpected, "HostedCluster is at expected version" (reconcile).
func completedAt416() *hypershift.HostedCluster {
	return hostedCluster(image416, hypershift.DesiredRelease{Version: "4.16.2", Image: image416}, []configv1.UpdateHistory{
		completedEntry("4.16.2", image416, 3*time.Hour, 50*time.Minute),
		completedEntry("4.15.3", image415, 30*24*time.Hour, 40*time.Minute),
	},
		withCondition(cond(hypershift.HostedClusterProgressing, metav1.ConditionFalse, "AsExpected", "HostedCluster is at expected version")),
		withCondition(cond(hypershift.ClusterVersionProgressing, metav1.ConditionFalse, "FromClusterVersion", "Cluster version is 4.16.2")))
}

// updatingTo417 is completedAt416 updating to 4.17.1, started 30 minutes
// ago, with the CVO's message (cluster-version-operator pkg/cvo/status.go)
// and HyperShift's Progressing True "HostedCluster is deploying, upgrading,
// or reconfiguring".
func updatingTo417(cvoMessage string, opts ...hcOption) *hypershift.HostedCluster {
	hc := hostedCluster(image417, hypershift.DesiredRelease{Version: "4.17.1", Image: image417}, []configv1.UpdateHistory{
		{State: configv1.PartialUpdate, StartedTime: metav1.NewTime(started), Version: "4.17.1", Image: image417},
		completedEntry("4.16.2", image416, 3*time.Hour, 50*time.Minute),
		completedEntry("4.15.3", image415, 30*24*time.Hour, 40*time.Minute),
	},
		withCondition(cond(hypershift.HostedClusterProgressing, metav1.ConditionTrue, "Progressing", "HostedCluster is deploying, upgrading, or reconfiguring")),
		withCondition(cond(hypershift.ClusterVersionProgressing, metav1.ConditionTrue, "FromClusterVersion", cvoMessage)))
	for _, o := range opts {
		o(hc)
	}
	return hc
}

// blockedAt416 is completedAt416 asked for image (spec.release.image), with
// HyperShift's Progressing False, reason Blocked, and the message
// isProgressing returns (hostedcluster_controller.go).
func blockedAt416(image, message string, opts ...hcOption) *hypershift.HostedCluster {
	hc := completedAt416()
	hc.Spec.Release.Image = image
	withCondition(cond(hypershift.HostedClusterProgressing, metav1.ConditionFalse, hypershift.BlockedReason, message))(hc)
	for _, o := range opts {
		o(hc)
	}
	return hc
}

func completedEntry(version, image string, startedAgo, took time.Duration) configv1.UpdateHistory {
	completion := ago(startedAgo - took)
	return configv1.UpdateHistory{State: configv1.CompletedUpdate, StartedTime: ago(startedAgo), CompletionTime: &completion, Version: version, Image: image, Verified: true}
}

func cond(t string, s metav1.ConditionStatus, reason, message string) metav1.Condition {
	return metav1.Condition{Type: t, Status: s, Reason: reason, Message: message, LastTransitionTime: ago(2 * time.Hour)}
}

// withCondition sets a condition, replacing one of its type.
func withCondition(c metav1.Condition) hcOption {
	return func(hc *hypershift.HostedCluster) {
		for i := range hc.Status.Conditions {
			if hc.Status.Conditions[i].Type == c.Type {
				hc.Status.Conditions[i] = c
				return
			}
		}
		hc.Status.Conditions = append(hc.Status.Conditions, c)
	}
}

func withAnnotation(key, value string) hcOption {
	return func(hc *hypershift.HostedCluster) {
		hc.Annotations = map[string]string{key: value}
	}
}

// component is a ControlPlaneComponent as support/controlplane-component/
// status.go writes it: the version only once rolled out, and
// RolloutComplete from the Deployment (deployment.go IsReady).
func component(name, version string, rolledOut bool) *hypershift.ControlPlaneComponent {
	rollout := cond(hypershift.ControlPlaneComponentRolloutComplete, metav1.ConditionTrue, "AsExpected", "Deployment "+name+" successfully rolled out")
	if !rolledOut {
		rollout = cond(hypershift.ControlPlaneComponentRolloutComplete, metav1.ConditionFalse, "WaitingForRolloutComplete",
			"Waiting for deployment "+name+" rollout to finish: 1 out of 3 new replicas have been updated")
	}
	return &hypershift.ControlPlaneComponent{
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters-guest", Name: name},
		Status:     hypershift.ControlPlaneComponentStatus{Version: version, Conditions: []metav1.Condition{rollout}},
	}
}

func nodePool(current string, updating, healthy metav1.ConditionStatus, problems ...insightsv1alpha1.HostedProblem) insightsv1alpha1.NodePoolProgressInsightStatus {
	return insightsv1alpha1.NodePoolProgressInsightStatus{
		HostedCluster: "guest",
		Versions:      insightsv1alpha1.NodePoolVersions{Current: current},
		Conditions: []metav1.Condition{
			{Type: insightsv1alpha1.HostedProgressInsightUpdating, Status: updating},
			{Type: insightsv1alpha1.HostedProgressInsightHealthy, Status: healthy},
		},
		Problems: problems,
	}
}
