// Package drains is what the node controllers share to judge the drains of
// the nodes they watch: the caches of the drained nodes' pods, the
// unscheduled pods and the pods of the budgets that may refuse an
// eviction, the budgets and the DaemonSets, and the handlers that queue a
// drained node when they change. The node controller uses it for the
// machine-config controller's drains, the NodePool controller for the
// HyperShift drainer's; both ask a drain on the same annotations
// (nodes.DrainRequested).
package drains

import (
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
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

// Unscheduled names the cache of the unscheduled pods in Caches.
const Unscheduled = unscheduled

// NodeKeyPrefix starts a node's queue key in the controllers that use
// Drains: a drained node is queued as NodeKeyPrefix and its name.
const NodeKeyPrefix = "node/"

// Drains watches what the drains of the nodes being drained are judged
// from: each such node's pods, and only its (a cluster may run 150,000
// pods), the pods waiting to be scheduled, the cluster's budgets, which are
// few, and its DaemonSets, stripped to their names, whose pods the drain
// skips only while they exist. Of a budget that may
// refuse to evict a drained node's pod, it watches the pods the budget
// selects, on any node: a budget at its limit waits for those not ready,
// which the drain's words name.
type Drains struct {
	pods       *nodepods.Caches
	budgetPods *nodepods.Caches
	budgets    policylisters.PodDisruptionBudgetLister
	daemonSets appslisters.DaemonSetLister

	mu       sync.Mutex
	followed map[string]bool
	// waited are, by drained node, the keys (nodepods.BudgetKey) of the
	// budgets that may refuse to evict its pods.
	waited map[string][]string
}

// New returns drains whose caches queue, through add, the node whose
// pods changed, and every drained node when the unscheduled pods do.
func New(client kubernetes.Interface, budgets policylisters.PodDisruptionBudgetLister, daemonSets appslisters.DaemonSetLister, add func(any)) *Drains {
	d := &Drains{budgets: budgets, daemonSets: daemonSets, followed: map[string]bool{}, waited: map[string][]string{}}
	d.pods = nodepods.New(client, drain.Strip, func(node string) {
		if node == unscheduled {
			d.queueDrained(add)
			return
		}
		add(NodeKeyPrefix + node)
	})
	d.budgetPods = nodepods.NewByBudget(client, drain.Strip, func(string) { d.queueDrained(add) })
	return d
}

// BudgetHandler queues every drained node when a budget changes.
func (d *Drains) BudgetHandler(add func(any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { d.queueDrained(add) },
		UpdateFunc: func(any, any) { d.queueDrained(add) },
		DeleteFunc: func(any) { d.queueDrained(add) },
	}
}

// DaemonSetHandler queues every drained node when a DaemonSet comes or
// goes: its pods are then skipped, or evicted as orphans. What changes
// within a DaemonSet does not matter to a drain.
func (d *Drains) DaemonSetHandler(add func(any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { d.queueDrained(add) },
		DeleteFunc: func(any) { d.queueDrained(add) },
	}
}

// daemonSetExists answers from the cache what the drain's Helper asks the
// API server (k8s.io/kubectl/pkg/drain filters.go, daemonSetFilter: a Get
// by name).
func (d *Drains) daemonSetExists(namespace, name string) bool {
	_, err := d.daemonSets.DaemonSets(namespace).Get(name)
	return err == nil
}

func (d *Drains) queueDrained(add func(any)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for node := range d.followed {
		add(NodeKeyPrefix + node)
	}
}

// Objects are what node's drain is judged from, nil when no drain is asked
// of it or its pods are not cached yet (their cache queues the node once
// they are). A node is followed from its first sync that sees its drain
// asked to the first that does not, or that sees it gone (Forget).
func (d *Drains) Objects(node *corev1.Node) *nodes.DrainObjects {
	if !nodes.DrainRequested(node) {
		d.Forget(node.Name)
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
	others, othersSynced := d.waitedFor(node.Name, pods, budgets)
	if !othersSynced {
		return nil
	}
	return &nodes.DrainObjects{Pods: pods, Pending: pending, Others: others, Budgets: budgets, DaemonSetExists: d.daemonSetExists}
}

// waitedFor follows the pods of the budgets that may refuse to evict one of
// the node's pods, and returns them, false while a cache has not listed
// them: it queues the drained nodes once it has. Until then the drain is
// not judged, as while the node's own pods are not cached: a budget's
// block named without the pods it waits for would be written, then
// rewritten.
func (d *Drains) waitedFor(node string, pods []*corev1.Pod, budgets []*policyv1.PodDisruptionBudget) ([]*corev1.Pod, bool) {
	var keys []string
	for _, b := range budgets {
		selector, ok := drain.Selector(b)
		if !ok || !drain.MayRefuse(b) || !slices.ContainsFunc(pods, func(p *corev1.Pod) bool { return drain.Selects(b, p) }) {
			continue
		}
		keys = append(keys, nodepods.BudgetKey(b.Namespace, selector))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	d.wait(node, keys)
	var out []*corev1.Pod
	for _, key := range keys {
		cached, synced, err := d.budgetPods.Pods(key)
		if err != nil {
			klog.V(2).InfoS("Cannot read the pods of a budget that holds a drain", "node", node, "budget", key, "err", err)
		}
		if !synced {
			return nil, false
		}
		out = append(out, cached...)
	}
	return out, true
}

// wait records the budget keys node waits on and follows those of every
// drained node.
func (d *Drains) wait(node string, keys []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(keys) == 0 {
		if _, ok := d.waited[node]; !ok {
			return
		}
		delete(d.waited, node)
	} else {
		if slices.Equal(d.waited[node], keys) {
			return
		}
		d.waited[node] = keys
	}
	d.followBudgets()
}

// followBudgets follows the union of the waited budgets; d.mu is held.
func (d *Drains) followBudgets() {
	var all []string
	for _, keys := range d.waited {
		all = append(all, keys...)
	}
	slices.Sort(all)
	if _, err := d.budgetPods.Follow(slices.Compact(all)); err != nil {
		// Only once the controller stops.
		klog.V(2).InfoS("Not following the pods of budgets that hold drains", "err", err)
	}
}

// Forget stops following node, and the budgets it waited on.
func (d *Drains) Forget(node string) {
	d.follow(node, false)
	d.wait(node, nil)
}

func (d *Drains) follow(node string, on bool) {
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

// Caches are the caches of the pods of the followed nodes and of the
// unscheduled pods (Unscheduled).
func (d *Drains) Caches() *nodepods.Caches {
	return d.pods
}

// BudgetCaches are the caches of the pods of the budgets the followed
// nodes wait on, keyed by nodepods.BudgetKey.
func (d *Drains) BudgetCaches() *nodepods.Caches {
	return d.budgetPods
}

// Stop stops every cache of pods.
func (d *Drains) Stop() {
	d.pods.Stop()
	d.budgetPods.Stop()
}
