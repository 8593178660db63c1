package analyze_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
)

// A control-plane node that its machine-config daemon reports degraded makes
// its pool's insight Degraded and has an Error health insight of its own, but
// leaves the ClusterVersion insight's Healthy condition to the ClusterVersion
// and its operators: in a cluster the machine-config operator, which waits
// for that pool, reports the problem there itself.
func TestADegradedControlPlaneNodeIsReportedOnItsPoolNotTheControlPlane(t *testing.T) {
	c := recordedtest.CaseNamed(t, "4.16.0-compact")
	before := clusterVersionHealthy(t, analyze.Insights(c.Cluster, c.Now))

	var degraded string
	for _, node := range c.Cluster.Nodes {
		if _, master := node.Labels["node-role.kubernetes.io/master"]; master {
			node.Annotations[nodes.StateAnnotation] = "Degraded"
			node.Annotations[nodes.ReasonAnnotation] = "failed to drain node"
			degraded = node.Name
			break
		}
	}
	if degraded == "" {
		t.Fatal("the recorded cluster has no control-plane node")
	}
	insights := analyze.Insights(c.Cluster, c.Now)

	if after := clusterVersionHealthy(t, insights); after != before {
		t.Errorf("the ClusterVersion insight's Healthy condition went from %s to %s for a degraded node", before, after)
	}
	var poolAssessment insightsv1alpha1.PoolAssessment
	var nodeError bool
	for _, i := range insights {
		switch o := i.Object.(type) {
		case *insightsv1alpha1.MachineConfigPoolProgressInsight:
			if o.Name == nodes.MasterPool {
				poolAssessment = o.Status.Assessment
			}
		case *insightsv1alpha1.UpdateHealthInsight:
			for _, r := range o.Status.Scope.Resources {
				if r.Name == degraded && o.Status.Impact.Level == insightsv1alpha1.ErrorImpactLevel {
					nodeError = true
				}
			}
		}
	}
	if poolAssessment != insightsv1alpha1.PoolDegraded {
		t.Errorf("the master pool is assessed %q, want Degraded", poolAssessment)
	}
	if !nodeError {
		t.Errorf("no Error health insight names node %s", degraded)
	}
}

func clusterVersionHealthy(t *testing.T, insights []analyze.Insight) string {
	t.Helper()
	for _, i := range insights {
		if cv, ok := i.Object.(*insightsv1alpha1.ClusterVersionProgressInsight); ok {
			if c := meta.FindStatusCondition(cv.Status.Conditions, insightsv1alpha1.ClusterVersionProgressInsightHealthy); c != nil {
				return string(c.Status) + "/" + c.Reason
			}
		}
	}
	t.Fatal("no ClusterVersion insight with a Healthy condition")
	return ""
}
