package operatorstatus

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/names"
)

// A ClusterOperator this controller recreates is the payload's: the same
// name and annotations (test/manifests checks that the related objects and
// the version agree with the manifest too).
func TestRecreatedClusterOperatorMatchesTheManifest(t *testing.T) {
	const path = "../../../manifests/0000_50_update-insights-operator_10_clusteroperator.yaml"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var manifest configv1.ClusterOperator
	if err := yaml.UnmarshalStrict(raw, &manifest); err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	if manifest.Name != names.OwnClusterOperator {
		t.Errorf("the manifest names %q, want %q", manifest.Name, names.OwnClusterOperator)
	}
	if diff := cmp.Diff(manifest.Annotations, payloadAnnotations); diff != "" {
		t.Errorf("annotations of a recreated ClusterOperator (-manifest +recreated):\n%s", diff)
	}
}
