package metrics

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
)

func hostedClusterInsight(name string, assessment insightsv1alpha1.HostedClusterAssessment, percent int32, eta *time.Time, total, updated int32) *insightsv1alpha1.HostedClusterProgressInsight {
	i := &insightsv1alpha1.HostedClusterProgressInsight{ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: name}}
	i.Status.Assessment, i.Status.CompletionPercent = assessment, percent
	i.Status.NodePools = insightsv1alpha1.NodePoolsSummary{Total: total, Updated: updated}
	if eta != nil {
		i.Status.EstimatedCompletedAt = &metav1.Time{Time: *eta}
	}
	return i
}

// hostedSeries are a hosted cluster's series, as the text exposition
// keys them, without its estimate.
func hostedSeries(name, assessment string, ratio float64, total, updated float64) map[string]float64 {
	out := map[string]float64{}
	labels := fmt.Sprintf("hosted_cluster=%q,hosted_cluster_namespace=%q", name, "clusters")
	for _, a := range HostedClusterAssessments {
		out[fmt.Sprintf("%s{assessment=%q,%s}", HostedClusterAssessmentMetric, a, labels)] = boolValue(a == assessment)
	}
	out[fmt.Sprintf("%s{%s}", HostedClusterCompletionRatioMetric, labels)] = ratio
	out[fmt.Sprintf("%s{%s,state=%q}", HostedClusterNodePoolsMetric, labels, "total")] = total
	out[fmt.Sprintf("%s{%s,state=%q}", HostedClusterNodePoolsMetric, labels, "updated")] = updated
	return out
}

func TestHostedClusterMetrics(t *testing.T) {
	eta := now.Add(20 * time.Minute)
	passed := now.Add(-5 * time.Minute)
	for _, tc := range []struct {
		name     string
		insights []*insightsv1alpha1.HostedClusterProgressInsight
		want     map[string]float64
	}{
		{name: "no hosted cluster: no series", want: map[string]float64{}},
		{
			name: "updating, completed, blocked past its estimate, and an assessment this version does not know",
			insights: []*insightsv1alpha1.HostedClusterProgressInsight{
				hostedClusterInsight("payments", insightsv1alpha1.HostedClusterAssessmentProgressing, 50, &eta, 2, 0),
				hostedClusterInsight("ledger", insightsv1alpha1.HostedClusterAssessmentCompleted, 100, &eta, 1, 1),
				hostedClusterInsight("billing", insightsv1alpha1.HostedClusterAssessmentBlocked, 0, &passed, 1, 0),
				hostedClusterInsight("future", "Paused", 0, nil, 0, 0),
			},
			want: merge(
				hostedSeries("payments", "Progressing", 0.5, 2, 0),
				map[string]float64{HostedClusterEstimatedRemainingMetric + `{hosted_cluster="payments",hosted_cluster_namespace="clusters"}`: 1200},
				hostedSeries("ledger", "Completed", 1, 1, 1),
				hostedSeries("billing", "Blocked", 0, 1, 0),
				map[string]float64{HostedClusterEstimatedRemainingMetric + `{hosted_cluster="billing",hosted_cluster_namespace="clusters"}`: 0},
				hostedSeries("future", "Unknown", 0, 0, 0),
			),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			for _, i := range tc.insights {
				if err := indexer.Add(i); err != nil {
					t.Fatal(err)
				}
			}
			c := NewHostedClustersCollector(insightslisters.NewHostedClusterProgressInsightLister(indexer), clocktesting.NewFakePassiveClock(now))
			if diff := cmp.Diff(tc.want, scrape(t, c)); diff != "" {
				t.Errorf("series (-want +got):\n%s", diff)
			}
		})
	}
}

// Each hosted cluster has at most HostedClusterSeries series, whatever its
// NodePools and machines.
func TestHostedClusterSeriesAreBounded(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	eta := now.Add(time.Hour)
	for i := range 500 {
		if err := indexer.Add(hostedClusterInsight(fmt.Sprintf("hc-%03d", i), insightsv1alpha1.HostedClusterAssessmentProgressing, 10, &eta, 30, 3)); err != nil {
			t.Fatal(err)
		}
	}
	c := NewHostedClustersCollector(insightslisters.NewHostedClusterProgressInsightLister(indexer), clocktesting.NewFakePassiveClock(now))
	if got, want := len(scrape(t, c)), 500*HostedClusterSeries; got != want {
		t.Errorf("%d series for 500 hosted clusters, want %d (%d each)", got, want, HostedClusterSeries)
	}
}
