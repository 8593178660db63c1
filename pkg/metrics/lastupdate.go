package metrics

import (
	"slices"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/component-base/metrics"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

// The last update's gauges tell the hub which clusters update slowly: how
// the cluster's last completed update went, from its UpdateRecord, as
// `history` lists it. They are absent until an update has completed, never
// a 0 that a fleet's averages would take for a fast update. The record's
// version is no label: it is no closed set, and the hub has it already,
// as cluster_version{type="completed"}, of the same update.
var (
	lastUpdateDurationDesc = metrics.NewDesc(LastUpdateControlPlaneDurationMetric,
		"Seconds the control plane took to update in the last completed update (its UpdateRecord's durations.controlPlane); absent until an update has completed.",
		nil, nil, metrics.ALPHA, "")
	lastUpdateStallDesc = metrics.NewDesc(LastUpdateStallMetric,
		"Seconds of stalls in the last completed update: the sum of its UpdateRecord's stalls' durations, a stall still active at the end to the control plane's completion, overlapping stalls each counted; absent until an update has completed.",
		nil, nil, metrics.ALPHA, "")
	lastUpdateEstimateLateDesc = metrics.NewDesc(LastUpdateEstimateLateMetric,
		"Seconds the control plane of the last completed update completed after the completion estimated when it was at percent, negative when before; absent for a percent without an estimate, and until an update has completed.",
		[]string{"percent"}, nil, metrics.ALPHA, "")
)

// collectLastUpdate reports the last completed update's control plane
// duration, stall time and estimate errors. The clock plays no part: a
// completed update's figures are fixed, and must not grow with the scrape.
func (c *fleetCollector) collectLastUpdate(ch chan<- metrics.Metric) {
	records, err := c.listers.UpdateRecords.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "Reporting no last update")
		return
	}
	last := lastCompleted(records)
	if last == nil {
		return
	}
	s := &last.Status
	if d := s.Durations.ControlPlane; d != nil {
		ch <- metrics.NewLazyConstMetric(lastUpdateDurationDesc, metrics.GaugeValue, d.Seconds())
	}

	// A stall still active when the update ended lasted until its end, as
	// `history` adds them up: the update's completion, its pools' with its
	// control plane's.
	end := s.ObservedUntil.Time
	if s.CompletedAt != nil {
		end = s.CompletedAt.Time
	}
	var stalled time.Duration
	for i := range s.Stalls {
		stalled += updaterecord.StallDuration(&s.Stalls[i], end)
	}
	ch <- metrics.NewLazyConstMetric(lastUpdateStallDesc, metrics.GaugeValue, stalled.Seconds())

	if s.ControlPlaneCompletedAt == nil {
		return
	}
	// By the declared percents rather than the record's estimates, so that
	// the label stays a closed set and each percent is one series.
	for _, percent := range FleetEstimatePercents {
		i := slices.IndexFunc(s.Estimates, func(e insightsv1alpha1.EstimateRecord) bool { return strconv.Itoa(int(e.Percent)) == percent })
		if i < 0 || s.Estimates[i].EstimatedCompletedAt == nil {
			continue
		}
		late := s.ControlPlaneCompletedAt.Sub(s.Estimates[i].EstimatedCompletedAt.Time)
		ch <- metrics.NewLazyConstMetric(lastUpdateEstimateLateDesc, metrics.GaugeValue, late.Seconds(), percent)
	}
}

// lastCompleted is the completed record of the update that started last,
// of those started at the same time the last by name; nil without any. A
// Progressing record has not ended, an Abandoned one never completed.
func lastCompleted(records []*insightsv1alpha1.UpdateRecord) *insightsv1alpha1.UpdateRecord {
	var last *insightsv1alpha1.UpdateRecord
	for _, r := range records {
		if r.Status.State != insightsv1alpha1.UpdateRecordCompleted {
			continue
		}
		if last == nil {
			last = r
			continue
		}
		if c := r.Status.StartedAt.Compare(last.Status.StartedAt.Time); c > 0 || c == 0 && r.Name > last.Name {
			last = r
		}
	}
	return last
}
