package managedupgradeinformer

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/nodepods"
)

// syncPoll is how often a call checks whether new caches of pods have
// listed them: a node's pods list in a few milliseconds.
const syncPoll = 20 * time.Millisecond

// nodePods caches the pods of the nodes being drained (pkg/nodepods). A
// node's cache starts when a call first sees it drained, and stops when a
// call no longer does, or when the informer stops: a drain lasts minutes,
// polled every few seconds, so each cache serves many calls.
type nodePods struct {
	*nodepods.Caches
}

func newNodePods(client kubernetes.Interface) *nodePods {
	return &nodePods{nodepods.New(client, stripPod, nil)}
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
	caches, err := c.Follow(nodes)
	if errors.Is(err, nodepods.ErrStopped) {
		return nil, "", errors.New("the informer is stopping")
	}
	if err != nil {
		return nil, "", err
	}
	waitCtx, cancel := halfBudget(ctx)
	defer cancel()
	var out []*corev1.Pod
	for i, w := range caches {
		// A cache that a concurrent call stopped never syncs.
		_ = wait.PollUntilContextCancel(waitCtx, syncPoll, true, func(context.Context) (bool, error) {
			return w.Informer.HasSynced() || w.Informer.IsStopped(), nil
		})
		synced, err := w.Synced()
		if err != nil {
			return nil, "", fmt.Errorf("listing the pods of node %s: %w", nodes[i], err)
		}
		if !synced {
			return nil, fmt.Sprintf("the pods of node %s are not cached yet", nodes[i]), nil
		}
		for _, o := range w.Informer.GetStore().List() {
			if p, ok := o.(*corev1.Pod); ok {
				out = append(out, p)
			}
		}
	}
	return out, "", nil
}

// forget stops every node's cache: no update drains nodes.
func (c *nodePods) forget() {
	// Without nodes, Follow starts nothing, and cannot fail.
	_, _ = c.Follow(nil)
}

// halfBudget is ctx, ending halfway to its deadline, if it has one.
func halfBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, time.Now().Add(time.Until(deadline)/2))
}

// stripPod keeps of a pod what the drain model reads (drain.Strip), and
// every owner that is a DaemonSet, controller or not: the Managed Upgrade
// Operator never deletes such a pod (managedupgrade's daemonSetOwned). A
// drained node may run a hundred pods, whose specs and statuses the cache
// need not hold.
func stripPod(obj any) (any, error) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	stripped, err := drain.Strip(p)
	if err != nil {
		return nil, err
	}
	out := stripped.(*corev1.Pod)
	for _, owner := range p.OwnerReferences {
		if owner.Kind == "DaemonSet" && (owner.Controller == nil || !*owner.Controller) {
			out.OwnerReferences = append(out.OwnerReferences, owner)
		}
	}
	return out, nil
}
