// Package listwatch builds the list-watches of informers of a few objects:
// a typed client's List and Watch, restricted by a selector, so that the
// informer caches those objects and no other of their kind.
package listwatch

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// Selected lists and watches, with list and watch of a typed client, the
// objects that restrict selects: it sets the options' selector.
func Selected[L runtime.Object](restrict func(*metav1.ListOptions),
	list func(context.Context, metav1.ListOptions) (L, error),
	watchFunc func(context.Context, metav1.ListOptions) (watch.Interface, error)) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			restrict(&o)
			l, err := list(ctx, o)
			if err != nil {
				return nil, err
			}
			return l, nil
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			restrict(&o)
			return watchFunc(ctx, o)
		},
	}
}

// ByField selects the objects the field selector selects.
func ByField(selector fields.Selector) func(*metav1.ListOptions) {
	s := selector.String()
	return func(o *metav1.ListOptions) { o.FieldSelector = s }
}

// ByLabel selects the objects the label selector selects.
func ByLabel(selector labels.Selector) func(*metav1.ListOptions) {
	s := selector.String()
	return func(o *metav1.ListOptions) { o.LabelSelector = s }
}
