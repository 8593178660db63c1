package node

import (
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// machineConfigNode is the node's MachineConfigNode, which the
// machine-config daemon names after its node
// (pkg/upgrademonitor/upgrade_monitor.go); nil where the cluster serves
// none or the daemon has not written it.
func (c *Controller) machineConfigNode(name string) (*machineconfigurationv1.MachineConfigNode, error) {
	if c.machineConfigNodes == nil {
		return nil, nil
	}
	mcn, err := c.machineConfigNodes.Get(name)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return mcn, err
}

// machineConfigNodeHandler queues the node of a MachineConfigNode whose
// steps changed.
func machineConfigNodeHandler(add func(any)) cache.ResourceEventHandler {
	queue := func(obj any) {
		if o, err := meta.Accessor(tombstoneObject(obj)); err == nil {
			add(nodeKeyPrefix + o.GetName())
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: queue,
		UpdateFunc: func(oldObj, newObj any) {
			old, ok1 := oldObj.(*machineconfigurationv1.MachineConfigNode)
			mcn, ok2 := newObj.(*machineconfigurationv1.MachineConfigNode)
			if ok1 && ok2 && apiequality.Semantic.DeepEqual(old.Spec, mcn.Spec) && apiequality.Semantic.DeepEqual(old.Status, mcn.Status) {
				return
			}
			queue(newObj)
		},
		DeleteFunc: queue,
	}
}

// StripMachineConfigNode keeps what the assessment reads of a
// MachineConfigNode: the configuration and image it speaks of, its steps,
// and the pinned image sets' errors; not the release images' details. Of
// the conditions' messages it keeps those the assessment reads: a True
// condition's (a degraded node's, a drain not required) and Updated's
// ("needs an update"). The daemon keeps a message on each of its fourteen
// conditions, most of them False, which would make the cache of 5,000
// nodes' MachineConfigNodes half again the size of the rest.
func StripMachineConfigNode(obj any) (any, error) {
	mcn, ok := obj.(*machineconfigurationv1.MachineConfigNode)
	if !ok {
		return obj, nil
	}
	conditions := make([]metav1.Condition, len(mcn.Status.Conditions))
	for i, c := range mcn.Status.Conditions {
		if c.Status != metav1.ConditionTrue && c.Type != string(machineconfigurationv1.MachineConfigNodeUpdated) {
			c.Message = ""
		}
		conditions[i] = c
	}
	return &machineconfigurationv1.MachineConfigNode{
		ObjectMeta: strippedMeta(mcn.ObjectMeta),
		Spec: machineconfigurationv1.MachineConfigNodeSpec{
			Node:          mcn.Spec.Node,
			Pool:          mcn.Spec.Pool,
			ConfigVersion: mcn.Spec.ConfigVersion,
			ConfigImage:   mcn.Spec.ConfigImage,
		},
		Status: machineconfigurationv1.MachineConfigNodeStatus{
			Conditions:      conditions,
			ConfigVersion:   mcn.Status.ConfigVersion,
			ConfigImage:     mcn.Status.ConfigImage,
			PinnedImageSets: mcn.Status.PinnedImageSets,
		},
	}, nil
}
