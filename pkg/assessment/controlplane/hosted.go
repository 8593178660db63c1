package controlplane

import (
	configv1 "github.com/openshift/api/config/v1"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// On a cluster whose control plane is hosted (HyperShift), six
// ClusterOperators are written by the hosted-cluster-config-operator for
// components that run on the management cluster
// (control-plane-operator/hostedclusterconfigoperator/controllers/resources/
// clusteroperators.go). They tell nothing of the update:
//
//   - Their versions are that operator's own: every entry of their
//     VersionMapping is its "release" or "kubernetes" version, which it reads
//     from OPENSHIFT_RELEASE_VERSION and KUBERNETES_VERSION at start
//     (hostedclusterconfigoperator/cmd.go, Run), and which the
//     control-plane-operator sets to the release it rolls out
//     (control-plane-operator/controllers/hostedcontrolplane/v2/
//     configoperator/deployment.go). So all six flip together as soon as the
//     new hosted-cluster-config-operator pod starts, early in the control
//     plane's update and whatever kube-apiserver or the other components do.
//     Counted, they would add six "updated" operators at once and make the
//     completion, and the estimate fitted on it, run ahead of the update.
//   - Their conditions are constants (Available, not Progressing, not
//     Degraded, Upgradeable, all AsExpected; clusteroperators.go,
//     clusterOperatorStatus): citing them as health evidence would say the
//     components are healthy when nothing was checked.
//
// So on a hosted cluster they do not count: not in the completion (updated,
// updating, waiting), not in the estimate's inputs, not in the health
// insights, and they get no ClusterOperatorProgressInsight, whose Updating
// and Healthy conditions would only repeat those constants and the
// operator's flip (statusview counts those insights for "Operator Health").
// In a real guest they carry no include.release.openshift.io annotation (the
// hosted-cluster-config-operator creates them with a status only, and their
// payload manifests are not in the ibm-cloud-managed profile, or are
// omitted from the hosted payload: control-plane-operator/controllers/
// hostedcontrolplane/v2/cvo/deployment.go, manifestsToOmit), so the payload
// filter leaves them out already; excluding them by name makes that not
// depend on annotations.

// Counts says whether the ClusterOperator's versions and conditions tell
// the control plane's update on a cluster of this topology: a payload
// ClusterOperator (IsPayloadOperator), and on a hosted cluster not one of
// the synthetic ones (hosted.IsSynthetic).
func Counts(topology hosted.Topology, co *configv1.ClusterOperator) bool {
	return IsPayloadOperator(co) && !hosted.IsSynthetic(topology, co.Name)
}

// CountedOperators returns the operators that count (Counts) among
// operators.
func CountedOperators(topology hosted.Topology, operators []*configv1.ClusterOperator) []*configv1.ClusterOperator {
	var counted []*configv1.ClusterOperator
	for _, co := range operators {
		if Counts(topology, co) {
			counted = append(counted, co)
		}
	}
	return counted
}
