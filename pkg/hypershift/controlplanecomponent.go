package hypershift

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ControlPlaneComponent condition types (controlplanecomponent_types.go).
const (
	ControlPlaneComponentAvailable       = "Available"
	ControlPlaneComponentRolloutComplete = "RolloutComplete"
)

// ControlPlaneComponent is one management-side component of a hosted control
// plane, in its control-plane namespace (controlplanecomponent_types.go
// ControlPlaneComponent).
type ControlPlaneComponent struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            ControlPlaneComponentStatus `json:"status,omitempty"`
}

// ControlPlaneComponentStatus is what of ControlPlaneComponentStatus is read.
type ControlPlaneComponentStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// Version is the release the component has rolled out.
	Version string `json:"version,omitempty"`
}
