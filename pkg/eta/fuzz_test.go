package eta

import (
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The times a ClusterVersion can hold: RFC 3339, years 0 to 9999, to the
// second.
var (
	minTime = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	maxTime = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
)

func apiTime(seconds int64) time.Time {
	span := maxTime - minTime + 1
	return time.Unix(minTime+((seconds%span)+span)%span, 0).UTC()
}

// FuzzRemaining estimates from arbitrary times the API can hold and
// arbitrary counts: no estimate once every operator is updated; otherwise
// an estimate that is positive while the projected end is ahead and
// negative once it has passed (never flipped by an overflow), rounded to
// the minute above ten minutes, the same for the same input.
func FuzzRemaining(f *testing.F) {
	start := time.Date(2024, 8, 2, 10, 0, 0, 0, time.UTC).Unix()
	f.Add(start, start+600, start+900, 10, 30, int64(time.Hour))
	f.Add(start, start+400, start+7200, 29, 30, int64(0))
	f.Add(start, start, start, 0, 0, int64(DefaultBaseline))
	f.Add(start, start+3600, start+3600, 1, 80, int64(90*time.Minute))
	f.Fuzz(func(t *testing.T, started, progressed, now int64, updated, total int, baseline int64) {
		in := Input{StartedAt: apiTime(started), LastObservedProgress: apiTime(progressed), Now: apiTime(now), Updated: updated, Total: total, Baseline: time.Duration(baseline)}
		got := Remaining(in)
		if again := Remaining(in); again != got {
			t.Fatalf("%s, then %s", got, again)
		}
		if total > 0 && updated >= total {
			if got != 0 {
				t.Errorf("every operator updated, yet %s remain", got)
			}
			return
		}
		if got > minutePrecisionAbove && got%time.Minute != 0 {
			t.Errorf("%s is not rounded to the minute", got)
		}
		// What the estimate projects, in seconds, as Remaining does it.
		projected := in.Baseline.Seconds()
		var x float64
		if total > 0 {
			x = float64(updated) / float64(total)
		}
		if d := in.LastObservedProgress.Sub(in.StartedAt); x > 0 && d > projectionThreshold {
			if tw := TimewiseCompletion(x); tw > 0 {
				projected = d.Seconds() / tw
			}
		}
		ahead := projected - in.Now.Sub(in.StartedAt).Seconds()
		if (ahead >= 1 && got < 0) || (ahead <= -2 && got > 0) {
			t.Errorf("the projected end is %.0fs ahead, yet the estimate is %s", ahead, got)
		}
	})
}

// FuzzBaseline reads arbitrary histories: the baseline is a positive
// duration.
func FuzzBaseline(f *testing.F) {
	start := time.Date(2024, 8, 2, 10, 0, 0, 0, time.UTC).Unix()
	f.Add(start, start+3600, uint8(3), true)
	f.Add(start, start-1, uint8(5), true)
	f.Fuzz(func(t *testing.T, started, completed int64, entries uint8, complete bool) {
		history := make([]configv1.UpdateHistory, int(entries)%8)
		for i := range history {
			history[i] = configv1.UpdateHistory{State: configv1.PartialUpdate, StartedTime: metav1.NewTime(apiTime(started + int64(i)))}
			if complete {
				history[i].State = configv1.CompletedUpdate
				c := metav1.NewTime(apiTime(completed - int64(i)))
				history[i].CompletionTime = &c
			}
		}
		if b := Baseline(history); b <= 0 {
			t.Errorf("baseline %s", b)
		}
	})
}
