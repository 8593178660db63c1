package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ClusterVersionProgressInsight reports how the control plane update of one
// ClusterVersion is going. There is one per ClusterVersion, of the same name.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=cvpi
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:printcolumn:name="Assessment",type=string,JSONPath=`.status.assessment`
// +kubebuilder:printcolumn:name="Completion",type=integer,JSONPath=`.status.completionPercent`
// +kubebuilder:printcolumn:name="Target",type=string,JSONPath=`.status.versions.target.version`
// +kubebuilder:printcolumn:name="Previous",type=string,JSONPath=`.status.versions.previous.version`,priority=1
// +kubebuilder:printcolumn:name="Started",type=date,JSONPath=`.status.startedAt`
// +kubebuilder:printcolumn:name="ETA",type=string,description="Estimated completion time",JSONPath=`.status.estimatedCompletedAt`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type ClusterVersionProgressInsight struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is empty: the insight is entirely observed state.
	// +optional
	Spec ClusterVersionProgressInsightSpec `json:"spec,omitempty"`
	// status is the observed progress of the control plane update.
	// +optional
	Status ClusterVersionProgressInsightStatus `json:"status,omitempty"`
}

// ClusterVersionProgressInsightSpec is empty.
type ClusterVersionProgressInsightSpec struct{}

// ClusterVersionProgressInsightStatus is the observed progress of the control
// plane update.
type ClusterVersionProgressInsightStatus struct {
	// conditions: Updating says whether the control plane is updating;
	// Healthy says whether the update is free of serious problems.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=10
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// name of the ClusterVersion.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// assessment is a one-word summary of the update for humans.
	// +required
	Assessment ClusterVersionAssessment `json:"assessment"`

	// versions of the control plane: where it is going and where it came from.
	// +required
	Versions ControlPlaneUpdateVersions `json:"versions"`

	// completionPercent is the share of payload ClusterOperators already at
	// the target version, rounded to a whole percent (half to even) as
	// `oc adm upgrade status` prints it: 100 is not done, the assessment
	// says when the update completed.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	CompletionPercent int32 `json:"completionPercent"`

	// startedAt is when the current (or most recent) update started.
	// Optional, unlike in the shared format, because a ClusterVersion without
	// update history has no start time and a zero time would be a lie.
	// +optional
	StartedAt *metav1.Time `json:"startedAt,omitempty"`

	// completedAt is when the update completed; set only once it has.
	// +optional
	CompletedAt *metav1.Time `json:"completedAt,omitempty"`

	// estimatedCompletedAt is when the update is expected to complete; set
	// only while it is in progress. It is in the past once the update has
	// run past its estimate (ProgressingSlow or Stalled).
	// +optional
	EstimatedCompletedAt *metav1.Time `json:"estimatedCompletedAt,omitempty"`

	// lastObservedProgress is when completionPercent was last seen to change.
	// Optional, unlike in the shared format, for the same reason as startedAt.
	// +optional
	LastObservedProgress *metav1.Time `json:"lastObservedProgress,omitempty"`
}

// ClusterVersionAssessment is a one-word summary of a control plane update.
// An update in progress is Progressing, ProgressingSlow or Stalled by its
// estimate alone, as `oc adm upgrade status` assesses it: ProgressingSlow
// once past its estimated completion, Stalled more than 10 minutes past it.
// Problems (the ClusterVersion Failing, an operator degraded) are health
// insights and the Healthy condition, not the assessment.
// +kubebuilder:validation:Enum=Unknown;Progressing;ProgressingSlow;Stalled;Completed;Degraded
type ClusterVersionAssessment string

const (
	ClusterVersionAssessmentUnknown         ClusterVersionAssessment = "Unknown"
	ClusterVersionAssessmentProgressing     ClusterVersionAssessment = "Progressing"
	ClusterVersionAssessmentProgressingSlow ClusterVersionAssessment = "ProgressingSlow"
	ClusterVersionAssessmentStalled         ClusterVersionAssessment = "Stalled"
	ClusterVersionAssessmentCompleted       ClusterVersionAssessment = "Completed"
	// ClusterVersionAssessmentDegraded is no longer written: earlier
	// versions assessed an update in progress with error-level problems
	// Degraded. The API still accepts it, so that an insight they stored
	// stays valid (and an earlier operator still running during this one's
	// rollout can write), and readers say it as Stalled, as they did.
	ClusterVersionAssessmentDegraded ClusterVersionAssessment = "Degraded"
)

// ControlPlaneUpdateVersions are the versions a control plane update moves
// between.
type ControlPlaneUpdateVersions struct {
	// target is the version the control plane is updating (or updated) to.
	// +required
	Target Version `json:"target"`

	// previous is the version the control plane updated from; absent after
	// installation.
	// +optional
	Previous *Version `json:"previous,omitempty"`
}

// Version is an OpenShift version with facts about it.
type Version struct {
	// version is the OpenShift version, e.g. 4.16.3. Empty only when the
	// cluster does not say which version it is going to.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Version string `json:"version,omitempty"`

	// metadata are facts about the version, at most one per key.
	// +optional
	// +listType=map
	// +listMapKey=key
	// +kubebuilder:validation:MaxItems=3
	Metadata []VersionMetadata `json:"metadata,omitempty"`
}

// VersionMetadata is a fact about a version.
type VersionMetadata struct {
	// key names the fact.
	// +required
	Key VersionMetadataKey `json:"key"`

	// value of the fact, when it has one beyond its presence.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Value string `json:"value,omitempty"`
}

// VersionMetadataKey names a fact about a version.
// +kubebuilder:validation:Enum=Installation;Partial;Architecture
type VersionMetadataKey string

const (
	// InstallationMetadata marks the target of a cluster's installation.
	InstallationMetadata VersionMetadataKey = "Installation"
	// PartialMetadata marks a previous version whose update never completed.
	PartialMetadata VersionMetadataKey = "Partial"
	// ArchitectureMetadata carries the payload architecture when an update
	// changes it, e.g. "multi" for a migration to a multi-architecture payload.
	ArchitectureMetadata VersionMetadataKey = "Architecture"
)

// Condition types and reasons of ClusterVersionProgressInsight.
const (
	// ClusterVersionProgressInsightUpdating says whether the control plane is
	// updating.
	ClusterVersionProgressInsightUpdating = "Updating"
	// ClusterVersionProgressInsightHealthy says whether the update is free of
	// serious problems.
	ClusterVersionProgressInsightHealthy = "Healthy"

	ClusterVersionProgressing             = "Progressing"
	ClusterVersionNotProgressing          = "NotProgressing"
	ClusterVersionCannotDetermineUpdating = "CannotDetermineUpdating"
)

// ClusterVersionProgressInsightList is a list of ClusterVersionProgressInsight.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type ClusterVersionProgressInsightList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterVersionProgressInsight `json:"items"`
}
