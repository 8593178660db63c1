package nodepool

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

func TestStripNode(t *testing.T) {
	ready := metav1.NewTime(now)
	full := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: "ip-a", UID: "0f7c", ResourceVersion: "42",
			Labels: map[string]string{hosted.NodePoolLabel: "inplace", "kubernetes.io/os": "linux"},
			Annotations: map[string]string{
				"cluster.x-k8s.io/machine":                               "inplace-x7k2p",
				"cluster.x-k8s.io/owner-name":                            "inplace-6f9d8b7c5",
				"machineconfiguration.openshift.io/desiredConfig":        newHash,
				"volumes.kubernetes.io/controller-managed-attach-detach": "true",
			},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubelet"}},
		},
		Spec: corev1.NodeSpec{Unschedulable: true, ProviderID: "aws:///us-east-1a/i-0abc", Taints: []corev1.Taint{
			{Key: "node.kubernetes.io/unschedulable", Effect: corev1.TaintEffectNoSchedule, TimeAdded: &ready},
			{Key: "node.cluster.x-k8s.io/outdated-revision", Effect: corev1.TaintEffectPreferNoSchedule},
		}},
		Status: corev1.NodeStatus{
			NodeInfo: corev1.NodeSystemInfo{KubeletVersion: kubeletOld, OSImage: "Red Hat Enterprise Linux CoreOS 417.94", KernelVersion: "5.14.0"},
			Conditions: []corev1.NodeCondition{
				{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse},
				{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: ready, LastTransitionTime: ready},
			},
			Images:    []corev1.ContainerImage{{Names: []string{"quay.io/openshift/release@sha256:0"}}},
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.1.7"}},
		},
	}
	want := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: "ip-a", UID: "0f7c", ResourceVersion: "42",
			Labels: map[string]string{hosted.NodePoolLabel: "inplace", "kubernetes.io/os": "linux"},
			Annotations: map[string]string{
				"cluster.x-k8s.io/machine":                        "inplace-x7k2p",
				"cluster.x-k8s.io/owner-name":                     "inplace-6f9d8b7c5",
				"machineconfiguration.openshift.io/desiredConfig": newHash,
			},
		},
		Spec: corev1.NodeSpec{Unschedulable: true, Taints: []corev1.Taint{{Key: "node.cluster.x-k8s.io/outdated-revision", Effect: corev1.TaintEffectPreferNoSchedule}}},
		Status: corev1.NodeStatus{
			NodeInfo:   corev1.NodeSystemInfo{KubeletVersion: kubeletOld, OSImage: "Red Hat Enterprise Linux CoreOS 417.94"},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastTransitionTime: ready}},
		},
	}
	got, err := StripNode(full)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("StripNode (-want +got):\n%s", diff)
	}
}
