// Package hosted is what the operator knows of a cluster whose control plane
// is hosted (HyperShift: ROSA with hosted control planes, or a hosted
// cluster of the multicluster engine), as seen from inside that cluster.
//
// Every fact here follows openshift/hypershift's code, named by file next to
// it. The control plane runs on a management cluster; inside, the
// ClusterVersion's status is the real cluster-version operator's, six
// ClusterOperators are written by the hosted-cluster-config-operator, there
// are no MachineConfigPools, and nodes belong to NodePools, which are updated
// apart from the control plane.
package hosted
