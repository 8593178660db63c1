package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the Managed Upgrade Operator's API group.
const GroupName = "upgrade.managed.openshift.io"

var (
	// SchemeGroupVersion is the group and version of UpgradeConfig.
	SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}
	// Resource is UpgradeConfig's resource, for a dynamic client.
	Resource = SchemeGroupVersion.WithResource("upgradeconfigs")
	// SchemeBuilder registers UpgradeConfig and its list with a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds UpgradeConfig and its list to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion, &UpgradeConfig{}, &UpgradeConfigList{})
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
