package hosted

import (
	configv1 "github.com/openshift/api/config/v1"
)

// Topology is how a cluster's control plane runs, as the operator acts on it.
type Topology string

const (
	// Standalone is a control plane on the cluster's own nodes, updated by
	// the ClusterVersion's spec.desiredUpdate; its nodes are in
	// MachineConfigPools.
	Standalone Topology = "Standalone"
	// Hosted is a control plane run outside the cluster (HyperShift); its
	// nodes are in NodePools.
	Hosted Topology = "Hosted"
)

// TopologyOf tells a cluster's topology from its Infrastructure: the
// hosted-cluster-config-operator sets controlPlaneTopology External
// (support/globalconfig/infrastructure.go, ReconcileInfrastructure).
func TopologyOf(infra *configv1.Infrastructure) Topology {
	if infra != nil && infra.Status.ControlPlaneTopology == configv1.ExternalTopologyMode {
		return Hosted
	}
	return Standalone
}
