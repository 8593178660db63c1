package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Labels and annotations OLM puts on a CSV (pkg/operators/v1alpha1 of
// github.com/operator-framework/api).
const (
	// CopiedLabelKey marks a copy of a CSV that OLM made in a namespace
	// the operator watches; its value is the namespace of the original.
	CopiedLabelKey = "olm.copiedFrom"
	// OperatorNamespaceAnnotation names the namespace the operator runs in.
	OperatorNamespaceAnnotation = "olm.operatorNamespace"
	// PropertiesAnnotation holds the properties of the bundle the CSV was
	// installed from, which the catalog operator projects onto it
	// (operator-lifecycle-manager pkg/controller/registry/resolver/projection).
	PropertiesAnnotation = "operatorframework.io/properties"
)

// +genclient
// +genclient:onlyVerbs=get,list,watch
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterServiceVersion is an operator OLM installed: its version, and
// how its installation is going.
type ClusterServiceVersion struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ClusterServiceVersionSpec   `json:"spec,omitempty"`
	Status ClusterServiceVersionStatus `json:"status,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterServiceVersionList is a list of ClusterServiceVersions.
type ClusterServiceVersionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterServiceVersion `json:"items"`
}

// ClusterServiceVersionSpec is the operator's name and version.
type ClusterServiceVersionSpec struct {
	DisplayName string `json:"displayName,omitempty"`
	// Version is a semantic version; the CRD types it as a string.
	Version string `json:"version,omitempty"`
}

// ClusterServiceVersionPhase is where OLM is in installing the operator.
type ClusterServiceVersionPhase string

// The phases OLM sets.
const (
	CSVPhaseNone         ClusterServiceVersionPhase = ""
	CSVPhasePending      ClusterServiceVersionPhase = "Pending"
	CSVPhaseInstallReady ClusterServiceVersionPhase = "InstallReady"
	CSVPhaseInstalling   ClusterServiceVersionPhase = "Installing"
	CSVPhaseSucceeded    ClusterServiceVersionPhase = "Succeeded"
	CSVPhaseFailed       ClusterServiceVersionPhase = "Failed"
	CSVPhaseUnknown      ClusterServiceVersionPhase = "Unknown"
	CSVPhaseReplacing    ClusterServiceVersionPhase = "Replacing"
	CSVPhaseDeleting     ClusterServiceVersionPhase = "Deleting"
)

// CSVReasonCopied is the reason of every copy of a CSV.
const CSVReasonCopied = "Copied"

// ClusterServiceVersionStatus is the CSV's phase, and the phases it went
// through.
type ClusterServiceVersionStatus struct {
	Phase   ClusterServiceVersionPhase `json:"phase,omitempty"`
	Message string                     `json:"message,omitempty"`
	Reason  string                     `json:"reason,omitempty"`
	// LastTransitionTime is when the phase last changed.
	LastTransitionTime *metav1.Time `json:"lastTransitionTime,omitempty"`
	// Conditions are not conditions but the history of the phases: OLM
	// appends an entry each time the phase or the reason changes, and
	// keeps the newest 20 (ClusterServiceVersion.SetPhase).
	Conditions        []ClusterServiceVersionCondition `json:"conditions,omitempty"`
	RequirementStatus []RequirementStatus              `json:"requirementStatus,omitempty"`
}

// ClusterServiceVersionCondition is one entry of a CSV's phase history.
type ClusterServiceVersionCondition struct {
	Phase              ClusterServiceVersionPhase `json:"phase,omitempty"`
	Message            string                     `json:"message,omitempty"`
	Reason             string                     `json:"reason,omitempty"`
	LastTransitionTime *metav1.Time               `json:"lastTransitionTime,omitempty"`
}

// RequirementStatus is whether one of the operator's requirements (a
// CRD, a service account and its rules, an API) is met.
type RequirementStatus struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	// Status is Present when the requirement is met.
	Status     string            `json:"status"`
	Message    string            `json:"message"`
	Dependents []DependentStatus `json:"dependents,omitempty"`
}

// DependentStatus is whether something a requirement needs (a policy
// rule of a service account) is met.
type DependentStatus struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	// Status is Satisfied when it is met.
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
}

// IsCopied says whether the CSV is a copy OLM made of an operator's CSV in
// a namespace it watches, as OLM tells (ClusterServiceVersion.IsCopied):
// by the reason, the operator's namespace, or the label.
func (c *ClusterServiceVersion) IsCopied() bool {
	if c.Status.Reason == CSVReasonCopied {
		return true
	}
	if ns, ok := c.Annotations[OperatorNamespaceAnnotation]; ok && ns != c.Namespace {
		return true
	}
	_, ok := c.Labels[CopiedLabelKey]
	return ok
}

// +genclient
// +genclient:onlyVerbs=get,list,watch
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Subscription keeps an operator installed from a catalog's channel, and
// updated as the channel moves.
type Subscription struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SubscriptionSpec   `json:"spec,omitempty"`
	Status SubscriptionStatus `json:"status,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// SubscriptionList is a list of Subscriptions.
type SubscriptionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Subscription `json:"items"`
}

// Approval says whether an operator's updates install on their own.
type Approval string

// The approvals; an empty one is Automatic (Subscription.GetInstallPlanApproval).
const (
	ApprovalAutomatic Approval = "Automatic"
	ApprovalManual    Approval = "Manual"
)

// SubscriptionSpec is the package, the channel and the catalog it comes
// from.
type SubscriptionSpec struct {
	CatalogSource          string   `json:"source,omitempty"`
	CatalogSourceNamespace string   `json:"sourceNamespace,omitempty"`
	Package                string   `json:"name,omitempty"`
	Channel                string   `json:"channel,omitempty"`
	InstallPlanApproval    Approval `json:"installPlanApproval,omitempty"`
}

// SubscriptionStatus is what OLM installed and is installing.
type SubscriptionStatus struct {
	// CurrentCSV is the CSV the Subscription is progressing to, and
	// InstalledCSV the one installed.
	CurrentCSV   string `json:"currentCSV,omitempty"`
	InstalledCSV string `json:"installedCSV,omitempty"`
	State        string `json:"state,omitempty"`
	// InstallPlanRef is the InstallPlan of the newest resolution.
	InstallPlanRef *corev1.ObjectReference `json:"installPlanRef,omitempty"`
	Conditions     []SubscriptionCondition `json:"conditions,omitempty"`
}

// The Subscription conditions that say a package, a channel or a bundle is
// deprecated.
const (
	SubscriptionPackageDeprecated = "PackageDeprecated"
	SubscriptionChannelDeprecated = "ChannelDeprecated"
	SubscriptionBundleDeprecated  = "BundleDeprecated"
)

// SubscriptionCondition is a condition of a Subscription.
type SubscriptionCondition struct {
	Type               string                 `json:"type"`
	Status             corev1.ConditionStatus `json:"status"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
	LastTransitionTime *metav1.Time           `json:"lastTransitionTime,omitempty"`
}

// +genclient
// +genclient:onlyVerbs=get,list,watch
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// InstallPlan is what OLM installs to resolve a Subscription: the CSVs,
// once approved.
type InstallPlan struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   InstallPlanSpec   `json:"spec,omitempty"`
	Status InstallPlanStatus `json:"status,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// InstallPlanList is a list of InstallPlans.
type InstallPlanList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []InstallPlan `json:"items"`
}

// InstallPlanSpec is what the plan installs, and whether it may.
type InstallPlanSpec struct {
	ClusterServiceVersionNames []string `json:"clusterServiceVersionNames"`
	Approval                   Approval `json:"approval"`
	Approved                   bool     `json:"approved"`
}

// InstallPlanPhaseRequiresApproval is the phase of a plan that waits for
// an administrator to approve it.
const InstallPlanPhaseRequiresApproval = "RequiresApproval"

// InstallPlanStatus is where the plan is.
type InstallPlanStatus struct {
	Phase string `json:"phase,omitempty"`
}
