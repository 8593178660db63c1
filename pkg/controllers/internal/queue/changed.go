package queue

import "k8s.io/client-go/tools/cache"

// WhenChanged returns an event handler that calls enqueue when an object of
// type T appears or goes, and when an update changes what read returns: all
// that the controller's sync uses of it. Any other change (during an update
// the ClusterVersion's Progressing message moves on with every manifest the
// cluster-version operator applies) would wake the controller for nothing,
// on the CPU the controllers on the way to the insights need.
func WhenChanged[T any, K comparable](read func(T) K, enqueue func()) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) { enqueue() },
		UpdateFunc: func(oldObj, newObj any) {
			o, ok1 := oldObj.(T)
			n, ok2 := newObj.(T)
			if !ok1 || !ok2 || read(o) != read(n) {
				enqueue()
			}
		},
		DeleteFunc: func(any) { enqueue() },
	}
}
