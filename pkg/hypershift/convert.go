package hypershift

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Object is any of the package's types.
type Object interface {
	HostedCluster | HostedClusterUpdate | NodePool | ControlPlaneComponent | Machine | MachineSet | MachineDeployment
}

// Convert turns an unstructured object, as a dynamic informer lists it,
// into a T, keeping only what T reads: what the API server sends beyond it
// is dropped, and managed fields too, so that a cache of Ts holds no more.
// A field of the wrong type is an error naming the object.
func Convert[T Object](u *unstructured.Unstructured) (*T, error) {
	out := new(T)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, out); err != nil {
		return nil, fmt.Errorf("%s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	if o, ok := any(out).(interface {
		SetManagedFields([]metav1.ManagedFieldsEntry)
	}); ok {
		o.SetManagedFields(nil)
	}
	return out, nil
}
