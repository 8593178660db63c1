package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is OLM's API group.
const GroupName = "operators.coreos.com"

var (
	// SchemeGroupVersion is the group and version of the mirrored kinds.
	SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}
	// SchemeBuilder registers the mirrored kinds and their lists with a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds the mirrored kinds and their lists to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// Resource is the group and resource of a resource of the group, as the
// generated listers name it in their errors.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&ClusterServiceVersion{}, &ClusterServiceVersionList{},
		&Subscription{}, &SubscriptionList{},
		&InstallPlan{}, &InstallPlanList{},
	)
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
