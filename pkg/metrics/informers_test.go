package metrics

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

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

func TestObserveInformerCall(t *testing.T) {
	calls, duration := newInformerCalls(), newInformerCallDuration()
	registry := metrics.NewKubeRegistry()
	registry.MustRegister(calls, duration)
	observeInformerCall(calls, duration, "mco", "status", "Success", 40*time.Millisecond)
	observeInformerCall(calls, duration, "mco", "status", "Unreachable", 10*time.Second)
	observeInformerCall(calls, duration, "mco", "discovery", "Success", 3*time.Millisecond)
	want := `
# HELP update_insights_informer_calls_total [ALPHA] Number of calls of UpdateInformers, by informer, call (discovery or status) and result (Success, or the reason the informer is not Online).
# TYPE update_insights_informer_calls_total counter
update_insights_informer_calls_total{call="discovery",informer="mco",result="Success"} 1
update_insights_informer_calls_total{call="status",informer="mco",result="Success"} 1
update_insights_informer_calls_total{call="status",informer="mco",result="Unreachable"} 1
`
	if err := testutil.GatherAndCompare(registry, strings.NewReader(want), "update_insights_informer_calls_total"); err != nil {
		t.Error(err)
	}
	if err := testutil.GatherAndCompare(registry, strings.NewReader(`
# HELP update_insights_informer_call_duration_seconds [ALPHA] Time one call of an UpdateInformer took, its waits for an informer that answered Wait included.
# TYPE update_insights_informer_call_duration_seconds histogram
`+histogram("discovery", 0.003)+histogram("status", 0.04, 10)), "update_insights_informer_call_duration_seconds"); err != nil {
		t.Error(err)
	}
}

// histogram is the exposition of the call duration histogram of one call of
// informer mco, with the given observations in seconds.
func histogram(call string, observations ...float64) string {
	var b strings.Builder
	sum := 0.0
	for _, o := range observations {
		sum += o
	}
	for i, bound := 0, 0.005; i < 15; i, bound = i+1, bound*2 {
		n := 0
		for _, o := range observations {
			if o <= bound {
				n++
			}
		}
		fmt.Fprintf(&b, "update_insights_informer_call_duration_seconds_bucket{call=%q,informer=\"mco\",le=\"%s\"} %d\n", call, strconv.FormatFloat(bound, 'g', -1, 64), n)
	}
	fmt.Fprintf(&b, "update_insights_informer_call_duration_seconds_bucket{call=%q,informer=\"mco\",le=\"+Inf\"} %d\n", call, len(observations))
	fmt.Fprintf(&b, "update_insights_informer_call_duration_seconds_sum{call=%q,informer=\"mco\"} %s\n", call, strconv.FormatFloat(sum, 'g', -1, 64))
	fmt.Fprintf(&b, "update_insights_informer_call_duration_seconds_count{call=%q,informer=\"mco\"} %d\n", call, len(observations))
	return b.String()
}
