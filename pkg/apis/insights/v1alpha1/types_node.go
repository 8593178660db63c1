package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// NodeProgressInsight reports how one Node is doing in an update. There is one
// per Node that belongs to a pool (a MachineConfigPool or, on a cluster whose
// control plane is hosted, a HyperShift NodePool), of the same name.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=npi
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:printcolumn:name="Pool",type=string,JSONPath=`.status.poolResource.name`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.conditions[?(@.type=="Updating")].reason`
// +kubebuilder:printcolumn:name="Version",type=string,JSONPath=`.status.version`
// +kubebuilder:printcolumn:name="Est",type=string,JSONPath=`.status.estimatedToComplete`
// +kubebuilder:printcolumn:name="Message",type=string,JSONPath=`.status.message`
type NodeProgressInsight struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is empty: the insight is entirely observed state.
	// +optional
	Spec NodeProgressInsightSpec `json:"spec,omitempty"`
	// status is the observed state of the Node in the update.
	// +optional
	Status NodeProgressInsightStatus `json:"status,omitempty"`
}

// NodeProgressInsightSpec is empty.
type NodeProgressInsightSpec struct{}

// NodeProgressInsightStatus is the observed state of a Node in an update.
type NodeProgressInsightStatus struct {
	// conditions: Updating carries the node's update phase in its reason;
	// Degraded and Available say whether the node is healthy.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=10
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// name of the Node.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// poolResource is the pool the Node belongs to: a MachineConfigPool, or
	// on a cluster whose control plane is hosted a HyperShift NodePool.
	// +required
	PoolResource ResourceRef `json:"poolResource"`

	// scopeType says whether the Node is a control plane or a worker node.
	// +required
	ScopeType ScopeType `json:"scopeType"`

	// version is the OpenShift version the Node is at, when known.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Version string `json:"version,omitempty"`

	// estimatedToComplete is how long the Node's update is expected to take
	// from now, e.g. 10m0s; set only while the Node is updating.
	// +optional
	EstimatedToComplete *metav1.Duration `json:"estimatedToComplete,omitempty"`

	// message is a short human-readable note on the Node's state.
	// +optional
	// +kubebuilder:validation:MaxLength=4096
	Message string `json:"message,omitempty"`
}

// Condition types and reasons of NodeProgressInsight.
const (
	NodeProgressInsightUpdating  = "Updating"
	NodeProgressInsightDegraded  = "Degraded"
	NodeProgressInsightAvailable = "Available"

	NodeDraining        = "Draining"
	NodeUpdating        = "Updating"
	NodeRebooting       = "Rebooting"
	NodePaused          = "Paused"
	NodePending         = "Pending"
	NodeCompleted       = "Completed"
	NodeCannotDetermine = "CannotDetermine"
	// NodeBehind is a HyperShift NodePool's node that runs an older release
	// than the control plane while nothing updates its NodePool: no update
	// of it is scheduled until the NodePool's release changes, on the
	// management cluster.
	NodeBehind = "Behind"

	// AsExpected is the reason of an Available condition that is True and
	// of a Degraded condition that is False; the others say why not.
	NodeAsExpected                        = "AsExpected"
	NodeNotReady                          = "NotReady"
	NodeDiskPressure                      = "DiskPressure"
	NodeNetworkUnavailable                = "NetworkUnavailable"
	NodeUnschedulable                     = "Unschedulable"
	NodeMachineConfigDaemonProcessing     = "MachineConfigDaemonProcessing"
	NodeMachineConfigDaemonDegraded       = "MachineConfigDaemonDegraded"
	NodeMachineConfigDaemonUnreconcilable = "MachineConfigDaemonUnreconcilable"
)

// NodeProgressInsightList is a list of NodeProgressInsight.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type NodeProgressInsightList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []NodeProgressInsight `json:"items"`
}
