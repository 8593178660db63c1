package tracker

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"

	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
)

func TestRequeueIfRaced(t *testing.T) {
	resource := schema.GroupResource{Group: "openshift.muller.dev", Resource: "updatehealthinsights"}
	conflict := apierrors.NewConflict(resource, "a", errors.New("the object has been modified"))
	exists := apierrors.NewAlreadyExists(resource, "b")
	invalid := apierrors.NewInvalid(schema.GroupKind{Group: resource.Group, Kind: "UpdateHealthInsight"}, "c", nil)
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{name: "no error", err: nil, want: false},
		{name: "conflict", err: conflict, want: true},
		{name: "already exists", err: exists, want: true},
		{name: "wrapped conflict", err: fmt.Errorf("writing the status of health insight a: %w", conflict), want: true},
		{name: "invalid", err: invalid, want: false},
		{name: "not an API error", err: errors.New("connection refused"), want: false},
		{name: "every write of several raced", err: utilerrors.NewAggregate([]error{
			fmt.Errorf("writing the status of health insight a: %w", conflict),
			fmt.Errorf("creating health insight b: %w", exists),
		}), want: true},
		{name: "one of several writes was refused", err: utilerrors.NewAggregate([]error{conflict, invalid}), want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			syncCtx := controllertest.NewSyncContext("version")
			defer syncCtx.Q.ShutDown()
			if got := RequeueIfRaced(syncCtx, "version", tc.err); got != tc.want {
				t.Errorf("RequeueIfRaced(%v) = %v, want %v", tc.err, got, tc.want)
			}
			var want []string
			if tc.want {
				want = []string{"version"}
			}
			var queued []string
			for key, after := range syncCtx.Q.AddedAfter {
				if after != RaceDelay {
					t.Errorf("%v queued after %v, want %v", key, after, RaceDelay)
				}
				queued = append(queued, key.(string))
			}
			if diff := cmp.Diff(want, queued); diff != "" {
				t.Errorf("queued again (-want +got):\n%s", diff)
			}
		})
	}
}
