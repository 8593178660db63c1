// Package drain is the one model of why a node does not drain: given the
// node, its pods, the cluster's PodDisruptionBudgets, the pods waiting to be
// scheduled, a drainer's Policy and a clock, Node says what the drainer and
// the API server do with each of the node's pods (evicted, deleted, skipped)
// and, for a pod that keeps the node from draining, why, which budgets with
// which numbers, and since when.
//
// It is pure (objects and a clock in, verdicts out) and follows the code that
// decides, each rule naming its upstream file:
//   - kubectl's drain Helper (k8s.io/kubectl/pkg/drain, as the
//     machine-config-operator vendors it): its filters (filters.go) and
//     whether it evicts or deletes (drain.go);
//   - the API server's eviction handler
//     (kubernetes pkg/registry/core/pod/storage/eviction.go): which budgets
//     select a pod and when an eviction is refused;
//   - the disruption controller (kubernetes
//     pkg/controller/disruption/disruption.go): what a budget's status says;
//   - the machine-config operator's drain controller
//     (pkg/controller/drain/drain_controller.go): its Helper options and the
//     timing of its retries and of its drain error (MCO);
//   - HyperShift's drainer (control-plane-operator/
//     hostedclusterconfigoperator/controllers/drainer/drainer.go): its
//     Helper options, its own filter and its retries (HyperShift).
//
// Its users, each with its own Policy: the node controller while the
// machine-config operator drains a node (MCO), the NodePool controller while
// HyperShift's drainer drains a NodePool's node (HyperShift), the managed-upgrade informer
// for the Managed Upgrade Operator's drains, and the pre-checks ("would this
// block if the cluster updated now"). Selects and BudgetsOf match budgets to
// pods exactly as the eviction handler does, for callers that only need that.
package drain
