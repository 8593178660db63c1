package metrics

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/testutil"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
)

func levels(levels ...insightsv1alpha1.UpdateInsightLevel) []insightsv1alpha1.UpdateInsight {
	var out []insightsv1alpha1.UpdateInsight
	for _, l := range levels {
		out = append(out, insightsv1alpha1.UpdateInsight{Impact: insightsv1alpha1.UpdateInsightImpact{Level: l}})
	}
	return out
}

func TestInformerCollectorCountsByInformerAndLevel(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	status := &insightsv1alpha1.UpdateStatus{ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}}
	status.Status.ControlPlane.Informers = []insightsv1alpha1.InformerInsights{
		{Name: "update-insights-operator", Insights: levels(insightsv1alpha1.StatusInsightLevel, insightsv1alpha1.ErrorInsightLevel)},
		{Name: "mco"},
	}
	status.Status.WorkerPools = []insightsv1alpha1.WorkerPoolUpdateStatus{{Informers: []insightsv1alpha1.InformerInsights{
		{Name: "mco", Insights: levels(insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.WarningInsightLevel)},
	}}}
	if err := indexer.Add(status); err != nil {
		t.Fatal(err)
	}
	registry := metrics.NewKubeRegistry()
	registry.CustomMustRegister(NewInformerCollector(insightslisters.NewUpdateStatusLister(indexer)))
	want := `
# HELP update_insights_informer_insights [ALPHA] Number of insights in the UpdateStatus, by informer and level.
# TYPE update_insights_informer_insights gauge
update_insights_informer_insights{informer="mco",level="critical"} 0
update_insights_informer_insights{informer="mco",level="error"} 0
update_insights_informer_insights{informer="mco",level="info"} 0
update_insights_informer_insights{informer="mco",level="status"} 0
update_insights_informer_insights{informer="mco",level="warning"} 2
update_insights_informer_insights{informer="update-insights-operator",level="critical"} 0
update_insights_informer_insights{informer="update-insights-operator",level="error"} 1
update_insights_informer_insights{informer="update-insights-operator",level="info"} 0
update_insights_informer_insights{informer="update-insights-operator",level="status"} 1
update_insights_informer_insights{informer="update-insights-operator",level="warning"} 0
`
	if err := testutil.GatherAndCompare(registry, strings.NewReader(want), "update_insights_informer_insights"); err != nil {
		t.Error(err)
	}

	empty := metrics.NewKubeRegistry()
	empty.CustomMustRegister(NewInformerCollector(insightslisters.NewUpdateStatusLister(cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}))))
	if err := testutil.GatherAndCompare(empty, strings.NewReader(""), "update_insights_informer_insights"); err != nil {
		t.Errorf("without an UpdateStatus: %v", err)
	}
}
