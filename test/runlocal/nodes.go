package main

import (
	"context"
	"fmt"
	"strings"
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
	// layered is the image-mode pool played beside the recorded ones, nil
	// when none is.
	layered *layeredPool
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
		created, err := c.machineConfiguration.MachineconfigurationV1().MachineConfigPools().Create(ctx, fresh, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("creating MachineConfigPool %s: %w", p.Name, err)
		}
		created.Status = p.Status
		if _, err := c.machineConfiguration.MachineconfigurationV1().MachineConfigPools().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("writing MachineConfigPool %s status: %w", p.Name, err)
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

// roll updates the nodes of a pool to version one at a time, as the
// machine-config operator does (openshift/machine-config-operator): its
// render controller renders the pool's configuration for the release and
// points the pool's spec.configuration at it (syncGeneratedMachineConfig in
// pkg/controller/render/render_controller.go); its node controller then
// gives one node at a time the new configuration as desiredConfig
// (setDesiredAnnotations in pkg/controller/node/node_controller.go); the
// node's daemon asks for a drain, which the drain controller applies,
// reboots, and reports the configuration current and Done, and the node is
// uncordoned. The node controller's status of the pool follows every step
// (poolStatus), and moves status.configuration once every node is done.
// drainAsked, if not nil, is called once a node's drain is asked and before
// it is done.
func (n *recordedNodes) roll(ctx context.Context, c *clients, pool, version string, step time.Duration, drainAsked func(node string) error) error {
	rendered, err := render(ctx, c, pool, version)
	if err != nil {
		return err
	}
	return n.rollNodes(ctx, c, pool, rendered, "", step, drainAsked)
}

// render is the render controller's part of a roll: it creates the pool's
// rendered configuration for version and points the pool's
// spec.configuration at it, and returns its name.
func render(ctx context.Context, c *clients, pool, version string) (string, error) {
	pools := c.machineConfiguration.MachineconfigurationV1().MachineConfigPools()
	p, err := pools.Get(ctx, pool, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	mc := renderedConfig(p, version)
	if _, err := c.machineConfiguration.MachineconfigurationV1().MachineConfigs().Create(ctx, mc, metav1.CreateOptions{}); err != nil {
		return "", fmt.Errorf("creating MachineConfig %s: %w", mc.Name, err)
	}
	rendered := mc.Name
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		p, err := pools.Get(ctx, pool, metav1.GetOptions{})
		if err != nil {
			return err
		}
		p.Spec.Configuration.Name = rendered
		_, err = pools.Update(ctx, p, metav1.UpdateOptions{})
		return err
	}); err != nil {
		return "", fmt.Errorf("pointing MachineConfigPool %s at %s: %w", pool, rendered, err)
	}
	return rendered, nil
}

// rollNodes is the node controller's and the daemons' part of a roll: one
// node of the pool at a time gets rendered as its desiredConfig, and, in an
// image-mode pool (image not empty), image as its desiredImage with it
// (setDesiredAnnotations in pkg/controller/node/node_controller.go); its
// daemon writes both as current when it is done (SetDone in
// pkg/daemon/writer.go). The pool's status follows every step.
func (n *recordedNodes) rollNodes(ctx context.Context, c *clients, pool, rendered, image string, step time.Duration, drainAsked func(node string) error) error {
	if err := n.syncStatus(ctx, c, pool); err != nil {
		return err
	}
	var members []string
	for _, node := range n.nodes {
		if _, ok := node.Labels["node-role.kubernetes.io/"+pool]; ok {
			members = append(members, node.Name)
		}
	}
	say("rolling the %s pool to %s: %d nodes, one every %s", pool, rendered, len(members), step)
	for _, name := range members {
		phases := []struct {
			annotations   map[string]string
			unschedulable bool
		}{
			{map[string]string{nodes.DesiredConfigAnnotation: rendered}, false},
			{map[string]string{nodes.StateAnnotation: "Working", nodes.DesiredDrainAnnotation: "drain-" + rendered}, true},
			{map[string]string{nodes.LastAppliedDrainAnnotation: "drain-" + rendered}, true},
			{map[string]string{nodes.StateAnnotation: "Rebooting"}, true},
			{map[string]string{nodes.CurrentConfigAnnotation: rendered, nodes.StateAnnotation: "Done",
				nodes.DesiredDrainAnnotation: "uncordon-" + rendered, nodes.LastAppliedDrainAnnotation: "uncordon-" + rendered}, false},
		}
		if image != "" {
			phases[0].annotations[nodes.DesiredImageAnnotation] = image
			phases[len(phases)-1].annotations[nodes.CurrentImageAnnotation] = image
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
			if err := n.syncStatus(ctx, c, pool); err != nil {
				return err
			}
			if !sleep(ctx, step/time.Duration(len(phases))) {
				return nil
			}
			if drainAsked != nil && strings.HasPrefix(phase.annotations[nodes.DesiredDrainAnnotation], "drain-") {
				if err := drainAsked(name); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// syncStatus writes the pool's status, an image-mode pool's with its
// build's.
func (n *recordedNodes) syncStatus(ctx context.Context, c *clients, pool string) error {
	if n.layered != nil && n.layered.name == pool {
		return n.layered.syncStatus(ctx, c)
	}
	return syncPoolStatus(ctx, c, pool)
}

// syncPoolStatus writes a pool's status as the machine-config operator's
// node controller does after any change of the pool or its nodes
// (syncStatusOnly in pkg/controller/node/status.go).
func syncPoolStatus(ctx context.Context, c *clients, pool string) error {
	pools := c.machineConfiguration.MachineconfigurationV1().MachineConfigPools()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		p, err := pools.Get(ctx, pool, metav1.GetOptions{})
		if err != nil {
			return err
		}
		selector, err := metav1.LabelSelectorAsSelector(p.Spec.NodeSelector)
		if err != nil {
			return fmt.Errorf("MachineConfigPool %s: %w", pool, err)
		}
		list, err := c.kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
		if err != nil {
			return err
		}
		members := make([]*corev1.Node, len(list.Items))
		for i := range list.Items {
			members[i] = &list.Items[i]
		}
		p.Status = poolStatus(p, members, time.Now())
		_, err = pools.UpdateStatus(ctx, p, metav1.UpdateOptions{})
		return err
	})
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
