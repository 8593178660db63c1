// Package nodepods caches the pods of a few chosen nodes (those being
// drained): an informer per node, watching that node's pods alone
// (spec.nodeName), so that no pod is listed per read and no pod of another
// node is cached. A cluster may run 150,000 pods; a drain concerns a
// handful of nodes at a time. The same caches, keyed by budget
// (BudgetKey), hold the pods a few chosen PodDisruptionBudgets select:
// those at their limit over a drained node's pods, which wait for their
// other pods, on other nodes, to be ready.
package nodepods

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/update-insights/update-insights-operator/pkg/listwatch"
)

// ErrStopped is Follow's error once Stop was called.
var ErrStopped = errors.New("the caches of pods are stopping")

// Caches are the caches of the pods of the nodes (or budgets) Follow was
// last given.
type Caches struct {
	client    kubernetes.Interface
	transform cache.TransformFunc
	changed   func(key string)
	// selection is the namespace and restriction of a key's list and
	// watch.
	selection func(key string) (string, func(*metav1.ListOptions))

	mu    sync.Mutex
	nodes map[string]*nodeCache
	// stopped says Stop was called: no cache starts any more.
	stopped bool
	running sync.WaitGroup
}

type nodeCache struct {
	*listwatch.Watched
	stop context.CancelFunc
}

// New returns caches that keep each pod through transform (what the reader
// reads of it: a node may run a hundred pods, whose specs and statuses the
// cache need not hold) and, when changed is not nil, call it with the
// node whose pods changed, or whose cache has listed them.
func New(client kubernetes.Interface, transform cache.TransformFunc, changed func(node string)) *Caches {
	return &Caches{client: client, transform: transform, changed: changed, selection: ofNode, nodes: map[string]*nodeCache{}}
}

// NewByBudget returns caches as New does, whose keys are BudgetKey's: each
// holds the pods of a namespace a label selector selects.
func NewByBudget(client kubernetes.Interface, transform cache.TransformFunc, changed func(key string)) *Caches {
	return &Caches{client: client, transform: transform, changed: changed, selection: ofBudget, nodes: map[string]*nodeCache{}}
}

// BudgetKey is the key of the pods selector selects in namespace: a
// budget's selector, so that a budget whose selector changes is another
// key, never a cache of the pods it selected before.
func BudgetKey(namespace string, selector labels.Selector) string {
	return namespace + "/" + selector.String()
}

func ofNode(node string) (string, func(*metav1.ListOptions)) {
	return metav1.NamespaceAll, listwatch.ByField(fields.OneTermEqualSelector("spec.nodeName", node))
}

// ofBudget reads a BudgetKey: a namespace has no "/", and the selector,
// from labels.Selector.String, parses back.
func ofBudget(key string) (string, func(*metav1.ListOptions)) {
	namespace, selector, _ := strings.Cut(key, "/")
	return namespace, func(o *metav1.ListOptions) { o.LabelSelector = selector }
}

// Follow keeps the caches of the pods of nodes, in their order, starting
// those missing, and stops the others.
func (c *Caches) Follow(nodes []string) ([]*listwatch.Watched, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped && len(nodes) > 0 {
		return nil, ErrStopped
	}
	for name, n := range c.nodes {
		if !slices.Contains(nodes, name) {
			n.stop()
			delete(c.nodes, name)
		}
	}
	out := make([]*listwatch.Watched, len(nodes))
	for i, name := range nodes {
		n, ok := c.nodes[name]
		if !ok {
			n = c.start(name)
			c.nodes[name] = n
		}
		out[i] = n.Watched
	}
	return out, nil
}

// Followed are the nodes whose pods are cached, sorted.
func (c *Caches) Followed() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.nodes))
}

// Cache is the cache of node's pods, nil when node is not followed.
func (c *Caches) Cache(node string) *listwatch.Watched {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.nodes[node]; ok {
		return n.Watched
	}
	return nil
}

// Pods are the cached pods of node, false while its cache has not listed
// them (with its reflector's last error, if any) or node is not followed.
func (c *Caches) Pods(node string) ([]*corev1.Pod, bool, error) {
	c.mu.Lock()
	n, ok := c.nodes[node]
	c.mu.Unlock()
	if !ok {
		return nil, false, nil
	}
	synced, err := n.Synced()
	if !synced {
		return nil, false, err
	}
	var out []*corev1.Pod
	for _, o := range n.Informer.GetStore().List() {
		if p, ok := o.(*corev1.Pod); ok {
			out = append(out, p)
		}
	}
	return out, true, nil
}

// start starts the cache of the pods of node (or key); c.mu is held.
func (c *Caches) start(node string) *nodeCache {
	namespace, restrict := c.selection(node)
	pods := c.client.CoreV1().Pods(namespace)
	w := listwatch.NewWatched(c.client, listwatch.Selected(restrict, pods.List, pods.Watch),
		&corev1.Pod{}, c.transform)
	ctx, stop := context.WithCancel(context.Background())
	if c.changed != nil {
		changed := func() { c.changed(node) }
		// An informer not yet started accepts a handler.
		registration, _ := w.Informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc: func(any) { changed() }, UpdateFunc: func(any, any) { changed() }, DeleteFunc: func(any) { changed() },
		})
		// A node without pods has no event to say its cache listed them.
		c.running.Go(func() {
			if registration != nil && cache.WaitForCacheSync(ctx.Done(), registration.HasSynced) {
				changed()
			}
		})
	}
	c.running.Go(func() { w.Informer.RunWithContext(ctx) })
	return &nodeCache{Watched: w, stop: stop}
}

// Stop stops every cache, for good, and returns once they have stopped.
func (c *Caches) Stop() {
	c.mu.Lock()
	c.stopped = true
	for name, n := range c.nodes {
		n.stop()
		delete(c.nodes, name)
	}
	c.mu.Unlock()
	c.running.Wait()
}
