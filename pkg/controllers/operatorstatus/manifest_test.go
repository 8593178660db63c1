package operatorstatus

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/yaml"
)

// The ClusterOperator the payload creates and the one this controller
// maintains or recreates must agree: the cluster-version operator waits for
// the manifest's version, and must-gather reads the related objects.
func TestClusterOperatorMatchesTheManifest(t *testing.T) {
	const path = "../../../manifests/0000_50_update-insights-operator_10_clusteroperator.yaml"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var manifest configv1.ClusterOperator
	if err := yaml.UnmarshalStrict(raw, &manifest); err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	if manifest.Name != ClusterOperatorName {
		t.Errorf("the manifest names %q, want %q", manifest.Name, ClusterOperatorName)
	}
	if diff := cmp.Diff(manifest.Annotations, payloadAnnotations); diff != "" {
		t.Errorf("annotations of a recreated ClusterOperator (-manifest +recreated):\n%s", diff)
	}
	if diff := cmp.Diff(manifest.Status.RelatedObjects, RelatedObjects("openshift-update-insights")); diff != "" {
		t.Errorf("related objects (-manifest +maintained):\n%s", diff)
	}
	if diff := cmp.Diff(manifest.Status.Versions, []configv1.OperandVersion{{Name: OperandName, Version: "0.0.1-snapshot"}}); diff != "" {
		t.Errorf("the manifest's versions (-manifest +reported with the payload's placeholder):\n%s", diff)
	}
}
