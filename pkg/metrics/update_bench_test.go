package metrics

import (
	"fmt"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/component-base/metrics"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// BenchmarkScrapeUpdateMetrics measures one scrape of the update metrics on
// a cluster of 5,000 nodes with a health insight each (every node degraded,
// the worst case): the collector counts the health insights at every scrape.
func BenchmarkScrapeUpdateMetrics(b *testing.B) {
	const healthInsights = 5000
	clusterVersions := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	health := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := clusterVersions.Add(clusterVersion(names.ClusterVersion, insightsv1alpha1.ClusterVersionProgressInsightStatus{
		CompletionPercent: 42, StartedAt: at(now.Add(-30 * time.Minute)), EstimatedCompletedAt: at(now.Add(30 * time.Minute)),
	})); err != nil {
		b.Fatal(err)
	}
	for i := range healthInsights {
		if err := health.Add(healthInsight(fmt.Sprintf("node-%d", i), insightsv1alpha1.ErrorImpactLevel)); err != nil {
			b.Fatal(err)
		}
	}
	registry := metrics.NewKubeRegistry()
	registry.CustomMustRegister(NewUpdateCollector(
		insightslisters.NewClusterVersionProgressInsightLister(clusterVersions),
		insightslisters.NewUpdateHealthInsightLister(health),
		clocktesting.NewFakePassiveClock(now)))

	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		families, err := registry.Gather()
		if err != nil {
			b.Fatal(err)
		}
		if len(families) != 4 {
			b.Fatalf("gathered %d families, want 4", len(families))
		}
	}
}
