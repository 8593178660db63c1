package updateinformers

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openshift/library-go/pkg/controller/factory"

	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
)

// A slow informer's sync holds up neither another informer's nor the
// queue; its key, asked for again meanwhile, is synced once more after.
func TestASlowInformerHoldsUpOnlyItself(t *testing.T) {
	release := make(chan struct{})
	fastDone := make(chan struct{})
	var mu sync.Mutex
	runs := map[string]int{}
	d := newDispatcher(func(_ context.Context, syncCtx factory.SyncContext) error {
		name := syncCtx.QueueKey()
		mu.Lock()
		runs[name]++
		mu.Unlock()
		switch name {
		case "slow":
			<-release
		case "fast":
			close(fastDone)
		}
		return nil
	})
	slow, fast := controllertest.NewSyncContext("slow"), controllertest.NewSyncContext("fast")
	defer slow.Q.ShutDown()
	defer fast.Q.ShutDown()

	for _, syncCtx := range []controllertest.SyncContext{slow, slow, fast} {
		if err := d.dispatch(t.Context(), syncCtx); err != nil {
			t.Fatal(err)
		}
	}
	// Were the fast informer's sync behind the slow one's, this would
	// never end.
	<-fastDone
	close(release)
	d.wait()

	if diff := cmp.Diff(map[string]int{"slow": 1, "fast": 1}, runs); diff != "" {
		t.Errorf("syncs run, one at a time per informer (-want +got):\n%s", diff)
	}
	if slow.Q.Len() != 1 || fast.Q.Len() != 0 {
		t.Errorf("queued again: slow %d, fast %d; want 1, 0: the sync asked for while one ran", slow.Q.Len(), fast.Q.Len())
	}
}

// A sync that fails is retried later, backing off.
func TestAFailedSyncIsRetriedLater(t *testing.T) {
	d := newDispatcher(func(context.Context, factory.SyncContext) error { return errors.New("the API server refused") })
	syncCtx := controllertest.NewSyncContext("broken")
	defer syncCtx.Q.ShutDown()
	var delays []time.Duration
	for range 3 {
		if err := d.dispatch(t.Context(), syncCtx); err != nil {
			t.Fatal(err)
		}
		d.wait()
		delays = append(delays, syncCtx.Q.AddedAfter["broken"])
	}
	if diff := cmp.Diff([]time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond}, delays); diff != "" {
		t.Errorf("retries (-want +got):\n%s", diff)
	}
}
