// Package hostedtest builds, for tests, the objects a cluster whose control
// plane is hosted (HyperShift) holds, in the shapes HyperShift's code writes
// them; each builder names the file it follows.
package hostedtest

import (
	"sort"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The six ClusterOperators of hosted.IsSynthetic, with their VersionMapping
// and relatedObjects as control-plane-operator/hostedclusterconfigoperator/
// controllers/resources/clusteroperators.go lists them.
var synthetic = map[string]struct {
	versionMapping map[string]string
	relatedObjects []configv1.ObjectReference
}{
	"openshift-apiserver": {
		versionMapping: map[string]string{"operator": "release", "openshift-apiserver": "release"},
		relatedObjects: append([]configv1.ObjectReference{
			{Group: "operator.openshift.io", Resource: "openshiftapiservers", Name: "cluster"},
			{Resource: "namespaces", Name: "openshift-config"},
			{Resource: "namespaces", Name: "openshift-config-managed"},
			{Resource: "namespaces", Name: "openshift-apiserver-operator"},
			{Resource: "namespaces", Name: "openshift-apiserver"},
		}, apiServices("apps", "authorization", "build", "image", "oauth", "project", "quota", "route", "security", "template", "user")...),
	},
	"openshift-controller-manager": {
		versionMapping: map[string]string{"openshift-controller-manager": "release", "operator": "release"},
		relatedObjects: []configv1.ObjectReference{
			{Group: "operator.openshift.io", Resource: "openshiftcontrollermanagers", Name: "cluster"},
			{Resource: "namespaces", Name: "openshift-config"},
			{Resource: "namespaces", Name: "openshift-config-managed"},
			{Resource: "namespaces", Name: "openshift-controller-manager-operator"},
			{Resource: "namespaces", Name: "openshift-controller-manager"},
		},
	},
	"kube-apiserver": {
		versionMapping: map[string]string{"raw-internal": "release", "kube-apiserver": "kubernetes", "operator": "release"},
		relatedObjects: []configv1.ObjectReference{
			{Group: "operator.openshift.io", Resource: "kubeapiservers", Name: "cluster"},
			{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"},
			{Resource: "namespaces", Name: "openshift-config"},
			{Resource: "namespaces", Name: "openshift-config-managed"},
			{Resource: "namespaces", Name: "openshift-kube-apiserver-operator"},
			{Resource: "namespaces", Name: "openshift-kube-apiserver"},
		},
	},
	"kube-controller-manager": {
		versionMapping: map[string]string{"raw-internal": "release", "kube-controller-manager": "kubernetes", "operator": "release"},
		relatedObjects: []configv1.ObjectReference{
			{Resource: "namespaces", Name: "openshift-config"},
			{Resource: "namespaces", Name: "openshift-config-managed"},
			{Resource: "namespaces", Name: "openshift-kube-controller-manager"},
			{Resource: "namespaces", Name: "openshift-kube-controller-manager-operator"},
			{Group: "operator.openshift.io", Resource: "kubecontrollermanagers", Name: "cluster"},
		},
	},
	"kube-scheduler": {
		versionMapping: map[string]string{"raw-internal": "release", "kube-scheduler": "kubernetes", "operator": "release"},
		relatedObjects: []configv1.ObjectReference{
			{Group: "operator.openshift.io", Resource: "kubeschedulers", Name: "cluster"},
			{Resource: "namespaces", Name: "openshift-config"},
			{Resource: "namespaces", Name: "openshift-kube-scheduler"},
			{Resource: "namespaces", Name: "openshift-kube-scheduler-operator"},
		},
	},
	"operator-lifecycle-manager-packageserver": {
		versionMapping: map[string]string{"operator": "release"},
		relatedObjects: []configv1.ObjectReference{
			{Resource: "namespaces", Name: "openshift-operator-lifecycle-manager"},
		},
	},
}

func apiServices(groups ...string) []configv1.ObjectReference {
	refs := make([]configv1.ObjectReference, 0, len(groups))
	for _, g := range groups {
		refs = append(refs, configv1.ObjectReference{Group: "apiregistration.k8s.io", Name: "v1." + g + ".openshift.io", Resource: "apiservices"})
	}
	return refs
}

// SyntheticNames are the names of the six synthetic ClusterOperators, sorted.
func SyntheticNames() []string {
	names := make([]string, 0, len(synthetic))
	for name := range synthetic {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// SyntheticOperator returns the ClusterOperator name as the
// hosted-cluster-config-operator writes it (clusteroperators.go,
// clusterOperatorStatus): no annotations (it creates the object with a
// status only); a version per VersionMapping entry, sorted by name, that
// operator's release or kubernetes version (both its own: cmd.go, Run);
// Available, Progressing False, Degraded False and Upgradeable, all
// AsExpected, dated since, which it keeps while their status and reason
// hold; and the relatedObjects. It panics on a name that is not one of the
// six.
func SyntheticOperator(name, release, kubernetes string, since time.Time) *configv1.ClusterOperator {
	info, ok := synthetic[name]
	if !ok {
		panic("not a synthetic ClusterOperator: " + name)
	}
	versions := map[string]string{"release": release, "kubernetes": kubernetes}
	co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: name}}
	keys := make([]string, 0, len(info.versionMapping))
	for key := range info.versionMapping {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		co.Status.Versions = append(co.Status.Versions, configv1.OperandVersion{Name: key, Version: versions[info.versionMapping[key]]})
	}
	t := metav1.NewTime(since)
	for _, c := range []struct {
		conditionType configv1.ClusterStatusConditionType
		status        configv1.ConditionStatus
	}{
		{configv1.OperatorAvailable, configv1.ConditionTrue},
		{configv1.OperatorProgressing, configv1.ConditionFalse},
		{configv1.OperatorDegraded, configv1.ConditionFalse},
		{configv1.OperatorUpgradeable, configv1.ConditionTrue},
	} {
		co.Status.Conditions = append(co.Status.Conditions, configv1.ClusterOperatorStatusCondition{
			Type: c.conditionType, Status: c.status, LastTransitionTime: t, Reason: "AsExpected",
		})
	}
	co.Status.RelatedObjects = append([]configv1.ObjectReference(nil), info.relatedObjects...)
	return co
}

// SyntheticOperators returns the six, all at release and kubernetes.
func SyntheticOperators(release, kubernetes string, since time.Time) []*configv1.ClusterOperator {
	var operators []*configv1.ClusterOperator
	for _, name := range SyntheticNames() {
		operators = append(operators, SyntheticOperator(name, release, kubernetes, since))
	}
	return operators
}

// IBMCloudManaged is the annotation by which the cluster-version operator
// of a hosted control plane, which runs with the ibm-cloud-managed profile,
// applies a payload manifest (control-plane-operator/controllers/
// hostedcontrolplane/v2/cvo/deployment.go); the ClusterOperators of the
// operators that run in the guest carry it.
const IBMCloudManaged = "include.release.openshift.io/ibm-cloud-managed"

// RealOperator returns a ClusterOperator of an operator that runs in the
// guest and reports its own version: a payload one (IBMCloudManaged), at
// version, Progressing as progressing says since the time given, Available
// and not Degraded.
func RealOperator(name, version string, progressing bool, since time.Time) *configv1.ClusterOperator {
	t := metav1.NewTime(since)
	status := configv1.ConditionFalse
	if progressing {
		status = configv1.ConditionTrue
	}
	return &configv1.ClusterOperator{
		ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{IBMCloudManaged: "true"}},
		Status: configv1.ClusterOperatorStatus{
			Versions: []configv1.OperandVersion{{Name: "operator", Version: version}},
			Conditions: []configv1.ClusterOperatorStatusCondition{
				{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue, LastTransitionTime: t, Reason: "AsExpected"},
				{Type: configv1.OperatorProgressing, Status: status, LastTransitionTime: t},
				{Type: configv1.OperatorDegraded, Status: configv1.ConditionFalse, LastTransitionTime: t, Reason: "AsExpected"},
			},
		},
	}
}
