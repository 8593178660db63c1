package metrics

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

// Builders of the records.

// updateRecord is the record of an update to version that started at
// start and was last seen after took, its control plane's duration so far
// took.
func updateRecord(version string, start time.Time, state insightsv1alpha1.UpdateRecordState, took time.Duration) *insightsv1alpha1.UpdateRecord {
	return &insightsv1alpha1.UpdateRecord{
		ObjectMeta: metav1.ObjectMeta{Name: updaterecord.Name(version, start)},
		Status: insightsv1alpha1.UpdateRecordStatus{
			To: insightsv1alpha1.Version{Version: version}, State: state, StartedAt: metav1.NewTime(start),
			ObservedUntil: metav1.NewTime(start.Add(took)),
			Durations:     insightsv1alpha1.UpdateRecordDurations{ControlPlane: &metav1.Duration{Duration: took}},
		},
	}
}

// completedRecord is the record of an update whose control plane completed
// took after its start, with those stalls and estimates.
func completedRecord(version string, start time.Time, took time.Duration, stalls []insightsv1alpha1.UpdateStall, estimates ...insightsv1alpha1.EstimateRecord) *insightsv1alpha1.UpdateRecord {
	r := updateRecord(version, start, insightsv1alpha1.UpdateRecordCompleted, took)
	r.Status.ControlPlaneCompletedAt = at(start.Add(took))
	r.Status.Stalls, r.Status.Estimates = stalls, estimates
	return r
}

// stall is a stall first seen at from and seen gone at to, still active at
// the update's end when to is zero.
func stall(name string, from, to time.Time) insightsv1alpha1.UpdateStall {
	s := insightsv1alpha1.UpdateStall{Name: name, Level: insightsv1alpha1.WarningImpactLevel, Summary: name, FirstSeenAt: metav1.NewTime(from)}
	if !to.IsZero() {
		s.EndedAt = at(to)
	}
	return s
}

// estimate is the estimate taken at percent; estimated nil is an insight
// that gave none.
func estimate(percent int32, estimated *metav1.Time) insightsv1alpha1.EstimateRecord {
	return insightsv1alpha1.EstimateRecord{Percent: percent, ObservedAt: metav1.NewTime(started), CompletionPercent: percent, EstimatedCompletedAt: estimated}
}

// lastUpdateSeries are the last update's series: its duration and stall
// time, and the estimates' lateness by percent.
func lastUpdateSeries(duration, stalled time.Duration, late map[string]time.Duration) map[string]float64 {
	out := map[string]float64{LastUpdateControlPlaneDurationMetric: duration.Seconds(), LastUpdateStallMetric: stalled.Seconds()}
	for percent, d := range late {
		out[fmt.Sprintf("%s{percent=%q}", LastUpdateEstimateLateMetric, percent)] = d.Seconds()
	}
	return out
}

func TestFleetLastUpdate(t *testing.T) {
	const m = time.Minute
	var (
		// The update before: it started a day before started.
		before = started.Add(-24 * time.Hour)
		// An update completes 90 minutes after started, half an hour
		// before the scrape.
		completedAt = started.Add(90 * m)
		records     = func(r ...*insightsv1alpha1.UpdateRecord) []*insightsv1alpha1.UpdateRecord { return r }
	)
	tests := []struct {
		name string
		in   fleetInput
		want map[string]float64
	}{
		{
			name: "no record: no series",
			want: map[string]float64{},
		},
		{
			name: "an update in progress has not ended: no series, not even a 0",
			in:   fleetInput{records: records(updateRecord("4.16.3", started, insightsv1alpha1.UpdateRecordProgressing, 90*m))},
			want: map[string]float64{},
		},
		{
			name: "an abandoned update never completed: no series",
			in: fleetInput{records: records(
				updateRecord("4.16.2", before, insightsv1alpha1.UpdateRecordAbandoned, 30*m),
				updateRecord("4.16.3", started, insightsv1alpha1.UpdateRecordProgressing, 90*m),
			)},
			want: map[string]float64{},
		},
		{
			name: "a completed update without stalls or estimates stalled 0 seconds",
			in:   fleetInput{records: records(completedRecord("4.16.3", started, 90*m, nil))},
			want: lastUpdateSeries(90*m, 0, nil),
		},
		{
			name: "of two completed updates the newest by start, not the newer Progressing or Abandoned ones",
			in: fleetInput{records: records(
				completedRecord("4.16.3", started, 90*m, []insightsv1alpha1.UpdateStall{stall("slow", started.Add(10*m), started.Add(15*m))},
					estimate(50, at(completedAt.Add(-20*m)))),
				completedRecord("4.16.2", before, 40*m, []insightsv1alpha1.UpdateStall{stall("slow", before, before.Add(30*m))},
					estimate(50, at(before.Add(60*m)))),
				updateRecord("4.16.5", started.Add(100*m), insightsv1alpha1.UpdateRecordProgressing, 10*m),
				updateRecord("4.16.4", started.Add(95*m), insightsv1alpha1.UpdateRecordAbandoned, 4*m),
			)},
			want: lastUpdateSeries(90*m, 5*m, map[string]time.Duration{"50": 20 * m}),
		},
		{
			name: "of completed updates started at once, the last by name",
			in: fleetInput{records: records(
				completedRecord("4.16.9", started, 50*m, nil),
				completedRecord("4.16.10", started, 70*m, nil),
			)},
			want: lastUpdateSeries(50*m, 0, nil),
		},
		{
			// Half an hour after completion, by the fake clock: a stall
			// with no end counts to the completion, not to the scrape.
			name: "a stall with no end lasted until the control plane completed, overlapping stalls each counted",
			in: fleetInput{records: records(completedRecord("4.16.3", started, 90*m, []insightsv1alpha1.UpdateStall{
				stall("unended", started.Add(60*m), time.Time{}),
				stall("ended", started.Add(50*m), started.Add(70*m)),
				func() insightsv1alpha1.UpdateStall {
					// Dated by its insight before it was first seen.
					s := stall("dated", started.Add(20*m), started.Add(30*m))
					s.StartedAt = at(started.Add(15 * m))
					return s
				}(),
			}))},
			want: lastUpdateSeries(90*m, (30+20+15)*m, nil),
		},
		{
			name: "an estimate without estimatedCompletedAt, or not taken, has no series; late is positive, early negative",
			in: fleetInput{records: records(completedRecord("4.16.3", started, 90*m, nil,
				estimate(25, at(completedAt.Add(-45*m))),
				estimate(50, nil),
				estimate(75, at(completedAt.Add(5*m))),
			))},
			want: lastUpdateSeries(90*m, 0, map[string]time.Duration{"25": 45 * m, "75": -5 * m}),
		},
		{
			name: "an estimate at a percent the API does not allow has no series",
			in: fleetInput{records: records(completedRecord("4.16.3", started, 90*m, nil,
				estimate(30, at(completedAt)), estimate(50, at(completedAt.Add(-m))),
			))},
			want: lastUpdateSeries(90*m, 0, map[string]time.Duration{"50": m}),
		},
		{
			name: "a completed record without the control plane's completion: stalls to when last seen, no estimate error",
			in: fleetInput{records: records(func() *insightsv1alpha1.UpdateRecord {
				r := completedRecord("4.16.3", started, 90*m, []insightsv1alpha1.UpdateStall{stall("unended", started.Add(80*m), time.Time{})},
					estimate(50, at(completedAt)))
				r.Status.ControlPlaneCompletedAt, r.Status.Durations.ControlPlane = nil, nil
				return r
			}())},
			want: map[string]float64{LastUpdateStallMetric: (10 * m).Seconds()},
		},
		{
			name: "a broken lister: no series",
			in:   fleetInput{broken: true},
			want: map[string]float64{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := only(scrape(t, tt.in.collectors(t)...), LastUpdateControlPlaneDurationMetric, LastUpdateStallMetric, LastUpdateEstimateLateMetric)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("series (-want +got):\n%s", diff)
			}
		})
	}
}
