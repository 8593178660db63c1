package listwatch

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// Watched is an informer of a few objects, which keeps the last error of
// its reflector: until the informer has listed them, a reader can say that
// error, as the read of the API it stands for would have, rather than that
// it waits for no reason.
type Watched struct {
	Informer cache.SharedIndexInformer

	mu  sync.Mutex
	err error
}

// NewWatched is an informer of the objects lw lists and watches, each
// through transform when set. The client tells whether it can stream the
// first list as watch events, as a fake clientset cannot.
func NewWatched(client kubernetes.Interface, lw *cache.ListWatch, object runtime.Object, transform cache.TransformFunc) *Watched {
	w := &Watched{Informer: cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(lw, client), object, cache.SharedIndexInformerOptions{})}
	// Neither fails on an informer not yet started.
	_ = w.Informer.SetTransform(transform)
	_ = w.Informer.SetWatchErrorHandlerWithContext(func(ctx context.Context, r *cache.Reflector, err error) {
		w.mu.Lock()
		w.err = err
		w.mu.Unlock()
		cache.DefaultWatchErrorHandler(ctx, r, err)
	})
	return w
}

// Synced says whether the informer has listed its objects, and, when it
// has not, the last error of its reflector, if any.
func (w *Watched) Synced() (bool, error) {
	if w.Informer.HasSynced() {
		return true, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return false, w.err
}
