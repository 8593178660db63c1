// Package hypershift holds what the operator reads, on a management cluster,
// of HyperShift's HostedClusters, NodePools and ControlPlaneComponents and of
// the Cluster API Machines, MachineSets and MachineDeployments behind a
// NodePool: small types that keep only the fields read, each under the JSON
// name its upstream type gives it, and the conversions from the unstructured
// objects a dynamic informer lists.
//
// The Go module github.com/openshift/hypershift/api is not a dependency: its
// types pull in every platform's API. Each field names the upstream file that
// declares it (openshift/hypershift api/hypershift/v1beta1/, and
// kubernetes-sigs/cluster-api api/core/v1beta2/), and a test checks each
// against the CRDs HyperShift ships (test/testdata/hypershift).
package hypershift
