package managedupgradeinformer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/update-insights/update-insights-operator/pkg/listwatch"
)

// syncPoll is how often a call checks whether new caches of pods have
// listed them: a node's pods list in a few milliseconds.
const syncPoll = 20 * time.Millisecond

// nodePods caches the pods of the nodes being drained: an informer per
// node, watching that node's pods alone (spec.nodeName), so that calls list
// no pod and no pod of another node is cached. A node's cache starts when
// a call first sees it drained, and stops when a call no longer does, or
// when the informer stops: a drain lasts minutes, polled every few
// seconds, so each cache serves many calls.
type nodePods struct {
	client kubernetes.Interface

	mu    sync.Mutex
	nodes map[string]*nodePodCache
	// stopped says the informer has stopped: no cache starts any more.
	stopped bool
	running sync.WaitGroup
}

type nodePodCache struct {
	*watched
	stop context.CancelFunc
}

func newNodePods(client kubernetes.Interface) *nodePods {
	return &nodePods{client: client, nodes: map[string]*nodePodCache{}}
}

// pods are the cached pods of nodes: the caches of nodes without one
// start, those of other nodes stop. A call waits for new caches to list
// their pods, for half of what is left of its budget at most, so that its
// answer is still heard. A cache that has not listed them by then is
// answered Wait, which the aggregator asks again after, and by then the
// cache has likely filled; not a Failure, which would report a problem
// where there is only a cache filling. A cache whose list failed, though,
// answers its error, as the list it stands for did.
func (c *nodePods) pods(ctx context.Context, nodes []string) ([]*corev1.Pod, string, error) {
	caches, err := c.follow(nodes)
	if err != nil {
		return nil, "", err
	}
	waitCtx, cancel := halfBudget(ctx)
	defer cancel()
	var out []*corev1.Pod
	for i, w := range caches {
		// A cache that a concurrent call stopped never syncs.
		_ = wait.PollUntilContextCancel(waitCtx, syncPoll, true, func(context.Context) (bool, error) {
			return w.informer.HasSynced() || w.informer.IsStopped(), nil
		})
		synced, err := w.synced()
		if err != nil {
			return nil, "", fmt.Errorf("listing the pods of node %s: %w", nodes[i], err)
		}
		if !synced {
			return nil, fmt.Sprintf("the pods of node %s are not cached yet", nodes[i]), nil
		}
		for _, o := range w.informer.GetStore().List() {
			if p, ok := o.(*corev1.Pod); ok {
				out = append(out, p)
			}
		}
	}
	return out, "", nil
}

// follow keeps the caches of the pods of nodes, in their order, starting
// those missing, and stops the others.
func (c *nodePods) follow(nodes []string) ([]*watched, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped && len(nodes) > 0 {
		return nil, errors.New("the informer is stopping")
	}
	for name, n := range c.nodes {
		if !slices.Contains(nodes, name) {
			n.stop()
			delete(c.nodes, name)
		}
	}
	out := make([]*watched, len(nodes))
	for i, name := range nodes {
		n, ok := c.nodes[name]
		if !ok {
			n = c.start(name)
			c.nodes[name] = n
		}
		out[i] = n.watched
	}
	return out, nil
}

// forget stops every node's cache: no update drains nodes.
func (c *nodePods) forget() {
	// Without nodes, follow starts nothing, and cannot fail.
	_, _ = c.follow(nil)
}

// start starts the cache of the pods of node; c.mu is held.
func (c *nodePods) start(node string) *nodePodCache {
	pods := c.client.CoreV1().Pods(metav1.NamespaceAll)
	w := newWatched(c.client, listwatch.Selected(listwatch.ByField(fields.OneTermEqualSelector("spec.nodeName", node)), pods.List, pods.Watch), &corev1.Pod{}, stripPod)
	ctx, stop := context.WithCancel(context.Background())
	c.running.Go(func() { w.informer.RunWithContext(ctx) })
	return &nodePodCache{watched: w, stop: stop}
}

// stop stops every cache, for good, and returns once they have stopped.
func (c *nodePods) stop() {
	c.mu.Lock()
	c.stopped = true
	for name, n := range c.nodes {
		n.stop()
		delete(c.nodes, name)
	}
	c.mu.Unlock()
	c.running.Wait()
}

// halfBudget is ctx, ending halfway to its deadline, if it has one.
func halfBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, time.Now().Add(time.Until(deadline)/2))
}

// stripPod keeps of a pod only what managedupgrade.Drains reads: its
// namespace and labels (which budgets select it), its node, its phase
// (whether it still runs), its controller (a DaemonSet's pods are not
// evicted) and any owner that is a DaemonSet (the Managed Upgrade Operator
// never deletes such a pod, whichever owner controls it). A drained node
// may run a hundred pods, whose specs and statuses the cache need not hold.
func stripPod(obj any) (any, error) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	out := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: p.Name, UID: p.UID, ResourceVersion: p.ResourceVersion, Labels: p.Labels},
		Spec:       corev1.PodSpec{NodeName: p.Spec.NodeName},
		Status:     corev1.PodStatus{Phase: p.Status.Phase},
	}
	for _, owner := range p.OwnerReferences {
		if (owner.Controller != nil && *owner.Controller) || owner.Kind == "DaemonSet" {
			out.OwnerReferences = append(out.OwnerReferences, owner)
		}
	}
	return out, nil
}
