package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// HostedClusterProgressInsight reports, on a HyperShift management cluster,
// how one hosted cluster's control plane update is going, as the management
// cluster sees it: from its HostedCluster, into which HyperShift copies the
// guest ClusterVersion's status, and its ControlPlaneComponents. There is one
// per HostedCluster, of the same namespace and name, so that
// `oc get hcpi -A` is a table of the fleet's updates.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,shortName=hcpi
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:printcolumn:name="Assessment",type=string,JSONPath=`.status.assessment`
// +kubebuilder:printcolumn:name="Completion",type=integer,JSONPath=`.status.completionPercent`
// +kubebuilder:printcolumn:name="Target",type=string,JSONPath=`.status.versions.target.version`
// +kubebuilder:printcolumn:name="Previous",type=string,JSONPath=`.status.versions.previous.version`,priority=1
// +kubebuilder:printcolumn:name="NodePools",type=integer,description="NodePools",JSONPath=`.status.nodePools.total`
// +kubebuilder:printcolumn:name="Updated",type=integer,description="NodePools at the control plane's version",JSONPath=`.status.nodePools.updated`
// +kubebuilder:printcolumn:name="ETA",type=string,description="Estimated completion time",JSONPath=`.status.estimatedCompletedAt`
// +kubebuilder:printcolumn:name="Problem",type=string,description="The most serious problem",JSONPath=`.status.problems[0].message`,priority=1
type HostedClusterProgressInsight struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is empty: the insight is entirely observed state.
	// +optional
	Spec HostedClusterProgressInsightSpec `json:"spec,omitempty"`
	// status is the observed progress of the hosted cluster's update.
	// +optional
	Status HostedClusterProgressInsightStatus `json:"status,omitempty"`
}

// HostedClusterProgressInsightSpec is empty.
type HostedClusterProgressInsightSpec struct{}

// HostedClusterProgressInsightStatus is the observed progress of a hosted
// cluster's control plane update, and a count of its NodePools.
type HostedClusterProgressInsightStatus struct {
	// conditions: Updating says whether the control plane is updating;
	// Healthy whether its update is free of serious problems.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=10
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// assessment is a one-word summary of the control plane's update.
	// +required
	Assessment HostedClusterAssessment `json:"assessment"`

	// versions the control plane updates between, from the HostedCluster's
	// status.version.
	// +required
	Versions ControlPlaneUpdateVersions `json:"versions"`

	// completionPercent is the share of the guest's release manifests the
	// cluster-version operator has applied, as its Progressing message
	// counts them; 100 once the update is completed.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	CompletionPercent int32 `json:"completionPercent"`

	// startedAt is when the update started.
	// +optional
	StartedAt *metav1.Time `json:"startedAt,omitempty"`

	// completedAt is when the update completed; absent while in progress.
	// +optional
	CompletedAt *metav1.Time `json:"completedAt,omitempty"`

	// estimatedCompletedAt is when the control plane's update is estimated
	// to complete; absent when there is no estimate.
	// +optional
	EstimatedCompletedAt *metav1.Time `json:"estimatedCompletedAt,omitempty"`

	// lastObservedProgress is when the update was last seen to move on:
	// its completion grew, or it started.
	// +optional
	LastObservedProgress *metav1.Time `json:"lastObservedProgress,omitempty"`

	// nodePools counts the hosted cluster's NodePools by their update.
	// +optional
	NodePools NodePoolsSummary `json:"nodePools,omitempty"`

	// problems are what holds the update or makes it unsafe, the most
	// serious first.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=16
	Problems []HostedProblem `json:"problems,omitempty"`
}

// HostedClusterAssessment is a one-word summary of a hosted cluster's control
// plane update.
// +kubebuilder:validation:Enum=Unknown;Progressing;Completed;Blocked;Stalled;Failing
type HostedClusterAssessment string

const (
	// HostedClusterAssessmentUnknown: the HostedCluster does not say, yet,
	// what its control plane runs.
	HostedClusterAssessmentUnknown HostedClusterAssessment = "Unknown"
	// HostedClusterAssessmentProgressing: the update is under way.
	HostedClusterAssessmentProgressing HostedClusterAssessment = "Progressing"
	// HostedClusterAssessmentCompleted: the last update completed.
	HostedClusterAssessmentCompleted HostedClusterAssessment = "Completed"
	// HostedClusterAssessmentBlocked: HyperShift refuses to start the
	// update (the HostedCluster's Progressing is False, reason Blocked).
	HostedClusterAssessmentBlocked HostedClusterAssessment = "Blocked"
	// HostedClusterAssessmentStalled: the update has not moved on for long
	// past its estimate.
	HostedClusterAssessmentStalled HostedClusterAssessment = "Stalled"
	// HostedClusterAssessmentFailing: the guest's cluster-version operator
	// says the update is failing (ClusterVersionFailing True).
	HostedClusterAssessmentFailing HostedClusterAssessment = "Failing"
)

// NodePoolsSummary counts a hosted cluster's NodePools.
type NodePoolsSummary struct {
	// total is how many NodePools the hosted cluster has.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Total int32 `json:"total,omitempty"`
	// updated is how many run the control plane's target version.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Updated int32 `json:"updated,omitempty"`
	// updating is how many are rolling out a new version.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Updating int32 `json:"updating,omitempty"`
	// degraded is how many have an error-level problem.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Degraded int32 `json:"degraded,omitempty"`
}

// HostedProblem is one thing that holds a hosted cluster's or a NodePool's
// update or makes it unsafe, with what to do about it.
type HostedProblem struct {
	// level is how serious it is.
	// +required
	Level InsightImpactLevel `json:"level"`

	// reason is a CamelCase word for what it is.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	Reason string `json:"reason"`

	// message says what it is and, where known, what to do about it.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=4096
	Message string `json:"message"`

	// resource is the object it is about, when not the insight's own.
	// +optional
	Resource *ResourceRef `json:"resource,omitempty"`

	// since is when it was first seen, or when the object behind it says
	// it started.
	// +optional
	Since *metav1.Time `json:"since,omitempty"`
}

// Condition types of HostedClusterProgressInsight and NodePoolProgressInsight.
const (
	HostedProgressInsightUpdating = "Updating"
	HostedProgressInsightHealthy  = "Healthy"
)

// HostedClusterProgressInsightList is a list of HostedClusterProgressInsight.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type HostedClusterProgressInsightList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []HostedClusterProgressInsight `json:"items"`
}
