package hostedtest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// TestSyntheticOperators holds the fixtures to what clusteroperators.go
// writes: the six names hosted.IsSynthetic knows, each version entry of its
// VersionMapping sorted by name, the release or Kubernetes version, and the
// four AsExpected conditions.
func TestSyntheticOperators(t *testing.T) {
	since := time.Date(2026, 8, 1, 8, 0, 0, 0, time.UTC)
	want := map[string][]configv1.OperandVersion{
		"kube-apiserver":                           {{Name: "kube-apiserver", Version: "1.31.6"}, {Name: "operator", Version: "4.18.3"}, {Name: "raw-internal", Version: "4.18.3"}},
		"kube-controller-manager":                  {{Name: "kube-controller-manager", Version: "1.31.6"}, {Name: "operator", Version: "4.18.3"}, {Name: "raw-internal", Version: "4.18.3"}},
		"kube-scheduler":                           {{Name: "kube-scheduler", Version: "1.31.6"}, {Name: "operator", Version: "4.18.3"}, {Name: "raw-internal", Version: "4.18.3"}},
		"openshift-apiserver":                      {{Name: "openshift-apiserver", Version: "4.18.3"}, {Name: "operator", Version: "4.18.3"}},
		"openshift-controller-manager":             {{Name: "openshift-controller-manager", Version: "4.18.3"}, {Name: "operator", Version: "4.18.3"}},
		"operator-lifecycle-manager-packageserver": {{Name: "operator", Version: "4.18.3"}},
	}
	operators := SyntheticOperators("4.18.3", "1.31.6", since)
	if len(operators) != len(want) {
		t.Fatalf("%d synthetic ClusterOperators, want %d", len(operators), len(want))
	}
	for _, co := range operators {
		t.Run(co.Name, func(t *testing.T) {
			if !hosted.IsSynthetic(hosted.Hosted, co.Name) {
				t.Errorf("hosted.IsSynthetic does not know %s", co.Name)
			}
			if diff := cmp.Diff(want[co.Name], co.Status.Versions); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
			if len(co.Annotations) != 0 {
				t.Errorf("annotations %v, want none", co.Annotations)
			}
			var conditions []string
			for _, c := range co.Status.Conditions {
				conditions = append(conditions, string(c.Type)+"="+string(c.Status)+"/"+c.Reason)
			}
			if diff := cmp.Diff([]string{"Available=True/AsExpected", "Progressing=False/AsExpected", "Degraded=False/AsExpected", "Upgradeable=True/AsExpected"}, conditions); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
			if len(co.Status.RelatedObjects) == 0 {
				t.Errorf("no relatedObjects")
			}
		})
	}
	if v, ok := hosted.ControlPlaneKubernetes(operators); !ok || v != "1.31.6" {
		t.Errorf("ControlPlaneKubernetes = %q, %t; want the kube-apiserver operand's 1.31.6", v, ok)
	}
}
