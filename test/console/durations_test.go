package console

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The durations status prints and the tab shows, by what each measures:
// the control plane's duration and estimate, each updating operator's
// SINCE and each health insight's Since. The two reads are moments apart,
// so a duration may differ by as much as passed between them, and by one
// unit of the coarser way of saying it (a minute where no seconds are
// said); anything else that says no duration ("<10m", "N/A; estimate
// duration was 1h24m", "-") is compared as it reads.

// statusDurations are the durations status printed.
func (s statusText) durations() map[string]string {
	d := map[string]string{}
	if v, ok := s.controlPlane["Duration"]; ok {
		duration, est, found := strings.Cut(v, " (Est. Time Remaining: ")
		d["control plane: Duration"] = duration
		if found {
			d["control plane: Est. Time Remaining"] = strings.TrimSuffix(est, ")")
		}
	}
	for _, o := range s.operators {
		if o[0] != "" {
			d["operator "+o[0]+": SINCE"] = o[1]
		}
	}
	for _, h := range s.health {
		if h.since != "" {
			d["health "+h.message+": Since"] = h.since
		}
	}
	return d
}

// shownDurations are the durations the tab showed.
func shownDurations(p *pageFacts) map[string]string {
	d := map[string]string{}
	if cp := p.ControlPlane; cp != nil && cp.Completed == nil {
		if v, ok := cp.Terms["Duration"]; ok {
			d["control plane: Duration"] = v
		}
		if v, ok := cp.Terms["Est. Time Remaining"]; ok {
			// The tab says the estimated finish beside it; status does not.
			v, _, _ = strings.Cut(v, " (estimated finish ")
			d["control plane: Est. Time Remaining"] = v
		}
	}
	for _, o := range p.Operators {
		if o[0] != "" {
			d["operator "+o[0]+": SINCE"] = o[1]
		}
	}
	for _, h := range p.Health {
		if v, ok := h.Terms["Since"]; ok {
			d["health "+h.Message+": Since"] = v
		}
	}
	return d
}

// shortDurationOf says d as Go does, to the second.
func shortDurationOf(d time.Duration) string {
	return d.Truncate(time.Second).String()
}

// parseShown reads a duration as status and the tab say it: "now" is
// none, and the unit is the smallest the text says.
func parseShown(s string) (d, unit time.Duration, ok bool) {
	if s == "now" {
		return 0, time.Second, true
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, 0, false
	}
	unit = time.Hour
	switch {
	case strings.HasSuffix(s, "s"):
		unit = time.Second
	case strings.HasSuffix(s, "m"):
		unit = time.Minute
	}
	return d, unit, true
}

// checkDurations says where the tab's durations (got) differ from status's
// (want) by more than the elapsed time between the two reads allows.
func checkDurations(t *testing.T, want, got map[string]string, elapsed time.Duration) {
	t.Helper()
	if diff := cmp.Diff(slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got))); diff != "" {
		t.Errorf("the durations the tab shows (+) are not those status prints (-):\n%s", diff)
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			continue
		}
		if !durationsAgree(w, g, elapsed) {
			t.Errorf("%s: the tab shows %q, status printed %q, %v apart", k, g, w, elapsed.Truncate(time.Millisecond))
		}
	}
}

// durationsAgree says whether two durations read elapsed apart agree.
func durationsAgree(want, got string, elapsed time.Duration) bool {
	w, wUnit, wOK := parseShown(want)
	g, gUnit, gOK := parseShown(got)
	if !wOK || !gOK {
		return want == got
	}
	diff := g - w
	if diff < 0 {
		diff = -diff
	}
	return diff <= elapsed+max(wUnit, gUnit)
}

func TestDurationsAgree(t *testing.T) {
	for _, tc := range []struct {
		name, want, got string
		elapsed         time.Duration
		agree           bool
	}{
		{name: "seconds apart by what passed", want: "1m10s", got: "1m13s", elapsed: 2500 * time.Millisecond, agree: true},
		{name: "seconds apart by more", want: "1m10s", got: "1m20s", elapsed: 2 * time.Second},
		{name: "minutes said: a minute more may show", want: "1h24m", got: "1h25m", elapsed: time.Second, agree: true},
		{name: "the years of a recording never moved", want: "1h4m41s", got: "26988h27m", elapsed: time.Second},
		{name: "now and a second later", want: "now", got: "1s", elapsed: 500 * time.Millisecond, agree: true},
		{name: "a remaining time falls as time passes", want: "23m", got: "22m", elapsed: time.Second, agree: true},
		{name: "words compared as they read", want: "N/A; estimate duration was 1h24m", got: "N/A; estimate duration was 1h24m", agree: true},
		{name: "words that differ", want: "<10m", got: "N/A; estimate duration was 1h24m"},
		{name: "none and a duration", want: "-", got: "8s", elapsed: 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := durationsAgree(tc.want, tc.got, tc.elapsed); got != tc.agree {
				t.Errorf("durationsAgree(%q, %q, %v) = %v, want %v", tc.want, tc.got, tc.elapsed, got, tc.agree)
			}
		})
	}
}
