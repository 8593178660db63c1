package node

import (
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/nodepods"
)

// unscheduled is the "node" of the pods waiting to be scheduled: a cache of
// the pods whose spec.nodeName is empty, followed while any node drains, for
// a replacement that cannot be scheduled keeps a budget at its limit.
const unscheduled = ""

// drains watches what the drains of the nodes the machine-config controller
// drains are judged from: each such node's pods, and only its (a cluster
// may run 150,000 pods), the pods waiting to be scheduled, the cluster's
// budgets, which are few, and its DaemonSets, stripped to their names,
// whose pods the drain skips only while they exist.
type drains struct {
	pods       *nodepods.Caches
	budgets    policylisters.PodDisruptionBudgetLister
	daemonSets appslisters.DaemonSetLister

	mu       sync.Mutex
	followed map[string]bool
}

// newDrains returns drains whose caches queue, through add, the node whose
// pods changed, and every drained node when the unscheduled pods do.
func newDrains(client kubernetes.Interface, budgets policylisters.PodDisruptionBudgetLister, daemonSets appslisters.DaemonSetLister, add func(any)) *drains {
	d := &drains{budgets: budgets, daemonSets: daemonSets, followed: map[string]bool{}}
	d.pods = nodepods.New(client, drain.Strip, func(node string) {
		if node == unscheduled {
			d.queueDrained(add)
			return
		}
		add(nodeKeyPrefix + node)
	})
	return d
}

// budgetHandler queues every drained node when a budget changes.
func (d *drains) budgetHandler(add func(any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { d.queueDrained(add) },
		UpdateFunc: func(any, any) { d.queueDrained(add) },
		DeleteFunc: func(any) { d.queueDrained(add) },
	}
}

// daemonSetHandler queues every drained node when a DaemonSet comes or
// goes: its pods are then skipped, or evicted as orphans. What changes
// within a DaemonSet does not matter to a drain.
func (d *drains) daemonSetHandler(add func(any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { d.queueDrained(add) },
		DeleteFunc: func(any) { d.queueDrained(add) },
	}
}

// daemonSetExists answers from the cache what the drain's Helper asks the
// API server (k8s.io/kubectl/pkg/drain filters.go, daemonSetFilter: a Get
// by name).
func (d *drains) daemonSetExists(namespace, name string) bool {
	_, err := d.daemonSets.DaemonSets(namespace).Get(name)
	return err == nil
}

func (d *drains) queueDrained(add func(any)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for node := range d.followed {
		add(nodeKeyPrefix + node)
	}
}

// objects are what node's drain is judged from, nil when no drain is asked
// of it or its pods are not cached yet (their cache queues the node once
// they are). A node is followed from its first sync that sees its drain
// asked to the first that does not, or that sees it gone (forget).
func (d *drains) objects(node *corev1.Node) *nodes.DrainObjects {
	if !nodes.DrainRequested(node) {
		d.forget(node.Name)
		return nil
	}
	d.follow(node.Name, true)
	pods, synced, err := d.pods.Pods(node.Name)
	pending, pendingSynced, pendingErr := d.pods.Pods(unscheduled)
	if err == nil {
		err = pendingErr
	}
	if err != nil {
		// The node's insight says it drains, without naming what holds
		// it: what cannot be read is not reported as nothing.
		klog.V(2).InfoS("Cannot read the pods of a drained node", "node", node.Name, "err", err)
	}
	if !synced || !pendingSynced {
		return nil
	}
	budgets, err := d.budgets.List(labels.Everything())
	if err != nil {
		return nil
	}
	return &nodes.DrainObjects{Pods: pods, Pending: pending, Budgets: budgets, DaemonSetExists: d.daemonSetExists}
}

// forget stops following node.
func (d *drains) forget(node string) {
	d.follow(node, false)
}

func (d *drains) follow(node string, on bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.followed[node] == on {
		return
	}
	if on {
		d.followed[node] = true
	} else {
		delete(d.followed, node)
	}
	var names []string
	for n := range d.followed {
		names = append(names, n)
	}
	if len(names) > 0 {
		names = append(names, unscheduled)
	}
	slices.Sort(names)
	if _, err := d.pods.Follow(names); err != nil {
		// Only once the controller stops.
		klog.V(2).InfoS("Not following the pods of drained nodes", "err", err)
	}
}

// stop stops every cache of pods.
func (d *drains) stop() {
	d.pods.Stop()
}
