package health

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestKind(t *testing.T) {
	tests := []struct {
		resource string
		want     string
		wantOK   bool
	}{
		{"clusterversions", "ClusterVersion", true},
		{"clusteroperators", "ClusterOperator", true},
		{"nodes", "Node", true},
		{"machineconfigpools", "MachineConfigPool", true},
		{"alerts", "Alert", true},
		{"poddisruptionbudgets", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.resource, func(t *testing.T) {
			kind, ok := Kind(tt.resource)
			if diff := cmp.Diff([]any{tt.want, tt.wantOK}, []any{kind, ok}); diff != "" {
				t.Errorf("Kind(%q) (-want +got):\n%s", tt.resource, diff)
			}
		})
	}
}

// TestScopedResourcesAreDistinct keeps Kind a function: one kind for each
// resource.
func TestScopedResourcesAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range scopedResources {
		if seen[r.resource] || r.kind == "" {
			t.Errorf("resource %q is named twice or has no kind", r.resource)
		}
		seen[r.resource] = true
	}
}
