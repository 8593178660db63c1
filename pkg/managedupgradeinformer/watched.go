package managedupgradeinformer

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// watched is an informer of the few objects a call reads, which keeps the
// last error of its reflector: until the informer has listed them, a call
// answers that error, as the read of the API it stands for would have,
// rather than Wait with no reason.
type watched struct {
	informer cache.SharedIndexInformer

	mu  sync.Mutex
	err error
}

// newWatched is an informer of the objects lw lists and watches, each
// through transform when set. The client tells whether it can stream the
// first list as watch events, as a fake clientset cannot.
func newWatched(client kubernetes.Interface, lw *cache.ListWatch, object runtime.Object, transform cache.TransformFunc) *watched {
	w := &watched{informer: cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(lw, client), object, cache.SharedIndexInformerOptions{})}
	// Neither fails on an informer not yet started.
	_ = w.informer.SetTransform(transform)
	_ = w.informer.SetWatchErrorHandlerWithContext(func(ctx context.Context, r *cache.Reflector, err error) {
		w.mu.Lock()
		w.err = err
		w.mu.Unlock()
		cache.DefaultWatchErrorHandler(ctx, r, err)
	})
	return w
}

// synced says whether the informer has listed its objects, and, when it
// has not, the last error of its reflector, if any.
func (w *watched) synced() (bool, error) {
	if w.informer.HasSynced() {
		return true, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return false, w.err
}
