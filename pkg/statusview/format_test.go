package statusview

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestDurations(t *testing.T) {
	testCases := []struct {
		name string
		d    time.Duration
		want string
		show func(time.Duration) string
	}{
		{name: "short: hours and minutes", d: time.Hour + 12*time.Minute, want: "1h12m", show: shortDuration},
		{name: "short: whole hours", d: 3 * time.Hour, want: "3h", show: shortDuration},
		{name: "short: minutes", d: 28 * time.Minute, want: "28m", show: shortDuration},
		{name: "short: keeps zero minutes between hours and seconds", d: time.Hour + 17*time.Second, want: "1h0m17s", show: shortDuration},
		{name: "short: seconds", d: 6 * time.Second, want: "6s", show: shortDuration},
		{name: "rough: over 10 minutes to the minute", d: time.Hour + 58*time.Minute + 50*time.Second, want: "1h59m", show: roughDuration},
		{name: "rough: 10 minutes or less to the second", d: 89*time.Second + 400*time.Millisecond, want: "1m29s", show: roughDuration},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.show(tc.d); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSince(t *testing.T) {
	now := time.Date(2024, 8, 5, 17, 23, 22, 368975, time.UTC)
	at := func(d time.Duration) *metav1.Time { t := metav1.NewTime(now.Add(-d)); return &t }
	testCases := []struct {
		name string
		t    *metav1.Time
		want string
	}{
		{name: "unknown", t: nil, want: "-"},
		{name: "zero", t: &metav1.Time{}, want: "-"},
		{name: "under a second", t: at(999 * time.Millisecond), want: "now"},
		{name: "in the future", t: at(-time.Minute), want: "now"},
		{name: "to the second", t: at(58*time.Minute + 18*time.Second + 368975), want: "58m18s"},
		{name: "truncated as the reference does, not rounded", t: at(2*time.Minute + 56*time.Second + 700*time.Millisecond), want: "2m56s"},
		{name: "truncated to whole hours", t: at(time.Hour + 900*time.Millisecond), want: "1h"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := since(tc.t, now); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSinceStart(t *testing.T) {
	now := time.Date(2024, 8, 5, 17, 23, 22, 700_000_000, time.UTC)
	started := metav1.NewTime(now.Add(-(2*time.Minute + 56*time.Second + 700*time.Millisecond)))
	// The reference rounds the update's duration for this row, so that it
	// says 2m57s where a health insight of the same start says 2m56s.
	if got, want := sinceStart(&started, now), "2m57s"; got != want {
		t.Errorf("sinceStart = %q, want %q", got, want)
	}
	if got, want := since(&started, now), "2m56s"; got != want {
		t.Errorf("since = %q, want %q", got, want)
	}
	if got, want := sinceStart(nil, now), "-"; got != want {
		t.Errorf("sinceStart(nil) = %q, want %q", got, want)
	}
}

func TestRemaining(t *testing.T) {
	now := time.Date(2024, 8, 5, 17, 0, 0, 0, time.UTC)
	started := metav1.NewTime(now.Add(-time.Hour))
	testCases := []struct {
		name      string
		left      time.Duration
		startedAt *metav1.Time
		want      string
	}{
		{name: "well ahead, to the minute", left: 29*time.Minute + 59*time.Second, startedAt: &started, want: "30m"},
		{name: "under 10 minutes, vague", left: 9 * time.Minute, startedAt: &started, want: "<10m"},
		{name: "a little past the estimate, still vague", left: -9 * time.Minute, startedAt: &started, want: "<10m"},
		{name: "well past the estimate: how long it was estimated to take", left: -34*time.Minute - 20*time.Second, startedAt: &started, want: "N/A; estimate duration was 25m"},
		{name: "well past an estimate of an update of unknown start", left: -time.Hour, want: "N/A"},
		// An update started long ago projects through the curve to years.
		{name: "further ahead than is believed: how long it was estimated to take", left: 98206 * time.Hour, startedAt: &started, want: "N/A; estimate duration was 98207h"},
		{name: "a day ahead is still believed", left: 24 * time.Hour, startedAt: &started, want: "24h"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			estimate := metav1.NewTime(now.Add(tc.left))
			cp := &ControlPlane{StartedAt: tc.startedAt, EstimatedCompletedAt: &estimate}
			if got := remaining(cp, now); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
