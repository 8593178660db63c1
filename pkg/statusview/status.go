// Package statusview renders the insights of a cluster as an administrator
// reads them: the view of `oc adm upgrade status`, drawn from the insights the
// operator maintains instead of recomputed from the cluster. It talks to no
// cluster: insights (read from one by pkg/statusview/cluster, or from a file
// by ReadInsights) and a clock in, a Status and its text out.
package statusview

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// Status is how an update is going, as of Now. It is what -o json and -o
// yaml print, and what the text is rendered from.
type Status struct {
	// Liveness says whether the operator that writes the insights runs,
	// from its leader Lease; absent when the insights come from a file
	// without the Lease. It is first so that a reader of the output meets
	// it before anything it may make stale.
	Liveness *Liveness `json:"liveness,omitempty"`
	// Now is the moment the durations are measured at.
	Now metav1.Time `json:"now"`
	// Updating is false once the control plane and every pool with nodes
	// completed their update.
	Updating bool `json:"updating"`
	// Upcoming is, while not updating, an update an UpdateInformer holds
	// before the ClusterVersion has it: scheduled, or starting.
	Upcoming     *Upcoming    `json:"upcoming,omitempty"`
	ControlPlane ControlPlane `json:"controlPlane"`
	// ControlPlaneNodes is the control plane's pool, absent when no insight
	// tells of it.
	ControlPlaneNodes *Pool `json:"controlPlaneNodes,omitempty"`
	// WorkerPools are the other pools that have nodes: the default worker
	// pool first, then the custom pools by name.
	WorkerPools []Pool `json:"workerPools"`
	// Health are the health insights, the most serious and most recent first.
	Health []Health `json:"health"`
	// Warnings say what may make all of the above out of date: the operator
	// that maintains the insights not running (first, Liveness's message),
	// or reporting itself not available or degraded.
	Warnings []string `json:"warnings,omitempty"`
}

// ControlPlane is the update of the ClusterVersion and its operators.
type ControlPlane struct {
	Assessment insightsv1alpha1.ClusterVersionAssessment `json:"assessment"`
	Target     insightsv1alpha1.Version                  `json:"target"`
	Previous   *insightsv1alpha1.Version                 `json:"previous,omitempty"`
	// Updating are the operators updating now, by name.
	Updating   []Operator   `json:"updating"`
	Completion Completion   `json:"completion"`
	StartedAt  *metav1.Time `json:"startedAt,omitempty"`
	// CompletedAt is set once the update completed.
	CompletedAt *metav1.Time `json:"completedAt,omitempty"`
	// Duration is how long the update ran: until now, or until it completed.
	Duration *metav1.Duration `json:"duration,omitempty"`
	// EstimatedCompletedAt and EstimatedTimeRemaining are set while the
	// update runs; the remaining time is negative once past the estimate.
	EstimatedCompletedAt   *metav1.Time     `json:"estimatedCompletedAt,omitempty"`
	EstimatedTimeRemaining *metav1.Duration `json:"estimatedTimeRemaining,omitempty"`
	OperatorHealth         OperatorHealth   `json:"operatorHealth"`
	// Informers are what the UpdateInformers report of the control plane's
	// progress.
	Informers []Progress `json:"informers,omitempty"`
}

// Progress is a status-level insight of an UpdateInformer: how its part of
// the update goes, as that informer sees it.
type Progress struct {
	Informer string `json:"informer"`
	UID      string `json:"uid"`
	Summary  string `json:"summary"`
	// Since is when the informer acquired the insight.
	Since *metav1.Time `json:"since,omitempty"`
	// EstimatedFinish is when what the insight tells of should end: for
	// AwaitingWindow, when the window opens.
	EstimatedFinish *metav1.Time `json:"estimatedFinish,omitempty"`
	// AwaitingWindow says that a schedule holds the update.
	AwaitingWindow bool `json:"awaitingWindow,omitempty"`
	// Stale says the informer's last call failed: this is from its last
	// good answer.
	Stale bool `json:"stale,omitempty"`
}

// Operator is a ClusterOperator that is updating.
type Operator struct {
	Name string `json:"name"`
	// Since is when the insight saw it start updating.
	Since *metav1.Time `json:"since,omitempty"`
	// Reason is the ClusterOperator's own Progressing reason.
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// Completion counts the payload ClusterOperators by how far they are.
type Completion struct {
	// Percent is the share already updated, rounded as the reference prints it.
	Percent  int32 `json:"percent"`
	Updated  int   `json:"updated"`
	Updating int   `json:"updating"`
	// Waiting are pending, or in a state the insight cannot determine.
	Waiting int `json:"waiting"`
}

// OperatorHealth counts the payload ClusterOperators by health.
type OperatorHealth struct {
	Healthy     int `json:"healthy"`
	Unavailable int `json:"unavailable"`
	// Degraded are available but degraded.
	Degraded int `json:"degraded"`
	// Unknown are those whose health the insight cannot determine.
	Unknown int `json:"unknown"`
}

// Pool is a MachineConfigPool, or on a cluster whose control plane is
// hosted a HyperShift NodePool, and its nodes.
type Pool struct {
	Name string `json:"name"`
	// Kind is NodePool for a HyperShift NodePool; absent for a
	// MachineConfigPool.
	Kind       string                          `json:"kind,omitempty"`
	Assessment insightsv1alpha1.PoolAssessment `json:"assessment,omitempty"`
	// CompletionPercent is the share of nodes updated, floored.
	CompletionPercent int32      `json:"completionPercent"`
	Summary           NodeCounts `json:"summary"`
	// Nodes are sorted as the tables show them: the nodes that need
	// attention first.
	Nodes []Node `json:"nodes"`
	// Informers are what the UpdateInformers report of the pool's progress.
	Informers []Progress `json:"informers,omitempty"`
	// ConfigurationRollout says, when set, that the pool's nodes are all at
	// the target version and roll out a new configuration of it: nodes
	// drain and reboot, but it is no update.
	ConfigurationRollout string `json:"configurationRollout,omitempty"`
	// Behind says, when set, how far a NodePool assessed Behind runs behind
	// the control plane, none of its nodes updating: NodePools are updated
	// apart from the control plane, so this is no update in progress.
	Behind string `json:"behind,omitempty"`
	// BeyondSupportedSkew says, when set, that a NodePool runs more minor
	// releases behind the control plane than HyperShift supports: an
	// error, whether or not anything updates.
	BeyondSupportedSkew string `json:"beyondSupportedSkew,omitempty"`
	// ImageBuild is the OS image build of an image-mode pool, as its
	// insight says; absent for any other pool.
	ImageBuild *insightsv1alpha1.PoolImageBuild `json:"imageBuild,omitempty"`
}

// NodeCounts count a pool's nodes by state; a node may be in several.
type NodeCounts struct {
	Total       int32 `json:"total"`
	Available   int32 `json:"available"`
	Progressing int32 `json:"progressing"`
	Outdated    int32 `json:"outdated"`
	Draining    int32 `json:"draining"`
	Excluded    int32 `json:"excluded"`
	Degraded    int32 `json:"degraded"`
}

// Node is a node as the node tables show it.
type Node struct {
	Name string `json:"name"`
	// Assessment is Degraded, Unavailable, Progressing, Outdated, Excluded,
	// Completed, or Unknown without an Updating condition.
	Assessment string `json:"assessment"`
	// Phase is Draining, Updating, Rebooting, Paused, Pending, Updated, or
	// Unknown.
	Phase               string           `json:"phase"`
	Version             string           `json:"version,omitempty"`
	EstimatedToComplete *metav1.Duration `json:"estimatedToComplete,omitempty"`
	Message             string           `json:"message,omitempty"`
	// Available is false when the node cannot run workloads.
	Available bool `json:"available"`
}

// Health is a health insight.
type Health struct {
	Name string `json:"name"`
	// Informer names the UpdateInformer that reported it; empty for the
	// operator's own.
	Informer string `json:"informer,omitempty"`
	// StartedAt is absent when the insight does not tell.
	StartedAt   *metav1.Time                        `json:"startedAt,omitempty"`
	Level       insightsv1alpha1.InsightImpactLevel `json:"level"`
	Impact      insightsv1alpha1.InsightImpactType  `json:"impact"`
	Scope       insightsv1alpha1.ScopeType          `json:"scope"`
	Summary     string                              `json:"summary"`
	Description string                              `json:"description,omitempty"`
	Reference   string                              `json:"reference,omitempty"`
	Resources   []insightsv1alpha1.ResourceRef      `json:"resources,omitempty"`
}
