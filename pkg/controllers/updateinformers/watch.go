package updateinformers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// serviceWatch watches the Service of one informer and its EndpointSlices,
// and only those (by name and by the service-name label, in its
// namespace), so that an informer is called as soon as its endpoints
// appear or move rather than at its next retry, and the operator caches
// no other Service or EndpointSlice of the cluster.
type serviceWatch struct {
	namespace, name string
	stop            context.CancelFunc
}

// watchService starts watching the Service namespace/name and its
// EndpointSlices until ctx ends or the watch is stopped, calling changed
// for what the first list finds and whenever either changes.
func watchService(ctx context.Context, kube kubernetes.Interface, namespace, name string, changed func()) *serviceWatch {
	ctx, stop := context.WithCancel(ctx)
	// The first list counts too: what it finds may have changed since the
	// sync that started the watch read it.
	handler := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { changed() },
		UpdateFunc: func(any, any) { changed() },
		DeleteFunc: func(any) { changed() },
	}
	byName := fields.OneTermEqualSelector("metadata.name", name).String()
	run(ctx, kube, &corev1.Service{}, handler, &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = byName
			return kube.CoreV1().Services(namespace).List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = byName
			return kube.CoreV1().Services(namespace).Watch(ctx, o)
		},
	})
	ofService := labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: name}).String()
	run(ctx, kube, &discoveryv1.EndpointSlice{}, handler, &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.LabelSelector = ofService
			return kube.DiscoveryV1().EndpointSlices(namespace).List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.LabelSelector = ofService
			return kube.DiscoveryV1().EndpointSlices(namespace).Watch(ctx, o)
		},
	})
	return &serviceWatch{namespace: namespace, name: name, stop: stop}
}

// run runs a watch of lw until ctx ends. The client tells whether it can
// stream the first list as watch events, as a fake clientset cannot.
func run(ctx context.Context, client kubernetes.Interface, object runtime.Object, handler cache.ResourceEventHandler, lw *cache.ListWatch) {
	_, controller := cache.NewInformerWithOptions(cache.InformerOptions{
		ListerWatcher: cache.ToListWatcherWithWatchListSemantics(lw, client),
		ObjectType:    object,
		Handler:       handler,
	})
	go controller.RunWithContext(ctx)
}

// watches says whether the watch is of the Service namespace/name.
func (w *serviceWatch) watches(namespace, name string) bool {
	return w != nil && w.namespace == namespace && w.name == name
}
