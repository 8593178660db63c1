// Package nodepools computes how the nodes of HyperShift NodePools are doing,
// on a cluster whose control plane is hosted: each node's insight, from the
// in-place upgrader's annotations while a NodePool updates in place and
// otherwise from its kubelet's release against the control plane's, and
// each NodePool's from its nodes. The guest cannot see NodePools: a NodePool
// is known by its nodes' label, and no NodePool's target release is known.
// It is pure: nodes, the control plane's Kubernetes version and a clock in,
// desired insight statuses out; it imports no client.
package nodepools
