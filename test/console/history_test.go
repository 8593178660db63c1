package console

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/historyview"
)

// historyDir holds the records docs/history.md's examples read and what
// history prints of them at historyNow (pkg/historyview's goldens, and
// list.json), and under cases/ the records the console plugin's port of
// pkg/historyview is held to besides, with what history prints of them.
var (
	historyDir = filepath.Join("..", "testdata", "golden", "history")
	historyNow = "2026-12-03T12:00:00Z"
	// historyGoldens are the goldens of each record's postmortem.
	historyGoldens = map[string]string{"4.16.12-20261120-090000": "completed", "4.16.13-20261203-113000": "progressing"}
)

// TestHistoryCases holds the files under cases/, which the plugin's unit
// tests hold its port to, to what history prints of their records now.
func TestHistoryCases(t *testing.T) {
	dir := filepath.Join(historyDir, "cases")
	records, err := historyview.ReadRecords(filepath.Join(dir, "records.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		out, err := exec.Command(operatorBinary, append([]string{"history", "--from", filepath.Join(dir, "records.yaml"), "--now", historyNow}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("history %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	want := map[string]string{"list.txt": run(), "list.json": run("-o", "json")}
	for _, r := range records {
		want[r.Name+".txt"], want[r.Name+".json"] = run(r.Name), run(r.Name, "-o", "json")
	}
	for name, out := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(out, string(got)); diff != "" {
			t.Errorf("cases/%s is not what history prints now (-printed +file); write it again with the command in console-plugin/src/__tests__/history.spec.ts:\n%s", name, diff)
		}
	}
}

// TestHistoryInTheBrowser creates the documented UpdateRecords
// (test/testdata/golden/history/records.yaml) on a cluster that is not
// updating, whose operator then records nothing of its own, and compares
// the tab's update history, its clock fixed at the goldens' moment, with
// what history prints at that --now against the same API server (which
// must be the goldens): every row of the list, in order; then, each update
// chosen in turn, its postmortem's head, tables, pools and events, and
// its timeline: a bar per operator and per pool seen updating, where its
// times put it, the operators not seen starting counted; each stall's
// band and each span not observed where its times put them; the start,
// the control plane's completion (or where an update in progress was last
// seen) and the update's, its pools with it, marked; each estimate at the
// completion it gave.
func TestHistoryInTheBrowser(t *testing.T) {
	c := startCluster(t, "not-upgrading", 0)
	records, err := historyview.ReadRecords(filepath.Join(historyDir, "records.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	v1 := c.insights.InsightsV1alpha1()
	for _, r := range records {
		created, err := v1.UpdateRecords().Create(ctx, &insightsv1alpha1.UpdateRecord{ObjectMeta: metav1.ObjectMeta{Name: r.Name}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Status = r.Status
		if _, err := v1.UpdateRecords().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("UpdateRecord %s: %v", r.Name, err)
		}
	}
	c.settle(t, 3*time.Second)
	out := c.command(t, "history", "--now", historyNow)
	checkHistoryGolden(t, "list.txt", out)
	checkHistoryGolden(t, "list.json", c.command(t, "history", "--now", historyNow, "-o", "json"))
	want := columnsAt(strings.Split(strings.TrimRight(out, "\n"), "\n"), []string{"TO", "FROM", "STARTED", "STATE", "DURATION", "CONTROL PLANE", "STALLS", "COMPLETION VS ESTIMATE"})
	var chosen []string
	for _, r := range historyview.List(records, mustTime(t, historyNow)).Updates {
		chosen = append(chosen, r.Record)
	}

	var facts historyFacts
	browse(t, browseSpec{URL: c.standin.URL, Mode: "history", Now: historyNow, Records: chosen, Screenshot: "history.png"}, &facts)
	var shown [][]string
	for i, r := range facts.Rows {
		shown = append(shown, r.Cells)
		if i < len(chosen) && r.Record != chosen[i] {
			t.Errorf("row %d is of %s, history's of %s", i, r.Record, chosen[i])
		}
	}
	if diff := cmp.Diff(want, shown); diff != "" {
		t.Errorf("the history's rows (+) are not what history printed (-):\n%s\nhistory printed:\n%s", diff, out)
	}
	if len(facts.Unseen) > 0 {
		t.Errorf("the history says of updates seen a minute ago that they were not seen since: %q", facts.Unseen)
	}
	if len(facts.Postmortems) != len(records) {
		t.Fatalf("%d postmortems shown of %d updates chosen", len(facts.Postmortems), len(records))
	}
	for _, shown := range facts.Postmortems {
		t.Run(shown.Record, func(t *testing.T) {
			text := c.command(t, "history", shown.Record, "--now", historyNow)
			checkHistoryGolden(t, historyGoldens[shown.Record]+".txt", text)
			var p historyview.Postmortem
			if err := json.Unmarshal([]byte(c.command(t, "history", shown.Record, "--now", historyNow, "-o", "json")), &p); err != nil {
				t.Fatal(err)
			}
			want := parsePostmortem(text, &p)
			got := shown
			got.Picture = nil
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the postmortem (+) is not what history printed (-):\n%s\nhistory printed:\n%s", diff, text)
			}
			for _, r := range records {
				if r.Name == shown.Record {
					checkPicture(t, &r, &shown)
				}
			}
		})
	}
}

// checkPicture holds the timeline drawn to the record: what is drawn, and
// where, on the scale its start and end markers set.
func checkPicture(t *testing.T, r *insightsv1alpha1.UpdateRecord, shown *postmortemFacts) {
	t.Helper()
	pic := shown.Picture
	if pic == nil {
		t.Fatal("no timeline drawn")
	}
	s := &r.Status
	end, endMarker := s.ObservedUntil.Time, "last-seen"
	if s.ControlPlaneCompletedAt != nil {
		end, endMarker = s.ControlPlaneCompletedAt.Time, "completed"
	}
	markers := []string{"started", endMarker}
	// The update's completion, its pools with its control plane, where
	// that came later.
	if c := s.CompletedAt; c != nil && (s.ControlPlaneCompletedAt == nil || c.After(s.ControlPlaneCompletedAt.Time)) {
		markers = append(markers, "update-completed")
	}
	var drawnMarkers []string
	for m := range pic.Markers {
		drawnMarkers = append(drawnMarkers, m)
	}
	if !cmp.Equal(sortedCopy(markers), sortedCopy(drawnMarkers)) {
		t.Fatalf("the markers drawn are %v, not %v", pic.Markers, markers)
	}
	x0, x1 := pic.Markers["started"], pic.Markers[endMarker]
	perMs := (x1 - x0) / float64(end.Sub(s.StartedAt.Time).Milliseconds())
	at := func(tm time.Time) float64 { return x0 + perMs*float64(tm.Sub(s.StartedAt.Time).Milliseconds()) }
	near := func(what string, got, want float64) {
		if math.Abs(got-want) > 0.5 {
			t.Errorf("%s is drawn at %.1f, not %.1f where its time puts it", what, got, want)
		}
	}

	if x, ok := pic.Markers["update-completed"]; ok {
		near("the update's completion", x, at(s.CompletedAt.Time))
	}

	var operators []string
	unseen := 0
	for _, o := range s.ClusterOperators {
		switch {
		case o.StartedAt != nil:
			operators = append(operators, o.Name)
		case o.Updated:
			unseen++
		}
	}
	var drawn []string
	for _, b := range pic.Operators {
		drawn = append(drawn, b.Name)
		for _, o := range s.ClusterOperators {
			if o.Name != b.Name {
				continue
			}
			until := s.ObservedUntil.Time
			if o.CompletedAt != nil {
				until = o.CompletedAt.Time
			}
			near("ClusterOperator "+o.Name+"'s start", b.X, at(o.StartedAt.Time))
			near("ClusterOperator "+o.Name+"'s end", b.X+b.Width, at(until))
			if b.Open != (o.CompletedAt == nil) {
				t.Errorf("ClusterOperator %s is drawn open %v, completed at %v", o.Name, b.Open, o.CompletedAt)
			}
		}
	}
	if diff := cmp.Diff(operators, drawn); diff != "" {
		t.Errorf("the operators drawn (+) are not those seen updating (-):\n%s", diff)
	}

	// The pools seen beginning, by their start, each to its completion.
	pools := []insightsv1alpha1.PoolUpdateRecord{}
	for _, pool := range s.Pools {
		if pool.StartedAt != nil {
			pools = append(pools, pool)
		}
	}
	sort.SliceStable(pools, func(i, j int) bool { return pools[i].StartedAt.Before(pools[j].StartedAt) })
	if len(pic.Pools) != len(pools) {
		t.Fatalf("%d pools drawn of the %d seen beginning: %+v", len(pic.Pools), len(pools), pic.Pools)
	}
	for i, pool := range pools {
		b := pic.Pools[i]
		if b.Name != pool.Name || b.Open != (pool.CompletedAt == nil) {
			t.Errorf("pool %d is drawn as %+v, not %s completed at %v", i, b, pool.Name, pool.CompletedAt)
			continue
		}
		near("pool "+pool.Name+"'s start", b.X, at(pool.StartedAt.Time))
		if pool.CompletedAt != nil {
			near("pool "+pool.Name+"'s end", b.X+b.Width, at(pool.CompletedAt.Time))
		}
	}
	wantUnseen := "<nil>"
	if unseen > 0 {
		wantUnseen = plural(unseen, "ClusterOperator") + " updated unseen, with no start to draw"
	}
	if got := deref(pic.Unseen); got != wantUnseen {
		t.Errorf("the timeline says %q of the operators not seen starting, not %q", got, wantUnseen)
	}

	// The stalls, each a band in its level's colour, by name.
	bands := map[string]drawnSpan{}
	for _, b := range pic.Stalls {
		bands[b.Name+" "+b.Level] = b.drawnSpan
	}
	if len(bands) != len(s.Stalls) {
		t.Errorf("%d stall bands drawn of the record's %d: %+v", len(bands), len(s.Stalls), pic.Stalls)
	}
	for _, st := range s.Stalls {
		band, ok := bands[st.Name+" "+string(st.Level)]
		if !ok {
			t.Errorf("no band of the %s stall %s", st.Level, st.Name)
			continue
		}
		start := st.FirstSeenAt.Time
		if st.StartedAt != nil {
			start = st.StartedAt.Time
		}
		near("stall "+st.Name+"'s start", band.X, at(start))
		if st.EndedAt != nil {
			near("stall "+st.Name+"'s end", band.X+band.Width, at(st.EndedAt.Time))
		}
	}

	if len(pic.NotObserved) != len(s.NotObserved) {
		t.Fatalf("%d spans drawn not observed, of the record's %d", len(pic.NotObserved), len(s.NotObserved))
	}
	for i, span := range s.NotObserved {
		drawn := pic.NotObserved[i]
		if drawn.Label != "not observed" || drawn.Since {
			t.Errorf("the span not observed from %s is said %q", span.From, drawn.Label)
		}
		near("the span not observed's start", drawn.X, at(span.From.Time))
		near("the span not observed's end", drawn.X+drawn.Width, at(span.To.Time))
	}

	var estimates []int32
	for _, e := range s.Estimates {
		if e.EstimatedCompletedAt == nil {
			continue
		}
		estimates = append(estimates, e.Percent)
		for _, d := range pic.Estimates {
			if d.Percent == e.Percent {
				near("the estimate at "+e.ObservedAt.UTC().Format(time.RFC3339), d.X, at(e.EstimatedCompletedAt.Time))
			}
		}
	}
	var drawnEstimates []int32
	for _, d := range pic.Estimates {
		drawnEstimates = append(drawnEstimates, d.Percent)
	}
	if diff := cmp.Diff(estimates, drawnEstimates); diff != "" {
		t.Errorf("the estimates drawn (+) are not the record's (-):\n%s", diff)
	}
}

// sortedCopy is strs sorted, strs unchanged.
func sortedCopy(strs []string) []string {
	out := append([]string(nil), strs...)
	sort.Strings(out)
	return out
}

// checkHistoryGolden fails unless what history printed from the API
// server is the golden it prints from the documented file: the records
// were loaded as documented.
func checkHistoryGolden(t *testing.T, name, got string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(historyDir, name))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Fatalf("history printed from the API server not %s (-want +got):\n%s", name, diff)
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// plural says n things, as the plugin does: "1 ClusterOperator".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
