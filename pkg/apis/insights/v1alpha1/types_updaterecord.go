package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// UpdateRecord is what the operator saw of one update of the cluster, kept
// after it ends: when it began and ended, and when each ClusterOperator
// began and finished updating. It is written as the update runs, so that a
// restarted operator continues it, and it says the spans the operator did
// not see instead of filling them in. There is one per update, named by
// its target version and start (see pkg/updaterecord, Name).
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=urec
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:printcolumn:name="From",type=string,JSONPath=`.status.from.version`
// +kubebuilder:printcolumn:name="To",type=string,JSONPath=`.status.to.version`
// +kubebuilder:printcolumn:name="State",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="Started",type=date,JSONPath=`.status.startedAt`
// +kubebuilder:printcolumn:name="Control Plane",type=string,JSONPath=`.status.durations.controlPlane`
type UpdateRecord struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is empty: the record is entirely observed state.
	// +optional
	Spec UpdateRecordSpec `json:"spec,omitempty"`
	// status is what the operator saw of the update.
	// +optional
	Status UpdateRecordStatus `json:"status,omitempty"`
}

// UpdateRecordSpec is empty.
type UpdateRecordSpec struct{}

// UpdateRecordMaxOperators is the most ClusterOperators a record holds: a
// payload has about 35, and the record says how many it left out.
const UpdateRecordMaxOperators = 128

// UpdateRecordMaxNotObserved is the most spans not observed a record
// holds; the oldest go first, counted.
const UpdateRecordMaxNotObserved = 32

// UpdateRecordMaxStalls is the most stalls a record holds; the shortest
// that ended go first, counted.
const UpdateRecordMaxStalls = 64

// UpdateRecordMaxStallResources is the most objects a stall names.
const UpdateRecordMaxStallResources = 4

// UpdateRecordMaxEstimates is the most estimates a record holds: one at
// each of 25, 50 and 75 percent of the control plane.
const UpdateRecordMaxEstimates = 3

// UpdateRecordMaxPools is the most node pools a record holds; pools past
// it, by name, are counted.
const UpdateRecordMaxPools = 16

// UpdateRecordMaxSlowestNodes is how many of a pool's slowest nodes a
// record names; the rest are in its per-node times.
const UpdateRecordMaxSlowestNodes = 5

// UpdateRecordMaxUpdatingNodes is the most nodes of a pool a record follows
// at once: a pool updates maxUnavailable nodes at a time (one by default).
// A node past it is not timed, and counted so. With the other bounds it
// keeps the largest record the API can hold, with its managed fields,
// under 1 MiB, within etcd's 1.5 MiB a request.
const UpdateRecordMaxUpdatingNodes = 32

// UpdateRecordMaxNodeTimeBuckets is the most distinct per-node times, in
// whole minutes, a pool's record holds; past it the two closest merge.
const UpdateRecordMaxNodeTimeBuckets = 96

// UpdateRecordStatus is what the operator saw of one update.
type UpdateRecordStatus struct {
	// from is the version the update started from; absent when the
	// cluster's history has none before it.
	// +optional
	From *Version `json:"from,omitempty"`

	// to is the version the update goes to.
	// +required
	To Version `json:"to"`

	// state is where the update is: Progressing, Completed, or Abandoned
	// for another target before it completed.
	// +required
	State UpdateRecordState `json:"state"`

	// startedAt is when the update started, as the ClusterVersion's history
	// says.
	// +required
	StartedAt metav1.Time `json:"startedAt"`

	// controlPlaneCompletedAt is when the control plane completed the
	// update, as the ClusterVersion's history says.
	// +optional
	ControlPlaneCompletedAt *metav1.Time `json:"controlPlaneCompletedAt,omitempty"`

	// completedAt is when the update completed: the control plane and every
	// pool not excluded from it.
	// +optional
	CompletedAt *metav1.Time `json:"completedAt,omitempty"`

	// abandonedAt is when the update was abandoned: the start of the update
	// that replaced it.
	// +optional
	AbandonedAt *metav1.Time `json:"abandonedAt,omitempty"`

	// durations are how long the update and its parts took, or have taken
	// so far.
	// +optional
	Durations UpdateRecordDurations `json:"durations,omitempty"`

	// observedUntil is the latest time the operator saw the update in
	// progress. A record Progressing whose observedUntil is long past was
	// left by an operator that stopped.
	// +required
	ObservedUntil metav1.Time `json:"observedUntil"`

	// notObserved are the spans of the update the operator did not see:
	// before it first saw the update, and while no operator ran. What
	// happened in them is only what the objects still said afterwards.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=32
	NotObserved []TimeSpan `json:"notObserved,omitempty"`

	// notObservedOmitted counts the oldest spans left out of notObserved.
	// +optional
	// +kubebuilder:validation:Minimum=0
	NotObservedOmitted int32 `json:"notObservedOmitted,omitempty"`

	// clusterOperators are the payload's ClusterOperators in the update, by
	// name.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=128
	ClusterOperators []OperatorUpdateRecord `json:"clusterOperators,omitempty"`

	// clusterOperatorsOmitted counts the ClusterOperators left out of
	// clusterOperators.
	// +optional
	// +kubebuilder:validation:Minimum=0
	ClusterOperatorsOmitted int32 `json:"clusterOperatorsOmitted,omitempty"`

	// stalls are the Warning, Error and Critical health insights that were
	// active while the update was in progress, in the words they had.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=64
	Stalls []UpdateStall `json:"stalls,omitempty"`

	// stallsOmitted counts the stalls left out of stalls.
	// +optional
	// +kubebuilder:validation:Minimum=0
	StallsOmitted int32 `json:"stallsOmitted,omitempty"`

	// estimates are the control plane's estimated completion as the
	// ClusterVersion insight gave it when the operator first saw the
	// control plane at 25, 50 and 75 percent, to hold against
	// controlPlaneCompletedAt.
	// +optional
	// +listType=map
	// +listMapKey=percent
	// +kubebuilder:validation:MaxItems=3
	Estimates []EstimateRecord `json:"estimates,omitempty"`

	// pools are the node pools in the update, by name: when their nodes
	// began and finished each phase, and how long a node took.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=16
	Pools []PoolUpdateRecord `json:"pools,omitempty"`

	// poolsOmitted counts the pools left out of pools.
	// +optional
	// +kubebuilder:validation:Minimum=0
	PoolsOmitted int32 `json:"poolsOmitted,omitempty"`
}

// PoolUpdateRecord is what a pool's nodes took in an update, aggregated so
// that a pool of thousands of nodes stays small: its phases across the
// nodes, each node's time counted by the minute, and its slowest nodes.
type PoolUpdateRecord struct {
	// name of the pool: a MachineConfigPool, or a HyperShift NodePool.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// scopeType says whether the pool is the control plane's or a worker
	// pool.
	// +required
	ScopeType ScopeType `json:"scopeType"`

	// assessment is the pool's as last seen.
	// +optional
	Assessment PoolAssessment `json:"assessment,omitempty"`

	// nodes counts the pool's nodes as last seen; updated those at the
	// update's target.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Nodes int32 `json:"nodes,omitempty"`
	// +optional
	// +kubebuilder:validation:Minimum=0
	Updated int32 `json:"updated,omitempty"`

	// startedAt is when its first node was seen to begin updating.
	// +optional
	StartedAt *metav1.Time `json:"startedAt,omitempty"`

	// completedAt is when its last node was seen to finish, all its nodes
	// then at the target.
	// +optional
	CompletedAt *metav1.Time `json:"completedAt,omitempty"`

	// phases are when the pool's first node entered each phase (Draining,
	// Updating, Rebooting) and its last node left it.
	// +optional
	// +listType=map
	// +listMapKey=phase
	// +kubebuilder:validation:MaxItems=3
	Phases []PhaseRecord `json:"phases,omitempty"`

	// nodeTimes are how long its nodes took, from their start to their
	// finish, both seen.
	// +optional
	NodeTimes NodeTimes `json:"nodeTimes,omitempty"`

	// slowestNodes are its slowest timed nodes, slowest first.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=5
	SlowestNodes []NodeUpdateRecord `json:"slowestNodes,omitempty"`

	// updating are its nodes seen updating and not yet finished, kept so
	// that an operator restarted mid-update times them still.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=32
	Updating []NodeUpdateRecord `json:"updating,omitempty"`

	// updatingOmitted is the most nodes seen updating at once past the 32
	// followed: they are not timed.
	// +optional
	// +kubebuilder:validation:Minimum=0
	UpdatingOmitted int32 `json:"updatingOmitted,omitempty"`
}

// PhaseRecord is a node phase across a pool's nodes.
type PhaseRecord struct {
	// phase is Draining, Updating or Rebooting.
	// +required
	// +kubebuilder:validation:Enum=Draining;Updating;Rebooting
	Phase string `json:"phase"`
	// startedAt is when the first node was seen in it.
	// +required
	StartedAt metav1.Time `json:"startedAt"`
	// endedAt is when the last node in it was seen to leave it; absent
	// while a node is in it.
	// +optional
	EndedAt *metav1.Time `json:"endedAt,omitempty"`
}

// NodeTimes are a pool's per-node update times.
type NodeTimes struct {
	// timed counts the nodes whose start and finish were both seen.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Timed int32 `json:"timed,omitempty"`

	// median and p90 are the timed nodes' median and 90th percentile, to
	// the minute.
	// +optional
	Median *metav1.Duration `json:"median,omitempty"`
	// +optional
	P90 *metav1.Duration `json:"p90,omitempty"`

	// minutes count the timed nodes by their time in whole minutes,
	// shortest first: the distribution the median and 90th percentile are
	// read from, kept whole so that they stay exact (to the minute) as
	// nodes are added, across restarts.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=96
	Minutes []MinuteCount `json:"minutes,omitempty"`
}

// MinuteCount counts the nodes that took a number of whole minutes.
type MinuteCount struct {
	// minutes a node took, rounded down; a day or more is 1440.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1440
	Minutes int32 `json:"minutes"`
	// nodes that took it.
	// +required
	// +kubebuilder:validation:Minimum=1
	Nodes int32 `json:"nodes"`
}

// NodeUpdateRecord is one node's update: its start, its finish, and how
// long it was seen in each phase.
type NodeUpdateRecord struct {
	// name of the Node.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// startedAt is when it began updating.
	// +required
	StartedAt metav1.Time `json:"startedAt"`
	// completedAt is when it finished; absent while it updates.
	// +optional
	CompletedAt *metav1.Time `json:"completedAt,omitempty"`
	// phase is the phase it was last seen in, since phaseSince; absent once
	// it finished.
	// +optional
	// +kubebuilder:validation:Enum=Draining;Updating;Rebooting
	Phase string `json:"phase,omitempty"`
	// +optional
	PhaseSince *metav1.Time `json:"phaseSince,omitempty"`
	// draining, updating and rebooting are how long it was seen in each
	// phase, summed, as far as it was seen.
	// +optional
	Draining *metav1.Duration `json:"draining,omitempty"`
	// +optional
	Updating *metav1.Duration `json:"updating,omitempty"`
	// +optional
	Rebooting *metav1.Duration `json:"rebooting,omitempty"`
}

// UpdateStall is a health insight that was active during an update.
type UpdateStall struct {
	// name of the UpdateHealthInsight.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// level is the insight's worst level while the update was seen.
	// +required
	Level InsightImpactLevel `json:"level"`

	// impact is what the insight said it affects.
	// +required
	Impact InsightImpactType `json:"impact"`

	// scope is the part of the cluster it was about.
	// +required
	Scope ScopeType `json:"scope"`

	// resources are the first four objects its scope named.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=4
	Resources []ResourceRef `json:"resources,omitempty"`

	// summary is the insight's summary as last seen.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	Summary string `json:"summary"`

	// startedAt is when the problem began as the insight dated it; absent
	// when the insight was undated (see firstSeenAt).
	// +optional
	StartedAt *metav1.Time `json:"startedAt,omitempty"`

	// firstSeenAt is when the operator first saw the insight during the
	// update.
	// +required
	FirstSeenAt metav1.Time `json:"firstSeenAt"`

	// endedAt is when the insight was first seen gone; absent while it is
	// active, and when the update ended with it still active.
	// +optional
	EndedAt *metav1.Time `json:"endedAt,omitempty"`

	// endNotObserved says the insight went while no operator ran: endedAt
	// is then when it was last seen, and it ended some time after.
	// +optional
	EndNotObserved bool `json:"endNotObserved,omitempty"`
}

// EstimateRecord is an estimate of the control plane's completion, as
// given when the control plane was first seen at or past a percentage.
type EstimateRecord struct {
	// percent is the completion the estimate was taken at: 25, 50 or 75.
	// +required
	// +kubebuilder:validation:Enum=25;50;75
	Percent int32 `json:"percent"`

	// observedAt is when the estimate was taken.
	// +required
	ObservedAt metav1.Time `json:"observedAt"`

	// completionPercent is the control plane's completion when it was
	// taken: at or past percent, past it after a span not observed.
	// +required
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	CompletionPercent int32 `json:"completionPercent"`

	// estimatedCompletedAt is the estimated completion; absent when the
	// insight gave none.
	// +optional
	EstimatedCompletedAt *metav1.Time `json:"estimatedCompletedAt,omitempty"`
}

// UpdateRecordState is where a recorded update is.
// +kubebuilder:validation:Enum=Progressing;Completed;Abandoned
type UpdateRecordState string

const (
	UpdateRecordProgressing UpdateRecordState = "Progressing"
	UpdateRecordCompleted   UpdateRecordState = "Completed"
	UpdateRecordAbandoned   UpdateRecordState = "Abandoned"
)

// UpdateRecordDurations are how long an update and its parts took.
type UpdateRecordDurations struct {
	// controlPlane is from the update's start to the control plane's
	// completion, or to observedUntil while it updates.
	// +optional
	ControlPlane *metav1.Duration `json:"controlPlane,omitempty"`

	// workers is from the update's start to the last worker pool's
	// completion, or to observedUntil while one updates; absent without
	// worker pools.
	// +optional
	Workers *metav1.Duration `json:"workers,omitempty"`

	// total is from the update's start to its completion, or to
	// observedUntil while it runs.
	// +optional
	Total *metav1.Duration `json:"total,omitempty"`
}

// TimeSpan is a span of time, from its start to its end.
//
// +kubebuilder:validation:XValidation:rule="self.to >= self.from",message="a span ends at or after its start"
type TimeSpan struct {
	// from is when the span starts.
	// +required
	From metav1.Time `json:"from"`
	// to is when it ends.
	// +required
	To metav1.Time `json:"to"`
}

// OperatorUpdateRecord is when a ClusterOperator began and finished
// updating: its insight's Updating condition turning True, then False with
// reason Updated.
type OperatorUpdateRecord struct {
	// name of the ClusterOperator.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// startedAt is when the operator was first seen updating; absent when
	// it was never seen so (it updated between two observations, or while
	// the operator did not run).
	// +optional
	StartedAt *metav1.Time `json:"startedAt,omitempty"`

	// completedAt is when it was first seen updated; absent while it
	// updates, and when it completed while the operator did not run.
	// +optional
	CompletedAt *metav1.Time `json:"completedAt,omitempty"`

	// updated says the operator is at the update's target.
	// +optional
	Updated bool `json:"updated,omitempty"`
}

// UpdateRecordList is a list of UpdateRecord.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type UpdateRecordList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []UpdateRecord `json:"items"`
}
