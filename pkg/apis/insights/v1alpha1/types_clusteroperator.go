package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ClusterOperatorProgressInsight reports how one payload ClusterOperator is
// doing in an update. There is one per payload ClusterOperator, of the same
// name.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=copi
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:printcolumn:name="Updating",type=string,JSONPath=`.status.conditions[?(@.type=="Updating")].reason`
// +kubebuilder:printcolumn:name="Healthy",type=string,JSONPath=`.status.conditions[?(@.type=="Healthy")].reason`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type ClusterOperatorProgressInsight struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is empty: the insight is entirely observed state.
	// +optional
	Spec ClusterOperatorProgressInsightSpec `json:"spec,omitempty"`
	// status is the observed state of the ClusterOperator in the update.
	// +optional
	Status ClusterOperatorProgressInsightStatus `json:"status,omitempty"`
}

// ClusterOperatorProgressInsightSpec is empty.
type ClusterOperatorProgressInsightSpec struct{}

// ClusterOperatorProgressInsightStatus is the observed state of a
// ClusterOperator in an update.
type ClusterOperatorProgressInsightStatus struct {
	// conditions: Updating says whether the operator is updated, updating or
	// waiting; Healthy whether it is available and not degraded.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=10
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// name of the ClusterOperator.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// progressingReason is the reason of the ClusterOperator's own
	// Progressing condition while it is updating (Updating is True), e.g.
	// NodeInstaller, as `oc adm upgrade status` prints it; empty otherwise,
	// or when the condition gives none.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	ProgressingReason string `json:"progressingReason,omitempty"`
}

// Condition types and reasons of ClusterOperatorProgressInsight.
const (
	ClusterOperatorProgressInsightUpdating = "Updating"
	ClusterOperatorProgressInsightHealthy  = "Healthy"

	ClusterOperatorUpdated         = "Updated"
	ClusterOperatorPending         = "Pending"
	ClusterOperatorProgressing     = "Progressing"
	ClusterOperatorCannotDetermine = "CannotDetermine"

	ClusterOperatorAsExpected  = "AsExpected"
	ClusterOperatorUnavailable = "Unavailable"
	ClusterOperatorDegraded    = "Degraded"
)

// ClusterOperatorProgressInsightList is a list of ClusterOperatorProgressInsight.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type ClusterOperatorProgressInsightList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterOperatorProgressInsight `json:"items"`
}
