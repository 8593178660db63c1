package hypershift

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// ClusterAPIGroup is Cluster API's core group. It serves v1beta1 and v1beta2
// and stores v1beta2 (test/testdata/hypershift/cluster.x-k8s.io_*.yaml): the
// operator reads v1beta2, whose conditions are metav1.Conditions
// (cluster-api api/core/v1beta2/machine_types.go).
const ClusterAPIGroup = "cluster.x-k8s.io"

var (
	Machines           = schema.GroupVersionResource{Group: ClusterAPIGroup, Version: "v1beta2", Resource: "machines"}
	MachineSets        = schema.GroupVersionResource{Group: ClusterAPIGroup, Version: "v1beta2", Resource: "machinesets"}
	MachineDeployments = schema.GroupVersionResource{Group: ClusterAPIGroup, Version: "v1beta2", Resource: "machinedeployments"}
)

// In-place upgrade annotations of a NodePool's MachineSet (hypershift-operator/
// controllers/nodepool/nodepool_controller.go): the in-place upgrader writes
// its progress in them, and the NodePool controller turns them into the
// UpdatingVersion and UpdatingConfig conditions (conditions.go).
const (
	// UpgradeInProgressTrueAnnotation holds "…Total Nodes: N. Upgraded: M".
	UpgradeInProgressTrueAnnotation = "hypershift.openshift.io/nodePoolUpgradeInProgressTrue"
	// UpgradeInProgressFalseAnnotation holds "Node X in nodepool degraded: …".
	UpgradeInProgressFalseAnnotation = "hypershift.openshift.io/nodePoolUpgradeInProgressFalse"
	// CurrentConfigVersionAnnotation and TargetConfigVersionAnnotation are
	// equal once an in-place rollout is done (capi.go
	// isInPlaceUpgradeComplete).
	CurrentConfigVersionAnnotation = "hypershift.openshift.io/nodePoolCurrentConfigVersion"
	TargetConfigVersionAnnotation  = "hypershift.openshift.io/nodePoolTargetConfigVersion"
)

// Machine is a Cluster API Machine (api/core/v1beta2/machine_types.go).
type Machine struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            MachineStatus `json:"status,omitempty"`
}

// MachineStatus is what of machine_types.go MachineStatus is read.
type MachineStatus struct {
	// NodeRef names the Machine's node once it has joined.
	NodeRef    *MachineNodeReference  `json:"nodeRef,omitempty"`
	NodeInfo   *corev1.NodeSystemInfo `json:"nodeInfo,omitempty"`
	Phase      string                 `json:"phase,omitempty"`
	Conditions []metav1.Condition     `json:"conditions,omitempty"`
	Deletion   *MachineDeletionStatus `json:"deletion,omitempty"`
}

// MachineNodeReference is machine_types.go MachineNodeReference.
type MachineNodeReference struct {
	Name string `json:"name"`
}

// MachineDeletionStatus is machine_types.go MachineDeletionStatus: when the
// Machine controller started draining the node, and waiting for its volumes.
type MachineDeletionStatus struct {
	NodeDrainStartTime               *metav1.Time `json:"nodeDrainStartTime,omitempty"`
	WaitForNodeVolumeDetachStartTime *metav1.Time `json:"waitForNodeVolumeDetachStartTime,omitempty"`
}

// MachineSet is a Cluster API MachineSet (api/core/v1beta2/machineset_types.go).
type MachineSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MachineSetSpec   `json:"spec,omitempty"`
	Status            MachineSetStatus `json:"status,omitempty"`
}

// MachineSetSpec is what of MachineSetSpec is read.
type MachineSetSpec struct {
	Replicas *int32 `json:"replicas,omitempty"`
}

// MachineSetStatus is what of MachineSetStatus is read.
type MachineSetStatus struct {
	Replicas          *int32             `json:"replicas,omitempty"`
	ReadyReplicas     *int32             `json:"readyReplicas,omitempty"`
	AvailableReplicas *int32             `json:"availableReplicas,omitempty"`
	UpToDateReplicas  *int32             `json:"upToDateReplicas,omitempty"`
	Conditions        []metav1.Condition `json:"conditions,omitempty"`
}

// MachineDeployment is a Cluster API MachineDeployment
// (api/core/v1beta2/machinedeployment_types.go).
type MachineDeployment struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MachineDeploymentSpec   `json:"spec,omitempty"`
	Status            MachineDeploymentStatus `json:"status,omitempty"`
}

// MachineDeploymentSpec is what of MachineDeploymentSpec is read.
type MachineDeploymentSpec struct {
	Replicas *int32 `json:"replicas,omitempty"`
	// Template's annotations carry the NodePool's target release: the
	// NodePool controller sets ReleaseVersionAnnotation there, from which it
	// propagates to new Machines (hypershift-operator/controllers/nodepool/
	// capi.go reconcileMachineDeployment).
	Template MachineTemplateSpec `json:"template,omitempty"`
	// Rollout is how the MachineDeployment replaces its Machines, copied
	// from the NodePool's spec.management.replace (capi.go).
	Rollout MachineDeploymentRollout `json:"rollout,omitempty"`
}

// MachineTemplateSpec is what of machine_types.go MachineTemplateSpec is read.
type MachineTemplateSpec struct {
	ObjectMeta MachineObjectMeta `json:"metadata,omitempty"`
}

// MachineObjectMeta is Cluster API's common_types.go ObjectMeta.
type MachineObjectMeta struct {
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// MachineDeploymentRollout is machinedeployment_types.go
// MachineDeploymentRolloutSpec.
type MachineDeploymentRollout struct {
	Strategy MachineDeploymentRolloutStrategy `json:"strategy,omitempty"`
}

// MachineDeploymentRolloutStrategy is machinedeployment_types.go
// MachineDeploymentRolloutStrategy.
type MachineDeploymentRolloutStrategy struct {
	Type          string                         `json:"type,omitempty"`
	RollingUpdate MachineDeploymentRollingUpdate `json:"rollingUpdate,omitempty"`
}

// MachineDeploymentRollingUpdate is machinedeployment_types.go
// MachineDeploymentRolloutStrategyRollingUpdate; unset, Cluster API
// surges by 1 and keeps every Machine available (maxSurge 1,
// maxUnavailable 0).
type MachineDeploymentRollingUpdate struct {
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *intstr.IntOrString `json:"maxSurge,omitempty"`
}

// MachineDeploymentStatus is what of MachineDeploymentStatus is read.
type MachineDeploymentStatus struct {
	Replicas          *int32             `json:"replicas,omitempty"`
	ReadyReplicas     *int32             `json:"readyReplicas,omitempty"`
	AvailableReplicas *int32             `json:"availableReplicas,omitempty"`
	UpToDateReplicas  *int32             `json:"upToDateReplicas,omitempty"`
	Phase             string             `json:"phase,omitempty"`
	Conditions        []metav1.Condition `json:"conditions,omitempty"`
}
