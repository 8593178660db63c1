package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// OneOffCheckLabel, "true" on an UpdatePlan, says that pre-checks created
// it to check a release the cluster is not offered, once: the command
// deletes it when it has printed its findings, and the operator prunes it
// if the command could not (it was killed, or lost the API server).
// Removing the label keeps the plan, as pre-checks --allow-not-offered does.
const OneOffCheckLabel = "update-insights.openshift.muller.dev/one-off-check"

// UpdatePlan is what might go wrong if the cluster updated to a release:
// the findings of the operator and of every UpdateInformer that handles
// plans, and which of them the administrator accepted. There is one per
// target release, named after it, so that the API server itself refuses a
// second plan for the same release.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=uplan
// +kubebuilder:metadata:annotations="include.release.openshift.io/self-managed-high-availability=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/single-node-developer=true"
// +kubebuilder:metadata:annotations="include.release.openshift.io/ibm-cloud-managed=true"
// +kubebuilder:validation:XValidation:rule="self.metadata.name == self.spec.targetRelease",message="an UpdatePlan is named after its target release"
// +kubebuilder:printcolumn:name="Target",type=string,JSONPath=`.spec.targetRelease`
// +kubebuilder:printcolumn:name="Answered",type=string,JSONPath=`.status.conditions[?(@.type=="Answered")].status`
// +kubebuilder:printcolumn:name="Accepted",type=string,JSONPath=`.status.conditions[?(@.type=="Accepted")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type UpdatePlan struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the release the plan is for, and the findings accepted.
	// +required
	Spec UpdatePlanSpec `json:"spec"`
	// status is the findings.
	// +optional
	Status UpdatePlanStatus `json:"status,omitempty"`
}

// UpdatePlanSpec is the release a plan is for, and the findings accepted.
type UpdatePlanSpec struct {
	// targetRelease is the version the plan considers updating to.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[0-9a-z]([-.0-9a-z]*[0-9a-z])?$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="targetRelease is immutable"
	TargetRelease string `json:"targetRelease"`

	// acceptedInsights are the findings the administrator accepts, by the
	// protocol's insight identity.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1024
	AcceptedInsights []AcceptedInsight `json:"acceptedInsights,omitempty"`

	// evaluationRequest, changed to any new value, asks for a fresh
	// evaluation; status.observedEvaluationRequest says when it was done.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	EvaluationRequest string `json:"evaluationRequest,omitempty"`
}

// AcceptedInsight is a finding the administrator accepts.
type AcceptedInsight struct {
	// updateInformer names the informer that reported the finding.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	UpdateInformer string `json:"updateInformer"`

	// uid is the finding's identity.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	UID string `json:"uid"`

	// accepted says whether the risk is accepted.
	// +required
	Accepted bool `json:"accepted"`
}

// UpdatePlanStatus is a plan's findings, in UpdateStatus' shape, each with
// whether it is accepted.
type UpdatePlanStatus struct {
	// conditions: Answered says whether every informer that handles plans
	// has answered; Accepted whether every finding is accepted.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// observedEvaluationRequest is the spec's evaluationRequest the findings
	// answer.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	ObservedEvaluationRequest string `json:"observedEvaluationRequest,omitempty"`

	// evaluatedAt is when the findings were last evaluated: an update is
	// only started on a plan evaluated recently.
	// +optional
	EvaluatedAt *metav1.Time `json:"evaluatedAt,omitempty"`

	// controlPlane is what might go wrong with the control plane's update.
	// +optional
	ControlPlane ControlPlanePlan `json:"controlPlane,omitempty"`

	// workerPools is what might go wrong with each worker pool's update.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=64
	WorkerPools []WorkerPoolPlan `json:"workerPools,omitempty"`
}

// ControlPlanePlan is what might go wrong with the control plane's update.
//
// +kubebuilder:validation:XValidation:rule="!has(self.informers) || self.informers.all(i, !has(i.insights) || size(i.insights) <= 128)",message="an informer has at most 128 control plane insights"
type ControlPlanePlan struct {
	// informers are the findings of each informer about the control plane.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=32
	Informers []InformerPlanInsights `json:"informers,omitempty"`
}

// WorkerPoolPlan is what might go wrong with a worker pool's update.
type WorkerPoolPlan struct {
	// resource is the pool: a MachineConfigPool, or on a cluster whose
	// control plane is hosted a HyperShift NodePool.
	// +required
	Resource ResourceRef `json:"resource"`

	// informers are the findings of each informer about the pool.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=32
	Informers []InformerPlanInsights `json:"informers,omitempty"`
}

// InformerPlanInsights are one informer's findings about one part of the
// cluster.
type InformerPlanInsights struct {
	// name of the UpdateInformer, or update-insights-operator for the
	// operator's own.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// stale says the informer did not answer the last evaluation: these
	// are the findings of its last answer.
	// +optional
	Stale bool `json:"stale,omitempty"`

	// insights are what the informer found.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1024
	Insights []UpdatePlanInsight `json:"insights,omitempty"`
}

// UpdatePlanInsight is a finding, and whether the administrator accepted
// it.
type UpdatePlanInsight struct {
	UpdateInsight `json:",inline"`

	// identity is the finding's identity by the protocol (informer, scope
	// type, scope resources and uid), by which it is accepted.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	Identity string `json:"identity"`

	// accepted says whether spec.acceptedInsights accepts the finding.
	// +optional
	Accepted bool `json:"accepted,omitempty"`
}

// UpdatePlanList is a list of UpdatePlan.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type UpdatePlanList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []UpdatePlan `json:"items"`
}
