package eta

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPastCompletion(t *testing.T) {
	// Four operators, done at 10%, 20%, 60% and 90% of the update.
	one := &Past{Duration: time.Hour, Curves: [][]float64{{0.1, 0.2, 0.6, 0.9}}}
	tests := []struct {
		name string
		past *Past
		x    float64
		want float64
	}{
		{name: "nothing updated: the update's start", past: one, x: 0, want: 0},
		{name: "one of four: the first's completion", past: one, x: 0.25, want: 0.1},
		{name: "between two operators: the line between them", past: one, x: 0.625, want: 0.4},
		{name: "all updated: the last's completion", past: one, x: 1, want: 0.9},
		{name: "past 1 is all", past: one, x: 2, want: 0.9},
		{name: "a payload of another size maps onto the curve", past: &Past{Duration: time.Hour, Curves: [][]float64{{0.5, 1}}}, x: 0.25, want: 0.25},
		{
			name: "the median of the updates", x: 0.5,
			past: &Past{Duration: time.Hour, Curves: [][]float64{{0.2, 1}, {0.4, 1}, {0.9, 1}}}, want: 0.4,
		},
		{
			name: "of two, their mean", x: 0.5,
			past: &Past{Duration: time.Hour, Curves: [][]float64{{0.2, 1}, {0.4, 1}}}, want: 0.3,
		},
		{name: "no curve: the reference cluster's", past: &Past{Duration: time.Hour}, x: 0.5, want: TimewiseCompletion(0.5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.past.Completion(tt.x); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Completion(%v) = %v, want %v", tt.x, got, tt.want)
			}
		})
	}
}

func TestRemainingFromThePast(t *testing.T) {
	// This cluster's operators are done evenly over 90 minutes.
	past := &Past{Duration: 90 * time.Minute, Curves: [][]float64{{0.25, 0.5, 0.75, 1}}}
	tests := []struct {
		name string
		in   Input
		want time.Duration
	}{
		{
			name: "early: the past duration is the baseline, not the history's",
			in:   Input{StartedAt: start, LastObservedProgress: start, Now: start.Add(10 * time.Minute), Total: 4, Baseline: DefaultBaseline, Past: past},
			want: 96 * time.Minute, // (90m-10m) * 1.2
		},
		{
			name: "half updated at 40 minutes: projected along the cluster's curve to 80 minutes",
			in: Input{StartedAt: start, LastObservedProgress: start.Add(40 * time.Minute), Now: start.Add(40 * time.Minute),
				Updated: 2, Total: 4, Baseline: DefaultBaseline, Past: past},
			want: 48 * time.Minute, // (80m-40m) * 1.2
		},
		{
			name: "a past without a duration is not used",
			in: Input{StartedAt: start, LastObservedProgress: start, Now: start.Add(10 * time.Minute), Total: 4, Baseline: DefaultBaseline,
				Past: &Past{Curves: [][]float64{{1}}}},
			want: 60 * time.Minute,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Remaining(tt.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
