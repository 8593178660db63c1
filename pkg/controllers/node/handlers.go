package node

import (
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// Each handler queues only the work an event can change: a node's own
// change its key, a MachineConfig's the nodes that use it, a pool's or the
// target version's every node.

// configsOfNode indexes a node under the configurations it is at and is
// going to.
func configsOfNode(obj any) ([]string, error) {
	node, ok := obj.(*corev1.Node)
	if !ok {
		return nil, nil
	}
	var configs []string
	for _, a := range []string{nodes.CurrentConfigAnnotation, nodes.DesiredConfigAnnotation} {
		if c := node.Annotations[a]; c != "" {
			configs = append(configs, c)
		}
	}
	return configs, nil
}

func (c *Controller) nodeHandler(add func(any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if node, ok := obj.(*corev1.Node); ok {
				c.membership.setNode(node.Name, node.Labels)
				add(nodeKeyPrefix + node.Name)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			old, ok1 := oldObj.(*corev1.Node)
			node, ok2 := newObj.(*corev1.Node)
			if !ok1 || !ok2 {
				return
			}
			if !apiequality.Semantic.DeepEqual(old.Labels, node.Labels) {
				c.membership.setNode(node.Name, node.Labels)
			}
			// The caches hold stripped nodes: an update that changed only
			// what was stripped (a heartbeat, an image list) is no change.
			if !sameAssessedFields(old, node) {
				add(nodeKeyPrefix + node.Name)
			}
			// Whether a node runs its pool's configuration is not in its
			// insight, so the node's sync cannot tell its pool that it
			// changed: a configuration rollout's progress is counted by
			// the pool alone.
			if configurationStateChanged(old, node) {
				if pool := c.membership.current().Of(node.Labels); pool != nil {
					add(poolKeyPrefix + pool.Name)
				}
			}
		},
		DeleteFunc: func(obj any) {
			if o, err := meta.Accessor(tombstoneObject(obj)); err == nil {
				c.membership.removeNode(o.GetName())
				add(nodeKeyPrefix + o.GetName())
			}
		},
	}
}

// configurationStateChanged says whether what the machine-config daemon says
// of the node's configurations changed.
func configurationStateChanged(a, b *corev1.Node) bool {
	for _, annotation := range []string{nodes.CurrentConfigAnnotation, nodes.DesiredConfigAnnotation, nodes.StateAnnotation,
		nodes.CurrentImageAnnotation, nodes.DesiredImageAnnotation} {
		if a.Annotations[annotation] != b.Annotations[annotation] {
			return true
		}
	}
	return false
}

func sameAssessedFields(a, b *corev1.Node) bool {
	return apiequality.Semantic.DeepEqual(a.Labels, b.Labels) &&
		apiequality.Semantic.DeepEqual(a.Annotations, b.Annotations) &&
		a.Spec.Unschedulable == b.Spec.Unschedulable &&
		apiequality.Semantic.DeepEqual(a.Status.Conditions, b.Status.Conditions)
}

// poolHandler parses the pools' selectors again and queues a pool, and
// every node, when the pool's membership or pausing changes: a node's pool
// and phase depend on them. When only the configuration the pool targets
// changes, which a migration to another architecture judges its nodes by,
// it queues the pool's own nodes.
func (c *Controller) poolHandler(add func(any)) cache.ResourceEventHandler {
	changed := func(obj any) {
		if err := c.placeNodes(); err != nil {
			klog.ErrorS(err, "Placing the nodes in their MachineConfigPools")
			return
		}
		if o, err := meta.Accessor(tombstoneObject(obj)); err == nil {
			add(poolKeyPrefix + o.GetName())
		}
		c.queueAllNodes(add)
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: changed,
		UpdateFunc: func(oldObj, newObj any) {
			old, ok1 := oldObj.(*machineconfigurationv1.MachineConfigPool)
			pool, ok2 := newObj.(*machineconfigurationv1.MachineConfigPool)
			if !ok1 || !ok2 {
				return
			}
			switch {
			case old.Spec.Paused != pool.Spec.Paused || !apiequality.Semantic.DeepEqual(old.Spec.NodeSelector, pool.Spec.NodeSelector):
				changed(newObj)
			case old.Spec.Configuration.Name != pool.Spec.Configuration.Name:
				// The members stay; the pool they are judged against is new.
				if err := c.placeNodes(); err != nil {
					klog.ErrorS(err, "Placing the nodes in their MachineConfigPools")
					return
				}
				add(poolKeyPrefix + pool.Name)
				for _, name := range c.membership.nodesIn(pool.Name) {
					add(nodeKeyPrefix + name)
				}
			}
		},
		DeleteFunc: changed,
	}
}

// configHandler queues the nodes at or going to a MachineConfig whose
// version appears, changes or goes.
func (c *Controller) configHandler(add func(any)) cache.ResourceEventHandler {
	changed := func(obj any) {
		o, err := meta.Accessor(tombstoneObject(obj))
		if err != nil {
			return
		}
		nodes, err := c.nodeIndexer.ByIndex(configIndex, o.GetName())
		if err != nil {
			klog.ErrorS(err, "Finding the nodes of a MachineConfig", "machineConfig", o.GetName())
			return
		}
		for _, n := range nodes {
			if node, ok := n.(*corev1.Node); ok {
				add(nodeKeyPrefix + node.Name)
			}
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: changed,
		UpdateFunc: func(oldObj, newObj any) {
			old, ok1 := oldObj.(*machineconfigurationv1.MachineConfig)
			mc, ok2 := newObj.(*machineconfigurationv1.MachineConfig)
			if !ok1 || !ok2 {
				return
			}
			before, _ := nodes.VersionOf(old)
			after, _ := nodes.VersionOf(mc)
			if before != after {
				changed(newObj)
			}
		},
		DeleteFunc: changed,
	}
}

// targetVersionHandler queues every node and pool when the ClusterVersion's
// target version changes, or a migration to another architecture (which
// keeps the version) begins or stops progressing.
func (c *Controller) targetVersionHandler(add func(any)) cache.ResourceEventHandler {
	all := func() {
		c.queueAllNodes(add)
		pools, err := c.pools.List(labels.Everything())
		if err != nil {
			klog.ErrorS(err, "Listing MachineConfigPools")
			return
		}
		for _, p := range pools {
			add(poolKeyPrefix + p.Name)
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) { all() },
		UpdateFunc: func(oldObj, newObj any) {
			old, ok1 := oldObj.(*configv1.ClusterVersion)
			cv, ok2 := newObj.(*configv1.ClusterVersion)
			if ok1 && ok2 && cv.Name == names.ClusterVersion && (old.Status.Desired.Version != cv.Status.Desired.Version ||
				controlplane.IsArchitectureMigrationInProgress(old) != controlplane.IsArchitectureMigrationInProgress(cv)) {
				all()
			}
		},
		DeleteFunc: func(any) { all() },
	}
}

// placeNodes parses the pools' selectors and places every node in its pool,
// from the informers' caches, which hold the change being handled.
func (c *Controller) placeNodes() error {
	pools, err := c.pools.List(labels.Everything())
	if err != nil {
		return err
	}
	return c.membership.setPools(pools, func() ([]*corev1.Node, error) { return c.nodes.List(labels.Everything()) })
}

func (c *Controller) queueAllNodes(add func(any)) {
	nodes, err := c.nodes.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "Listing nodes")
		return
	}
	for _, n := range nodes {
		add(nodeKeyPrefix + n.Name)
	}
}

// deletionHandler queues the node or pool of an insight deleted by someone
// else, so that it comes back. The controller's own writes need no sync.
func deletionHandler(prefix string, add func(any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			if o, err := meta.Accessor(tombstoneObject(obj)); err == nil {
				add(prefix + o.GetName())
			}
		},
	}
}

func tombstoneObject(obj any) any {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		return tombstone.Obj
	}
	return obj
}
