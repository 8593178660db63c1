package main

import (
	"context"
	"fmt"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// recordedNodes are the recorded cluster's pools, rendered configurations and nodes.
type recordedNodes struct {
	pools   []*machineconfigurationv1.MachineConfigPool
	configs []*machineconfigurationv1.MachineConfig
	nodes   []*corev1.Node
}

// create writes the pools, configurations and nodes, nodes ready as of now.
func (n *recordedNodes) create(ctx context.Context, c *clients) error {
	for _, mc := range n.configs {
		fresh := &machineconfigurationv1.MachineConfig{ObjectMeta: freshMeta(mc.ObjectMeta), Spec: mc.Spec}
		if _, err := c.machineConfiguration.MachineconfigurationV1().MachineConfigs().Create(ctx, fresh, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating MachineConfig %s: %w", mc.Name, err)
		}
	}
	for _, p := range n.pools {
		fresh := &machineconfigurationv1.MachineConfigPool{ObjectMeta: freshMeta(p.ObjectMeta), Spec: p.Spec}
		if _, err := c.machineConfiguration.MachineconfigurationV1().MachineConfigPools().Create(ctx, fresh, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating MachineConfigPool %s: %w", p.Name, err)
		}
	}
	for _, node := range n.nodes {
		created, err := c.kube.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: freshMeta(node.ObjectMeta), Spec: node.Spec}, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("creating Node %s: %w", node.Name, err)
		}
		created.Status.Conditions = node.Status.Conditions
		for i := range created.Status.Conditions {
			created.Status.Conditions[i].LastTransitionTime = metav1.Now()
			created.Status.Conditions[i].LastHeartbeatTime = metav1.Now()
		}
		if _, err := c.kube.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("writing Node %s status: %w", node.Name, err)
		}
	}
	return nil
}

// roll updates the nodes of a pool to version one at a time, through the
// phases the machine-config daemon reports: drain, update, reboot, done.
func (n *recordedNodes) roll(ctx context.Context, c *clients, pool, version string, step time.Duration) error {
	rendered := "rendered-" + pool + "-" + version
	mc := &machineconfigurationv1.MachineConfig{ObjectMeta: metav1.ObjectMeta{
		Name:        rendered,
		Annotations: map[string]string{nodes.ReleaseImageVersionAnnotation: version},
	}}
	if _, err := c.machineConfiguration.MachineconfigurationV1().MachineConfigs().Create(ctx, mc, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating MachineConfig %s: %w", rendered, err)
	}
	var members []string
	for _, node := range n.nodes {
		if _, ok := node.Labels["node-role.kubernetes.io/"+pool]; ok {
			members = append(members, node.Name)
		}
	}
	say("rolling the %s pool: %d nodes, one every %s", pool, len(members), step)
	for _, name := range members {
		phases := []struct {
			annotations   map[string]string
			unschedulable bool
		}{
			{map[string]string{nodes.DesiredConfigAnnotation: rendered, nodes.DesiredDrainAnnotation: "drain-" + rendered, nodes.StateAnnotation: "Working"}, true},
			{map[string]string{nodes.LastAppliedDrainAnnotation: "drain-" + rendered}, true},
			{map[string]string{nodes.StateAnnotation: "Rebooting"}, true},
			{map[string]string{nodes.CurrentConfigAnnotation: rendered, nodes.StateAnnotation: "Done",
				nodes.DesiredDrainAnnotation: "uncordon-" + rendered, nodes.LastAppliedDrainAnnotation: "uncordon-" + rendered}, false},
		}
		for _, phase := range phases {
			if err := updateNode(ctx, c, name, func(node *corev1.Node) {
				for k, v := range phase.annotations {
					node.Annotations[k] = v
				}
				node.Spec.Unschedulable = phase.unschedulable
			}); err != nil {
				return err
			}
			if !sleep(ctx, step/time.Duration(len(phases))) {
				return nil
			}
		}
	}
	return nil
}

func updateNode(ctx context.Context, c *clients, name string, change func(*corev1.Node)) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		node, err := c.kube.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if node.Annotations == nil {
			node.Annotations = map[string]string{}
		}
		change(node)
		_, err = c.kube.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
}
