package hostedclusters

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The messages are the cluster-version operator's (pkg/cvo/status.go
// updateClusterVersionStatus).
func TestParseCount(t *testing.T) {
	for _, tc := range []struct {
		message string
		want    *manifestCount
	}{
		{"Working towards 4.17.1: 412 of 829 done (49% complete)", &manifestCount{"4.17.1", 412, 829}},
		{"Working towards 4.17.1: 700 of 829 done (84% complete), waiting on kube-apiserver", &manifestCount{"4.17.1", 700, 829}},
		{"Working towards " + image417 + ": 1 of 829 done (0% complete)", &manifestCount{image417, 1, 829}},
		{"Working towards 4.17.1", nil},
		{"Working towards 4.17.1: downloading update", nil},
		{"Unable to apply 4.17.1: the cluster operator kube-apiserver is degraded", nil},
		{"Cluster version is 4.16.2", nil},
		{"Working towards 4.17.1: 900 of 829 done (108% complete)", nil},
		{"Working towards 4.17.1: 0 of 0 done (0% complete)", nil},
		{"Working towards 4.17.1: 1 of 1234567890 done (0% complete)", nil},
	} {
		t.Run(tc.message, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, parseCount(tc.message), cmp.AllowUnexported(manifestCount{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
