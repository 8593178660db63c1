package main

import (
	"context"
	"fmt"
	"hash/fnv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// The hosted cluster's name, and the namespace of its control plane on the
// management cluster (HyperShift's "<namespace>-<name>"), where its
// Machines live.
const (
	hostedClusterName     = "example"
	controlPlaneNamespace = "clusters-" + hostedClusterName
	// infraID names the cluster's infrastructure and its CAPI Cluster.
	infraID = hostedClusterName + "-4xq7b"
)

// The NodePools' upgrade types (HyperShift's api/hypershift/v1beta1/
// nodepool_types.go, UpgradeType).
const (
	upgradeInPlace = "InPlace"
	upgradeReplace = "Replace"
)

// Annotations and a taint the guest's nodes carry. The CAPI ones are
// cluster-api's (api/core/v1beta1/common_types.go), which its Machine
// controller writes on the Machine's node once it finds it; labelsSynced is
// the hosted-cluster-config-operator's node controller's
// (control-plane-operator/hostedclusterconfigoperator/controllers/node/
// node.go), written with the nodePool label; postConfigAction is the
// machine-config daemon's (pkg/daemon/constants/constants.go).
const (
	capiClusterName      = "cluster.x-k8s.io/cluster-name"
	capiClusterNamespace = "cluster.x-k8s.io/cluster-namespace"
	capiMachine          = "cluster.x-k8s.io/machine"
	capiOwnerKind        = "cluster.x-k8s.io/owner-kind"
	capiOwnerName        = "cluster.x-k8s.io/owner-name"
	labelsSynced         = "hypershift.openshift.io/labelsSynced"
	postConfigAction     = "machineconfiguration.openshift.io/post-config-action"
	// outdatedRevisionTaint is the taint cluster-api puts on the nodes of
	// a MachineDeployment's outdated MachineSets during a rolling update
	// (NodeOutdatedRevisionTaint), so that pods drained from one old node
	// do not land on the next.
	outdatedRevisionTaint = "node.cluster.x-k8s.io/outdated-revision"
)

// nodePool is one of the hosted cluster's NodePools as the player keeps
// it: what the management cluster holds of it, which the guest never sees.
type nodePool struct {
	name, upgradeType string
	release           release
	// machineSet is the CAPI MachineSet of its nodes: the NodePool's name
	// for an InPlace NodePool (HyperShift's capi.go, machineSet()), one
	// cluster-api generates from the MachineDeployment's for a Replace one.
	machineSet string
	nodes      []string
}

// hostedNodes names the nodes and Machines the player creates.
type hostedNodes struct {
	pools []*nodePool
	// next numbers the nodes and the names cluster-api generates, so that
	// each is new.
	next int
}

// generated is a name cluster-api generates from owner: the owner's name
// and five characters (apiserver's SimpleNameGenerator), here counted.
func (h *hostedNodes) generated(owner string) string {
	h.next++
	return fmt.Sprintf("%s-%05x", owner, 0x8a3c1+h.next*0x1f7)
}

// nodeName is a new AWS node's name, its private DNS name.
func (h *hostedNodes) nodeName() string {
	h.next++
	return fmt.Sprintf("ip-10-0-%d-%d.ec2.internal", 128+h.next%64, 17+h.next*23%230)
}

// configHash is a NodePool's config version hash at a release, as the
// NodePool controller names it: eight hex digits of an FNV-1a hash
// (hypershift-operator/controllers/nodepool/config.go, Hash, of
// support/util/util.go's HashSimple), here of the NodePool and release.
func configHash(pool, version string) string {
	h := fnv.New32a()
	_, _ = fmt.Fprintf(h, "%s/%s", pool, version)
	return fmt.Sprintf("%08x", h.Sum32())
}

// joiningNode is a node as its kubelet registers it: its labels, none of
// the NodePool's, and Ready at release r.
func joiningNode(name string, r release) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: name,
			Labels: map[string]string{
				"kubernetes.io/hostname":           name,
				"kubernetes.io/os":                 "linux",
				"kubernetes.io/arch":               "amd64",
				"node-role.kubernetes.io/worker":   "",
				"node.kubernetes.io/instance-type": "m5.xlarge",
				"topology.kubernetes.io/region":    "us-east-1",
				"topology.kubernetes.io/zone":      "us-east-1a",
			},
			Annotations: map[string]string{},
		},
		Status: corev1.NodeStatus{
			Conditions: []corev1.NodeCondition{{
				Type: corev1.NodeReady, Status: corev1.ConditionTrue,
				Reason: "KubeletReady", Message: "kubelet is posting ready status",
			}},
			NodeInfo: corev1.NodeSystemInfo{
				KubeletVersion: r.kubelet, OSImage: r.osImage,
				OperatingSystem: "linux", Architecture: "amd64",
			},
		},
	}
}

// machineAnnotations are what cluster-api's Machine controller writes on
// the node of a Machine of machineSet.
func machineAnnotations(machine, machineSet string) map[string]string {
	return map[string]string{
		capiClusterName:      infraID,
		capiClusterNamespace: controlPlaneNamespace,
		capiMachine:          machine,
		capiOwnerKind:        "MachineSet",
		capiOwnerName:        machineSet,
	}
}

// syncLabels is what the hosted-cluster-config-operator's node controller
// writes once it finds the node's Machine: the nodePool label, and
// labelsSynced, after which it leaves the node alone.
func syncLabels(node *corev1.Node, pool string) {
	node.Labels[hosted.NodePoolLabel] = pool
	node.Annotations[labelsSynced] = "true"
}

// createNode creates a node: metadata and spec, then its status, as a
// kubelet registers and reports it.
func createNode(ctx context.Context, c *clients, node *corev1.Node) error {
	created, err := c.kube.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: node.ObjectMeta, Spec: node.Spec}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating Node %s: %w", node.Name, err)
	}
	created.Status = node.Status
	now := metav1.Now()
	for i := range created.Status.Conditions {
		created.Status.Conditions[i].LastTransitionTime, created.Status.Conditions[i].LastHeartbeatTime = now, now
	}
	if _, err := c.kube.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing Node %s status: %w", node.Name, err)
	}
	return nil
}

// create makes the NodePools' nodes as they are once joined: each of its
// NodePool's MachineSet, annotated by cluster-api and labelled by the
// hosted-cluster-config-operator, at its NodePool's release; an InPlace
// NodePool's updated in place to it.
func (h *hostedNodes) create(ctx context.Context, c *clients, sizes map[string]int) error {
	for _, p := range h.pools {
		for range sizes[p.name] {
			name := h.nodeName()
			node := joiningNode(name, p.release)
			node.Annotations = machineAnnotations(h.generated(p.machineSet), p.machineSet)
			if p.upgradeType == upgradeInPlace {
				updatedInPlace(node, configHash(p.name, p.release.version))
			}
			syncLabels(node, p.name)
			if err := createNode(ctx, c, node); err != nil {
				return err
			}
			p.nodes = append(p.nodes, name)
		}
	}
	return nil
}

// updatedInPlace leaves on node what an in-place update to the
// configuration target wrote: an InPlace NodePool's nodes were updated in
// place to their release, and the daemon's post-config action of that
// update's reboot is still there (see inPlaceWrites).
func updatedInPlace(node *corev1.Node, target string) {
	for _, w := range inPlaceWrites(target) {
		w.change(node)
	}
}

// setKubelet is a node's kubelet, after a reboot into release r, reporting
// it: status.nodeInfo's versions, and Ready.
func setKubelet(ctx context.Context, c *clients, name string, r release) error {
	return updateNodeStatus(ctx, c, name, func(node *corev1.Node) {
		node.Status.NodeInfo.KubeletVersion, node.Status.NodeInfo.OSImage = r.kubelet, r.osImage
		setReadyCondition(node, true)
	})
}

// setReady is the node's Ready condition as its kubelet posts it, ready, or
// as the node lifecycle controller writes it once the kubelet stopped
// posting (kubernetes pkg/controller/nodelifecycle/
// node_lifecycle_controller.go, tryUpdateNodeHealth: Unknown,
// NodeStatusUnknown).
func setReady(ctx context.Context, c *clients, name string, ready bool) error {
	return updateNodeStatus(ctx, c, name, func(node *corev1.Node) { setReadyCondition(node, ready) })
}

func setReadyCondition(node *corev1.Node, ready bool) {
	want := corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"}
	if !ready {
		want = corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionUnknown, Reason: "NodeStatusUnknown", Message: "Kubelet stopped posting node status."}
	}
	now := metav1.Now()
	for i := range node.Status.Conditions {
		cond := &node.Status.Conditions[i]
		if cond.Type != corev1.NodeReady {
			continue
		}
		if cond.Status != want.Status {
			cond.LastTransitionTime = now
		}
		cond.Status, cond.Reason, cond.Message = want.Status, want.Reason, want.Message
		if ready {
			cond.LastHeartbeatTime = now
		}
	}
}

func updateNodeStatus(ctx context.Context, c *clients, name string, change func(*corev1.Node)) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		node, err := c.kube.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(node)
		_, err = c.kube.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
		return err
	})
}

// deleteNode is cluster-api deleting a drained Machine's node, once its
// instance is gone.
func deleteNode(ctx context.Context, c *clients, name string) error {
	return c.kube.CoreV1().Nodes().Delete(ctx, name, metav1.DeleteOptions{})
}
