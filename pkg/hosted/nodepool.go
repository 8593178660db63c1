package hosted

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

const (
	// NodePoolLabel names a node's NodePool: the hosted-cluster-config-operator
	// copies it onto every node it syncs (api/hypershift/v1beta1/
	// nodepool_types.go NodePoolLabel; control-plane-operator/
	// hostedclusterconfigoperator/controllers/node/node.go). A node that has
	// just joined has none until that sync.
	NodePoolLabel = "hypershift.openshift.io/nodePool"

	// OutdatedRevisionTaint is the taint cluster-api's Machine controller
	// keeps on the node of a Machine whose MachineSet is an older revision
	// than its MachineDeployment's (cluster-api core/reconcilers/machine/
	// machine_controller_noderef.go, shouldNodeHaveOutdatedTaint, formerly
	// internal/controllers/machine/; the taint is api/core/v1beta2/
	// common_types.go NodeOutdatedRevisionTaint, PreferNoSchedule). A
	// Replace NodePool rolls out as a new MachineDeployment revision
	// (hypershift-operator/controllers/nodepool/capi.go), so its old nodes
	// carry it from the start of the rollout, before any new node joins or
	// is labelled with the NodePool. An InPlace NodePool's MachineSet has no
	// MachineDeployment, and its nodes never carry it.
	OutdatedRevisionTaint = "node.cluster.x-k8s.io/outdated-revision"

	// NodePoolGroup and NodePoolResource name the NodePool API, which the
	// management cluster serves, not this one.
	NodePoolGroup    = "hypershift.openshift.io"
	NodePoolResource = "nodepools"

	// MaxMinorsBehind is how many minor releases a NodePool may run behind
	// its HostedCluster's control plane; it may never run ahead
	// (support/supportedversion/version.go ValidateVersionSkew: "All 4.y
	// versions support n-3 version skew", OCP 5.0 counted as 4.23).
	MaxMinorsBehind = 3
)

// SkewLimit is HyperShift's version skew policy, in the words of the
// insights that report a NodePool's skew, on either side of the hosted
// cluster.
var SkewLimit = fmt.Sprintf("HyperShift supports NodePools up to %d minor releases behind the control plane", MaxMinorsBehind)

// NodePool refers to a NodePool from an insight. Its namespace is the
// HostedCluster's on the management cluster, which the hosted cluster
// cannot see, so it is left out.
func NodePool(name string) insightsv1alpha1.ResourceRef {
	return insightsv1alpha1.ResourceRef{Group: NodePoolGroup, Resource: NodePoolResource, Name: name}
}

// IsOutdatedRevision says whether cluster-api marked node as one of an
// outdated revision of its MachineDeployment: one a rollout replaces.
func IsOutdatedRevision(node *corev1.Node) bool {
	for _, t := range node.Spec.Taints {
		if t.Key == OutdatedRevisionTaint {
			return true
		}
	}
	return false
}

// IsNodePool says whether ref refers to a NodePool.
func IsNodePool(ref *insightsv1alpha1.ResourceRef) bool {
	return ref != nil && ref.Group == NodePoolGroup && ref.Resource == NodePoolResource
}
