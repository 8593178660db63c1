// Package metrics exposes the progress and health of an update, and the work
// of the controllers, as Prometheus metrics.
package metrics

import (
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/component-base/metrics"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

var (
	completionRatioDesc = metrics.NewDesc(
		ControlPlaneCompletionRatioMetric,
		"Share (0 to 1) of the control plane's ClusterOperators at the target version of the current or last update.",
		nil, nil, metrics.ALPHA, "")
	estimatedCompletionDesc = metrics.NewDesc(
		"update_insights_control_plane_estimated_completion_timestamp_seconds",
		"Unix time at which the control plane update in progress is expected to complete.",
		nil, nil, metrics.ALPHA, "")
	updateDurationDesc = metrics.NewDesc(
		"update_insights_control_plane_update_duration_seconds",
		"How long the current control plane update has run so far, or how long the last one took once completed.",
		nil, nil, metrics.ALPHA, "")
	healthInsightsDesc = metrics.NewDesc(
		HealthInsightsMetric,
		"Number of update health insights, by impact level.",
		[]string{"level"}, nil, metrics.ALPHA, "")
)

// impactLevels are all the levels the API allows, each of which gets a sample
// even when zero so that series do not vanish from alerts and graphs.
var impactLevels = []insightsv1alpha1.InsightImpactLevel{
	insightsv1alpha1.UnknownImpactLevel,
	insightsv1alpha1.InfoImpactLevel,
	insightsv1alpha1.WarningImpactLevel,
	insightsv1alpha1.ErrorImpactLevel,
	insightsv1alpha1.CriticalImpactLevel,
}

// updateCollector reads the insights at scrape time, so the metrics are as
// fresh as the informer caches and need no controller to keep them up.
type updateCollector struct {
	metrics.BaseStableCollector

	clusterVersions insightslisters.ClusterVersionProgressInsightLister
	health          insightslisters.UpdateHealthInsightLister
	clock           clock.PassiveClock
}

// NewUpdateCollector returns a collector of the control plane's update
// progress and of the health insights by level.
func NewUpdateCollector(clusterVersions insightslisters.ClusterVersionProgressInsightLister, health insightslisters.UpdateHealthInsightLister, clock clock.PassiveClock) metrics.StableCollector {
	return &updateCollector{clusterVersions: clusterVersions, health: health, clock: clock}
}

func (c *updateCollector) DescribeWithStability(ch chan<- *metrics.Desc) {
	ch <- completionRatioDesc
	ch <- estimatedCompletionDesc
	ch <- updateDurationDesc
	ch <- healthInsightsDesc
}

func (c *updateCollector) CollectWithStability(ch chan<- metrics.Metric) {
	c.collectControlPlane(ch)
	c.collectHealth(ch)
}

func (c *updateCollector) collectControlPlane(ch chan<- metrics.Metric) {
	insight, err := c.clusterVersions.Get(names.ClusterVersion)
	if apierrors.IsNotFound(err) {
		// Not written yet, or no ClusterVersion: nothing to report.
		return
	}
	if err != nil {
		klog.ErrorS(err, "Skipping control plane metrics", "clusterVersionProgressInsight", names.ClusterVersion)
		return
	}
	status := insight.Status

	ch <- metrics.NewLazyConstMetric(completionRatioDesc, metrics.GaugeValue, float64(status.CompletionPercent)/100)
	if status.EstimatedCompletedAt != nil {
		// Whole seconds lose nothing: the API stores times to the second.
		ch <- metrics.NewLazyConstMetric(estimatedCompletionDesc, metrics.GaugeValue, float64(status.EstimatedCompletedAt.Unix()))
	}
	if status.StartedAt != nil {
		end := c.clock.Now()
		if status.CompletedAt != nil {
			end = status.CompletedAt.Time
		}
		ch <- metrics.NewLazyConstMetric(updateDurationDesc, metrics.GaugeValue, end.Sub(status.StartedAt.Time).Seconds())
	}
}

func (c *updateCollector) collectHealth(ch chan<- metrics.Metric) {
	insights, err := c.health.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "Skipping health insight metrics")
		return
	}
	counts := make(map[insightsv1alpha1.InsightImpactLevel]int, len(impactLevels))
	for _, insight := range insights {
		counts[insight.Status.Impact.Level]++
	}
	// Only the API's levels are reported: validation keeps out any other, and
	// reading the map by them bounds the label's values whatever happens.
	for _, level := range impactLevels {
		ch <- metrics.NewLazyConstMetric(healthInsightsDesc, metrics.GaugeValue, float64(counts[level]), string(level))
	}
}
