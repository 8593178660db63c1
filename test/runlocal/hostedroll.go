package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// nodeWrite is one write of a node by one of the components that update
// it, and what it says.
type nodeWrite struct {
	who    string
	change func(*corev1.Node)
}

// inPlaceWrites are the writes of a node an InPlace NodePool updates to
// the configuration target, in their order:
//   - the hosted-cluster-config-operator's in-place upgrader gives it the
//     target as desiredConfig, maxUnavailable nodes at a time
//     (control-plane-operator/hostedclusterconfigoperator/controllers/
//     inplaceupgrader/inplaceupgrader.go, setNodesDesiredConfig);
//   - the machine-config daemon of its upgrade pod asks for a drain, Working
//     (machine-config-operator's pkg/daemon/daemon.go, syncNodeHypershift);
//   - its drainer cordons the node, drains it, and records the drain applied
//     (…/controllers/drainer/drainer.go, handleNodeDrainRequest);
//   - the daemon applies the configuration and, rebooting, says so in
//     post-config-action (pkg/daemon/update.go, reboot); in this mode it
//     never writes the state Rebooting, nor clears post-config-action, so
//     that a node updated in place before already carries it; the kubelet
//     goes down with the node (reported by setReady, after that write);
//   - after the reboot the kubelet reports its new version and OS image,
//     Ready again (reported by setKubelet, between the two writes below);
//   - the daemon, finding the configuration applied, writes Done, the
//     target as currentConfig, and asks for an uncordon (syncNodeHypershift);
//   - the drainer uncordons the node and records the uncordon applied.
func inPlaceWrites(target string) []nodeWrite {
	drain, uncordon := "drain-"+target, "uncordon-"+target
	return []nodeWrite{
		{"the in-place upgrader sets desiredConfig " + target, func(n *corev1.Node) {
			n.Annotations[nodes.DesiredConfigAnnotation] = target
		}},
		{"the machine-config daemon asks for " + drain + ", Working", func(n *corev1.Node) {
			n.Annotations[nodes.StateAnnotation] = "Working"
			n.Annotations[nodes.ReasonAnnotation] = ""
			n.Annotations[nodes.DesiredDrainAnnotation] = drain
		}},
		{"the drainer cordons the node and drains it", func(n *corev1.Node) {
			n.Spec.Unschedulable = true
		}},
		{"the drainer applied " + drain, func(n *corev1.Node) {
			n.Annotations[nodes.LastAppliedDrainAnnotation] = drain
		}},
		{"the machine-config daemon applied the configuration and reboots the node", func(n *corev1.Node) {
			n.Annotations[postConfigAction] = "Rebooting"
		}},
		{"the machine-config daemon reports Done at " + target + " and asks for " + uncordon, func(n *corev1.Node) {
			n.Annotations[nodes.StateAnnotation] = "Done"
			n.Annotations[nodes.ReasonAnnotation] = ""
			n.Annotations[nodes.CurrentConfigAnnotation] = target
			n.Annotations[nodes.DesiredDrainAnnotation] = uncordon
		}},
		{"the drainer uncordons the node", func(n *corev1.Node) {
			n.Spec.Unschedulable = false
		}},
		{"the drainer applied " + uncordon, func(n *corev1.Node) {
			n.Annotations[nodes.LastAppliedDrainAnnotation] = uncordon
		}},
	}
}

// drainWrite is the index of the write after which the node is drained,
// applyWrite of the one after which its daemon applies the configuration,
// and rebootWrite of the one after which it reboots: its kubelet reports
// the new release after it.
const (
	drainWrite  = 2
	applyWrite  = 3
	rebootWrite = 4
)

// inPlaceMoments name the moments of an in-place update shown.
var inPlaceMoments = map[int]string{drainWrite: "draining", applyWrite: "applying", rebootWrite: "rebooting"}

// showAt is called at the moments of a played step worth showing; an
// error ends the play.
type showAt func(moment string) error

// updateInPlace updates an InPlace NodePool's nodes to release to, one
// node after the other (maxUnavailable 1, the NodePool's default: its
// capi.go, getInPlaceMaxUnavailable), with inPlaceWrites, a write a step.
// show is called while the first node is drained, with the moment
// "draining", while its daemon applies the configuration, with "applying",
// and while it reboots, with "rebooting".
func (h *hostedNodes) updateInPlace(ctx context.Context, c *clients, p *nodePool, to release, step time.Duration, show showAt) error {
	target := configHash(p.name, to.version)
	say("NodePool %s (InPlace): its MachineSet %s targets config version %s (%s); the in-place upgrader updates its %d nodes one at a time", p.name, p.machineSet, target, to.version, len(p.nodes))
	for i, name := range p.nodes {
		for j, w := range inPlaceWrites(target) {
			say("node %s: %s", name, w.who)
			if err := updateNode(ctx, c, name, w.change); err != nil {
				return err
			}
			if j == rebootWrite {
				say("node %s: its kubelet goes down with the reboot: the node lifecycle controller sets Ready Unknown", name)
				if err := setReady(ctx, c, name, false); err != nil {
					return err
				}
			}
			if !sleep(ctx, step) {
				return nil
			}
			if moment, ok := inPlaceMoments[j]; ok && i == 0 {
				if err := show(moment); err != nil {
					return err
				}
			}
			if j == rebootWrite {
				say("node %s: rebooted; its kubelet reports %s, %s, Ready", name, to.kubelet, to.osImage)
				if err := setKubelet(ctx, c, name, to); err != nil {
					return err
				}
				if !sleep(ctx, step) {
					return nil
				}
			}
		}
	}
	p.release = to
	return nil
}

// replace rolls a Replace NodePool's nodes to release to as cluster-api
// rolls its MachineDeployment (strategy RollingUpdate, maxSurge 1 and
// maxUnavailable 0, the NodePool's defaults: api/hypershift/v1beta1/
// nodepool_types.go, ReplaceUpgrade): a new MachineSet; its Machine
// controller taints the old MachineSet's nodes as outdated; then, node by
// node, a new Machine's node joins at the new release (its kubelet
// registers it, the Machine controller annotates it, the hosted-cluster-
// config-operator labels it), and once it is Ready an old Machine is
// deleted: its node cordoned, drained, and deleted with its instance. show
// is called when the first new node has joined and the first old one
// is cordoned, with the moment "replacing", and before, once the first new
// node has joined but is not labelled with its NodePool yet, with "rollout
// started".
func (h *hostedNodes) replace(ctx context.Context, c *clients, p *nodePool, to release, step time.Duration, show showAt) error {
	machineSet := h.generated(p.name)
	say("NodePool %s (Replace): its MachineDeployment rolls out MachineSet %s at %s, replacing %d nodes one at a time", p.name, machineSet, to.version, len(p.nodes))
	for _, name := range p.nodes {
		if err := updateNode(ctx, c, name, func(n *corev1.Node) {
			n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: outdatedRevisionTaint, Effect: corev1.TaintEffectPreferNoSchedule})
		}); err != nil {
			return err
		}
	}
	say("cluster-api taints the nodes of MachineSet %s %s:PreferNoSchedule", p.machineSet, outdatedRevisionTaint)
	old := slices.Clone(p.nodes)
	for i, oldName := range old {
		name, machine := h.nodeName(), h.generated(machineSet)
		say("node %s joins at %s (%s)", name, to.kubelet, to.osImage)
		if err := createNode(ctx, c, joiningNode(name, to)); err != nil {
			return err
		}
		if !sleep(ctx, step) {
			return nil
		}
		joined := []nodeWrite{
			{"cluster-api annotates it with its Machine " + machine, func(n *corev1.Node) {
				for k, v := range machineAnnotations(machine, machineSet) {
					n.Annotations[k] = v
				}
			}},
			{"the hosted-cluster-config-operator labels it " + p.name, func(n *corev1.Node) { syncLabels(n, p.name) }},
		}
		for j, w := range joined {
			say("node %s: %s", name, w.who)
			if err := updateNode(ctx, c, name, w.change); err != nil {
				return err
			}
			if !sleep(ctx, step) {
				return nil
			}
			if i == 0 && j == 0 {
				if err := show("rollout started"); err != nil {
					return err
				}
			}
		}
		p.nodes = append(p.nodes, name)
		say("node %s: cluster-api deletes its Machine: cordons the node and drains it", oldName)
		if err := updateNode(ctx, c, oldName, func(n *corev1.Node) { n.Spec.Unschedulable = true }); err != nil {
			return err
		}
		if !sleep(ctx, step) {
			return nil
		}
		if i == 0 {
			if err := show("replacing"); err != nil {
				return err
			}
		}
		say("node %s: drained; its instance and node are deleted", oldName)
		if err := deleteNode(ctx, c, oldName); err != nil {
			return fmt.Errorf("deleting Node %s: %w", oldName, err)
		}
		p.nodes = slices.DeleteFunc(p.nodes, func(n string) bool { return n == oldName })
		if !sleep(ctx, step) {
			return nil
		}
	}
	p.machineSet, p.release = machineSet, to
	return nil
}
