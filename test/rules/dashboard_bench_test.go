package rules

import (
	"context"
	"slices"
	"testing"
	"time"
)

// dashboardRuns is how many times the benchmark runs each query: the
// median is the figure, the spread shows the machine's noise.
const dashboardRuns = 7

// BenchmarkDashboardQueries measures each query of the dashboard against
// a Prometheus holding 1,000 clusters over 4 hours as ACM stores them, as
// Grafana runs it: an instant query at the window's end, or a range query
// over the window at the push interval's step. It logs each query's
// median latency and reports the series the storage holds. Setting the
// storage up takes a minute or two: run it once, -benchtime 1x, as
// hack/measure-performance.sh does.
func BenchmarkDashboardQueries(b *testing.B) {
	_, d, err := LoadDashboard(DashboardFile)
	if err != nil {
		b.Fatal(err)
	}
	pr, err := LoadPrometheusRule(ManifestFile)
	if err != nil {
		b.Fatal(err)
	}
	tsdb, err := ServeFleet(b, NewFleet(fleetSize), pr, dashboardWindow)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	series, err := tsdb.Query(ctx, `count(last_over_time({__name__=~".+"}[`+promDuration(dashboardWindow)+`]))`, tsdb.End)
	if err != nil || len(series) != 1 {
		b.Fatalf("counting the series: %v, %v", series, err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var total float64
		for _, p := range d.Panels {
			for _, q := range p.Targets {
				kind := "instant"
				if q.Range {
					kind = "range"
				}
				var took []time.Duration
				for run := 0; run < dashboardRuns; run++ {
					start := time.Now()
					if q.Range {
						_, err = tsdb.QueryRange(ctx, Expand(q.Expr), tsdb.Start, tsdb.End, PushInterval)
					} else {
						_, err = tsdb.Query(ctx, Expand(q.Expr), tsdb.End)
					}
					if err != nil {
						b.Fatalf("%s/%s: %v", p.Title, q.RefID, err)
					}
					took = append(took, time.Since(start))
				}
				slices.Sort(took)
				median := took[len(took)/2]
				total += ms(median)
				b.Logf("query %-46s %s %-7s median %6.1f ms (min %.1f, max %.1f, %d runs)", p.Title, q.RefID, kind, ms(median), ms(took[0]), ms(took[len(took)-1]), len(took))
			}
		}
		b.ReportMetric(total, "ms-all-queries")
	}
	for _, v := range series[0].Values {
		b.ReportMetric(v, "series")
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
