package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// NodePoolProgressInsight reports, on a HyperShift management cluster, how
// one NodePool's machines are doing in an update, as the management cluster
// sees them: from the NodePool and the Cluster API MachineDeployment,
// MachineSets and Machines behind it. There is one per NodePool, of the same
// namespace and name.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,shortName=nppi
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:printcolumn:name="Cluster",type=string,description="HostedCluster",JSONPath=`.status.hostedCluster`
// +kubebuilder:printcolumn:name="Upgrade",type=string,description="Upgrade type",JSONPath=`.status.upgradeType`
// +kubebuilder:printcolumn:name="Assessment",type=string,JSONPath=`.status.assessment`
// +kubebuilder:printcolumn:name="Updated",type=integer,description="Machines updated",JSONPath=`.status.machines.updated`
// +kubebuilder:printcolumn:name="Desired",type=integer,description="Machines desired",JSONPath=`.status.machines.desired`
// +kubebuilder:printcolumn:name="Target",type=string,JSONPath=`.status.versions.target`
// +kubebuilder:printcolumn:name="ETA",type=string,description="Estimated completion time",JSONPath=`.status.estimatedCompletedAt`
// +kubebuilder:printcolumn:name="Held",type=string,description="Machine holding the rollout",JSONPath=`.status.holdingMachine.name`,priority=1
type NodePoolProgressInsight struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is empty: the insight is entirely observed state.
	// +optional
	Spec NodePoolProgressInsightSpec `json:"spec,omitempty"`
	// status is the observed progress of the NodePool's machines.
	// +optional
	Status NodePoolProgressInsightStatus `json:"status,omitempty"`
}

// NodePoolProgressInsightSpec is empty.
type NodePoolProgressInsightSpec struct{}

// NodePoolProgressInsightStatus is the observed progress of a NodePool's
// machines.
type NodePoolProgressInsightStatus struct {
	// conditions: Updating says whether the NodePool's machines are
	// updating; Healthy whether they are free of serious problems.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=10
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// hostedCluster is the name of the NodePool's HostedCluster, in the
	// same namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	HostedCluster string `json:"hostedCluster"`

	// upgradeType is how the NodePool updates its machines: Replace
	// (new machines) or InPlace.
	// +required
	UpgradeType NodePoolUpgradeType `json:"upgradeType"`

	// assessment is a one-word summary of the NodePool's update.
	// +required
	Assessment PoolAssessment `json:"assessment"`

	// versions the NodePool updates between.
	// +optional
	Versions NodePoolVersions `json:"versions,omitempty"`

	// completionPercent is the share of the desired machines updated.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	CompletionPercent int32 `json:"completionPercent"`

	// machines counts the NodePool's machines.
	// +optional
	Machines MachinesSummary `json:"machines,omitempty"`

	// holdingMachine is the machine that holds the rollout, and why.
	// +optional
	HoldingMachine *HoldingMachine `json:"holdingMachine,omitempty"`

	// minorsBehind is how many minor releases the NodePool runs behind the
	// control plane; HyperShift supports up to 3 and none ahead.
	// +optional
	MinorsBehind *int32 `json:"minorsBehind,omitempty"`

	// startedAt is when the rollout was first seen.
	// +optional
	StartedAt *metav1.Time `json:"startedAt,omitempty"`

	// estimatedCompletedAt is when the rollout is estimated to complete.
	// +optional
	EstimatedCompletedAt *metav1.Time `json:"estimatedCompletedAt,omitempty"`

	// problems are what holds the rollout or makes it unsafe, the most
	// serious first.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=16
	Problems []HostedProblem `json:"problems,omitempty"`
}

// NodePoolUpgradeType is how a NodePool updates its machines
// (HyperShift's api/hypershift/v1beta1/nodepool_types.go UpgradeType).
// +kubebuilder:validation:Enum=Replace;InPlace
type NodePoolUpgradeType string

const (
	NodePoolUpgradeReplace NodePoolUpgradeType = "Replace"
	NodePoolUpgradeInPlace NodePoolUpgradeType = "InPlace"
)

// NodePoolVersions are the versions a NodePool updates between.
type NodePoolVersions struct {
	// current is the version every machine runs (the NodePool's
	// status.version, which changes once a rollout completes).
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Current string `json:"current,omitempty"`
	// target is the version of the NodePool's release image; empty while
	// it is not known.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Target string `json:"target,omitempty"`
}

// MachinesSummary counts a NodePool's machines.
type MachinesSummary struct {
	// desired is how many machines the NodePool wants.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Desired int32 `json:"desired,omitempty"`
	// updated is how many run the target version.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Updated int32 `json:"updated,omitempty"`
	// source says what updated was counted from.
	// +optional
	Source MachinesSource `json:"source,omitempty"`
}

// MachinesSource is what a NodePool's updated machines were counted from.
// +kubebuilder:validation:Enum=NodesInfo;Machines;MachineSets;InPlaceUpgrader
type MachinesSource string

const (
	// MachinesFromNodesInfo: the NodePool's status.nodesInfo, which newer
	// HyperShift writes.
	MachinesFromNodesInfo MachinesSource = "NodesInfo"
	// MachinesFromMachines: the Machines' release-version annotations.
	MachinesFromMachines MachinesSource = "Machines"
	// MachinesFromMachineSets: the MachineDeployment's up-to-date replicas.
	MachinesFromMachineSets MachinesSource = "MachineSets"
	// MachinesFromInPlaceUpgrader: the in-place upgrader's MachineSet
	// annotation ("Total Nodes: N. Upgraded: M").
	MachinesFromInPlaceUpgrader MachinesSource = "InPlaceUpgrader"
)

// HoldingMachine is a machine that holds a NodePool's rollout.
type HoldingMachine struct {
	// name of the Machine, in the hosted cluster's control-plane namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// node is the name of the Machine's node, when it has one.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Node string `json:"node,omitempty"`
	// reason is a CamelCase word for what holds it, as Cluster API says.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	Reason string `json:"reason"`
	// message is Cluster API's: a drain's names the pods it waits for.
	// +optional
	// +kubebuilder:validation:MaxLength=4096
	Message string `json:"message,omitempty"`
	// since is when it started to hold.
	// +optional
	Since *metav1.Time `json:"since,omitempty"`
}

// NodePoolProgressInsightList is a list of NodePoolProgressInsight.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type NodePoolProgressInsightList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []NodePoolProgressInsight `json:"items"`
}
