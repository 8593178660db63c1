package status_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/status"
)

// golden holds what status renders for the recorded clusters.
const golden = "status"

// outputs are the two renderings the reference recorded, by file suffix.
var outputs = map[string]struct {
	details   status.Details
	reference func(recordedtest.Case) string
}{
	".output":          {details: status.Details{}, reference: func(c recordedtest.Case) string { return c.Output }},
	".detailed-output": {details: status.Details{Operators: true, Nodes: true, Health: true}, reference: func(c recordedtest.Case) string { return c.Detailed }},
}

// insightsOf returns what analyze computed as the objects status reads.
func insightsOf(t *testing.T, computed []analyze.Insight) *status.Insights {
	t.Helper()
	in := &status.Insights{}
	for _, i := range computed {
		meta := metav1.ObjectMeta{Name: i.Metadata.Name}
		switch s := i.Status.(type) {
		case insightsv1alpha1.ClusterVersionProgressInsightStatus:
			in.ClusterVersions = append(in.ClusterVersions, &insightsv1alpha1.ClusterVersionProgressInsight{ObjectMeta: meta, Status: s})
		case insightsv1alpha1.ClusterOperatorProgressInsightStatus:
			in.ClusterOperators = append(in.ClusterOperators, &insightsv1alpha1.ClusterOperatorProgressInsight{ObjectMeta: meta, Status: s})
		case insightsv1alpha1.MachineConfigPoolProgressInsightStatus:
			in.MachineConfigPools = append(in.MachineConfigPools, &insightsv1alpha1.MachineConfigPoolProgressInsight{ObjectMeta: meta, Status: s})
		case insightsv1alpha1.NodeProgressInsightStatus:
			in.Nodes = append(in.Nodes, &insightsv1alpha1.NodeProgressInsight{ObjectMeta: meta, Status: s})
		case insightsv1alpha1.UpdateHealthInsightStatus:
			in.Health = append(in.Health, &insightsv1alpha1.UpdateHealthInsight{ObjectMeta: meta, Status: s})
		default:
			t.Fatalf("%s %s has a status of type %T", i.Kind, i.Metadata.Name, i.Status)
		}
	}
	return in
}
