package updateinformers

import (
	"time"

	"golang.org/x/time/rate"
)

// An UpdateInformer names a host the operator calls, so whoever may create
// UpdateInformers could make the operator probe the network from its pod.
// The calls of each informer are paced so that this costs time:
//
//   - calls the controller scheduled (every interval, the heartbeat, a
//     retry) are made when due;
//   - after failed calls in a row, the retry waits the interval, doubled
//     after each further failure, up to maxBackoffIntervals intervals;
//   - a call sooner than scheduled, which a change asks for (a new or
//     edited informer, its Service's endpoints, an update starting), takes
//     a token of the informer's own bucket (earlyBurst tokens, one more per
//     interval) and of the controller's bucket shared by all informers
//     (sharedEarlyBurst tokens, one more per sharedEarlyEvery); without
//     both, it waits for them or for its schedule, whichever comes first.
//
// So an informer edited again and again to name other hosts is called
// about once an interval, and a flood of new informers a few times a
// second in all.
const (
	maxBackoffIntervals = 8

	earlyBurst = 3

	sharedEarlyBurst = 20
	sharedEarlyEvery = 250 * time.Millisecond
)

// pace is the pacing of one informer's calls.
type pace struct {
	interval time.Duration
	// failures counts the failed calls in a row.
	failures int
	// scheduled is when the controller scheduled the next call; zero
	// before the first, which is a call sooner than scheduled.
	scheduled time.Time
	early     *rate.Limiter
}

func newPace(interval time.Duration) *pace {
	return &pace{interval: interval, early: rate.NewLimiter(rate.Every(interval), earlyBurst)}
}

// newSharedEarly returns the controller's bucket of calls sooner than
// scheduled.
func newSharedEarly() *rate.Limiter {
	return rate.NewLimiter(rate.Every(sharedEarlyEvery), sharedEarlyBurst)
}

func (p *pace) failed()    { p.failures++ }
func (p *pace) succeeded() { p.failures = 0 }

// retry is when a call after the failure at now is scheduled.
func (p *pace) retry(now time.Time) time.Time {
	limit := maxBackoffIntervals * p.interval
	d := p.interval
	for i := 1; i < p.failures && d < limit; i++ {
		d *= 2
	}
	return now.Add(min(d, limit))
}

// due says whether the call the controller scheduled is due at now.
func (p *pace) due(now time.Time) bool {
	return !p.scheduled.IsZero() && !now.Before(p.scheduled)
}

// mayCallEarly says whether a call sooner than scheduled may be made at
// now, taking a token of the informer's bucket and of shared if so; if
// not, it takes none and says when both buckets will have one.
func (p *pace) mayCallEarly(now time.Time, shared *rate.Limiter) (bool, time.Time) {
	own, all := p.early.ReserveN(now, 1), shared.ReserveN(now, 1)
	at := now.Add(max(own.DelayFrom(now), all.DelayFrom(now)))
	if !at.After(now) {
		return true, now
	}
	own.CancelAt(now)
	all.CancelAt(now)
	return false, at
}
