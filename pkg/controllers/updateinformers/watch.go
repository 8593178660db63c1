package updateinformers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"github.com/update-insights/update-insights-operator/pkg/listwatch"
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
	services := kube.CoreV1().Services(namespace)
	run(ctx, kube, &corev1.Service{}, handler,
		listwatch.Selected(listwatch.ByField(fields.OneTermEqualSelector("metadata.name", name)), services.List, services.Watch))
	slices := kube.DiscoveryV1().EndpointSlices(namespace)
	run(ctx, kube, &discoveryv1.EndpointSlice{}, handler,
		listwatch.Selected(listwatch.ByLabel(labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: name})), slices.List, slices.Watch))
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
