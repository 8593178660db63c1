package hostednodepools

import (
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

var now = time.Date(2026, 8, 22, 12, 0, 0, 0, time.UTC)

const (
	ns         = "clusters"
	cpNS       = "clusters-hc1"
	oldImage   = "quay.io/openshift-release-dev/ocp-release:4.20.8-multi"
	newImage   = "quay.io/openshift-release-dev/ocp-release:4.21.3-multi"
	oldVersion = "4.20.8"
	newVersion = "4.21.3"
)

func ago(d time.Duration) metav1.Time { return metav1.Time{Time: now.Add(-d)} }

// hostedCluster has completed cp's update from oldVersion, as the
// HostedCluster controller copies the guest ClusterVersion's history
// (hostedcluster_controller.go computeClusterVersionStatus).
func hostedCluster(cpVersion, cpImage string) *hypershift.HostedCluster {
	hc := &hypershift.HostedCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "hc1"}}
	hc.Spec.Release.Image = cpImage
	hc.Status.Version = &hypershift.ClusterVersionStatus{
		Desired: hypershift.DesiredRelease{Version: cpVersion, Image: cpImage},
		History: []configv1.UpdateHistory{
			{State: configv1.CompletedUpdate, Version: cpVersion, Image: cpImage, StartedTime: ago(3 * time.Hour)},
			{State: configv1.CompletedUpdate, Version: oldVersion, Image: oldImage, StartedTime: ago(30 * 24 * time.Hour)},
		},
	}
	return hc
}

// nodePool is at oldVersion, its spec asking for image.
func nodePool(upgradeType, image string, replicas int32) *hypershift.NodePool {
	np := &hypershift.NodePool{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "workers"}}
	np.Spec.ClusterName = "hc1"
	np.Spec.Release.Image = image
	np.Spec.Replicas = ptr.To(replicas)
	np.Spec.Management.UpgradeType = upgradeType
	np.Status.Version = oldVersion
	np.Status.Replicas = replicas
	return np
}

// updating sets the conditions the NodePool controller sets while its
// release differs from its nodes' (conditions.go updatingVersionCondition).
func updating(np *hypershift.NodePool, target string, since time.Duration) *hypershift.NodePool {
	np.Status.Conditions = append(np.Status.Conditions, hypershift.NodePoolCondition{
		Type: hypershift.NodePoolUpdatingVersion, Status: corev1.ConditionTrue, Reason: "AsExpected",
		Message: "Updating version in progress. Target version: " + target, LastTransitionTime: ago(since),
	})
	return np
}

// notUpdating is the condition once nothing is to roll out.
func notUpdating(np *hypershift.NodePool) *hypershift.NodePool {
	np.Status.Conditions = append(np.Status.Conditions, hypershift.NodePoolCondition{
		Type: hypershift.NodePoolUpdatingVersion, Status: corev1.ConditionFalse, Reason: "AsExpected", LastTransitionTime: ago(24 * time.Hour),
	})
	return np
}

// machineDeployment is the Replace NodePool's, its template at version
// (capi.go reconcileMachineDeployment).
func machineDeployment(version string, replicas, upToDate int32) *hypershift.MachineDeployment {
	md := &hypershift.MachineDeployment{ObjectMeta: metav1.ObjectMeta{Namespace: cpNS, Name: "workers",
		Annotations: map[string]string{hypershift.NodePoolAnnotation: ns + "/workers"}}}
	md.Spec.Replicas = ptr.To(replicas)
	md.Spec.Template.ObjectMeta.Annotations = map[string]string{
		hypershift.NodePoolAnnotation:       ns + "/workers",
		hypershift.ReleaseVersionAnnotation: version,
	}
	md.Status.Replicas = ptr.To(replicas)
	md.Status.UpToDateReplicas = ptr.To(upToDate)
	return md
}

// machine is a running Machine of the NodePool with a node, annotated with
// version ("" for one older than the annotation).
func machine(name, version string) *hypershift.Machine {
	m := &hypershift.Machine{ObjectMeta: metav1.ObjectMeta{Namespace: cpNS, Name: name, CreationTimestamp: ago(10 * 24 * time.Hour),
		Annotations: map[string]string{hypershift.NodePoolAnnotation: ns + "/workers"}}}
	if version != "" {
		m.Annotations[hypershift.ReleaseVersionAnnotation] = version
	}
	m.Status.Phase = "Running"
	m.Status.NodeRef = &hypershift.MachineNodeReference{Name: "ip-10-0-1-" + name}
	m.Status.NodeInfo = &corev1.NodeSystemInfo{KubeletVersion: "v1.33.5"}
	m.Status.Conditions = []metav1.Condition{{Type: machineNodeHealthy, Status: metav1.ConditionTrue, Reason: "NodeHealthy"}}
	return m
}

// draining is m being deleted, its drain refused by a budget, as the
// Machine controller says (core/reconcilers/machine/machine_controller.go
// reconcileDelete; the message's format is drain/drain.go
// ConditionMessage's, as drain_test.go has it).
func draining(m *hypershift.Machine, since time.Duration) *hypershift.Machine {
	m.DeletionTimestamp = ptr.To(ago(since + time.Minute))
	m.Status.Phase = "Deleting"
	m.Status.Deletion = &hypershift.MachineDeletionStatus{NodeDrainStartTime: ptr.To(ago(since))}
	m.Status.Conditions = append(m.Status.Conditions, metav1.Condition{
		Type: machineDeleting, Status: metav1.ConditionTrue, Reason: deletingDrainingNode,
		Message: fmt.Sprintf("Drain not completed yet (started at %s):\n"+
			"* Pod payments/api-7d9f-x2x: cannot evict pod as it would violate the pod's disruption budget. The disruption budget api-pdb needs 2 healthy pods and has 2 currently",
			now.Add(-since).Format(time.RFC3339)),
	})
	return m
}

// provisioning is a new Machine whose instance the provider has not made
// yet (machine_controller_status.go setInfrastructureReadyCondition,
// setNodeHealthyAndReadyConditions).
func provisioning(name, version string, since time.Duration) *hypershift.Machine {
	m := &hypershift.Machine{ObjectMeta: metav1.ObjectMeta{Namespace: cpNS, Name: name, CreationTimestamp: ago(since),
		Annotations: map[string]string{hypershift.NodePoolAnnotation: ns + "/workers", hypershift.ReleaseVersionAnnotation: version}}}
	m.Status.Phase = "Provisioning"
	m.Status.Conditions = []metav1.Condition{
		{Type: machineBootstrapConfigReady, Status: metav1.ConditionTrue, Reason: "DataSecretProvided"},
		{Type: machineInfrastructureReady, Status: metav1.ConditionFalse, Reason: "NotReady", Message: "AWSMachine status.initialization.provisioned is false"},
		{Type: machineNodeHealthy, Status: metav1.ConditionUnknown, Reason: "InspectionFailed", Message: "Waiting for AWSMachine to report spec.providerID"},
	}
	return m
}

// inPlaceMachineSet is an InPlace NodePool's MachineSet, annotated by the
// in-place upgrader (inplaceupgrader.go reconcileInPlaceUpgrade).
func inPlaceMachineSet(replicas int32, annotations map[string]string) *hypershift.MachineSet {
	ms := &hypershift.MachineSet{ObjectMeta: metav1.ObjectMeta{Namespace: cpNS, Name: "workers", Annotations: map[string]string{
		hypershift.NodePoolAnnotation:             ns + "/workers",
		hypershift.CurrentConfigVersionAnnotation: "a1b2c3d4",
		hypershift.TargetConfigVersionAnnotation:  "e5f6a7b8",
	}}}
	for k, v := range annotations {
		ms.Annotations[k] = v
	}
	ms.Spec.Replicas = ptr.To(replicas)
	ms.Status.Replicas = ptr.To(replicas)
	return ms
}

// nodesInfo is status.nodesInfo as version.go nodeVersionsFromMachines
// writes it: by version and kubelet, ready and not.
func nodesInfo(np *hypershift.NodePool, counts map[string]int32) *hypershift.NodePool {
	for _, v := range []string{oldVersion, newVersion} {
		if n, ok := counts[v]; ok {
			np.Status.NodesInfo.NodeVersions = append(np.Status.NodesInfo.NodeVersions, hypershift.NodeVersion{
				OCPVersion: v, KubeletVersion: "v1.33.5", ReadyNodeCount: ptr.To(n), UnreadyNodeCount: ptr.To(int32(0)),
			})
		}
	}
	return np
}
