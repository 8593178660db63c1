package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// UpdateHealthInsight describes one problem (or notable fact) about an update:
// what is affected, how badly, and what to do about it.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=uhi
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:printcolumn:name="Level",type=string,JSONPath=`.status.impact.level`
// +kubebuilder:printcolumn:name="Impact",type=string,JSONPath=`.status.impact.type`
// +kubebuilder:printcolumn:name="Scope",type=string,JSONPath=`.status.scope.type`
// +kubebuilder:printcolumn:name="Since",type=date,JSONPath=`.status.startedAt`
// +kubebuilder:printcolumn:name="Summary",type=string,JSONPath=`.status.impact.summary`
type UpdateHealthInsight struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is empty: the insight is entirely observed state.
	// +optional
	Spec UpdateHealthInsightSpec `json:"spec,omitempty"`
	// status describes the problem.
	// +optional
	Status UpdateHealthInsightStatus `json:"status,omitempty"`
}

// UpdateHealthInsightSpec is empty.
type UpdateHealthInsightSpec struct{}

// UpdateHealthInsightStatus describes a problem with an update.
type UpdateHealthInsightStatus struct {
	// startedAt is when the condition this insight describes began, as an
	// object of the cluster dates it; absent when none does (a node its
	// machine-config daemon reports Degraded, a paused pool), so that no
	// reader takes when the operator saw it for when it began.
	// +optional
	StartedAt metav1.Time `json:"startedAt,omitempty"`

	// scope says which part of the cluster and which objects are involved.
	// +required
	Scope InsightScope `json:"scope"`

	// impact says how the problem affects the cluster and the update.
	// +required
	Impact InsightImpact `json:"impact"`

	// remediation says what to do about it.
	// +required
	Remediation InsightRemediation `json:"remediation"`
}

// InsightScope is the part of the cluster an insight is about.
type InsightScope struct {
	// type of the scope.
	// +required
	Type ScopeType `json:"type"`

	// resources are the objects involved.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=128
	Resources []ResourceRef `json:"resources,omitempty"`
}

// InsightImpact is how a problem affects the cluster.
type InsightImpact struct {
	// level is how serious the problem is.
	// +required
	Level InsightImpactLevel `json:"level"`

	// type is what the problem affects.
	// +required
	Type InsightImpactType `json:"type"`

	// summary is a one-line statement of the problem.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:Pattern=`^[^\n]*$`
	Summary string `json:"summary"`

	// description explains the problem in enough detail to act on it.
	// +optional
	// +kubebuilder:validation:MaxLength=32768
	Description string `json:"description,omitempty"`
}

// InsightImpactLevel is how serious a problem is.
// +kubebuilder:validation:Enum=Unknown;Info;Warning;Error;Critical
type InsightImpactLevel string

const (
	UnknownImpactLevel  InsightImpactLevel = "Unknown"
	InfoImpactLevel     InsightImpactLevel = "Info"
	WarningImpactLevel  InsightImpactLevel = "Warning"
	ErrorImpactLevel    InsightImpactLevel = "Error"
	CriticalImpactLevel InsightImpactLevel = "Critical"
)

// InsightImpactType is what a problem affects.
// +kubebuilder:validation:Enum=None;Unknown;API Availability;Cluster Capacity;Application Availability;Application Outage;Data Loss;Update Speed;Update Stalled
type InsightImpactType string

const (
	NoneImpactType                    InsightImpactType = "None"
	UnknownImpactType                 InsightImpactType = "Unknown"
	APIAvailabilityImpactType         InsightImpactType = "API Availability"
	ClusterCapacityImpactType         InsightImpactType = "Cluster Capacity"
	ApplicationAvailabilityImpactType InsightImpactType = "Application Availability"
	ApplicationOutageImpactType       InsightImpactType = "Application Outage"
	DataLossImpactType                InsightImpactType = "Data Loss"
	UpdateSpeedImpactType             InsightImpactType = "Update Speed"
	UpdateStalledImpactType           InsightImpactType = "Update Stalled"
)

// InsightRemediation is what to do about a problem.
type InsightRemediation struct {
	// reference is a URL to documentation or a runbook for the problem.
	// It is optional, where the shared wire format requires it, because a
	// firing alert without a runbook_url annotation is a problem with no
	// reference to give; tools print
	// "<alert does not have a runbook_url annotation>" for it, as oc does.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^https?://[^\s]+$`
	Reference string `json:"reference,omitempty"`

	// estimatedFinish is when the problem is expected to resolve on its own.
	// +optional
	EstimatedFinish *metav1.Time `json:"estimatedFinish,omitempty"`
}

// UpdateHealthInsightList is a list of UpdateHealthInsight.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type UpdateHealthInsightList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []UpdateHealthInsight `json:"items"`
}
