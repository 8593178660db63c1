// Package hostedobjects builds HyperShift's and Cluster API's objects as
// their controllers write them, for the tests and run-local's management
// cluster: unstructured, against the CRDs HyperShift ships
// (test/testdata/hypershift), each naming the upstream file it follows.
package hostedobjects

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Images of the releases the management cluster's hosted clusters move
// between, by version.
var ReleaseImages = map[string]string{
	"4.17.2": "quay.io/openshift-release-dev/ocp-release@sha256:4172",
	"4.17.3": "quay.io/openshift-release-dev/ocp-release@sha256:4173",
	"4.18.1": "quay.io/openshift-release-dev/ocp-release@sha256:4181",
}

func RFC3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// HostedCluster is a HostedCluster whose spec asks for release, as
// `hypershift create cluster none` writes one (the fields the CRD
// requires: api/hypershift/v1beta1/hostedcluster_types.go), with status.
func HostedCluster(namespace, name, release string, status map[string]any) *unstructured.Unstructured {
	services := []any{}
	for _, s := range []string{"APIServer", "OAuthServer", "Konnectivity", "Ignition"} {
		services = append(services, map[string]any{"service": s, "servicePublishingStrategy": map[string]any{"type": "Route"}})
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hypershift.openshift.io/v1beta1", "kind": "HostedCluster",
		"metadata": map[string]any{"namespace": namespace, "name": name},
		"spec": map[string]any{
			"release":    map[string]any{"image": ReleaseImages[release]},
			"platform":   map[string]any{"type": "None"},
			"pullSecret": map[string]any{"name": "pull-secret"},
			"etcd": map[string]any{"managementType": "Managed",
				"managed": map[string]any{"storage": map[string]any{"type": "PersistentVolume", "persistentVolume": map[string]any{"size": "8Gi"}}}},
			"networking": map[string]any{"networkType": "OVNKubernetes",
				"clusterNetwork": []any{map[string]any{"cidr": "10.132.0.0/14"}}, "serviceNetwork": []any{map[string]any{"cidr": "172.31.0.0/16"}}},
			"services": services,
		},
		"status": status,
	}}
}

// Condition is a metav1.Condition as unstructured.
func Condition(conditionType, status, reason, message string, since time.Time) map[string]any {
	return map[string]any{"type": conditionType, "status": status, "reason": reason, "message": message,
		"lastTransitionTime": RFC3339(since), "observedGeneration": int64(1)}
}

// HistoryEntry is an entry of status.version.history as the guest
// cluster-version operator writes it and HyperShift copies it
// (hostedcluster_controller.go computeClusterVersionStatus).
func HistoryEntry(version, state string, started time.Time, completed *time.Time) map[string]any {
	e := map[string]any{"state": state, "version": version, "image": ReleaseImages[version], "verified": false,
		"startedTime": RFC3339(started), "completionTime": nil}
	if completed != nil {
		e["completionTime"] = RFC3339(*completed)
	}
	return e
}

// NodePool is a NodePool of the HostedCluster cluster asking for
// release, as `hypershift create nodepool` writes one (nodepool_types.go),
// with status.
func NodePool(namespace, name, cluster, release, upgradeType string, replicas int64, status map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hypershift.openshift.io/v1beta1", "kind": "NodePool",
		"metadata": map[string]any{"namespace": namespace, "name": name},
		"spec": map[string]any{
			"clusterName": cluster,
			"release":     map[string]any{"image": ReleaseImages[release]},
			"platform":    map[string]any{"type": "None"},
			"replicas":    replicas,
			"management":  map[string]any{"upgradeType": upgradeType, "autoRepair": false},
		},
		"status": status,
	}}
}

// MachineDeployment is the MachineDeployment HyperShift makes for a
// Replace NodePool, in the control-plane namespace, named like the NodePool
// and annotated with it (hypershift-operator/controllers/nodepool/capi.go
// reconcileMachineDeployment: the template's annotations, which Cluster API
// propagates to the Machines, name the NodePool and its release).
func MachineDeployment(namespace, name, nodePool, release string, replicas int64, status map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineDeployment",
		"metadata": map[string]any{"namespace": namespace, "name": name,
			"annotations": map[string]any{"hypershift.openshift.io/nodePool": nodePool}},
		"spec": map[string]any{
			"clusterName": namespace,
			"replicas":    replicas,
			"selector":    map[string]any{"matchLabels": map[string]any{"cluster.x-k8s.io/cluster-name": namespace}},
			"template": map[string]any{
				"metadata": map[string]any{"annotations": map[string]any{
					"hypershift.openshift.io/nodePool":        nodePool,
					"hypershift.openshift.io/release-version": release,
				}},
				"spec": machineSpec(namespace),
			},
		},
		"status": status,
	}}
}

// machineSpec is the spec Cluster API requires of a Machine
// (api/core/v1beta2/machine_types.go): for HyperShift's platform None, an
// agent-less bootstrap secret and an infrastructure template reference.
func machineSpec(namespace string) map[string]any {
	return map[string]any{
		"clusterName":       namespace,
		"bootstrap":         map[string]any{"dataSecretName": "user-data"},
		"infrastructureRef": map[string]any{"apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "AgentMachine", "name": "workers"},
	}
}

// Machine is a Machine of the NodePool, at release, as Cluster API
// creates it from its MachineDeployment's template.
func Machine(namespace, name, nodePool, release string, status map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Machine",
		"metadata": map[string]any{"namespace": namespace, "name": name,
			"annotations": map[string]any{
				"hypershift.openshift.io/nodePool":        nodePool,
				"hypershift.openshift.io/release-version": release,
			}},
		"spec":   machineSpec(namespace),
		"status": status,
	}}
}

// RunningMachine is the status of a Machine whose node joined: the Machine
// controller names the node once it finds it (cluster-api
// internal/controllers/machine/machine_controller_noderef.go).
func RunningMachine(node string) map[string]any {
	return map[string]any{"phase": "Running", "nodeRef": map[string]any{"name": node}}
}

// HostedConditions are a HostedCluster's conditions as HyperShift writes
// them while nothing blocks an update: its own (hostedcluster_controller.go)
// and the guest cluster-version operator's, bubbled up through the
// HostedControlPlane (control-plane-operator/hostedclusterconfigoperator/
// controllers/hcpstatus/hcpstatus.go: an empty CVO reason becomes
// FromClusterVersion; Failing becomes ClusterVersionSucceeding, inverted, on
// the HostedCluster; a CVO without Upgradeable makes it True).
func HostedConditions(since time.Time, progressing bool, cvoProgressing string) []any {
	hcProgressing := Condition("Progressing", "False", "AsExpected", "HostedCluster is at expected version", since)
	cvProgressing := Condition("ClusterVersionProgressing", "False", "FromClusterVersion", cvoProgressing, since)
	if progressing {
		hcProgressing = Condition("Progressing", "True", "Progressing", "HostedCluster is deploying, upgrading, or reconfiguring", since)
		cvProgressing = Condition("ClusterVersionProgressing", "True", "FromClusterVersion", cvoProgressing, since)
	}
	return []any{
		Condition("Available", "True", "AsExpected", "The hosted control plane is available", since),
		hcProgressing,
		cvProgressing,
		Condition("ClusterVersionSucceeding", "True", "FromClusterVersion", "", since),
		Condition("ClusterVersionUpgradeable", "True", "FromClusterVersion", "", since),
		Condition("ClusterVersionAvailable", "True", "FromClusterVersion", "Done applying 4.17.2", since),
		Condition("ValidReleaseImage", "True", "AsExpected", "Release image is valid", since),
		Condition("SupportedHostedCluster", "True", "AsExpected", "HostedCluster is supported by operator configuration", since),
		Condition("ValidConfiguration", "True", "AsExpected", "Configuration passes validation", since),
		Condition("ReconciliationActive", "True", "AsExpected", "Reconciliation active on resource", since),
	}
}

// NodePoolCondition is a NodePool condition, of Cluster API's older shape
// (nodepool_types.go NodePoolCondition).
func NodePoolCondition(conditionType, status, reason, message string, since time.Time) map[string]any {
	return map[string]any{"type": conditionType, "status": status, "reason": reason, "message": message,
		"lastTransitionTime": RFC3339(since), "observedGeneration": int64(1)}
}

// MachineSet is the MachineSet HyperShift makes for an InPlace NodePool, in
// the control-plane namespace, named like the NodePool and annotated with it
// (hypershift-operator/controllers/nodepool/inplace.go
// reconcileMachineSet), with annotations such as the in-place upgrader's.
func MachineSet(namespace, name, nodePool, release string, replicas int64, annotations map[string]string) *unstructured.Unstructured {
	a := map[string]any{"hypershift.openshift.io/nodePool": nodePool}
	for k, v := range annotations {
		a[k] = v
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineSet",
		"metadata": map[string]any{"namespace": namespace, "name": name, "annotations": a},
		"spec": map[string]any{
			"clusterName": namespace,
			"replicas":    replicas,
			"selector":    map[string]any{"matchLabels": map[string]any{"cluster.x-k8s.io/cluster-name": namespace}},
			"template": map[string]any{
				"metadata": map[string]any{"annotations": map[string]any{
					"hypershift.openshift.io/nodePool":        nodePool,
					"hypershift.openshift.io/release-version": release,
				}},
				"spec": machineSpec(namespace),
			},
		},
	}}
}

// InPlaceProgress is the in-place upgrader's annotation on a MachineSet
// while it updates the NodePool's nodes (control-plane-operator/
// hostedclusterconfigoperator/controllers/inplaceupgrader/
// inplaceupgrader.go: "Nodepool update in progress. Target Config version:
// %s. Total Nodes: %d. Upgraded: %d").
func InPlaceProgress(config string, total, upgraded int) map[string]string {
	return map[string]string{"hypershift.openshift.io/nodePoolUpgradeInProgressTrue": fmt.Sprintf(
		"Nodepool update in progress. Target Config version: %s. Total Nodes: %d. Upgraded: %d", config, total, upgraded)}
}

// DrainingMachine is the status of a Machine being deleted whose node's
// drain a budget holds, as Cluster API's Machine controller writes it: its
// Deleting condition with reason DrainingNode and a line per pod the drain
// waits on (cluster-api internal/controllers/machine/drain/drain.go), and
// when the drain started (machine_controller.go reconcileDelete).
func DrainingMachine(node, pod, budget string, started time.Time) map[string]any {
	return map[string]any{
		"phase":   "Deleting",
		"nodeRef": map[string]any{"name": node},
		"conditions": []any{map[string]any{
			"type": "Deleting", "status": "True", "reason": "DrainingNode", "lastTransitionTime": RFC3339(started),
			"message": fmt.Sprintf("Drain not completed yet (started at %s):\n* Pod %s: cannot evict pod as it would violate the pod's disruption budget. The disruption budget %s needs 2 healthy pods and has 2 currently",
				RFC3339(started), pod, budget),
		}},
		"deletion": map[string]any{"nodeDrainStartTime": RFC3339(started)},
	}
}
