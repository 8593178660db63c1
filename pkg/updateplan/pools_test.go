package updateplan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// A worker pool of the plan is a MachineConfigPool, or on a hosted control
// plane the NodePool its node belongs to.
func TestWorkerPoolsAreThePoolsOfTheTopology(t *testing.T) {
	onNode := finding("skew", insightsv1alpha1.ErrorInsightLevel, insightsv1alpha1.InsightResource{Kind: "Node", Name: "b-1"})
	for _, tc := range []struct {
		topology hosted.Topology
		want     insightsv1alpha1.ResourceRef
	}{
		{topology: hosted.Standalone, want: insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "workers-b"}},
		{topology: hosted.Hosted, want: hosted.NodePool("workers-b")},
	} {
		t.Run(string(tc.topology), func(t *testing.T) {
			status := Compute(Input{Plan: plan(), Answers: []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{onNode}}},
				Pools: []string{"workers-b"}, NodePools: map[string]string{"b-1": "workers-b"}, Topology: tc.topology, EvaluatedAt: now, Now: now})
			var got []insightsv1alpha1.ResourceRef
			for _, p := range status.WorkerPools {
				got = append(got, p.Resource)
			}
			if diff := cmp.Diff([]insightsv1alpha1.ResourceRef{tc.want}, got); diff != "" {
				t.Errorf("worker pools (-want +got):\n%s", diff)
			}
		})
	}
}
