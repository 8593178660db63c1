package metrics

import (
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/component-base/metrics"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
)

var (
	// InformerCalls counts the calls of UpdateInformers by result.
	InformerCalls = newInformerCalls()
	// InformerCallDuration is how long the calls of UpdateInformers take.
	InformerCallDuration = newInformerCallDuration()
)

// newInformerCalls and newInformerCallDuration exist so that tests can
// observe into vectors of their own.
func newInformerCalls() *metrics.CounterVec {
	return metrics.NewCounterVec(&metrics.CounterOpts{
		Name:           "update_insights_informer_calls_total",
		Help:           "Number of calls of UpdateInformers, by informer, call (discovery or status) and result (Success, or the reason the informer is not Online).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"informer", "call", "result"})
}

func newInformerCallDuration() *metrics.HistogramVec {
	return metrics.NewHistogramVec(&metrics.HistogramOpts{
		Name: "update_insights_informer_call_duration_seconds",
		Help: "Time one call of an UpdateInformer took, its waits for an informer that answered Wait included.",
		// 5ms to ~80s: from an informer on the same node to one that has
		// the operator wait six times five seconds.
		Buckets:        metrics.ExponentialBuckets(0.005, 2, 15),
		StabilityLevel: metrics.ALPHA,
	}, []string{"informer", "call"})
}

// ObserveInformerCall records one call of an informer. Before Register it
// does nothing, as the sync metrics.
func ObserveInformerCall(informer, call, result string, took time.Duration) {
	observeInformerCall(InformerCalls, InformerCallDuration, informer, call, result, took)
}

func observeInformerCall(calls *metrics.CounterVec, duration *metrics.HistogramVec, informer, call, result string, took time.Duration) {
	calls.WithLabelValues(informer, call, result).Inc()
	duration.WithLabelValues(informer, call).Observe(took.Seconds())
}

var informerInsightsDesc = metrics.NewDesc(
	"update_insights_informer_insights",
	"Number of insights in the UpdateStatus, by informer and level.",
	[]string{"informer", "level"}, nil, metrics.ALPHA, "")

// informerLevels are the protocol's levels, each of which gets a sample for
// every informer in the UpdateStatus, even when zero.
var informerLevels = []insightsv1alpha1.UpdateInsightLevel{
	insightsv1alpha1.StatusInsightLevel,
	insightsv1alpha1.InfoInsightLevel,
	insightsv1alpha1.WarningInsightLevel,
	insightsv1alpha1.ErrorInsightLevel,
	insightsv1alpha1.CriticalInsightLevel,
}

// informerCollector counts the UpdateStatus' insights at scrape time.
type informerCollector struct {
	metrics.BaseStableCollector

	statuses insightslisters.UpdateStatusLister
}

// NewInformerCollector returns a collector of the UpdateStatus' insights by
// informer and level.
func NewInformerCollector(statuses insightslisters.UpdateStatusLister) metrics.StableCollector {
	return &informerCollector{statuses: statuses}
}

func (c *informerCollector) DescribeWithStability(ch chan<- *metrics.Desc) {
	ch <- informerInsightsDesc
}

func (c *informerCollector) CollectWithStability(ch chan<- metrics.Metric) {
	s, err := c.statuses.Get(insightsv1alpha1.UpdateStatusName)
	if errors.IsNotFound(err) {
		return
	}
	if err != nil {
		klog.ErrorS(err, "Skipping informer metrics")
		return
	}
	counts := map[string]map[insightsv1alpha1.UpdateInsightLevel]int{}
	count := func(informers []insightsv1alpha1.InformerInsights) {
		for _, informer := range informers {
			if counts[informer.Name] == nil {
				counts[informer.Name] = map[insightsv1alpha1.UpdateInsightLevel]int{}
			}
			for _, i := range informer.Insights {
				counts[informer.Name][i.Impact.Level]++
			}
		}
	}
	count(s.Status.ControlPlane.Informers)
	for _, pool := range s.Status.WorkerPools {
		count(pool.Informers)
	}
	for informer, levels := range counts {
		for _, level := range informerLevels {
			ch <- metrics.NewLazyConstMetric(informerInsightsDesc, metrics.GaugeValue, float64(levels[level]), informer, string(level))
		}
	}
}
