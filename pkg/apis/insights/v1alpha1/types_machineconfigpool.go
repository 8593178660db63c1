package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// MachineConfigPoolProgressInsight reports how the nodes of one
// MachineConfigPool are doing in an update. There is one per pool, of the
// same name.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=mcppi
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:printcolumn:name="Scope",type=string,JSONPath=`.status.scopeType`
// +kubebuilder:printcolumn:name="Assessment",type=string,JSONPath=`.status.assessment`
// +kubebuilder:printcolumn:name="Completion",type=integer,JSONPath=`.status.completionPercent`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type MachineConfigPoolProgressInsight struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is empty: the insight is entirely observed state.
	// +optional
	Spec MachineConfigPoolProgressInsightSpec `json:"spec,omitempty"`
	// status is the observed progress of the pool's nodes.
	// +optional
	Status MachineConfigPoolProgressInsightStatus `json:"status,omitempty"`
}

// MachineConfigPoolProgressInsightSpec is empty.
type MachineConfigPoolProgressInsightSpec struct{}

// MachineConfigPoolProgressInsightStatus is the observed progress of a pool's
// nodes.
type MachineConfigPoolProgressInsightStatus struct {
	// conditions: Updating says whether the pool's nodes are updating;
	// Healthy whether they are free of serious problems.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=10
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// name of the pool: a MachineConfigPool, or on a cluster with a hosted
	// control plane a HyperShift NodePool.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// resource is the pool when it is not a MachineConfigPool: a HyperShift
	// NodePool (group hypershift.openshift.io, resource nodepools) on a
	// cluster whose control plane is hosted. Absent for a MachineConfigPool.
	// +optional
	Resource *ResourceRef `json:"resource,omitempty"`

	// scopeType says whether the pool is the control plane or workers.
	// +required
	ScopeType ScopeType `json:"scopeType"`

	// assessment is a one-word summary of the pool's update.
	// +required
	Assessment PoolAssessment `json:"assessment"`

	// completionPercent is the share of the pool's nodes already updated.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	CompletionPercent int32 `json:"completionPercent"`

	// summaries count the pool's nodes by state, at most one per type.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=7
	Summaries []NodeSummary `json:"summaries,omitempty"`

	// imageBuild is the OS image the machine-config operator builds for an
	// image-mode (layered) pool, one with a MachineOSConfig: its nodes take
	// a new configuration only once the image built for it is pushed.
	// Absent for a pool without a MachineOSConfig, or where the cluster
	// does not serve MachineOSConfigs.
	// +optional
	ImageBuild *PoolImageBuild `json:"imageBuild,omitempty"`
}

// PoolImageBuild is the image build of an image-mode pool for the pool's
// target configuration.
type PoolImageBuild struct {
	// machineOSConfig names the pool's MachineOSConfig.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	MachineOSConfig string `json:"machineOSConfig"`

	// machineOSBuild names the MachineOSBuild of the pool's target
	// configuration; absent while the machine-config operator has not
	// created one.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	MachineOSBuild string `json:"machineOSBuild,omitempty"`

	// state is the build's state, from the MachineOSBuild's conditions:
	// Waiting (no MachineOSBuild yet, or one whose conditions are all
	// False), Prepared, Building, Succeeded, Failed or Interrupted.
	// +required
	State ImageBuildState `json:"state"`

	// since is when the build entered its state, as its MachineOSBuild's
	// condition says, or, for a build not yet started, when the
	// MachineOSBuild was created; absent while there is no MachineOSBuild.
	// +optional
	Since *metav1.Time `json:"since,omitempty"`

	// image is the image the pool's nodes are to run: the MachineOSConfig's
	// current image pull spec. It is the new build's only once the build
	// has succeeded.
	// +optional
	// +kubebuilder:validation:MaxLength=447
	Image string `json:"image,omitempty"`

	// estimatedToComplete is how much longer the build is expected to take,
	// from the pool's past builds, while it is Prepared or Building.
	// +optional
	EstimatedToComplete *metav1.Duration `json:"estimatedToComplete,omitempty"`

	// message says what the build is doing, in the machine-config
	// operator's words where it has any.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Message string `json:"message,omitempty"`
}

// ImageBuildState is the state of an image-mode pool's build.
// +kubebuilder:validation:Enum=Waiting;Prepared;Building;Succeeded;Failed;Interrupted
type ImageBuildState string

const (
	ImageBuildWaiting     ImageBuildState = "Waiting"
	ImageBuildPrepared    ImageBuildState = "Prepared"
	ImageBuildBuilding    ImageBuildState = "Building"
	ImageBuildSucceeded   ImageBuildState = "Succeeded"
	ImageBuildFailed      ImageBuildState = "Failed"
	ImageBuildInterrupted ImageBuildState = "Interrupted"
)

// PoolAssessment is a one-word summary of a pool's update.
// +kubebuilder:validation:Enum=Pending;Completed;Degraded;Excluded;Progressing;Behind
type PoolAssessment string

const (
	PoolPending     PoolAssessment = "Pending"
	PoolCompleted   PoolAssessment = "Completed"
	PoolDegraded    PoolAssessment = "Degraded"
	PoolExcluded    PoolAssessment = "Excluded"
	PoolProgressing PoolAssessment = "Progressing"
	// PoolBehind is a HyperShift NodePool whose nodes all run an older
	// release than the hosted control plane and none is updating: NodePools
	// are updated apart from the control plane and may stay behind it, up
	// to a limit the Updating condition's message names.
	PoolBehind PoolAssessment = "Behind"
)

// NodeSummary counts a pool's nodes in one state.
type NodeSummary struct {
	// type is the state counted.
	// +required
	Type NodeSummaryType `json:"type"`

	// count of nodes in that state.
	// +required
	// +kubebuilder:validation:Minimum=0
	Count int32 `json:"count"`
}

// NodeSummaryType is a state a pool's nodes are counted in.
// +kubebuilder:validation:Enum=Total;Available;Progressing;Outdated;Draining;Excluded;Degraded
type NodeSummaryType string

const (
	NodesTotal       NodeSummaryType = "Total"
	NodesAvailable   NodeSummaryType = "Available"
	NodesProgressing NodeSummaryType = "Progressing"
	NodesOutdated    NodeSummaryType = "Outdated"
	NodesDraining    NodeSummaryType = "Draining"
	NodesExcluded    NodeSummaryType = "Excluded"
	NodesDegraded    NodeSummaryType = "Degraded"
)

// Condition types of MachineConfigPoolProgressInsight.
const (
	MachineConfigPoolProgressInsightUpdating = "Updating"
	MachineConfigPoolProgressInsightHealthy  = "Healthy"
)

// MachineConfigPoolRollingOutConfiguration is the reason of a pool's False
// Updating condition while every node is at the target version and the
// machine-config operator rolls out a new configuration of that version, as
// it does for any MachineConfig change: nodes drain and reboot, but no update
// is in progress. The message says which configuration and how many nodes
// run it.
const MachineConfigPoolRollingOutConfiguration = "RollingOutConfiguration"

// MachineConfigPoolProgressInsightList is a list of MachineConfigPoolProgressInsight.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type MachineConfigPoolProgressInsightList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []MachineConfigPoolProgressInsight `json:"items"`
}
