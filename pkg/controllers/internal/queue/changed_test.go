package queue

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

func TestWhenChanged(t *testing.T) {
	desired := func(cv *configv1.ClusterVersion) string { return cv.Status.Desired.Version }
	cv := func(desired, message string) *configv1.ClusterVersion {
		return &configv1.ClusterVersion{
			ObjectMeta: metav1.ObjectMeta{Name: "version"},
			Status: configv1.ClusterVersionStatus{
				Desired:    configv1.Release{Version: desired},
				Conditions: []configv1.ClusterOperatorStatusCondition{{Type: configv1.OperatorProgressing, Message: message}},
			},
		}
	}
	for _, tc := range []struct {
		name  string
		event func(cache.ResourceEventHandler)
		want  int
	}{
		{
			name:  "added",
			event: func(h cache.ResourceEventHandler) { h.OnAdd(cv("4.16.0", ""), false) },
			want:  1,
		},
		{
			name:  "deleted",
			event: func(h cache.ResourceEventHandler) { h.OnDelete(cv("4.16.0", "")) },
			want:  1,
		},
		{
			name: "deleted, last state unknown",
			event: func(h cache.ResourceEventHandler) {
				h.OnDelete(cache.DeletedFinalStateUnknown{Key: "version", Obj: cv("4.16.0", "")})
			},
			want: 1,
		},
		{
			name: "what the sync reads changed",
			event: func(h cache.ResourceEventHandler) {
				h.OnUpdate(cv("4.15.0", "Working towards 4.16.0"), cv("4.16.0", "Working towards 4.16.0"))
			},
			want: 1,
		},
		{
			name: "only what the sync does not read changed",
			event: func(h cache.ResourceEventHandler) {
				h.OnUpdate(cv("4.16.0", "Working towards 4.16.0: 106 of 863 done (12% complete)"),
					cv("4.16.0", "Working towards 4.16.0: 107 of 863 done (12% complete)"))
			},
			want: 0,
		},
		{
			name:  "an object of another type, which read cannot tell",
			event: func(h cache.ResourceEventHandler) { h.OnUpdate(cv("4.16.0", ""), &configv1.ClusterOperator{}) },
			want:  1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			queued := 0
			tc.event(WhenChanged(desired, func() { queued++ }))
			if diff := cmp.Diff(tc.want, queued); diff != "" {
				t.Errorf("times queued (-want +got):\n%s", diff)
			}
		})
	}
}
