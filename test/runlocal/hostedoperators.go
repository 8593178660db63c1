package main

// asExpectedReason is the reason of every condition of a synthetic
// ClusterOperator (HyperShift's hyperv1.AsExpectedReason).
const asExpectedReason = "AsExpected"

// syntheticOperators are the six ClusterOperators of
// control-plane-operator/hostedclusterconfigoperator/controllers/resources/
// clusteroperators.go, each with its VersionMapping: which of that
// operator's two versions, "release" or "kubernetes", each of the
// ClusterOperator's versions reports. Their related objects are left out
// here: the operator reads none.
var syntheticOperators = map[string]map[string]string{
	"openshift-apiserver":                      {"operator": "release", "openshift-apiserver": "release"},
	"openshift-controller-manager":             {"openshift-controller-manager": "release", "operator": "release"},
	"kube-apiserver":                           {"raw-internal": "release", "kube-apiserver": "kubernetes", "operator": "release"},
	"kube-controller-manager":                  {"raw-internal": "release", "kube-controller-manager": "kubernetes", "operator": "release"},
	"kube-scheduler":                           {"raw-internal": "release", "kube-scheduler": "kubernetes", "operator": "release"},
	"operator-lifecycle-manager-packageserver": {"operator": "release"},
}
