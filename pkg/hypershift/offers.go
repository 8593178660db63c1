package hypershift

import (
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// HostedClusterUpdate is what the upgrade command reads of a HostedCluster:
// what HostedCluster holds and the releases the guest's cluster-version
// operator is offered, which the HostedCluster controller copies up with the
// rest of its status (hostedcluster_controller.go
// computeClusterVersionStatus). A type apart, so that the operator's caches
// of every HostedCluster do not hold every cluster's offers.
type HostedClusterUpdate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              HostedClusterSpec         `json:"spec,omitempty"`
	Status            HostedClusterUpdateStatus `json:"status,omitempty"`
}

// HostedClusterUpdateStatus is what of HostedClusterStatus the upgrade
// command reads.
type HostedClusterUpdateStatus struct {
	Conditions []metav1.Condition    `json:"conditions,omitempty"`
	Version    *OfferedVersionStatus `json:"version,omitempty"`
}

// OfferedVersionStatus is hostedcluster_types.go ClusterVersionStatus with
// its offers.
type OfferedVersionStatus struct {
	Desired DesiredRelease           `json:"desired"`
	History []configv1.UpdateHistory `json:"history,omitempty"`
	// AvailableUpdates are the recommended updates
	// (ClusterVersionStatus.AvailableUpdates).
	AvailableUpdates []DesiredRelease `json:"availableUpdates"`
	// ConditionalUpdates are the updates recommended to some clusters
	// only, with the guest's evaluation of their risks
	// (ClusterVersionStatus.ConditionalUpdates).
	ConditionalUpdates []ConditionalUpdate `json:"conditionalUpdates,omitempty"`
}

// ConditionalUpdate is what of openshift/api config/v1 ConditionalUpdate,
// the type HyperShift's schema holds, is read.
type ConditionalUpdate struct {
	Release DesiredRelease          `json:"release"`
	Risks   []ConditionalUpdateRisk `json:"risks"`
	// Conditions hold Recommended, the guest's evaluation of the risks.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// ConditionalUpdateRisk is what of config/v1 ConditionalUpdateRisk is read.
type ConditionalUpdateRisk struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	URL     string `json:"url"`
}

// ControlPlaneReleaseImage is HostedCluster.ControlPlaneReleaseImage's.
func (hc *HostedClusterUpdate) ControlPlaneReleaseImage() string {
	if hc.Spec.ControlPlaneRelease != nil {
		return hc.Spec.ControlPlaneRelease.Image
	}
	return hc.Spec.Release.Image
}
