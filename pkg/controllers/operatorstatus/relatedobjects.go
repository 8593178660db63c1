package operatorstatus

import (
	configv1 "github.com/openshift/api/config/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// customResources are the operator's custom resources, in the order the
// ClusterOperator lists them.
var customResources = []string{
	"clusterversionprogressinsights",
	"clusteroperatorprogressinsights",
	"nodeprogressinsights",
	"machineconfigpoolprogressinsights",
	"updatehealthinsights",
	"updateinformers",
	"updatestatuses",
	"updateplans",
}

// RelatedObjects are what `oc adm inspect clusteroperator/update-insights`
// and must-gather collect: the operator's namespace (its Deployment, Pods,
// logs and Events), the definitions of its custom resources, and all their
// objects (an empty name stands for all objects of a resource).
func RelatedObjects(namespace string) []configv1.ObjectReference {
	related := []configv1.ObjectReference{{Group: "", Resource: "namespaces", Name: namespace}}
	for _, resource := range customResources {
		related = append(related, configv1.ObjectReference{
			Group:    "apiextensions.k8s.io",
			Resource: "customresourcedefinitions",
			Name:     resource + "." + insightsv1alpha1.GroupName,
		})
	}
	for _, resource := range customResources {
		related = append(related, configv1.ObjectReference{Group: insightsv1alpha1.GroupName, Resource: resource})
	}
	return related
}
