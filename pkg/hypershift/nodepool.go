package hypershift

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// NodePool upgrade types (nodepool_types.go UpgradeType).
const (
	UpgradeTypeReplace = "Replace"
	UpgradeTypeInPlace = "InPlace"
)

// NodePool condition types read (nodepool_conditions.go).
const (
	NodePoolUpdatingVersion                 = "UpdatingVersion"
	NodePoolUpdatingConfig                  = "UpdatingConfig"
	NodePoolUpdatingPlatformMachineTemplate = "UpdatingPlatformMachineTemplate"
	NodePoolReady                           = "Ready"
	NodePoolAllMachinesReady                = "AllMachinesReady"
	NodePoolAllNodesHealthy                 = "AllNodesHealthy"
	NodePoolSupportedVersionSkew            = "SupportedVersionSkew"
	NodePoolReachedIgnitionEndpoint         = "ReachedIgnitionEndpoint"
	NodePoolValidReleaseImage               = "ValidReleaseImage"
	NodePoolValidGeneratedPayload           = "ValidGeneratedPayload"
	NodePoolReconciliationActive            = "ReconciliationActive"
)

const (
	// NodePoolAnnotation on a MachineDeployment, MachineSet or Machine
	// names its NodePool as namespace/name (hypershift-operator/
	// controllers/nodepool/capi.go nodePoolAnnotation).
	NodePoolAnnotation = "hypershift.openshift.io/nodePool"
	// ReleaseVersionAnnotation on a Machine is the release its node runs
	// (nodepool_types.go NodePoolReleaseVersionAnnotation): set from the
	// MachineDeployment's template on a Replace NodePool, by the in-place
	// upgrader once the node is updated on an InPlace one.
	ReleaseVersionAnnotation = "hypershift.openshift.io/release-version"
)

// NodePool is a pool of a hosted cluster's nodes, in the HostedCluster's
// namespace (nodepool_types.go NodePool).
type NodePool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              NodePoolSpec   `json:"spec,omitempty"`
	Status            NodePoolStatus `json:"status,omitempty"`
}

// NodePoolSpec is what of NodePoolSpec is read.
type NodePoolSpec struct {
	// ClusterName is the HostedCluster's name, in the same namespace.
	ClusterName string `json:"clusterName"`
	// Release is the release the NodePool's nodes are to run.
	Release    Release            `json:"release"`
	Replicas   *int32             `json:"replicas,omitempty"`
	Management NodePoolManagement `json:"management"`
	// AutoScaling, when set, bounds the replicas instead of Replicas.
	AutoScaling *NodePoolAutoScaling `json:"autoScaling,omitempty"`
	// NodeDrainTimeout bounds how long a node's drain may take.
	NodeDrainTimeout *metav1.Duration `json:"nodeDrainTimeout,omitempty"`
	PausedUntil      *string          `json:"pausedUntil,omitempty"`
}

// NodePoolManagement is nodepool_types.go NodePoolManagement.
type NodePoolManagement struct {
	UpgradeType string          `json:"upgradeType"`
	Replace     *ReplaceUpgrade `json:"replace,omitempty"`
	InPlace     *InPlaceUpgrade `json:"inPlace,omitempty"`
}

// ReplaceUpgrade is nodepool_types.go ReplaceUpgrade.
type ReplaceUpgrade struct {
	Strategy      string         `json:"strategy,omitempty"`
	RollingUpdate *RollingUpdate `json:"rollingUpdate,omitempty"`
}

// RollingUpdate is nodepool_types.go RollingUpdate.
type RollingUpdate struct {
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *intstr.IntOrString `json:"maxSurge,omitempty"`
}

// InPlaceUpgrade is nodepool_types.go InPlaceUpgrade.
type InPlaceUpgrade struct {
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
}

// NodePoolAutoScaling is nodepool_types.go NodePoolAutoScaling.
type NodePoolAutoScaling struct {
	Min *int32 `json:"min,omitempty"`
	Max int32  `json:"max"`
}

// NodePoolStatus is what of NodePoolStatus is read.
type NodePoolStatus struct {
	Replicas int32 `json:"replicas"`
	// Version is the release every node runs: it changes only once a
	// rollout is complete.
	Version string `json:"version,omitempty"`
	// NodesInfo counts the nodes by version; newer HyperShift only
	// (hypershift-operator/controllers/nodepool/version.go).
	NodesInfo  NodePoolNodesInfo   `json:"nodesInfo,omitempty"`
	Conditions []NodePoolCondition `json:"conditions,omitempty"`
}

// NodePoolNodesInfo is nodepool_types.go NodePoolNodesInfo.
type NodePoolNodesInfo struct {
	NodeVersions []NodeVersion `json:"nodeVersions,omitempty"`
}

// NodeVersion is nodepool_types.go NodeVersion.
type NodeVersion struct {
	OCPVersion       string `json:"ocpVersion,omitempty"`
	KubeletVersion   string `json:"kubeletVersion,omitempty"`
	ReadyNodeCount   *int32 `json:"readyNodeCount,omitempty"`
	UnreadyNodeCount *int32 `json:"unreadyNodeCount,omitempty"`
}

// NodePoolCondition is nodepool_types.go NodePoolCondition, a condition of
// Cluster API's older shape.
type NodePoolCondition struct {
	Type               string                 `json:"type"`
	Status             corev1.ConditionStatus `json:"status"`
	Severity           string                 `json:"severity,omitempty"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
	ObservedGeneration int64                  `json:"observedGeneration,omitempty"`
}

// Condition returns the NodePool's condition of type t, nil without one.
func (n *NodePool) Condition(t string) *NodePoolCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == t {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}
