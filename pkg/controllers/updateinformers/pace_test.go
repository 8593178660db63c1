package updateinformers

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/time/rate"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
)

// Failed calls in a row back off from the interval, doubling, up to
// maxBackoffIntervals intervals; a success starts again from the interval.
func TestRetriesBackOffAfterFailuresInARow(t *testing.T) {
	p := newPace(time.Minute)
	var got []time.Duration
	for range 6 {
		p.failed()
		got = append(got, p.retry(now).Sub(now))
	}
	p.succeeded()
	p.failed()
	got = append(got, p.retry(now).Sub(now))
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 8 * time.Minute, 8 * time.Minute, time.Minute}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("retries after failures in a row (-want +got):\n%s", diff)
	}
}

// Calls sooner than scheduled draw on the informer's bucket, which refills
// one call an interval, and on the bucket all informers share.
func TestCallsSoonerThanScheduledAreLimited(t *testing.T) {
	for _, tc := range []struct {
		name   string
		shared *rate.Limiter
		// at are the times, after now, of the calls asked for.
		at   []time.Duration
		want []string
	}{
		{
			name:   "a burst, then one an interval",
			shared: newSharedEarly(),
			at:     []time.Duration{0, 0, 0, 0, 30 * time.Second, time.Minute, time.Minute},
			want:   []string{"now", "now", "now", "at 1m0s", "at 1m0s", "now", "at 2m0s"},
		},
		{
			name:   "the shared bucket empty",
			shared: rate.NewLimiter(rate.Every(time.Second), 1),
			at:     []time.Duration{0, 0, time.Second},
			want:   []string{"now", "at 1s", "now"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPace(time.Minute)
			var got []string
			for _, d := range tc.at {
				at := now.Add(d)
				ok, when := p.mayCallEarly(at, tc.shared)
				if ok {
					got = append(got, "now")
				} else {
					got = append(got, "at "+when.Sub(now).String())
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

// The call the controller scheduled is due at its time, and a first call,
// never scheduled, is not.
func TestTheScheduledCallIsDueAtItsTime(t *testing.T) {
	p := newPace(time.Minute)
	if p.due(now) {
		t.Error("a first call is due, want it sooner than scheduled")
	}
	p.scheduled = now.Add(time.Second)
	if p.due(now) || !p.due(now.Add(time.Second)) {
		t.Errorf("scheduled at +1s: due now %t, at +1s %t; want false, true", p.due(now), p.due(now.Add(time.Second)))
	}
}

// unavailable is an informer that answers every request 503, counting them.
func unavailable(t *testing.T) (*httptest.Server, *informertest.CA, *atomic.Int32) {
	t.Helper()
	var requests atomic.Int32
	ca := informertest.NewCA(t)
	srv := informertest.NewTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}), ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	return srv, ca, &requests
}

// A failing informer is called again on its schedule, which backs off;
// syncs between (the echo of its own status write) call it no sooner.
func TestAFailingInformerIsRetriedOnItsBackingOffSchedule(t *testing.T) {
	srv, ca, requests := unavailable(t)
	h := newHarness(t, true, urlInformer("mco", srv.URL, ca.PEM))

	type try struct {
		Requests int32
		Queued   time.Duration
	}
	var got []try
	for _, wait := range []time.Duration{0, 0, DefaultInterval, 0, 2 * DefaultInterval, 4 * DefaultInterval, 8 * DefaultInterval} {
		h.clock.Step(wait)
		h.sync("mco")
		got = append(got, try{Requests: requests.Load(), Queued: h.lastQueued})
	}
	want := []try{
		{Requests: 1, Queued: DefaultInterval},
		{Requests: 1, Queued: DefaultInterval},
		{Requests: 2, Queued: 2 * DefaultInterval},
		{Requests: 2, Queued: 2 * DefaultInterval},
		{Requests: 3, Queued: 4 * DefaultInterval},
		{Requests: 4, Queued: 8 * DefaultInterval},
		{Requests: 5, Queued: 8 * DefaultInterval},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tries (-want +got):\n%s", diff)
	}
}

// An informer edited again and again to name other hosts is called at
// once a few times, then once an interval.
func TestAnInformerEditedAgainAndAgainIsCalledAboutOnceAnInterval(t *testing.T) {
	srv, ca, requests := unavailable(t)
	i := urlInformer("mco", srv.URL, ca.PEM)
	h := newHarness(t, true, i)

	var got []int32
	for n := range 6 {
		if n > 0 {
			i.Spec.ClientConfig.URL = ptr.To(srv.URL + "/" + strconv.Itoa(n))
			h.edit(i)
			i.Generation++
		}
		h.sync("mco")
		got = append(got, requests.Load())
	}
	if diff := cmp.Diff([]int32{1, 2, 3, 3, 3, 3}, got); diff != "" {
		t.Errorf("requests after each edit (-want +got):\n%s", diff)
	}
	if h.lastQueued != DefaultInterval {
		t.Errorf("the last edit is called after %s, want %s, when its bucket has a call again", h.lastQueued, DefaultInterval)
	}
	h.clock.Step(DefaultInterval)
	h.sync("mco")
	if got := requests.Load(); got != 4 {
		t.Errorf("%d requests an interval later, want 4", got)
	}
}
