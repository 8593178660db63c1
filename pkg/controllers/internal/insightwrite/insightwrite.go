// Package insightwrite is the one way the controllers write insights: make
// sure the insight exists, write its status only when it changed, and delete
// it together with the health insights it owns. Every insight kind goes
// through the same Writer, so that each writes, logs and fails alike.
package insightwrite

import (
	"context"
	"errors"
	"fmt"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// writeLogLevel is the level of every created, updated and deleted log
// line. The insights themselves are the record of what the operator thinks
// (and a large cluster has thousands of node insights, each written several
// times an update), so a write is a debugging detail, not something to log
// at the default level.
const writeLogLevel klog.Level = 4

// Object is a pointer to a generated insight type, whose DeepCopy returns
// the same pointer type.
type Object[T any] interface {
	comparable
	metav1.Object
	metav1.ObjectMetaAccessor
	DeepCopy() T
}

// Client is what the writer uses of a generated typed insight client; every
// insight kind's client has it.
type Client[T any] interface {
	Create(ctx context.Context, insight T, opts metav1.CreateOptions) (T, error)
	UpdateStatus(ctx context.Context, insight T, opts metav1.UpdateOptions) (T, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
}

// HealthInsights reconciles the health insights an insight owns; a
// healthinsights.Syncer is one.
type HealthInsights interface {
	Sync(ctx context.Context, owner metav1.OwnerReference, desired []health.Insight) error
}

// Writer writes the insights of one kind, T, whose status is an S.
type Writer[T Object[T], S any] struct {
	kind    string
	client  Client[T]
	empty   func(metav1.ObjectMeta) T
	status  func(T) *S
	changed func(current, desired *S) bool
}

// newWriter returns the writer of the insight type I, whose pointer is T.
func newWriter[I any, T interface {
	*I
	Object[T]
}, S any](kind string, client Client[T], status func(T) *S) *Writer[T, S] {
	empty := func(meta metav1.ObjectMeta) T {
		insight := T(new(I))
		// Every generated type embeds its ObjectMeta.
		*insight.GetObjectMeta().(*metav1.ObjectMeta) = meta
		return insight
	}
	return &Writer[T, S]{kind: kind, client: client, empty: empty, status: status, changed: semanticallyDifferent[S]}
}

func semanticallyDifferent[S any](current, desired *S) bool {
	return !apiequality.Semantic.DeepEqual(current, desired)
}

// ChangedWhen makes the writer write a status only when changed says it
// differs from the current one, instead of when it differs at all: a kind
// can ignore differences no reader cares about.
func (w *Writer[T, S]) ChangedWhen(changed func(current, desired *S) bool) *Writer[T, S] {
	copied := *w
	copied.changed = changed
	return &copied
}

// WriteStatus makes desired the status of the insight current, the cached
// insight or nil when there is none: it first creates the insight, with
// meta, when there is none (the status subresource ignores a status sent on
// create), then writes the status if it changed. It returns the insight as
// written (current when nothing was written) and whether the status was
// written. Errors wrap the API server's, so that a lost race can be told.
func (w *Writer[T, S]) WriteStatus(ctx context.Context, meta metav1.ObjectMeta, current T, desired S) (T, bool, error) {
	var missing T
	if current == missing {
		created, err := w.client.Create(ctx, w.empty(meta), metav1.CreateOptions{})
		if err != nil {
			return missing, false, fmt.Errorf("creating %s %s: %w", w.kind, meta.Name, err)
		}
		klog.V(writeLogLevel).InfoS("Created insight", "kind", w.kind, "name", meta.Name)
		current = created
	}
	if !w.changed(w.status(current), &desired) {
		return current, false, nil
	}
	updated := current.DeepCopy()
	*w.status(updated) = desired
	written, err := w.client.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if err != nil {
		return current, false, fmt.Errorf("writing the status of %s %s: %w", w.kind, current.GetName(), err)
	}
	klog.V(writeLogLevel).InfoS("Updated insight status", "kind", w.kind, "name", current.GetName())
	return written, true, nil
}

// Delete deletes insight, if it is still the object with that UID, after the
// health insights it owns in healthInsights (nil when the kind has none).
// Garbage collection would delete them with their owner, but only
// eventually: an insight recreated in the meantime must not inherit them.
// An insight already gone is deleted.
func (w *Writer[T, S]) Delete(ctx context.Context, insight T, healthInsights HealthInsights) error {
	if healthInsights != nil {
		if err := healthInsights.Sync(ctx, w.OwnerReference(insight), nil); err != nil {
			return fmt.Errorf("deleting the health insights of %s %s: %w", w.kind, insight.GetName(), err)
		}
	}
	uid := insight.GetUID()
	err := w.client.Delete(ctx, insight.GetName(), metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting %s %s: %w", w.kind, insight.GetName(), err)
	}
	klog.V(writeLogLevel).InfoS("Deleted insight", "kind", w.kind, "name", insight.GetName())
	return nil
}

// OwnerReference makes insight the owner of health insights, so that
// garbage collection removes them with it. It does not block the owner's
// deletion: that would need permission on the owner's finalizers, which
// OpenShift's OwnerReferencesPermissionEnforcement checks, for nothing this
// operator needs.
func (w *Writer[T, S]) OwnerReference(insight T) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: insightsv1alpha1.SchemeGroupVersion.String(),
		Kind:       w.kind,
		Name:       insight.GetName(),
		UID:        insight.GetUID(),
		Controller: ptr.To(true),
	}
}

// InvalidFields are the fields the API server names when it refuses an
// object as invalid; none for any other error.
func InvalidFields(err error) []string {
	var status apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &status) || status.Status().Details == nil {
		return nil
	}
	var fields []string
	for _, cause := range status.Status().Details.Causes {
		fields = append(fields, cause.Field)
	}
	return fields
}
