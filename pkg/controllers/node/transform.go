package node

import (
	"strings"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// The informer caches hold only what the assessment reads: a large cluster
// has thousands of nodes, each carrying its images, addresses and capacity
// in its status, and MachineConfigs carrying whole Ignition configs. These
// transforms run before an object enters a cache.

// StripNode keeps a Node's name, labels (for pool membership), the
// machine-config annotations, whether it is schedulable, and the conditions
// that make it unavailable, without their heartbeats.
func StripNode(obj any) (any, error) {
	node, ok := obj.(*corev1.Node)
	if !ok {
		return obj, nil
	}
	stripped := &corev1.Node{
		ObjectMeta: strippedMeta(node.ObjectMeta),
		Spec:       corev1.NodeSpec{Unschedulable: node.Spec.Unschedulable},
	}
	stripped.Labels = node.Labels
	// A NodePool's node keeps its kubelet's version: the pre-checks of a
	// hosted control plane tell by it how far behind the NodePool runs.
	// No other node carries the label, so a standalone cluster's cache is
	// as small as ever.
	if _, ok := node.Labels[hosted.NodePoolLabel]; ok {
		stripped.Status.NodeInfo.KubeletVersion = node.Status.NodeInfo.KubeletVersion
	}
	for k, v := range node.Annotations {
		if strings.HasPrefix(k, nodes.AnnotationPrefix) {
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

// StripMachineConfiguration strips the machine-config objects of one
// informer factory.
func StripMachineConfiguration(obj any) (any, error) {
	switch obj.(type) {
	case *machineconfigurationv1.MachineConfig:
		return StripMachineConfig(obj)
	case *machineconfigurationv1.MachineConfigPool:
		return StripMachineConfigPool(obj)
	case *machineconfigurationv1.MachineOSConfig:
		return StripMachineOSConfig(obj)
	case *machineconfigurationv1.MachineOSBuild:
		return StripMachineOSBuild(obj)
	case *machineconfigurationv1.MachineConfigNode:
		return StripMachineConfigNode(obj)
	}
	return obj, nil
}

// StripMachineConfig keeps a MachineConfig's name and version annotation,
// not its configuration.
func StripMachineConfig(obj any) (any, error) {
	mc, ok := obj.(*machineconfigurationv1.MachineConfig)
	if !ok {
		return obj, nil
	}
	stripped := &machineconfigurationv1.MachineConfig{ObjectMeta: strippedMeta(mc.ObjectMeta)}
	if v, ok := nodes.VersionOf(mc); ok {
		stripped.Annotations = map[string]string{nodes.ReleaseImageVersionAnnotation: v}
	}
	return stripped, nil
}

// StripMachineConfigPool keeps a pool's name, node selector, whether it is
// paused, how many of its nodes may update at once (for the pre-checks'
// estimate) and the name of the configuration it targets: the pool's own
// status is the machine-config controller's count, which the insight
// computes from the nodes.
func StripMachineConfigPool(obj any) (any, error) {
	pool, ok := obj.(*machineconfigurationv1.MachineConfigPool)
	if !ok {
		return obj, nil
	}
	return &machineconfigurationv1.MachineConfigPool{
		ObjectMeta: strippedMeta(pool.ObjectMeta),
		Spec: machineconfigurationv1.MachineConfigPoolSpec{
			NodeSelector:   pool.Spec.NodeSelector,
			Paused:         pool.Spec.Paused,
			MaxUnavailable: pool.Spec.MaxUnavailable,
			Configuration:  machineconfigurationv1.MachineConfigPoolStatusConfiguration{ObjectReference: corev1.ObjectReference{Name: pool.Spec.Configuration.Name}},
		},
	}, nil
}

// strippedMeta keeps what a cache and the controller need to identify an
// object.
func strippedMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name:              m.Name,
		UID:               m.UID,
		ResourceVersion:   m.ResourceVersion,
		DeletionTimestamp: m.DeletionTimestamp,
	}
}
