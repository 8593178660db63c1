// Package eta estimates when a control plane update will complete, with the
// curve and arithmetic that `oc adm upgrade status` uses, so that the estimate
// agrees with what administrators already see. It is pure: inputs and a clock
// reading in, an estimate out.
package eta

import (
	"math"
	"time"

	configv1 "github.com/openshift/api/config/v1"
)

const (
	// DefaultBaseline is the expected duration of an update when the cluster
	// has completed no update before (apart from its installation).
	DefaultBaseline = 60 * time.Minute

	// projectionThreshold is how long progress must have been observed before
	// the estimate projects from it instead of from the baseline.
	projectionThreshold = 5 * time.Minute

	// overestimate pads a positive remaining time (and shrinks an overdue
	// one): administrators are better served by an update finishing early.
	overestimate = 1.2

	// minutePrecisionAbove is the remaining time above which the estimate
	// is rounded to the minute rather than the second.
	minutePrecisionAbove = 10 * time.Minute
)

// Input is what an estimate is made from.
type Input struct {
	// StartedAt is when the update started.
	StartedAt time.Time
	// LastObservedProgress is when the share of updated operators last changed.
	LastObservedProgress time.Time
	// Now is the clock reading the estimate is made at.
	Now time.Time
	// Updated and Total count the payload ClusterOperators: those at the
	// target version, and all of them.
	Updated, Total int
	// Baseline is the expected duration of the whole update.
	Baseline time.Duration
	// Past is the cluster's recorded updates; when usable the estimate
	// projects along their curve from their duration, instead of along
	// TimewiseCompletion from Baseline.
	Past *Past
}

// Remaining returns how long the update is expected to take from in.Now. It
// is negative when the update has run past its estimate.
func Remaining(in Input) time.Duration {
	if done(in) {
		return 0
	}
	remaining := totalSeconds(in) - in.Now.Sub(in.StartedAt).Seconds()
	if remaining >= 0 {
		remaining *= overestimate
	} else {
		remaining /= overestimate
	}

	// Whole seconds first (truncated, as the reference does), then the
	// precision a person needs.
	estimate := wholeSeconds(remaining)
	if estimate > minutePrecisionAbove {
		return estimate.Round(time.Minute)
	}
	return estimate
}

// Due is when the projection runs out: the update's start plus its
// projected duration, unpadded and to the nanosecond (Remaining truncates to
// whole seconds only after subtracting the time elapsed). Remaining is below
// -d once Now is past Due by Overdue(d), and it stays so while the inputs
// other than Now stay. It is the zero time for an update whose operators are
// all updated, which is never overdue.
func Due(in Input) time.Time {
	if done(in) {
		return time.Time{}
	}
	total := totalSeconds(in)
	if limit := maxEstimate.Seconds(); total >= limit {
		return in.StartedAt.Add(maxEstimate)
	}
	return in.StartedAt.Add(time.Duration(total * float64(time.Second)))
}

// Overdue is how long past Due the update must run for Remaining to reach
// -d: Remaining shrinks an overdue time by the padding.
func Overdue(d time.Duration) time.Duration {
	return time.Duration(float64(d) * overestimate)
}

func done(in Input) bool { return in.Total > 0 && in.Updated >= in.Total }

// totalSeconds is the update's projected duration: from when progress was
// last seen, so that an update that stopped making progress sees its
// estimate slip as time passes, or else the baseline.
func totalSeconds(in Input) float64 {
	var x float64
	if in.Total > 0 {
		x = float64(in.Updated) / float64(in.Total)
	}
	curve, baseline := TimewiseCompletion, in.Baseline
	if in.Past.usable() {
		curve, baseline = in.Past.Completion, in.Past.Duration
	}
	if toLastProgress := in.LastObservedProgress.Sub(in.StartedAt); x > 0 && toLastProgress > projectionThreshold {
		if tw := curve(x); tw > 0 {
			return toLastProgress.Seconds() / tw
		}
	}
	return baseline.Seconds()
}

// maxEstimate is the longest estimate, a whole number of minutes within
// what a Duration holds.
const maxEstimate = time.Duration(math.MaxInt64 / int64(time.Minute) * int64(time.Minute))

// wholeSeconds truncates seconds to whole seconds, saturating at
// maxEstimate either way: a baseline or a projection of centuries (from
// times no real update has) must not wrap around to an estimate of the
// other sign.
func wholeSeconds(seconds float64) time.Duration {
	switch limit := maxEstimate.Seconds(); {
	case seconds >= limit:
		return maxEstimate
	case seconds <= -limit:
		return -maxEstimate
	}
	return time.Duration(seconds) * time.Second
}

// TimewiseCompletion maps the fraction x (0..1) of ClusterOperators updated to
// the fraction of the update's wall time that has typically passed by then.
// The polynomials were fitted on one reference cluster: about 97% of operators
// are done at about 67% of the time. The value is negative for x below about
// 0.012 and jumps slightly at 0.25 and 0.9.
func TimewiseCompletion(x float64) float64 {
	switch {
	case x < 0.25:
		return -0.03078788 + 2.62886*x - 3.823954*x*x
	case x < 0.9:
		return 0.1851215 + 1.64994*x - 4.676898*x*x + 5.451824*x*x*x - 2.125286*x*x*x*x
	default:
		return 25053.32 - 107394.3*x + 172527.2*x*x - 123107*x*x*x + 32921.81*x*x*x*x
	}
}

// Baseline returns the duration of the most recent completed update before
// the current one, skipping history[0] (the current update) and the last
// entry (usually the installation). Without one it returns DefaultBaseline.
func Baseline(history []configv1.UpdateHistory) time.Duration {
	if len(history) < 3 {
		return DefaultBaseline
	}
	for i := 1; i < len(history)-1; i++ {
		h := &history[i]
		if h.State != configv1.CompletedUpdate || h.CompletionTime == nil || h.StartedTime.IsZero() {
			continue
		}
		if d := h.CompletionTime.Sub(h.StartedTime.Time); d > 0 {
			return d
		}
	}
	return DefaultBaseline
}
