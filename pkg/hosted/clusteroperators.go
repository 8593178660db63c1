package hosted

import (
	configv1 "github.com/openshift/api/config/v1"
)

// KubeAPIServer is the ClusterOperator whose "kube-apiserver" operand
// version is the control plane's Kubernetes version.
const KubeAPIServer = "kube-apiserver"

// synthetic are the ClusterOperators the hosted-cluster-config-operator
// writes for control-plane components that run on the management cluster
// (control-plane-operator/hostedclusterconfigoperator/controllers/resources/
// clusteroperators.go, clusterOperators). Their conditions are constants:
// Available True, Progressing False, Degraded False, Upgradeable True, all
// AsExpected, whatever the components do. Their versions are that
// operator's own release ("release") and Kubernetes ("kubernetes")
// versions (cmd.go, Run), so they flip together when the operator's pod
// runs the new release, which tells nothing of the guest's update.
var synthetic = map[string]bool{
	"openshift-apiserver":                      true,
	"openshift-controller-manager":             true,
	KubeAPIServer:                              true,
	"kube-controller-manager":                  true,
	"kube-scheduler":                           true,
	"operator-lifecycle-manager-packageserver": true,
}

// IsSynthetic says whether the ClusterOperator named name is one the
// hosted-cluster-config-operator writes on a hosted cluster. On a
// standalone cluster the same names are real operators'.
func IsSynthetic(topology Topology, name string) bool {
	return topology == Hosted && synthetic[name]
}

// ControlPlaneKubernetes is the control plane's Kubernetes version, as the
// hosted-cluster-config-operator writes it on the kube-apiserver
// ClusterOperator ("kube-apiserver": "kubernetes" in its VersionMapping),
// and whether it is there: the operator leaves it out while it does not
// know its release's Kubernetes version.
func ControlPlaneKubernetes(operators []*configv1.ClusterOperator) (string, bool) {
	for _, co := range operators {
		if co.Name != KubeAPIServer {
			continue
		}
		for _, v := range co.Status.Versions {
			if v.Name == KubeAPIServer && v.Version != "" {
				return v.Version, true
			}
		}
	}
	return "", false
}
