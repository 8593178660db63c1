package statusview_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// drainHeld is a health insight as the node controller writes it for a pod
// that has held a node's drain since ago (pkg/health's drain insights).
func drainHeld(node, pod, budget string, level insightsv1alpha1.InsightImpactLevel, ago time.Duration) *insightsv1alpha1.UpdateHealthInsight {
	resources := []insightsv1alpha1.ResourceRef{{Resource: "nodes", Name: node}, {Resource: "pods", Namespace: "shop", Name: pod}}
	if budget != "" {
		resources = append(resources, insightsv1alpha1.ResourceRef{Group: "policy", Resource: "poddisruptionbudgets", Namespace: "shop", Name: budget})
	}
	return &insightsv1alpha1.UpdateHealthInsight{Status: insightsv1alpha1.UpdateHealthInsightStatus{
		StartedAt: metav1.NewTime(now.Add(-ago)),
		Scope:     insightsv1alpha1.InsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, Resources: resources},
		Impact: insightsv1alpha1.InsightImpact{Level: level, Type: insightsv1alpha1.UpdateStalledImpactType,
			Summary: "Pod shop/" + pod + " holds the drain of node " + node},
	}}
}

// The node's row carries its note; --details=nodes lists, under the pool's
// nodes, every pod that holds a drain of one of them, and only then.
func TestDrainsHeldAreListedWithTheNodesDetails(t *testing.T) {
	node := poolNode("worker")
	node.Status.Message = "Drain held by pod shop/db-0 and 1 more"
	in := &statusview.Insights{
		ClusterVersions:    []*insightsv1alpha1.ClusterVersionProgressInsight{progressing},
		MachineConfigPools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{workerPool("worker")},
		Nodes:              []*insightsv1alpha1.NodeProgressInsight{node},
		Health: []*insightsv1alpha1.UpdateHealthInsight{
			drainHeld("worker-0", "web-1", "", insightsv1alpha1.WarningImpactLevel, 3*time.Minute),
			drainHeld("worker-0", "db-0", "db", insightsv1alpha1.ErrorImpactLevel, 2*time.Hour),
			drainHeld("elsewhere-0", "db-1", "db", insightsv1alpha1.WarningImpactLevel, 5*time.Minute),
		},
	}
	s, err := statusview.Build(in, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		details statusview.Details
		want    []string
	}{
		{details: statusview.Details{}, want: nil},
		{details: statusview.Details{Nodes: true}, want: []string{
			"Drains Held: worker",
			"NODE       POD          BUDGETS   SINCE   LEVEL",
			"worker-0   shop/db-0    shop/db   2h      Error",
			"worker-0   shop/web-1   -         3m      Warning",
		}},
	} {
		var out bytes.Buffer
		if err := statusview.WriteText(&out, s, tt.details); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if !strings.Contains(text, "Drain held by pod shop/db-0 and 1 more") {
			t.Errorf("the node's row does not carry its note:\n%s", text)
		}
		var got []string
		if i := strings.Index(text, "Drains Held: "); i >= 0 {
			got = strings.Split(strings.TrimSpace(strings.SplitN(text[i:], "\n\n", 2)[0]), "\n")
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("with %+v, drains held (-want +got):\n%s", tt.details, diff)
		}
	}
}
