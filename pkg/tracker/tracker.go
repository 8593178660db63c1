package tracker

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
)

// Tracker collects the problems of the operator's controllers: the caches
// they wait for, and the queue keys whose syncs fail. Controllers report
// through it by having their sync wrapped (Sync) and their informers named
// (WaitsFor); the status controller reads Problems.
//
// It also carries failures over a restart: the status controller passes it
// those the ClusterOperator reported before (Inherit). An inherited failure
// stays a problem, from its original start, until its controller has worked
// through its queue once; a key that fails again meanwhile continues it, so
// a crash-looping operator is Degraded once the grace period has passed since
// the failure began, however short each run.
type Tracker struct {
	clock   clock.PassiveClock
	started time.Time
	observe SyncObserver

	mu        sync.Mutex
	caches    map[string][]namedCache
	failures  map[failureKey]failure
	inherited map[problemGroup]time.Time
	settled   map[string]bool
	off       map[string]string
	// modes are, by controller, what it follows beyond the cluster's own
	// update, which the operator's Available condition says.
	modes   map[string]string
	changed func()
}

// problemGroup is one kind of problem of one controller.
type problemGroup struct {
	controller string
	kind       Kind
}

// SyncObserver learns of every sync: which controller, how long it took and
// how it ended. The metrics package provides one.
type SyncObserver func(controller string, took time.Duration, err error)

type namedCache struct {
	resource string
	synced   cache.InformerSynced
}

type failureKey struct {
	controller, key string
}

type failure struct {
	kind  Kind
	since time.Time
	err   string
}

// New returns a tracker whose caches are waited for from now on, and
// which passes every sync to observe.
func New(clock clock.PassiveClock, observe SyncObserver) *Tracker {
	return &Tracker{
		clock:     clock,
		started:   clock.Now(),
		observe:   observe,
		caches:    map[string][]namedCache{},
		failures:  map[failureKey]failure{},
		inherited: map[problemGroup]time.Time{},
		settled:   map[string]bool{},
		off:       map[string]string{},
		modes:     map[string]string{},
	}
}

// WaitsFor records that controller cannot start before the informers of
// these resources have synced.
func (t *Tracker) WaitsFor(controller string, informers map[string]cache.InformerSynced) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for resource, synced := range informers {
		t.caches[controller] = append(t.caches[controller], namedCache{resource: resource, synced: synced})
	}
}

// OnChange sets what to call when a problem appears or goes; it must not
// block (queueing a key is what it is for).
func (t *Tracker) OnChange(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.changed = f
}

// update runs change under the lock and, when it says the problems changed,
// calls OnChange's function, outside the lock.
func (t *Tracker) update(change func() bool) {
	t.mu.Lock()
	changed := change()
	notify := t.changed
	t.mu.Unlock()
	if changed && notify != nil {
		notify()
	}
}

// Sync wraps a controller's sync so that each run is observed, and a failing
// queue key is a problem of controller until that key syncs again. A sync
// whose writes lost a race with another writer (RequeueIfRaced) did not
// fail: its key runs again shortly, against caches that have caught up, and
// every controller gets that from here rather than at each of its writes.
func (t *Tracker) Sync(controller string, sync factory.SyncFunc) factory.SyncFunc {
	return func(ctx context.Context, syncCtx factory.SyncContext) error {
		start := t.clock.Now()
		err := sync(ctx, syncCtx)
		if RequeueIfRaced(syncCtx, syncCtx.QueueKey(), err) {
			err = nil
		}
		t.observe(controller, t.clock.Since(start), err)
		t.record(controller, syncCtx.QueueKey(), err)
		if syncCtx.Queue().Len() == 0 {
			t.settle(controller)
		}
		return err
	}
}

// Inherit takes the failures the ClusterOperator reported before this
// process started. Failures of the same controller and kind seen since keep
// the earlier start.
func (t *Tracker) Inherit(problems []Problem) {
	t.update(func() bool {
		for _, p := range problems {
			for k, f := range t.failures {
				if k.controller == p.Controller && f.kind == p.Kind && p.Since.Before(f.since) {
					f.since = p.Since
					t.failures[k] = f
				}
			}
			if !t.settled[p.Controller] {
				t.inherited[problemGroup{controller: p.Controller, kind: p.Kind}] = p.Since
			}
		}
		return len(problems) > 0
	})
}

// settle ends the failures controller inherited: its queue is empty, so every
// key has been synced once since the restart, and those still failing are
// its failures now.
func (t *Tracker) settle(controller string) {
	t.update(func() bool {
		if t.settled[controller] {
			return false
		}
		t.settled[controller] = true
		changed := false
		for g := range t.inherited {
			if g.controller == controller {
				delete(t.inherited, g)
				changed = true
			}
		}
		return changed
	})
}

// SwitchOff records that controller does not run, and why: the cluster does
// not serve an input it needs.
func (t *Tracker) SwitchOff(controller, why string) {
	t.update(func() bool {
		changed := t.off[controller] != why
		t.off[controller] = why
		return changed
	})
}

// SwitchOn records that controller runs after all.
func (t *Tracker) SwitchOn(controller string) {
	t.update(func() bool {
		_, wasOff := t.off[controller]
		delete(t.off, controller)
		return wasOff
	})
}

// Mode records what controller follows beyond the cluster's own update,
// for the operator's conditions to say: a management cluster's hosted
// clusters, for example.
func (t *Tracker) Mode(controller, description string) {
	t.update(func() bool {
		changed := t.modes[controller] != description
		t.modes[controller] = description
		return changed
	})
}

// Modes returns the descriptions recorded with Mode, by controller name.
func (t *Tracker) Modes() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	controllers := make([]string, 0, len(t.modes))
	for c := range t.modes {
		controllers = append(controllers, c)
	}
	slices.Sort(controllers)
	modes := make([]string, 0, len(controllers))
	for _, c := range controllers {
		modes = append(modes, t.modes[c])
	}
	return modes
}

// Off returns the controllers switched off, and why.
func (t *Tracker) Off() []Off {
	t.mu.Lock()
	defer t.mu.Unlock()
	off := make([]Off, 0, len(t.off))
	for controller, why := range t.off {
		off = append(off, Off{Controller: controller, Why: why})
	}
	return off
}

// ReadSource records how controller's last read of a source outside the
// API server (such as the cluster's alerts) went: a failure is a
// SourceUnreachable problem, which the next successful read ends. The
// controller's syncs do not fail for it: they keep working on what they can,
// and retry the source on their own schedule rather than the queue's.
func (t *Tracker) ReadSource(controller, source string, err error) {
	t.recordAs(controller, source, err, SourceUnreachable)
}

// Refused records whether the API server refuses what controller writes
// for the object what, as the controller last found it: a WriteRejected
// problem that lasts, steady, until the controller reports nil, however its
// syncs end meanwhile. A controller that writes the object without what the
// API server refused (an informer's insights) succeeds each sync, yet the
// refusal is still true, and must not come and go with each write.
func (t *Tracker) Refused(controller, what string, err error) {
	t.recordAs(controller, "refused "+what, err, WriteRejected)
}

func (t *Tracker) record(controller, key string, err error) {
	t.recordAs(controller, key, err, kindOf(err))
}

func (t *Tracker) recordAs(controller, key string, err error, kind Kind) {
	k := failureKey{controller: controller, key: key}
	t.update(func() bool {
		previous, failed := t.failures[k]
		if err == nil {
			delete(t.failures, k)
			return failed
		}
		f := failure{kind: kind, since: t.clock.Now(), err: err.Error()}
		if failed && previous.kind == f.kind {
			f.since = previous.since
		}
		if since, ok := t.inherited[problemGroup{controller: controller, kind: f.kind}]; ok && since.Before(f.since) {
			f.since = since
		}
		t.failures[k] = f
		return !failed || previous.kind != f.kind
	})
}

// kindOf tells a write the API server refused, which will be refused again
// until something is fixed, from a failure that may pass.
func kindOf(err error) Kind {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		switch status.Status().Reason {
		case metav1.StatusReasonInvalid, metav1.StatusReasonForbidden, metav1.StatusReasonBadRequest,
			metav1.StatusReasonRequestEntityTooLarge, metav1.StatusReasonMethodNotAllowed,
			metav1.StatusReasonNotAcceptable, metav1.StatusReasonUnsupportedMediaType:
			return WriteRejected
		}
	}
	return SyncFailing
}

// Problems returns every controller's problems: one per controller and kind,
// dated by its oldest failing key.
func (t *Tracker) Problems() []Problem {
	t.mu.Lock()
	defer t.mu.Unlock()

	var problems []Problem
	for controller, caches := range t.caches {
		var waiting []string
		for _, c := range caches {
			if !c.synced() {
				waiting = append(waiting, c.resource)
			}
		}
		if len(waiting) > 0 {
			sort.Strings(waiting)
			problems = append(problems, Problem{
				Controller: controller,
				Kind:       CacheNotSynced,
				Since:      t.started,
				Detail:     strings.Join(waiting, ", "),
			})
		}
	}

	index := map[problemGroup]int{}
	for k, f := range t.failures {
		g := problemGroup{controller: k.controller, kind: f.kind}
		i, seen := index[g]
		if !seen {
			i = len(problems)
			index[g] = i
			problems = append(problems, Problem{Controller: k.controller, Kind: f.kind})
		}
		// The problem is dated, and shown, by its oldest failing key.
		if p := &problems[i]; !seen || f.since.Before(p.Since) || (f.since.Equal(p.Since) && k.key < p.Key) {
			p.Since, p.Key, p.Detail = f.since, k.key, f.err
		}
		problems[i].Keys++
	}
	// An inherited failure that no key has shown again yet is still one.
	for g, since := range t.inherited {
		if _, seen := index[g]; !seen {
			problems = append(problems, Problem{Controller: g.controller, Kind: g.kind, Since: since})
		}
	}
	return problems
}
