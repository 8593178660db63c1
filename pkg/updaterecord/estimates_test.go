package updaterecord

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestEstimates(t *testing.T) {
	m := time.Minute
	eta := now.Add(40 * m)
	at25 := insightsv1alpha1.EstimateRecord{Percent: 25, ObservedAt: at(now.Add(-10 * m)), CompletionPercent: 27, EstimatedCompletedAt: atp(now.Add(30 * m))}
	cv := func(percent int32, estimate *time.Time) *insightsv1alpha1.ClusterVersionProgressInsightStatus {
		c := updating()
		c.CompletionPercent = percent
		if estimate != nil {
			c.EstimatedCompletedAt = atp(*estimate)
		}
		return c
	}
	tests := []struct {
		name     string
		cv       *insightsv1alpha1.ClusterVersionProgressInsightStatus
		previous []insightsv1alpha1.EstimateRecord
		want     []insightsv1alpha1.EstimateRecord
	}{{
		name: "below 25 percent: none",
		cv:   cv(24, &eta),
	}, {
		name: "first at 25 percent: taken",
		cv:   cv(25, &eta),
		want: []insightsv1alpha1.EstimateRecord{{Percent: 25, ObservedAt: at(now), CompletionPercent: 25, EstimatedCompletedAt: atp(eta)}},
	}, {
		name:     "a later estimate does not replace the first",
		cv:       cv(30, &eta),
		previous: []insightsv1alpha1.EstimateRecord{at25},
		want:     []insightsv1alpha1.EstimateRecord{at25},
	}, {
		name:     "past 50 percent, the next is taken beside it",
		cv:       cv(52, &eta),
		previous: []insightsv1alpha1.EstimateRecord{at25},
		want:     []insightsv1alpha1.EstimateRecord{at25, {Percent: 50, ObservedAt: at(now), CompletionPercent: 52, EstimatedCompletedAt: atp(eta)}},
	}, {
		name: "first seen at 80 percent: only 75's is taken, what it said at 25 and 50 was not seen",
		cv:   cv(80, &eta),
		want: []insightsv1alpha1.EstimateRecord{{Percent: 75, ObservedAt: at(now), CompletionPercent: 80, EstimatedCompletedAt: atp(eta)}},
	}, {
		name: "no estimate given: taken without one, so that a reader knows none was",
		cv:   cv(50, nil),
		want: []insightsv1alpha1.EstimateRecord{{Percent: 50, ObservedAt: at(now), CompletionPercent: 50}},
	}, {
		name: "a completed control plane gives none",
		cv: func() *insightsv1alpha1.ClusterVersionProgressInsightStatus {
			c := completed(now)
			c.CompletionPercent = 100
			return c
		}(),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var previous *insightsv1alpha1.UpdateRecordStatus
			if tt.previous != nil {
				previous = record(now.Add(-m))
				previous.Estimates = tt.previous
			}
			got := Next(Input{ClusterVersion: tt.cv, Previous: previous, Now: now})
			if diff := cmp.Diff(tt.want, got.Estimates); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
