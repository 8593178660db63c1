package updateplan

import (
	"context"
	"errors"
	"sync"

	"k8s.io/client-go/tools/cache"
)

// Optional is what the pre-checks read of an API that not every cluster
// serves (APIRequestCounts, CloudCredentials, OLM's): a lister once the operator
// found the API served, and until then why there is none, which the
// checks that need it report instead of their findings. The operator
// calls Off or Serve as it finds the API missing or served; a plan is not
// evaluated while a served API's informer has not synced yet, and every
// plan is evaluated again once it has.
type Optional[L any] struct {
	mu      sync.Mutex
	off     error
	lister  L
	synced  cache.InformerSynced
	changed func()
}

// notServed is why an API is not read when the cluster does not serve it:
// then there is nothing of it to check, rather than a check that could not
// run.
type notServed struct{ why string }

func (e notServed) Error() string { return e.why }

// isNotServed says whether an Optional's read failed because the cluster
// does not serve the API.
func isNotServed(err error) bool {
	var e notServed
	return errors.As(err, &e)
}

// NewOptional returns an API that is not read until the operator finds
// it served.
func NewOptional[L any]() *Optional[L] {
	return &Optional[L]{off: errors.New("whether the cluster serves it is not known yet")}
}

// bind makes the controller evaluate every plan when what the API holds
// changes.
func (o *Optional[L]) bind(changed func()) {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.changed = changed
}

// Off says why the API is not read, and whether that is because the
// cluster does not serve it.
func (o *Optional[L]) Off(why string, notServedByCluster bool) {
	o.mu.Lock()
	var zero L
	o.off, o.lister, o.synced = errors.New(why), zero, nil
	if notServedByCluster {
		o.off = notServed{why}
	}
	changed := o.changed
	o.mu.Unlock()
	if changed != nil {
		changed()
	}
}

// Serve reads the API through lister, from informers, which the caller
// starts: every plan is evaluated again once they synced, and when what
// they hold changes.
func (o *Optional[L]) Serve(ctx context.Context, lister L, informers ...cache.SharedIndexInformer) error {
	o.mu.Lock()
	changed := o.changed
	o.mu.Unlock()
	if changed == nil {
		return errors.New("an optional API is served before its controller is built")
	}
	var synced []cache.InformerSynced
	for _, informer := range informers {
		registration, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc: func(any) { changed() }, UpdateFunc: func(any, any) { changed() }, DeleteFunc: func(any) { changed() },
		})
		if err != nil {
			return err
		}
		synced = append(synced, registration.HasSynced)
	}
	allSynced := func() bool {
		for _, s := range synced {
			if !s() {
				return false
			}
		}
		return true
	}
	o.mu.Lock()
	o.off, o.lister, o.synced = nil, lister, allSynced
	o.mu.Unlock()
	go func() {
		if cache.WaitForCacheSync(ctx.Done(), synced...) {
			changed()
		}
	}()
	return nil
}

// read returns the lister, or why the API is not read; not ready while
// the API is served and its informer has not synced yet.
func (o *Optional[L]) read() (lister L, ready bool, err error) {
	if o == nil {
		return lister, true, errors.New("the operator does not read it")
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.off != nil:
		return lister, true, o.off
	case o.synced != nil && !o.synced():
		return lister, false, nil
	}
	return o.lister, true, nil
}
