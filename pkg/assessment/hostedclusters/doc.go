// Package hostedclusters assesses a HyperShift hosted cluster's control plane
// update as the management cluster sees it: from its HostedCluster, into
// which HyperShift copies the guest ClusterVersion's status and conditions,
// and the ControlPlaneComponents of its control-plane namespace. The guest's
// ClusterOperators are not visible there, so completion is the
// cluster-version operator's own count of applied manifests. It is pure:
// objects and a clock reading in, a HostedClusterProgressInsightStatus out.
package hostedclusters
