package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The namespace the Managed Upgrade Operator usually runs in, and the name
// of the one UpgradeConfig it reconciles there: it drops events of any other
// (controllers/upgradeconfig/upgradeconfig_controller.go
// ManagedUpgradePredicate, pkg/upgradeconfigmanager UPGRADECONFIG_CR_NAME).
const (
	DefaultNamespace = "openshift-managed-upgrade-operator"
	DefaultName      = "managed-upgrade-config"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// UpgradeConfig says to which release, and from when, the Managed Upgrade
// Operator updates the cluster, and records how it went.
type UpgradeConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   UpgradeConfigSpec   `json:"spec,omitempty"`
	Status UpgradeConfigStatus `json:"status,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// UpgradeConfigList is a list of UpgradeConfigs.
type UpgradeConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []UpgradeConfig `json:"items"`
}

// UpgradeConfigSpec is what the update should be, and when.
type UpgradeConfigSpec struct {
	Desired Update `json:"desired"`
	// UpgradeAt is when the update may start. The CRD types it as a plain
	// string, so it may not be a time at all: the reader parses it.
	UpgradeAt string `json:"upgradeAt"`
	// PDBForceDrainTimeout is how many minutes a node whose drain a
	// PodDisruptionBudget blocks is given before its pods are deleted
	// anyway (after the configured expected node drain time).
	PDBForceDrainTimeout int32       `json:"PDBForceDrainTimeout"`
	Type                 UpgradeType `json:"type"`
	// CapacityReservation asks for extra worker nodes during the update.
	CapacityReservation bool `json:"capacityReservation,omitempty"`
}

// Update is the release to update to.
type Update struct {
	Version string `json:"version,omitempty"`
	Channel string `json:"channel,omitempty"`
	// Image is a release image to update to in place of a version; the
	// operator's validation fills Version in from it.
	Image string `json:"image,omitempty"`
}

// UpgradeType is the upgrader that runs the update, which decides its
// steps.
type UpgradeType string

const (
	UpgradeTypeOSD UpgradeType = "OSD"
	UpgradeTypeARO UpgradeType = "ARO"
)

// UpgradeConfigStatus is the history of the operator's updates.
type UpgradeConfigStatus struct {
	// History has one entry per version, the newest first.
	History []UpgradeHistory `json:"history,omitempty"`
}

// UpgradeHistory is how the update to one version went.
type UpgradeHistory struct {
	Version          string       `json:"version,omitempty"`
	PrecedingVersion string       `json:"precedingVersion,omitempty"`
	Phase            UpgradePhase `json:"phase"`
	// Conditions are the steps run so far, the one set last first.
	Conditions         []UpgradeCondition `json:"conditions,omitempty"`
	StartTime          *metav1.Time       `json:"startTime,omitempty"`
	CompleteTime       *metav1.Time       `json:"completeTime,omitempty"`
	WorkerStartTime    *metav1.Time       `json:"workerStartTime,omitempty"`
	WorkerCompleteTime *metav1.Time       `json:"workerCompleteTime,omitempty"`
}

// UpgradePhase is where an update is.
type UpgradePhase string

const (
	PhaseNew       UpgradePhase = "New"
	PhasePending   UpgradePhase = "Pending"
	PhaseUpgrading UpgradePhase = "Upgrading"
	PhaseUpgraded  UpgradePhase = "Upgraded"
	PhaseFailed    UpgradePhase = "Failed"
)

// UpgradeCondition is the state of one step of an update.
type UpgradeCondition struct {
	Type               UpgradeConditionType   `json:"type"`
	Status             metav1.ConditionStatus `json:"status"`
	LastProbeTime      *metav1.Time           `json:"lastProbeTime,omitempty"`
	LastTransitionTime *metav1.Time           `json:"lastTransitionTime,omitempty"`
	StartTime          *metav1.Time           `json:"startTime,omitempty"`
	CompleteTime       *metav1.Time           `json:"completeTime,omitempty"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
}

// UpgradeConditionType names a step of an update.
type UpgradeConditionType string

// The steps' conditions, in the order the OSD upgrader runs them.
const (
	StartedNotificationSent              UpgradeConditionType = "StartedNotificationSent"
	IsClusterUpgradable                  UpgradeConditionType = "IsClusterUpgradable"
	ClusterHealthyBeforeUpgrade          UpgradeConditionType = "ClusterHealthyBeforeUpgrade"
	ExternalDependenciesAvailable        UpgradeConditionType = "ExternalDependenciesAvailable"
	ComputeCapacityReserved              UpgradeConditionType = "ComputeCapacityReserved"
	ControlPlaneMaintenanceWindowCreated UpgradeConditionType = "ControlPlaneMaintenanceWindowCreated"
	UpgradeCommenced                     UpgradeConditionType = "UpgradeCommenced"
	ControlPlaneUpgraded                 UpgradeConditionType = "ControlPlaneUpgraded"
	ControlPlaneMaintenanceWindowRemoved UpgradeConditionType = "ControlPlaneMaintenanceWindowRemoved"
	WorkersMaintenanceWindowCreated      UpgradeConditionType = "WorkersMaintenanceWindowCreated"
	WorkerNodesUpgraded                  UpgradeConditionType = "WorkerNodesUpgraded"
	ComputeCapacityRemoved               UpgradeConditionType = "ComputeCapacityRemoved"
	WorkersMaintenanceWindowRemoved      UpgradeConditionType = "WorkersMaintenanceWindowRemoved"
	ClusterHealthyAfterUpgrade           UpgradeConditionType = "ClusterHealthyAfterUpgrade"
	PostUpgradeTasksCompleted            UpgradeConditionType = "PostUpgradeTasksCompleted"
	CompletedNotificationSent            UpgradeConditionType = "CompletedNotificationSent"
)
