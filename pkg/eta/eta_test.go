package eta

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var start = time.Date(2024, 8, 2, 9, 0, 0, 0, time.UTC)

func TestTimewiseCompletionMatchesTheReferenceSamples(t *testing.T) {
	testCases := []struct {
		x    float64
		want float64
	}{
		{x: 1.0 / 33, want: 0.0454},
		{x: 2.0 / 33, want: 0.1145},
		{x: 4.0 / 33, want: 0.2317},
		{x: 3.0 / 7, want: 0.3907},
		{x: 30.0 / 33, want: 0.5290},
		{x: 32.0 / 33, want: 0.6976},
		{x: 1, want: 1.03},
	}
	for _, tc := range testCases {
		if got := TimewiseCompletion(tc.x); math.Abs(got-tc.want) > 0.0005 {
			t.Errorf("TimewiseCompletion(%.4f) = %.5f, want %.4f", tc.x, got, tc.want)
		}
	}
	if got := TimewiseCompletion(0.005); got >= 0 {
		t.Errorf("TimewiseCompletion(0.005) = %f, want negative (the curve starts below zero)", got)
	}
}

func TestRemaining(t *testing.T) {
	testCases := []struct {
		name string
		in   Input
		want time.Duration
	}{
		{
			name: "worked example of a compact cluster: projection, padding, truncation and rounding",
			in: Input{
				StartedAt: start, LastObservedProgress: start.Add(1678 * time.Second), Now: start.Add(1678 * time.Second),
				Updated: 30, Total: 33, Baseline: DefaultBaseline,
			},
			// total 3172.0s, remaining 1494.0s, x1.2 = 1792.8s -> 1792s -> 30m
			want: 30 * time.Minute,
		},
		{
			name: "early phase: nothing updated yet, baseline minus elapsed, padded",
			in:   Input{StartedAt: start, LastObservedProgress: start, Now: start.Add(10 * time.Minute), Updated: 0, Total: 33, Baseline: DefaultBaseline},
			want: 60 * time.Minute, // (60m-10m) * 1.2
		},
		{
			name: "early phase: progress observed for exactly five minutes is not yet projected",
			in:   Input{StartedAt: start, LastObservedProgress: start.Add(5 * time.Minute), Now: start.Add(5 * time.Minute), Updated: 10, Total: 33, Baseline: 40 * time.Minute},
			want: 42 * time.Minute, // (40m-5m) * 1.2
		},
		{
			name: "later phase: progress observed for over five minutes is projected through the curve",
			in:   Input{StartedAt: start, LastObservedProgress: start.Add(5*time.Minute + time.Second), Now: start.Add(6 * time.Minute), Updated: 4, Total: 33, Baseline: DefaultBaseline},
			// tw(4/33)=0.23173; total=301/0.23173=1298.9s; remaining=938.9s; x1.2=1126.7s -> 1126s -> 19m
			want: 19 * time.Minute,
		},
		{
			name: "a curve value at or below zero falls back to the baseline",
			in:   Input{StartedAt: start, LastObservedProgress: start.Add(20 * time.Minute), Now: start.Add(20 * time.Minute), Updated: 1, Total: 100, Baseline: 30 * time.Minute},
			want: 12 * time.Minute, // tw(0.01) < 0; (30m-20m) * 1.2
		},
		{
			name: "stalled progress: the estimate slips as time passes",
			in:   Input{StartedAt: start, LastObservedProgress: start.Add(1678 * time.Second), Now: start.Add(1678*time.Second + 20*time.Minute), Updated: 30, Total: 33, Baseline: DefaultBaseline},
			// remaining = 3172.0 - 2878 = 294s; x1.2 = 352.8s -> 352s, under 10m: to the second
			want: 352 * time.Second,
		},
		{
			name: "overdue: negative remaining is shrunk, not padded",
			in:   Input{StartedAt: start, LastObservedProgress: start, Now: start.Add(72 * time.Minute), Updated: 0, Total: 33, Baseline: DefaultBaseline},
			want: -10 * time.Minute, // -12m / 1.2
		},
		{
			name: "under ten minutes the estimate keeps its seconds",
			in:   Input{StartedAt: start, LastObservedProgress: start, Now: start.Add(52*time.Minute + 7*time.Second), Updated: 0, Total: 33, Baseline: DefaultBaseline},
			want: 567 * time.Second, // 473s * 1.2 = 567.6s, truncated
		},
		{
			name: "just over ten minutes is rounded to the nearest minute",
			in:   Input{StartedAt: start, LastObservedProgress: start, Now: start.Add(51 * time.Minute), Updated: 0, Total: 33, Baseline: DefaultBaseline},
			want: 11 * time.Minute, // 540s * 1.2 = 648s = 10m48s -> 11m
		},
		{
			name: "every operator updated: nothing remains",
			in:   Input{StartedAt: start, LastObservedProgress: start.Add(time.Hour), Now: start.Add(2 * time.Hour), Updated: 33, Total: 33, Baseline: DefaultBaseline},
			want: 0,
		},
		{
			name: "no operators at all: the baseline applies",
			in:   Input{StartedAt: start, LastObservedProgress: start, Now: start.Add(30 * time.Minute), Updated: 0, Total: 0, Baseline: DefaultBaseline},
			want: 36 * time.Minute,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Remaining(tc.in); got != tc.want {
				t.Errorf("Remaining() = %v, want %v", got, tc.want)
			}
		})
	}
}

func entry(state configv1.UpdateState, started time.Time, took time.Duration) configv1.UpdateHistory {
	h := configv1.UpdateHistory{State: state, StartedTime: metav1.NewTime(started)}
	if took > 0 {
		completed := metav1.NewTime(started.Add(took))
		h.CompletionTime = &completed
	}
	return h
}

func TestBaseline(t *testing.T) {
	current := entry(configv1.PartialUpdate, start, 0)
	install := entry(configv1.CompletedUpdate, start.Add(-30*24*time.Hour), 35*time.Minute)
	testCases := []struct {
		name    string
		history []configv1.UpdateHistory
		want    time.Duration
	}{
		{name: "no history", history: nil, want: DefaultBaseline},
		{name: "only the installation", history: []configv1.UpdateHistory{install}, want: DefaultBaseline},
		{name: "current update and installation: the installation is not a baseline", history: []configv1.UpdateHistory{current, install}, want: DefaultBaseline},
		{
			name:    "the previous completed update",
			history: []configv1.UpdateHistory{current, entry(configv1.CompletedUpdate, start.Add(-24*time.Hour), 47*time.Minute), install},
			want:    47 * time.Minute,
		},
		{
			name: "the most recent completed update, skipping a partial one",
			history: []configv1.UpdateHistory{
				current,
				entry(configv1.PartialUpdate, start.Add(-2*time.Hour), 0),
				entry(configv1.CompletedUpdate, start.Add(-24*time.Hour), 73*time.Minute),
				entry(configv1.CompletedUpdate, start.Add(-48*time.Hour), 51*time.Minute),
				install,
			},
			want: 73 * time.Minute,
		},
		{
			name:    "only partial updates before the current one",
			history: []configv1.UpdateHistory{current, entry(configv1.PartialUpdate, start.Add(-2*time.Hour), 0), install},
			want:    DefaultBaseline,
		},
		{
			name: "a completed entry without a completion time is skipped",
			history: []configv1.UpdateHistory{
				current,
				{State: configv1.CompletedUpdate, StartedTime: metav1.NewTime(start.Add(-2 * time.Hour))},
				entry(configv1.CompletedUpdate, start.Add(-24*time.Hour), 44*time.Minute),
				install,
			},
			want: 44 * time.Minute,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Baseline(tc.history)); diff != "" {
				t.Errorf("Baseline() (-want +got):\n%s", diff)
			}
		})
	}
}
