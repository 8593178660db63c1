// Package hostednodepools assesses how one HyperShift NodePool's machines are
// doing in an update, as the management cluster sees them: from the NodePool
// and the Cluster API MachineDeployment, MachineSets and Machines behind it,
// in the hosted cluster's control-plane namespace. The guest's Nodes and pods
// are not visible there, so what a drain waits on is what Cluster API's
// Machine controller says of it.
//
// It is pure: objects, what was written before and a clock in, the
// NodePoolProgressInsight's status out, within the bounds its CRD sets.
package hostednodepools
