package hypershift

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Malformed is what a cache holds of an object that does not convert to its
// type: its identity, labels and annotations (the API server keeps metadata
// well-formed, so that the object is still found by them) and why, so that
// the operator says what it left out instead of reporting on an object it
// could not read.
type Malformed struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	// Err says what of the object could not be read.
	Err string
	// ClusterName is spec.clusterName where it is a string, so that a
	// NodePool that cannot be read is still found under its HostedCluster
	// (nodepool_types.go NodePoolSpec.ClusterName), and said to be left out
	// there.
	ClusterName string
}

// Transform is an informer's transform into T: it keeps what T reads of
// each unstructured object, or its identity as a Malformed. It never fails:
// an informer whose transform fails drops the watch and lists again, and
// would do so for as long as the object stays malformed.
func Transform[T Object](obj any) (any, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj, nil
	}
	out, err := Convert[T](u)
	if err != nil {
		return &Malformed{
			TypeMeta: metav1.TypeMeta{APIVersion: u.GetAPIVersion(), Kind: u.GetKind()},
			ObjectMeta: metav1.ObjectMeta{Namespace: u.GetNamespace(), Name: u.GetName(), UID: u.GetUID(), ResourceVersion: u.GetResourceVersion(),
				Labels: u.GetLabels(), Annotations: u.GetAnnotations()},
			Err:         err.Error(),
			ClusterName: clusterName(u),
		}, nil
	}
	return out, nil
}

// clusterName is u's spec.clusterName, empty where it is not a string.
func clusterName(u *unstructured.Unstructured) string {
	name, _, _ := unstructured.NestedString(u.Object, "spec", "clusterName")
	return name
}
