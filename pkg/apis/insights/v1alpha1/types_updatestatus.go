package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// UpdateStatusName is the name of the one UpdateStatus.
const UpdateStatusName = "cluster"

// UpdateStatus is the aggregated view of the cluster's update: whether the
// control plane and each worker pool have an update pending and whether it
// can progress, with the insights of every UpdateInformer, the operator's
// own among them. There is one, named cluster.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=ustatus
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:validation:XValidation:rule="self.metadata.name == 'cluster'",message="the UpdateStatus is a singleton named cluster"
// +kubebuilder:printcolumn:name="Control Plane Pending",type=string,JSONPath=`.status.controlPlane.conditions[?(@.type=="UpdatePending")].status`
// +kubebuilder:printcolumn:name="Control Plane Active",type=string,JSONPath=`.status.controlPlane.conditions[?(@.type=="UpdateActive")].reason`
// +kubebuilder:printcolumn:name="Pools",type=string,JSONPath=`.status.workerPools[*].resource.name`
// +kubebuilder:printcolumn:name="Pools Active",type=string,JSONPath=`.status.workerPools[*].conditions[?(@.type=="UpdateActive")].reason`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type UpdateStatus struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is empty: the status is entirely observed state.
	// +optional
	Spec UpdateStatusSpec `json:"spec,omitempty"`
	// status is the aggregated view of the update.
	// +optional
	Status UpdateStatusStatus `json:"status,omitempty"`
}

// UpdateStatusSpec is empty.
type UpdateStatusSpec struct{}

// UpdateStatusStatus is the aggregated view of the update.
type UpdateStatusStatus struct {
	// conditions are the aggregator's own: whether every informer answered,
	// and what was cut to keep the object bounded.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// controlPlane is the control plane's update.
	// +optional
	ControlPlane ControlPlaneUpdateStatus `json:"controlPlane,omitempty"`

	// workerPools are the worker pools' updates, one per worker
	// MachineConfigPool.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=64
	WorkerPools []WorkerPoolUpdateStatus `json:"workerPools,omitempty"`
}

// ControlPlaneUpdateStatus is the control plane's update.
//
// +kubebuilder:validation:XValidation:rule="!has(self.informers) || self.informers.all(i, !has(i.insights) || size(i.insights) <= 128)",message="an informer has at most 128 control plane insights"
type ControlPlaneUpdateStatus struct {
	// conditions: UpdatePending says whether the ClusterVersion has not
	// reconciled to its desired release; UpdateActive whether that update
	// can progress, and when not, why.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// informers are the insights of each informer about the control plane.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=32
	Informers []InformerInsights `json:"informers,omitempty"`
}

// WorkerPoolUpdateStatus is a worker pool's update.
type WorkerPoolUpdateStatus struct {
	// resource is the pool: a MachineConfigPool, or on a cluster whose
	// control plane is hosted a HyperShift NodePool.
	// +required
	Resource ResourceRef `json:"resource"`

	// conditions: UpdatePending says whether some of the pool's nodes do not
	// run its target configuration; UpdateActive whether they are being
	// updated, and when not, why (paused, waiting for the control plane).
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// informers are the insights of each informer about the pool.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=32
	Informers []InformerInsights `json:"informers,omitempty"`
}

// UpdateStatus condition types, and reasons of UpdateActive=False.
const (
	UpdatePending = "UpdatePending"
	UpdateActive  = "UpdateActive"

	UpdateCompleted      = "Completed"
	UpdatePaused         = "Paused"
	UpdateAwaitingWindow = "AwaitingWindow"
)

// InformerInsights are one informer's insights about one part of the
// cluster.
type InformerInsights struct {
	// name of the UpdateInformer, or update-insights-operator for the
	// operator's own.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// stale says the informer's last call failed: these are the insights
	// of its last good answer.
	// +optional
	Stale bool `json:"stale,omitempty"`

	// insights are what the informer reported.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1024
	Insights []UpdateInsight `json:"insights,omitempty"`
}

// UpdateInsight is one insight of an informer, in the protocol's shape.
type UpdateInsight struct {
	// uid identifies the insight among its informer's, across answers.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	UID string `json:"uid"`

	// acquisitionTime is when the informer acquired what it reports.
	// +optional
	AcquisitionTime *metav1.Time `json:"acquisitionTime,omitempty"`

	// scope is the part of the cluster and the objects involved.
	// +required
	Scope UpdateInsightScope `json:"scope"`

	// impact is how the insight affects the update.
	// +required
	Impact UpdateInsightImpact `json:"impact"`

	// remediation is what to do, and when it is expected to pass.
	// +optional
	Remediation UpdateInsightRemediation `json:"remediation,omitempty"`
}

// UpdateInsightScope is the part of the cluster an insight is about.
type UpdateInsightScope struct {
	// type of the scope.
	// +required
	Type ScopeType `json:"type"`

	// workerPool are the worker pool's objects involved (MachineSets, say).
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=16
	WorkerPool []InsightResource `json:"workerPool,omitempty"`

	// resources are the objects involved.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=32
	Resources []InsightResource `json:"resources,omitempty"`
}

// InsightResource names an object an insight is about, by kind as the
// protocol does.
type InsightResource struct {
	// group of the object's kind, empty for the core group.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Group string `json:"group,omitempty"`

	// kind of the object.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Kind string `json:"kind"`

	// namespace of the object, empty for cluster-scoped objects.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Namespace string `json:"namespace,omitempty"`

	// name of the object.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// UpdateInsightImpact is how an insight affects the update.
type UpdateInsightImpact struct {
	// level: status for normal progress, or how serious a problem is.
	// +required
	Level UpdateInsightLevel `json:"level"`

	// type is what the insight affects; Awaiting Window (at level status)
	// says a schedule holds the update of its scope.
	// +optional
	Type UpdateInsightImpactType `json:"type,omitempty"`

	// summary is a one-line statement.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:Pattern=`^[^\n]*$`
	Summary string `json:"summary"`

	// description explains the insight in enough detail to act on it.
	// +optional
	// +kubebuilder:validation:MaxLength=4096
	Description string `json:"description,omitempty"`
}

// UpdateInsightLevel is the protocol's level of an insight.
// +kubebuilder:validation:Enum=status;info;warning;error;critical
type UpdateInsightLevel string

const (
	StatusInsightLevel   UpdateInsightLevel = "status"
	InfoInsightLevel     UpdateInsightLevel = "info"
	WarningInsightLevel  UpdateInsightLevel = "warning"
	ErrorInsightLevel    UpdateInsightLevel = "error"
	CriticalInsightLevel UpdateInsightLevel = "critical"
)

// UpdateInsightImpactType is what an insight affects: the insight API's
// impact types, and Awaiting Window.
// +kubebuilder:validation:Enum=None;Unknown;API Availability;Cluster Capacity;Application Availability;Application Outage;Data Loss;Update Speed;Update Stalled;Awaiting Window
type UpdateInsightImpactType string

// AwaitingWindowImpactType says a schedule holds the update of the
// insight's scope until its estimated finish.
const AwaitingWindowImpactType UpdateInsightImpactType = "Awaiting Window"

// UpdateInsightRemediation is what to do about an insight, and when it is
// expected to pass.
type UpdateInsightRemediation struct {
	// reference is a URL to documentation or a runbook.
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^https?://[^\s]+$`
	Reference string `json:"reference,omitempty"`

	// resolved false keeps the insight as reported after the informer stops
	// reporting it, for the administrator's attention.
	// +optional
	Resolved *bool `json:"resolved,omitempty"`

	// estimatedFinish is when the insight is expected to pass.
	// +optional
	EstimatedFinish *metav1.Time `json:"estimatedFinish,omitempty"`
}

// UpdateStatusList is a list of UpdateStatus.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type UpdateStatusList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []UpdateStatus `json:"items"`
}
