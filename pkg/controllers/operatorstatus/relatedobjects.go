package operatorstatus

import (
	"slices"

	configv1 "github.com/openshift/api/config/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
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
	"hostedclusterprogressinsights",
	"nodepoolprogressinsights",
	"updaterecords",
}

// RelatedObjects are what `oc adm inspect clusteroperator/update-insights`
// and must-gather collect: the operator's namespace (its Deployment, Pods,
// logs and Events), the definitions of its custom resources, and all their
// objects (an empty name stands for all objects of a resource); and, on a
// cluster with the Console capability, the payload's ConsolePlugin. Without
// the capability the cluster serves no ConsolePlugins, and a reference to
// one would only make `oc adm inspect` fail to find the resource.
func RelatedObjects(namespace string, console bool) []configv1.ObjectReference {
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
	if console {
		related = append(related, configv1.ObjectReference{Group: "console.openshift.io", Resource: "consoleplugins", Name: names.ConsolePlugin})
	}
	return related
}

// ConsoleCapability says whether the cluster-version operator applies the
// payload's manifests of the Console capability, the ConsolePlugin among
// them: it includes a manifest annotated capability.openshift.io/name only
// if the ClusterVersion's status lists the capability as enabled (library-go
// pkg/manifest/manifest.go, checkResourceEnablement). A ClusterVersion not
// read yet enables nothing.
func ConsoleCapability(cv *configv1.ClusterVersion) bool {
	return cv != nil && slices.Contains(cv.Status.Capabilities.EnabledCapabilities, configv1.ClusterVersionCapabilityConsole)
}
