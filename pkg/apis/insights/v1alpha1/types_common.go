package v1alpha1

// ResourceRef names a Kubernetes object that an insight is about.
type ResourceRef struct {
	// group of the object's kind, empty for the core group.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Group string `json:"group,omitempty"`

	// resource is the plural, lower-case resource name (e.g. clusterversions).
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Resource string `json:"resource"`

	// name of the object.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// namespace of the object, empty for cluster-scoped objects.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Namespace string `json:"namespace,omitempty"`
}

// ScopeType says which part of the cluster an insight is about.
// +kubebuilder:validation:Enum=ControlPlane;WorkerPool
type ScopeType string

const (
	// ScopeTypeControlPlane is the control plane: the ClusterVersion, the
	// ClusterOperators, and the master pool's nodes.
	ScopeTypeControlPlane ScopeType = "ControlPlane"
	// ScopeTypeWorkerPool is a pool of worker nodes.
	ScopeTypeWorkerPool ScopeType = "WorkerPool"
)
