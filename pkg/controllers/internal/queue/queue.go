// Package queue holds what the insight controllers share about their work
// queues: objects are queued by name. (A sync that lost a race with another
// writer is queued again by the tracker that wraps every sync.)
package queue

import (
	"github.com/openshift/library-go/pkg/controller/factory"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// ByName queues an object under its name: every insight has the name of the
// object it describes.
func ByName(obj runtime.Object) []string {
	o, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	return []string{o.GetName()}
}

// AddNames queues the name of every object.
func AddNames[T interface{ GetName() string }](syncCtx factory.SyncContext, objects []T) {
	for _, o := range objects {
		syncCtx.Queue().Add(o.GetName())
	}
}
