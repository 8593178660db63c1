// Package nodes computes how the nodes of MachineConfigPools are
// doing in an update: each node's insight from the machine-config daemon's
// annotations, and each pool's from its nodes. It is pure: objects and a
// clock in, desired insight statuses out; it imports no client.
package nodes
