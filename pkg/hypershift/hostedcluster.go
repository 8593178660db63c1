package hypershift

import (
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Group is HyperShift's API group.
const Group = "hypershift.openshift.io"

var (
	// HostedClusters, NodePools and ControlPlaneComponents are the
	// resources read of HyperShift, in the version it serves and stores
	// (api/hypershift/v1beta1/groupversion_info.go).
	HostedClusters         = schema.GroupVersionResource{Group: Group, Version: "v1beta1", Resource: "hostedclusters"}
	NodePools              = schema.GroupVersionResource{Group: Group, Version: "v1beta1", Resource: "nodepools"}
	ControlPlaneComponents = schema.GroupVersionResource{Group: Group, Version: "v1beta1", Resource: "controlplanecomponents"}
)

// ForceUpgradeToAnnotation on a HostedCluster names a release image that
// HyperShift updates to even while the guest's ClusterVersion says it is not
// upgradeable (hostedcluster_types.go ForceUpgradeToAnnotation;
// hypershift-operator/controllers/hostedcluster/hostedcluster_controller.go
// isUpgrading).
const ForceUpgradeToAnnotation = "hypershift.openshift.io/force-upgrade-to"

// HostedCluster condition types read (hostedcluster_conditions.go). The
// ClusterVersion* ones are the guest ClusterVersion's conditions, copied by
// the HostedCluster controller from its HostedControlPlane's.
const (
	HostedClusterAvailable          = "Available"
	HostedClusterProgressing        = "Progressing"
	HostedClusterDegraded           = "Degraded"
	ClusterVersionSucceeding        = "ClusterVersionSucceeding"
	ClusterVersionUpgradeable       = "ClusterVersionUpgradeable"
	ClusterVersionFailing           = "ClusterVersionFailing"
	ClusterVersionProgressing       = "ClusterVersionProgressing"
	ClusterVersionAvailable         = "ClusterVersionAvailable"
	ClusterVersionReleaseAccepted   = "ClusterVersionReleaseAccepted"
	ValidReleaseImage               = "ValidReleaseImage"
	ValidReleaseInfo                = "ValidReleaseInfo"
	ValidHostedClusterConfiguration = "ValidConfiguration"
	SupportedHostedCluster          = "SupportedHostedCluster"
	ReconciliationActive            = "ReconciliationActive"

	// BlockedReason is the HostedCluster Progressing reason while an
	// update cannot start (hostedcluster_conditions.go BlockedReason).
	BlockedReason = "Blocked"
)

// HostedCluster is a hosted cluster as its namespace on the management
// cluster holds it (hostedcluster_types.go HostedCluster).
type HostedCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              HostedClusterSpec   `json:"spec,omitempty"`
	Status            HostedClusterStatus `json:"status,omitempty"`
}

// HostedClusterSpec is what of hostedcluster_types.go HostedClusterSpec is
// read.
type HostedClusterSpec struct {
	// Release is the desired release (HostedClusterSpec.Release).
	Release Release `json:"release"`
	// ControlPlaneRelease, when set, is the release of the management-side
	// components instead of Release (HostedClusterSpec.ControlPlaneRelease;
	// support/util HCControlPlaneReleaseImage).
	ControlPlaneRelease *Release `json:"controlPlaneRelease,omitempty"`
	// Channel is the update channel (HostedClusterSpec.Channel).
	Channel string `json:"channel,omitempty"`
}

// Release is a release image (hostedcluster_types.go Release).
type Release struct {
	Image string `json:"image"`
}

// HostedClusterStatus is what of hostedcluster_types.go HostedClusterStatus
// is read.
type HostedClusterStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// Version is the guest ClusterVersion's status as the HostedCluster
	// controller copies it (computeClusterVersionStatus).
	Version *ClusterVersionStatus `json:"version,omitempty"`
	// ControlPlaneVersion is the management-side components' rollout
	// (controlplaneversion_types.go), written by newer HyperShift only.
	ControlPlaneVersion ControlPlaneVersionStatus `json:"controlPlaneVersion,omitempty"`
}

// ClusterVersionStatus is hostedcluster_types.go ClusterVersionStatus.
type ClusterVersionStatus struct {
	Desired            DesiredRelease           `json:"desired"`
	History            []configv1.UpdateHistory `json:"history,omitempty"`
	ObservedGeneration int64                    `json:"observedGeneration"`
}

// DesiredRelease is what of openshift/api config/v1 Release, the type of
// both statuses' desired release, is read. HyperShift's schema lags
// openshift/api's (it has no architecture), so the type is not reused.
type DesiredRelease struct {
	Version string `json:"version,omitempty"`
	Image   string `json:"image,omitempty"`
}

// ControlPlaneVersionStatus is controlplaneversion_types.go
// ControlPlaneVersionStatus.
type ControlPlaneVersionStatus struct {
	Desired            DesiredRelease              `json:"desired,omitempty"`
	History            []ControlPlaneUpdateHistory `json:"history,omitempty"`
	ObservedGeneration int64                       `json:"observedGeneration,omitempty"`
}

// ControlPlaneUpdateHistory is controlplaneversion_types.go
// ControlPlaneUpdateHistory.
type ControlPlaneUpdateHistory struct {
	State          configv1.UpdateState `json:"state,omitempty"`
	StartedTime    metav1.Time          `json:"startedTime,omitempty"`
	CompletionTime *metav1.Time         `json:"completionTime,omitempty"`
	Version        string               `json:"version,omitempty"`
	Image          string               `json:"image,omitempty"`
}

// ControlPlaneReleaseImage is the release image HyperShift rolls the control
// plane out to: spec.controlPlaneRelease's when set, else spec.release's
// (support/util/util.go HCControlPlaneReleaseImage).
func (hc *HostedCluster) ControlPlaneReleaseImage() string {
	if hc.Spec.ControlPlaneRelease != nil {
		return hc.Spec.ControlPlaneRelease.Image
	}
	return hc.Spec.Release.Image
}

// ControlPlaneNamespace is the namespace of a HostedCluster's control plane,
// where its HostedControlPlane, ControlPlaneComponents and Cluster API
// objects live (hypershift-operator/controllers/manifests/manifests.go
// HostedControlPlaneNamespace).
func ControlPlaneNamespace(namespace, name string) string {
	return namespace + "-" + name
}
