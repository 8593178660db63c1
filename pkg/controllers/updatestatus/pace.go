package updatestatus

import (
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// leadingEdge schedules the computations of the UpdateStatus on the leading
// edge of a window: a change after a quiet window is computed a moment
// (settle) later, so that an idle cluster shows it at once, with the writes
// it brings along (a node's insight and its pool's are written by separate
// workers, in either order); changes within the window after the last
// computation ended wait for the window's end and make one computation
// together, so that churn is written at most once per window, however long
// a computation takes.
type leadingEdge struct {
	clock  clock.PassiveClock
	window time.Duration
	settle time.Duration

	mu sync.Mutex
	// last is when the last computation ended, its write included; zero
	// before the first.
	last time.Time
	// written is the resource version of the controller's last write of
	// the UpdateStatus, whose echo in the watch is no change.
	written string
}

// newLeadingEdge paces in real time, as the queue's delays run: the
// operator's own clock times what it reports, and may stand still.
func newLeadingEdge() *leadingEdge {
	return &leadingEdge{clock: clock.RealClock{}, window: Coalesce, settle: Settle}
}

// delay is how long a change made now waits before it is computed.
func (l *leadingEdge) delay() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last.IsZero() {
		return l.settle
	}
	return max(l.settle, l.last.Add(l.window).Sub(l.clock.Now()))
}

// wait is how long a computation asked for now must wait for the
// window after the last one: the queue may hand the key over sooner, when a
// change came while a computation ran.
func (l *leadingEdge) wait() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last.IsZero() {
		return 0
	}
	return max(0, l.last.Add(l.window).Sub(l.clock.Now()))
}

// ended records that a computation ended, now.
func (l *leadingEdge) ended() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last = l.clock.Now()
}

// wrote records the resource version of a write of the UpdateStatus.
func (l *leadingEdge) wrote(resourceVersion string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.written = resourceVersion
}

func (l *leadingEdge) isOwnWrite(obj any) bool {
	s, ok := obj.(*insightsv1alpha1.UpdateStatus)
	if !ok {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return s.ResourceVersion != "" && s.ResourceVersion == l.written
}

// handler queues the one UpdateStatus after any change, when delay says.
// The queue keeps a waiting key once, at its earliest time; a change during
// a computation waits for the end of that computation's window.
func (l *leadingEdge) handler(queue workqueue.RateLimitingInterface) cache.ResourceEventHandler {
	queueIt := func() { queue.AddAfter(insightsv1alpha1.UpdateStatusName, l.delay()) }
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if !l.isOwnWrite(obj) {
				queueIt()
			}
		},
		UpdateFunc: func(_, obj any) {
			// The echo of the controller's own write would start a
			// computation that finds nothing to write, and a window that
			// delays the next real change.
			if !l.isOwnWrite(obj) {
				queueIt()
			}
		},
		DeleteFunc: func(any) { queueIt() },
	}
}
