// Package controllertest runs a controller's sync in a unit test: a sync
// context with a chosen key, whose queue remembers what was queued for later,
// and a readable list of what the sync wrote to a fake clientset.
package controllertest

import (
	"fmt"
	"testing"
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
)

// Queue is a work queue that records delayed additions instead of waiting.
type Queue struct {
	workqueue.RateLimitingInterface
	AddedAfter map[any]time.Duration
}

// AddAfter records item and its delay.
func (q *Queue) AddAfter(item any, d time.Duration) { q.AddedAfter[item] = d }

// SyncContext is a factory.SyncContext for one sync of Key.
type SyncContext struct {
	Key string
	Q   *Queue
}

// NewSyncContext returns a sync context for key with an empty queue; shut
// the queue down when done.
func NewSyncContext(key string) SyncContext {
	return SyncContext{Key: key, Q: &Queue{
		RateLimitingInterface: workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter()),
		AddedAfter:            map[any]time.Duration{},
	}}
}

func (s SyncContext) Queue() workqueue.RateLimitingInterface { return s.Q }
func (s SyncContext) QueueKey() string                       { return s.Key }
func (s SyncContext) Recorder() events.Recorder {
	return events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(time.Time{}))
}

// Replace makes indexer hold items, as an informer's cache holds what its
// watch delivered.
func Replace[T any](t testing.TB, indexer cache.Indexer, items []T) {
	t.Helper()
	objs := make([]any, 0, len(items))
	for i := range items {
		objs = append(objs, &items[i])
	}
	if err := indexer.Replace(objs, ""); err != nil {
		t.Fatal(err)
	}
}

// Drain returns the keys queued for now, in order.
func (s SyncContext) Drain() []string {
	var keys []string
	for s.Q.Len() > 0 {
		item, _ := s.Q.Get()
		keys = append(keys, item.(string))
		s.Q.Done(item)
	}
	return keys
}

// Writes describes the write actions among a fake clientset's actions, each
// as "verb resource[/subresource] name".
func Writes(actions []clienttesting.Action) []string {
	var out []string
	for _, a := range actions {
		var name string
		switch a.GetVerb() {
		case "create":
			name = a.(clienttesting.CreateAction).GetObject().(interface{ GetName() string }).GetName()
		case "update":
			name = a.(clienttesting.UpdateAction).GetObject().(interface{ GetName() string }).GetName()
		case "delete":
			name = a.(clienttesting.DeleteAction).GetName()
		default:
			continue
		}
		resource := a.GetResource().Resource
		if a.GetSubresource() != "" {
			resource += "/" + a.GetSubresource()
		}
		out = append(out, fmt.Sprintf("%s %s %s", a.GetVerb(), resource, name))
	}
	return out
}
