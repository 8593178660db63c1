package managedupgrade

import (
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// osdSteps are the conditions of the OSD upgrader's 17 steps, in order.
// Its second step, the check whether the update is delayed, records under
// the first step's condition.
var osdSteps = []upgradev1alpha1.UpgradeConditionType{
	upgradev1alpha1.StartedNotificationSent,
	upgradev1alpha1.StartedNotificationSent,
	upgradev1alpha1.IsClusterUpgradable,
	upgradev1alpha1.ClusterHealthyBeforeUpgrade,
	upgradev1alpha1.ExternalDependenciesAvailable,
	upgradev1alpha1.ComputeCapacityReserved,
	upgradev1alpha1.ControlPlaneMaintenanceWindowCreated,
	upgradev1alpha1.UpgradeCommenced,
	upgradev1alpha1.ControlPlaneUpgraded,
	upgradev1alpha1.ControlPlaneMaintenanceWindowRemoved,
	upgradev1alpha1.WorkersMaintenanceWindowCreated,
	upgradev1alpha1.WorkerNodesUpgraded,
	upgradev1alpha1.ComputeCapacityRemoved,
	upgradev1alpha1.WorkersMaintenanceWindowRemoved,
	upgradev1alpha1.ClusterHealthyAfterUpgrade,
	upgradev1alpha1.PostUpgradeTasksCompleted,
	upgradev1alpha1.CompletedNotificationSent,
}

// aroSteps are the conditions of the ARO upgrader's 14 steps, in order: the
// OSD steps without the delay check, the upgradeable check and the
// post-upgrade tasks.
var aroSteps = []upgradev1alpha1.UpgradeConditionType{
	upgradev1alpha1.StartedNotificationSent,
	upgradev1alpha1.ClusterHealthyBeforeUpgrade,
	upgradev1alpha1.ExternalDependenciesAvailable,
	upgradev1alpha1.ComputeCapacityReserved,
	upgradev1alpha1.ControlPlaneMaintenanceWindowCreated,
	upgradev1alpha1.UpgradeCommenced,
	upgradev1alpha1.ControlPlaneUpgraded,
	upgradev1alpha1.ControlPlaneMaintenanceWindowRemoved,
	upgradev1alpha1.WorkersMaintenanceWindowCreated,
	upgradev1alpha1.WorkerNodesUpgraded,
	upgradev1alpha1.ComputeCapacityRemoved,
	upgradev1alpha1.WorkersMaintenanceWindowRemoved,
	upgradev1alpha1.ClusterHealthyAfterUpgrade,
	upgradev1alpha1.CompletedNotificationSent,
}

// steps are the steps of an upgrader type: ARO's for ARO, OSD's for any
// other, as the operator builds its upgrader (pkg/upgraders/builder.go).
func steps(t upgradev1alpha1.UpgradeType) []upgradev1alpha1.UpgradeConditionType {
	if t == upgradev1alpha1.UpgradeTypeARO {
		return aroSteps
	}
	return osdSteps
}

// checkDescriptions say what each step the operator runs before it
// commences an update checks, and whether it holds the update: only a
// failing IsClusterUpgradable, ClusterHealthyBeforeUpgrade or
// ExternalDependenciesAvailable does (pkg/upgraders/upgradeable.go,
// healthcheckstep.go, availabilitycheckstep.go). The health check's node and
// PodDisruptionBudget checks, run only with its PreHealthCheck feature
// gate, notify and hold nothing; capacity that cannot be added, or not in
// scale.timeOut, is skipped (scalerstep.go).
var checkDescriptions = map[upgradev1alpha1.UpgradeConditionType]string{
	upgradev1alpha1.IsClusterUpgradable:           "holds a minor update while the ClusterVersion's Upgradeable condition is False",
	upgradev1alpha1.ClusterHealthyBeforeUpgrade:   "holds the update while critical alerts fire (but those it is told to ignore) or a ClusterOperator is degraded or unavailable",
	upgradev1alpha1.ExternalDependenciesAvailable: "holds the update while an external service it is configured to check does not answer",
	upgradev1alpha1.ComputeCapacityReserved:       "adds worker capacity first (capacityReservation is set); if it cannot, or not within scale.timeOut, the update goes on without it",
}

// preChecks are the checks among an upgrader's steps before it commences
// the update, in order: those it runs before it touches the ClusterVersion.
func preChecks(t upgradev1alpha1.UpgradeType, capacityReservation bool) []upgradev1alpha1.UpgradeConditionType {
	var out []upgradev1alpha1.UpgradeConditionType
	for _, s := range steps(t) {
		if s == upgradev1alpha1.UpgradeCommenced {
			break
		}
		if _, ok := checkDescriptions[s]; !ok || (s == upgradev1alpha1.ComputeCapacityReserved && !capacityReservation) {
			continue
		}
		out = append(out, s)
	}
	return out
}
