package tracker

import (
	"errors"
	"slices"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

// RaceDelay is how soon a sync that lost a race runs again, against caches
// that have caught up by then.
const RaceDelay = time.Second

// RequeueIfRaced queues key again after RaceDelay, and says so, when err
// means the sync lost a race with another writer: what it creates already
// exists, or what it updates changed since it was read. A sync that writes
// several objects (health insights) raced when every write that failed did.
func RequeueIfRaced(syncCtx factory.SyncContext, key string, err error) bool {
	if err != nil && raced(err) {
		syncCtx.Queue().AddAfter(key, RaceDelay)
		return true
	}
	return false
}

func raced(err error) bool {
	var aggregate utilerrors.Aggregate
	if errors.As(err, &aggregate) {
		return !slices.ContainsFunc(aggregate.Errors(), func(err error) bool { return !raced(err) })
	}
	// A cache that has not yet seen an object this controller just wrote
	// makes the next sync write from a stale copy: a conflict too.
	return apierrors.IsAlreadyExists(err) || apierrors.IsConflict(err)
}
