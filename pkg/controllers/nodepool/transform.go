package nodepool

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// capiAnnotationPrefix starts the annotations cluster-api writes on a node
// (cluster.x-k8s.io/machine, owner-name, cluster-namespace), by which the
// hosted-cluster-config-operator finds its Machine and NodePool
// (control-plane-operator/hostedclusterconfigoperator/controllers/node/
// node.go).
const capiAnnotationPrefix = "cluster.x-k8s.io/"

// StripNode keeps what the NodePool assessment reads of a node, so that a
// large hosted cluster's node cache holds no images, addresses or capacity:
// its name and labels (its NodePool), the in-place upgrader's and
// cluster-api's annotations, whether it is schedulable and cluster-api's
// outdated-revision taint (a Replace rollout under way), the conditions that
// make it unavailable without their heartbeats, and its kubelet version and
// OS image.
func StripNode(obj any) (any, error) {
	node, ok := obj.(*corev1.Node)
	if !ok {
		return obj, nil
	}
	stripped := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:              node.Name,
			UID:               node.UID,
			ResourceVersion:   node.ResourceVersion,
			DeletionTimestamp: node.DeletionTimestamp,
			Labels:            node.Labels,
		},
		Spec: corev1.NodeSpec{Unschedulable: node.Spec.Unschedulable},
		Status: corev1.NodeStatus{NodeInfo: corev1.NodeSystemInfo{
			KubeletVersion: node.Status.NodeInfo.KubeletVersion,
			OSImage:        node.Status.NodeInfo.OSImage,
		}},
	}
	for _, t := range node.Spec.Taints {
		if t.Key == hosted.OutdatedRevisionTaint {
			stripped.Spec.Taints = append(stripped.Spec.Taints, t)
		}
	}
	for k, v := range node.Annotations {
		if strings.HasPrefix(k, nodes.AnnotationPrefix) || strings.HasPrefix(k, capiAnnotationPrefix) {
			if stripped.Annotations == nil {
				stripped.Annotations = map[string]string{}
			}
			stripped.Annotations[k] = v
		}
	}
	for _, c := range node.Status.Conditions {
		switch c.Type {
		case corev1.NodeReady, corev1.NodeDiskPressure, corev1.NodeNetworkUnavailable:
			c.LastHeartbeatTime = metav1.Time{}
			stripped.Status.Conditions = append(stripped.Status.Conditions, c)
		}
	}
	return stripped, nil
}
