// Package queue holds what the insight controllers share about their work
// queues: objects are queued by name, and a sync that lost a race with
// another writer is queued again shortly.
package queue

import (
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// RaceDelay is how soon a sync that lost a race runs again, against caches
// that have caught up by then.
const RaceDelay = time.Second

// ByName queues an object under its name: every insight has the name of the
// object it describes.
func ByName(obj runtime.Object) []string {
	o, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	return []string{o.GetName()}
}

// RequeueIfRaced queues key again after RaceDelay, and says so, when err
// means the sync lost a race with another writer: what it creates already
// exists, or what it updates changed since it was read.
func RequeueIfRaced(syncCtx factory.SyncContext, key string, err error) bool {
	if apierrors.IsAlreadyExists(err) || apierrors.IsConflict(err) {
		syncCtx.Queue().AddAfter(key, RaceDelay)
		return true
	}
	return false
}

// AddNames queues the name of every object.
func AddNames[T interface{ GetName() string }](syncCtx factory.SyncContext, objects []T) {
	for _, o := range objects {
		syncCtx.Queue().Add(o.GetName())
	}
}
