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

// steps are the steps of an upgrader type, nil for a type the operator
// does not know.
func steps(t upgradev1alpha1.UpgradeType) []upgradev1alpha1.UpgradeConditionType {
	switch t {
	case upgradev1alpha1.UpgradeTypeOSD:
		return osdSteps
	case upgradev1alpha1.UpgradeTypeARO:
		return aroSteps
	}
	return nil
}

// checkDescriptions say what each check the operator runs before it
// commences an update looks at.
var checkDescriptions = map[upgradev1alpha1.UpgradeConditionType]string{
	upgradev1alpha1.IsClusterUpgradable:           "the ClusterVersion's Upgradeable condition allows the update",
	upgradev1alpha1.ClusterHealthyBeforeUpgrade:   "no critical alerts fire, no ClusterOperator is degraded or unavailable, and no node or PodDisruptionBudget would block it",
	upgradev1alpha1.ExternalDependenciesAvailable: "the external services the update needs are reachable",
	upgradev1alpha1.ComputeCapacityReserved:       "extra worker capacity is added (capacityReservation is set)",
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
