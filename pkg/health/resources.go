package health

import (
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	policyv1 "k8s.io/api/policy/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// scopedResource is a resource a health insight names. The insight's
// ResourceRef carries the plural resource; the built-in informer reports
// the same object in the protocol's shape, by kind (Kind). The health
// insights name resources only through these, so a new one cannot be
// written without its kind.
type scopedResource struct {
	group, resource, kind string
}

var (
	clusterVersionResource      = scopedResource{configv1.GroupName, "clusterversions", "ClusterVersion"}
	clusterOperatorResource     = scopedResource{configv1.GroupName, "clusteroperators", "ClusterOperator"}
	nodeResource                = scopedResource{"", "nodes", "Node"}
	machineConfigPoolResource   = scopedResource{machineconfigurationv1.GroupName, "machineconfigpools", "MachineConfigPool"}
	alertResource               = scopedResource{configv1.GroupName, "alerts", "Alert"}
	podResource                 = scopedResource{"", "pods", "Pod"}
	podDisruptionBudgetResource = scopedResource{policyv1.GroupName, "poddisruptionbudgets", "PodDisruptionBudget"}
	nodePoolResource            = scopedResource{hosted.NodePoolGroup, hosted.NodePoolResource, "NodePool"}
	machineOSBuildResource      = scopedResource{machineconfigurationv1.GroupName, "machineosbuilds", "MachineOSBuild"}
)

// scopedResources are all the resources the health insights name.
var scopedResources = []scopedResource{clusterVersionResource, clusterOperatorResource, nodeResource, machineConfigPoolResource, alertResource,
	podResource, podDisruptionBudgetResource, nodePoolResource, machineOSBuildResource}

// ref refers to the object name of the resource.
func (r scopedResource) ref(name string) insightsv1alpha1.ResourceRef {
	return insightsv1alpha1.ResourceRef{Group: r.group, Resource: r.resource, Name: name}
}

// namespacedRef refers to the object namespace/name of the resource.
func (r scopedResource) namespacedRef(namespace, name string) insightsv1alpha1.ResourceRef {
	return insightsv1alpha1.ResourceRef{Group: r.group, Resource: r.resource, Namespace: namespace, Name: name}
}

// Kind is the kind of a resource the health insights name; false for any
// other, such as one an older or newer operator named.
func Kind(resource string) (string, bool) {
	for _, r := range scopedResources {
		if r.resource == resource {
			return r.kind, true
		}
	}
	return "", false
}

// IsPool says whether a resource of that kind (Kind) is a pool of worker
// nodes: a MachineConfigPool, or a HyperShift NodePool.
func IsPool(kind string) bool {
	return kind == machineConfigPoolResource.kind || kind == nodePoolResource.kind
}
