package updateinformers

import (
	"context"
	"sync"

	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// dispatcher runs each informer's syncs in a goroutine of its own, so that
// an informer that answers slowly (each call just inside its budget, then
// Wait six times: minutes) delays only its own insights. An informer is
// synced by one goroutine at a time; a sync asked for meanwhile runs as
// soon as that one ends. The requests in flight of all informers are
// bounded by the clients' shared limit, not here: a sync that waits after
// Wait holds nothing.
type dispatcher struct {
	sync factory.SyncFunc

	mu      sync.Mutex
	running map[string]bool
	again   map[string]bool
	// backoff spaces the retries of a sync that failed for the API
	// server's sake (a status write refused, say), per informer.
	backoff workqueue.TypedRateLimiter[string]
	wg      sync.WaitGroup
}

func newDispatcher(sync factory.SyncFunc) *dispatcher {
	return &dispatcher{
		sync:    sync,
		running: map[string]bool{},
		again:   map[string]bool{},
		backoff: workqueue.DefaultTypedItemBasedRateLimiter[string](),
	}
}

// dispatch is the controller's sync: it runs the sync of the queue's key in
// a goroutine of its own, unless one runs already, which then queues the
// key again when it ends.
func (d *dispatcher) dispatch(ctx context.Context, syncCtx factory.SyncContext) error {
	name := syncCtx.QueueKey()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.running[name] {
		d.again[name] = true
		return nil
	}
	d.running[name] = true
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		if err := d.sync(ctx, syncCtx); err != nil {
			klog.ErrorS(err, "Syncing an UpdateInformer", "informer", name)
			syncCtx.Queue().AddAfter(name, d.backoff.When(name))
		} else {
			d.backoff.Forget(name)
		}
		d.mu.Lock()
		again := d.again[name]
		delete(d.running, name)
		delete(d.again, name)
		d.mu.Unlock()
		if again {
			syncCtx.Queue().Add(name)
		}
	}()
	return nil
}

// wait waits until every sync dispatched has ended.
func (d *dispatcher) wait() { d.wg.Wait() }
