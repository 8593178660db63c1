package integration

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Images of the releases the management cluster's hosted clusters move
// between, by version.
var releaseImages = map[string]string{
	"4.17.2": "quay.io/openshift-release-dev/ocp-release@sha256:4172",
	"4.17.3": "quay.io/openshift-release-dev/ocp-release@sha256:4173",
	"4.18.1": "quay.io/openshift-release-dev/ocp-release@sha256:4181",
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// hostedClusterObject is a HostedCluster whose spec asks for release, as
// `hypershift create cluster none` writes one (the fields the CRD
// requires: api/hypershift/v1beta1/hostedcluster_types.go), with status.
func hostedClusterObject(namespace, name, release string, status map[string]any) *unstructured.Unstructured {
	services := []any{}
	for _, s := range []string{"APIServer", "OAuthServer", "Konnectivity", "Ignition"} {
		services = append(services, map[string]any{"service": s, "servicePublishingStrategy": map[string]any{"type": "Route"}})
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hypershift.openshift.io/v1beta1", "kind": "HostedCluster",
		"metadata": map[string]any{"namespace": namespace, "name": name},
		"spec": map[string]any{
			"release":    map[string]any{"image": releaseImages[release]},
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

// hostedCondition is a metav1.Condition as unstructured.
func hostedCondition(conditionType, status, reason, message string, since time.Time) map[string]any {
	return map[string]any{"type": conditionType, "status": status, "reason": reason, "message": message,
		"lastTransitionTime": rfc3339(since), "observedGeneration": int64(1)}
}

// historyEntry is an entry of status.version.history as the guest
// cluster-version operator writes it and HyperShift copies it
// (hostedcluster_controller.go computeClusterVersionStatus).
func historyEntry(version, state string, started time.Time, completed *time.Time) map[string]any {
	e := map[string]any{"state": state, "version": version, "image": releaseImages[version], "verified": false,
		"startedTime": rfc3339(started), "completionTime": nil}
	if completed != nil {
		e["completionTime"] = rfc3339(*completed)
	}
	return e
}

// nodePoolObject is a NodePool of the HostedCluster cluster asking for
// release, as `hypershift create nodepool` writes one (nodepool_types.go),
// with status.
func nodePoolObject(namespace, name, cluster, release, upgradeType string, replicas int64, status map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "hypershift.openshift.io/v1beta1", "kind": "NodePool",
		"metadata": map[string]any{"namespace": namespace, "name": name},
		"spec": map[string]any{
			"clusterName": cluster,
			"release":     map[string]any{"image": releaseImages[release]},
			"platform":    map[string]any{"type": "None"},
			"replicas":    replicas,
			"management":  map[string]any{"upgradeType": upgradeType, "autoRepair": false},
		},
		"status": status,
	}}
}

// machineDeploymentObject is the MachineDeployment HyperShift makes for a
// Replace NodePool, in the control-plane namespace, named like the NodePool
// and annotated with it (hypershift-operator/controllers/nodepool/capi.go
// reconcileMachineDeployment: the template's annotations, which Cluster API
// propagates to the Machines, name the NodePool and its release).
func machineDeploymentObject(namespace, name, nodePool, release string, replicas int64, status map[string]any) *unstructured.Unstructured {
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

// machineObject is a Machine of the NodePool, at release, as Cluster API
// creates it from its MachineDeployment's template.
func machineObject(namespace, name, nodePool, release string, status map[string]any) *unstructured.Unstructured {
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

// runningMachine is the status of a Machine whose node joined: the Machine
// controller names the node once it finds it (cluster-api
// internal/controllers/machine/machine_controller_noderef.go).
func runningMachine(node string) map[string]any {
	return map[string]any{"phase": "Running", "nodeRef": map[string]any{"name": node}}
}
