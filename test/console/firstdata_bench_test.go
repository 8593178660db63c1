package console

import (
	"sort"
	"testing"
	"time"
)

// BenchmarkTabFirstData opens the tab on a recorded cluster mid-update
// grown to 250 nodes (its workers cloned) and reports, in milliseconds
// from the navigation's start, when the first data shows (the control
// plane's card) and when every node row status prints is shown and the
// page settled; the median of five openings. It is a figure to print
// (make measure), not a limit to assert: a busy machine may exceed it.
func BenchmarkTabFirstData(b *testing.B) {
	const nodes = 250
	c := startCluster(b, "4.16.0-ec2-control-plane-updated-pdb-prohibits-draining", nodes)
	c.settle(b, 3*time.Second)
	// The rows status prints: the control plane's nodes, all updated, are
	// a line of their own.
	want := len(parseStatus(c.command(b, "status", "--details=all")).nodes)
	var first, settled []float64
	for range 5 {
		var facts pageFacts
		r := browse(b, browseSpec{URL: c.standin.URL, Mode: "tab"}, &facts)
		rows := 0
		for _, p := range facts.Pools {
			rows += len(p.Nodes)
		}
		if rows != want {
			b.Fatalf("the tab shows %d node rows, status --details=all %d", rows, want)
		}
		first = append(first, r.Timings.FirstData)
		settled = append(settled, r.Timings.Settled)
	}
	b.ReportMetric(median(first), "ms-first-data")
	// settled includes the second the page must stay unchanged.
	b.ReportMetric(median(settled)-1000, "ms-all-rows")
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}
