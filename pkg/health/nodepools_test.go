package health

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

func TestForNodePool(t *testing.T) {
	ref := hosted.NodePool("workers-a")
	since := time.Date(2026, 8, 20, 10, 0, 0, 0, time.UTC)
	status := &insightsv1alpha1.MachineConfigPoolProgressInsightStatus{Name: "workers-a", Resource: &ref,
		ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: insightsv1alpha1.PoolBehind,
		Conditions: []metav1.Condition{{Type: insightsv1alpha1.MachineConfigPoolProgressInsightHealthy, Status: metav1.ConditionFalse,
			Reason: "BeyondSupportedSkew", LastTransitionTime: metav1.NewTime(since)}}}
	for _, tc := range []struct {
		name string
		skew NodePoolSkew
		want []healthRow
	}{
		{name: "at the limit", skew: NodePoolSkew{Kubelet: "v1.28.15+f67aeb3", ControlPlane: "1.31.6", MinorsBehind: 3}},
		{name: "not known", skew: NodePoolSkew{}},
		{name: "beyond the limit", skew: NodePoolSkew{Kubelet: "v1.27.16+03f2a51", ControlPlane: "1.31.6", MinorsBehind: 4},
			want: []healthRow{{Problem: NodePoolBeyondSkew, Level: "Error", Type: "Unknown", Since: since,
				Summary: "NodePool workers-a is 4 minor releases behind the control plane, beyond the supported 3"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			insights := ForNodePool(status, tc.skew)
			if diff := cmp.Diff(tc.want, rows(insights)); diff != "" {
				t.Errorf("ForNodePool (-want +got):\n%s", diff)
			}
			for _, i := range insights {
				if diff := cmp.Diff([]insightsv1alpha1.ResourceRef{ref}, i.Status.Scope.Resources); diff != "" {
					t.Errorf("resources (-want +got):\n%s", diff)
				}
			}
		})
	}
}
