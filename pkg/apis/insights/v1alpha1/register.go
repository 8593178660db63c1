package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of every insight kind.
const GroupName = "openshift.muller.dev"

var (
	// SchemeGroupVersion is the group and version of this package's kinds.
	SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}
	// SchemeBuilder registers this package's kinds with a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds this package's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// Resource takes an unqualified resource and returns a group-qualified one.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&ClusterVersionProgressInsight{}, &ClusterVersionProgressInsightList{},
		&ClusterOperatorProgressInsight{}, &ClusterOperatorProgressInsightList{},
		&NodeProgressInsight{}, &NodeProgressInsightList{},
		&MachineConfigPoolProgressInsight{}, &MachineConfigPoolProgressInsightList{},
		&UpdateHealthInsight{}, &UpdateHealthInsightList{},
		&UpdateInformer{}, &UpdateInformerList{},
		&UpdateStatus{}, &UpdateStatusList{},
		&UpdatePlan{}, &UpdatePlanList{},
		&HostedClusterProgressInsight{}, &HostedClusterProgressInsightList{},
		&NodePoolProgressInsight{}, &NodePoolProgressInsightList{},
		&UpdateRecord{}, &UpdateRecordList{},
	)
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
