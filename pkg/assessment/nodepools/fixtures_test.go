package nodepools

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

var now = time.Date(2026, 8, 24, 9, 30, 0, 0, time.UTC)

// Config-version hashes as the NodePool controller names them: 32-bit
// FNV-1a in eight hex digits (support/util/util.go HashSimple, capi.go
// targetConfigVersionHash). oldHash is a NodePool's configuration before
// its in-place update, newHash the one the update goes to.
const (
	oldHash = "7a1d3c55"
	newHash = "e40b9f12"

	// The control plane's Kubernetes version as the kube-apiserver
	// ClusterOperator carries it, and kubelet versions as nodes report
	// them on OpenShift.
	controlPlane = "1.31.6"
	kubeletNew   = "v1.31.6+a1b2c3d"
	kubeletOld   = "v1.30.10+5f9c2b1"
	kubeletOlder = "v1.27.16+03f2a51"
)

// node is a NodePool's node as the guest holds it: the NodePool label the
// hosted-cluster-config-operator's node controller copies from its Machine
// and the CAPI annotations it reads them by (control-plane-operator/
// hostedclusterconfigoperator/controllers/node/node.go), its kubelet, and
// ready. Its machine-config annotations follow inplaceupgrader_test.go's
// node shapes (see the helpers below).
func node(name, pool, kubelet string, annotations map[string]string) *corev1.Node {
	a := map[string]string{
		"cluster.x-k8s.io/machine":           name,
		"cluster.x-k8s.io/owner-name":        pool + "-6f9d8b7c5",
		"cluster.x-k8s.io/cluster-namespace": "clusters-guest",
	}
	for k, v := range annotations {
		a[k] = v
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{hosted.NodePoolLabel: pool}, Annotations: a},
		Status: corev1.NodeStatus{
			NodeInfo: corev1.NodeSystemInfo{KubeletVersion: kubelet, OSImage: "Red Hat Enterprise Linux CoreOS 418.94.202508060022-0"},
			Conditions: []corev1.NodeCondition{
				{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", LastTransitionTime: metav1.NewTime(now.Add(-72 * time.Hour))},
				{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(now.Add(-72 * time.Hour))},
			},
		},
	}
}

func cordoned(n *corev1.Node) *corev1.Node {
	n.Spec.Unschedulable = true
	return n
}

// outdatedRevision is a node cluster-api's Machine controller taints once
// its MachineSet is an older revision than its MachineDeployment's
// (core/reconcilers/machine/machine_controller_noderef.go).
func outdatedRevision(n *corev1.Node) *corev1.Node {
	n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: hosted.OutdatedRevisionTaint, Effect: corev1.TaintEffectPreferNoSchedule})
	return n
}

func notReady(n *corev1.Node, since time.Duration) *corev1.Node {
	n.Status.Conditions[0] = corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionFalse, Reason: "KubeletNotReady",
		Message: "container runtime is down", LastTransitionTime: metav1.NewTime(now.Add(-since))}
	return n
}

// The in-place annotations, in the shapes of inplaceupgrader_test.go
// (TestInPlaceUpgradeComplete, TestGetNodesToUpgrade) and in the values
// the machine-config daemon writes in HyperShift's mode
// (openshift/machine-config-operator pkg/daemon/daemon.go
// syncNodeHypershift: "drain-<hash>", "uncordon-<hash>", Working, Done).

// awaiting is a node the upgrader never told anything: no annotation.
func awaiting() map[string]string { return nil }

// atRest is a node whose last in-place update, to hash, is over.
func atRest(hash string) map[string]string {
	return map[string]string{
		nodes.CurrentConfigAnnotation:    hash,
		nodes.DesiredConfigAnnotation:    hash,
		nodes.StateAnnotation:            stateDone,
		nodes.DesiredDrainAnnotation:     "uncordon-" + hash,
		nodes.LastAppliedDrainAnnotation: "uncordon-" + hash,
	}
}

// told is a node at rest at from that the upgrader has told to go to to
// (setNodesDesiredConfig), before its daemon starts.
func told(from, to string) map[string]string {
	return with(atRest(from), map[string]string{nodes.DesiredConfigAnnotation: to})
}

// draining is a told node whose daemon asked the drain.
func draining(from, to string) map[string]string {
	return with(told(from, to), map[string]string{nodes.StateAnnotation: "Working", nodes.DesiredDrainAnnotation: "drain-" + to})
}

// drained is a node the drainer has drained, its daemon writing the
// configuration.
func drained(from, to string) map[string]string {
	return with(draining(from, to), map[string]string{nodes.LastAppliedDrainAnnotation: "drain-" + to})
}

// rebooting is a drained node whose daemon reboots it (pkg/daemon/update.go
// reboot); its kubelet goes down with it (see down).
func rebooting(from, to string) map[string]string {
	return with(drained(from, to), map[string]string{postConfigActionAnnotation: stateRebooting})
}

// down is a node whose kubelet stopped posting its status, as while the
// node reboots: the node lifecycle controller sets Ready Unknown
// (kubernetes pkg/controller/nodelifecycle, tryUpdateNodeHealth).
func down(n *corev1.Node) *corev1.Node {
	n.Status.Conditions[0] = corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionUnknown, Reason: "NodeStatusUnknown",
		Message: "Kubelet stopped posting node status.", LastTransitionTime: metav1.NewTime(now.Add(-time.Minute))}
	return n
}

// rebootedBefore adds what an earlier in-place update that rebooted the
// node leaves behind: the daemon's post-config action, which nothing clears
// in HyperShift's mode (pkg/daemon/daemon.go syncNodeHypershift).
func rebootedBefore(a map[string]string) map[string]string {
	return with(a, map[string]string{postConfigActionAnnotation: stateRebooting})
}

// uncordoning is a node that runs its new configuration and asked to be
// uncordoned.
func uncordoning(from, to string) map[string]string {
	return with(drained(from, to), map[string]string{nodes.CurrentConfigAnnotation: to, nodes.StateAnnotation: stateDone,
		nodes.DesiredDrainAnnotation: "uncordon-" + to})
}

// degraded is a drained node whose daemon failed
// (updateErrorStateHypershift).
func degraded(from, to, reason string) map[string]string {
	return with(drained(from, to), map[string]string{nodes.StateAnnotation: stateDegraded, nodes.ReasonAnnotation: reason})
}

func with(a, b map[string]string) map[string]string {
	for k, v := range b {
		a[k] = v
	}
	return a
}
