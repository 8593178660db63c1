package tracker

import (
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
)

// queue is a work queue that records delayed additions instead of waiting,
// so that a test sees what a sync asked to run again, and when.
type queue struct {
	workqueue.RateLimitingInterface
	AddedAfter map[any]time.Duration
}

func (q *queue) AddAfter(item any, d time.Duration) { q.AddedAfter[item] = d }

// syncContext is a factory.SyncContext for one sync of Key. The controllers'
// own tests have one in pkg/controllers/internal/controllertest, which Go
// keeps from this package.
type syncContext struct {
	Key string
	Q   *queue
}

func newSyncContext(key string) syncContext {
	return syncContext{Key: key, Q: &queue{
		RateLimitingInterface: workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter()),
		AddedAfter:            map[any]time.Duration{},
	}}
}

func (s syncContext) Queue() workqueue.RateLimitingInterface { return s.Q }
func (s syncContext) QueueKey() string                       { return s.Key }
func (s syncContext) Recorder() events.Recorder {
	return events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(time.Time{}))
}
