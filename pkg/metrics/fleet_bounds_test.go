package metrics

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/component-base/metrics"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// maxFleetSeries bounds the fleet metrics' series of one cluster: what the
// hub stores per managed cluster whatever its size. The design has 55.
const (
	maxFleetSeries    = 60
	designFleetSeries = 55
)

// fleetSeriesPerMetric are the design's series of each fleet metric: a
// metric documented as absent at times has at most as many.
var fleetSeriesPerMetric = map[string]int{
	ControlPlaneAssessmentMetric:         5,
	ControlPlaneCompletionRatioMetric:    1,
	ControlPlaneEstimatedRemainingMetric: 1,
	PoolCompletionRatioMetric:            3,
	PoolNodesMetric:                      21,
	HealthInsightsMetric:                 5,
	InformersOfflineMetric:               1,
	PlanFindingsMetric:                   8,
	PlanAnsweredMetric:                   1,
	PlanReadyMetric:                      1,
	ConfigRolloutInProgressMetric:        1,
	NodesDrainHeldMetric:                 1,
	DrainHeldLongestMetric:               1,
	LastUpdateControlPlaneDurationMetric: 1,
	LastUpdateStallMetric:                1,
	LastUpdateEstimateLateMetric:         3,
}

// seriesPerMetric are the design's series of each fleet metric on a cluster
// of the topology given: a hosted one has the nodepool kind's pool series
// in place of the three MachineConfigPool kinds'.
func seriesPerMetric(topology hosted.Topology) map[string]int {
	if topology != hosted.Hosted {
		return fleetSeriesPerMetric
	}
	series := maps.Clone(fleetSeriesPerMetric)
	series[PoolCompletionRatioMetric] = len(FleetNodePoolKinds)
	series[PoolNodesMetric] = len(FleetNodePoolKinds) * len(FleetNodePhases)
	return series
}

// mayBeAbsent are the fleet metrics documented as absent at times.
var mayBeAbsent = []string{
	ControlPlaneCompletionRatioMetric,
	ControlPlaneEstimatedRemainingMetric,
	PoolCompletionRatioMetric,
	PlanAnsweredMetric,
	LastUpdateControlPlaneDurationMetric,
	LastUpdateStallMetric,
	LastUpdateEstimateLateMetric,
}

// clusterAt is a cluster in the middle of an update with that many nodes
// in the master, worker and a custom pool, every node phase taken, the 3
// pools' insights, health insights about operators ClusterOperators and as
// many about nodes, the drains of a worker in a hundred (at least one)
// held by two pods each, informers offline, plans with many findings and
// the records of as many updates as a cluster keeps, each completed one
// with the most stalls and an estimate at every percent: every fleet
// series present.
func clusterAt(masters, workers, custom, operators int) fleetInput {
	reasons := []string{
		insightsv1alpha1.NodePending, insightsv1alpha1.NodeDraining, insightsv1alpha1.NodeUpdating, insightsv1alpha1.NodeRebooting,
		insightsv1alpha1.NodePaused, insightsv1alpha1.NodeCompleted, insightsv1alpha1.NodeCannotDetermine,
	}
	in := fleetInput{clusterVersions: cvs(controlPlane(insightsv1alpha1.ClusterVersionAssessmentProgressing, at(now.Add(time.Hour))))}
	counts := map[string]int32{}
	for i := range masters + workers + custom {
		p := "infra"
		switch {
		case i < masters:
			p = "master"
		case i < masters+workers:
			p = "worker"
		}
		counts[p]++
		in.nodes = append(in.nodes, node(fmt.Sprintf("node-%05d", i), p, reasons[i%len(reasons)], i%97 == 5))
	}
	for _, p := range []string{"master", "worker", "infra"} {
		in.pools = append(in.pools, pool(p, "Progressing", counts[p], counts[p]/2))
	}
	levels := []insightsv1alpha1.InsightImpactLevel{insightsv1alpha1.UnknownImpactLevel, insightsv1alpha1.InfoImpactLevel,
		insightsv1alpha1.WarningImpactLevel, insightsv1alpha1.ErrorImpactLevel, insightsv1alpha1.CriticalImpactLevel}
	impacts := []insightsv1alpha1.InsightImpactType{insightsv1alpha1.APIAvailabilityImpactType, insightsv1alpha1.UpdateSpeedImpactType,
		insightsv1alpha1.ClusterCapacityImpactType, insightsv1alpha1.UpdateStalledImpactType}
	for i := range operators {
		h := health(fmt.Sprintf("co-%d", i), insightsv1alpha1.ScopeTypeControlPlane, impacts[i%len(impacts)])
		h.Status.Impact.Level = levels[i%len(levels)]
		h.Status.Scope.Resources = []insightsv1alpha1.ResourceRef{{Group: "config.openshift.io", Resource: "clusteroperators", Name: fmt.Sprintf("operator-%d", i)}}
		in.health = append(in.health, h)
		h = health(fmt.Sprintf("node-%d", i), insightsv1alpha1.ScopeTypeWorkerPool, impacts[i%len(impacts)])
		h.Status.Impact.Level = levels[(i+1)%len(levels)]
		h.Status.Scope.Resources = []insightsv1alpha1.ResourceRef{{Resource: "nodes", Name: fmt.Sprintf("node-%05d", i)}}
		in.health = append(in.health, h)
	}
	for i := range heldDrains(workers) {
		node := fmt.Sprintf("node-%05d", masters+i)
		in.health = append(in.health, drainInsights(node, now,
			drainHeld(fmt.Sprintf("db-%d", i), now.Add(-time.Duration(i+2)*time.Minute)), drainHeld(fmt.Sprintf("cache-%d", i), now.Add(-2*time.Minute)))...)
	}
	var offline []string
	for i := range 20 {
		offline = append(offline, updatestatus.OfflineUIDPrefix+fmt.Sprintf("informer-%d", i))
	}
	in.statuses = []*insightsv1alpha1.UpdateStatus{updateStatus(metav1.ConditionFalse,
		insightsv1alpha1.InformerInsights{Name: updatestatus.BuiltinInformer, Insights: uids(offline...)},
		insightsv1alpha1.InformerInsights{Name: "mco", Insights: uids(slices.Repeat([]string{"x"}, 1000)...)},
	)}
	findingLevels := []insightsv1alpha1.UpdateInsightLevel{insightsv1alpha1.StatusInsightLevel, insightsv1alpha1.InfoInsightLevel,
		insightsv1alpha1.WarningInsightLevel, insightsv1alpha1.ErrorInsightLevel, insightsv1alpha1.CriticalInsightLevel}
	for p := range 5 {
		var findings []finding
		for i := range 1000 {
			findings = append(findings, finding{level: findingLevels[i%len(findingLevels)], accepted: i%3 == 0, pool: []string{"", "worker", "infra"}[i%3]})
		}
		in.plans = append(in.plans, plan(fmt.Sprintf("4.16.%d", p), started.Add(time.Duration(p)*time.Minute), metav1.ConditionTrue, metav1.ConditionFalse, findings...))
	}
	// As many records as the cluster keeps, an update in progress the
	// last.
	for i := range updaterecord.MaxRecords - 1 {
		start := started.Add(-time.Duration(i+1) * 24 * time.Hour)
		var stalls []insightsv1alpha1.UpdateStall
		for j := range insightsv1alpha1.UpdateRecordMaxStalls {
			stalls = append(stalls, stall(fmt.Sprintf("stall-%d", j), start.Add(time.Duration(j)*time.Minute), time.Time{}))
		}
		in.records = append(in.records, completedRecord(fmt.Sprintf("4.15.%d", i), start, time.Hour, stalls,
			estimate(25, at(start.Add(time.Hour))), estimate(50, at(start)), estimate(75, at(start.Add(2*time.Hour)))))
	}
	in.records = append(in.records, updateRecord("4.16.0", started, insightsv1alpha1.UpdateRecordProgressing, time.Hour))
	return in
}

// heldDrains is how many of that many workers clusterAt holds the drains
// of.
func heldDrains(workers int) int {
	return max(1, workers/100)
}

// scrapeHTTP serves the collectors as the operator does and reads /metrics
// as Prometheus does, in the text exposition format.
func scrapeHTTP(t *testing.T, collectors ...metrics.StableCollector) map[string]*dto.MetricFamily {
	t.Helper()
	registry := metrics.NewKubeRegistry()
	registry.CustomMustRegister(collectors...)
	server := httptest.NewServer(metrics.HandlerFor(registry, metrics.HandlerOpts{ErrorHandling: metrics.HTTPErrorOnError}))
	defer server.Close()
	resp, err := http.Get(server.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s", resp.Status)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("GET /metrics: Content-Type %q, want the text format", ct)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return families
}

// TestFleetSeriesAreBounded reads /metrics at 5,000 nodes, 3 pools, 50
// operators, 100 health insights, 40 drains held by 2 pods each and 50
// UpdateRecords (49 completed of 64 stalls each): the
// fleet metrics have the design's series, as many as on a cluster of 5
// nodes, and no label the hub's collector would overwrite or drop.
func TestFleetSeriesAreBounded(t *testing.T) {
	counts := map[int]int{}
	for _, size := range []struct{ masters, workers, custom int }{{3, 1, 1}, {3, 4000, 997}} {
		nodeCount := size.masters + size.workers + size.custom
		t.Run(fmt.Sprintf("%d nodes", nodeCount), func(t *testing.T) {
			in := clusterAt(size.masters, size.workers, size.custom, 50)
			held := heldDrains(size.workers)
			if len(in.nodes) != nodeCount || len(in.pools) != 3 || len(in.health) != 100+2*held {
				t.Fatalf("built %d nodes, %d pools, %d health insights", len(in.nodes), len(in.pools), len(in.health))
			}
			families := scrapeHTTP(t, in.collectors(t)...)

			perMetric := map[string]int{}
			total := 0
			for _, name := range FleetMetricNames {
				f, ok := families[name]
				if !ok {
					t.Errorf("%s is not served", name)
					continue
				}
				perMetric[name] = len(f.GetMetric())
				total += len(f.GetMetric())
			}
			t.Logf("%d fleet series at %d nodes: %v", total, nodeCount, perMetric)
			if total > maxFleetSeries {
				t.Errorf("%d fleet series, want at most %d", total, maxFleetSeries)
			}
			if diff := cmp.Diff(fleetSeriesPerMetric, perMetric); diff != "" {
				t.Errorf("series per fleet metric differ from the design's (-design +got):\n%s", diff)
			}
			counts[nodeCount] = total

			// Every node is counted but those of a phase the insight
			// cannot determine, unless degraded.
			var counted float64
			for _, m := range families[PoolNodesMetric].GetMetric() {
				counted += m.GetGauge().GetValue()
			}
			var want float64
			for i := range nodeCount {
				if i%7 != 6 || i%97 == 5 {
					want++
				}
			}
			if counted != want {
				t.Errorf("%s counts %v nodes, want %v", PoolNodesMetric, counted, want)
			}
			// Each held node once, the longest held since its first
			// pod's block.
			drains := seriesOf(slices.Values([]*dto.MetricFamily{families[NodesDrainHeldMetric], families[DrainHeldLongestMetric]}))
			wantDrains := drainSeries(float64(held), float64((held+1)*60))
			if diff := cmp.Diff(wantDrains, drains); diff != "" {
				t.Errorf("drain series (-want +got):\n%s", diff)
			}

			for name, f := range families {
				for _, m := range f.GetMetric() {
					for _, l := range m.GetLabel() {
						if ACMReservedLabel(l.GetName()) {
							t.Errorf("%s has label %q, which ACM's collector sets or drops", name, l.GetName())
						}
					}
				}
			}
		})
	}
	if counts[5] != counts[5000] || counts[5000] != designFleetSeries {
		t.Errorf("fleet series: %d at 5 nodes, %d at 5,000, want %d at both", counts[5], counts[5000], designFleetSeries)
	}
}

// TestFleetLabelValuesAreClosed scrapes the fleet metrics over many random
// clusters, with values the API allows and garbage alike, and checks that
// every label takes only the declared values, that each metric has exactly
// its declared labels, and that the series that are always present are.
func TestFleetLabelValuesAreClosed(t *testing.T) {
	for name, labels := range FleetLabelValues {
		if !slices.Contains(FleetMetricNames, name) {
			t.Errorf("FleetLabelValues has %s, which is no fleet metric", name)
		}
		for label, values := range labels {
			if ACMReservedLabel(label) {
				t.Errorf("%s has label %q, which ACM's collector sets or drops", name, label)
			}
			if len(values) == 0 || len(slices.Compact(slices.Sorted(slices.Values(values)))) != len(values) {
				t.Errorf("%s{%s} values %q: want some, each once", name, label, values)
			}
		}
	}
	for _, name := range FleetMetricNames {
		if _, ok := FleetLabelValues[name]; !ok {
			t.Errorf("FleetLabelValues lacks %s", name)
		}
	}

	r := rand.New(rand.NewPCG(28, 2026))
	seen := map[string]map[string]map[string]bool{}
	for i := range 300 {
		in := randomCluster(r)
		registry := metrics.NewKubeRegistry()
		registry.CustomMustRegister(in.collectors(t)...)
		gathered, err := registry.Gather()
		if err != nil {
			t.Fatal(err)
		}
		perMetric := map[string]int{}
		for _, f := range gathered {
			name := f.GetName()
			declared, fleet := FleetLabelValues[name]
			if !fleet {
				continue
			}
			perMetric[name] = len(f.GetMetric())
			for _, m := range f.GetMetric() {
				var labelNames []string
				for _, l := range m.GetLabel() {
					labelNames = append(labelNames, l.GetName())
					if !slices.Contains(declared[l.GetName()], l.GetValue()) {
						t.Errorf("input %d: %s{%s=%q}: not one of %q", i, name, l.GetName(), l.GetValue(), declared[l.GetName()])
					}
					if seen[name] == nil {
						seen[name] = map[string]map[string]bool{}
					}
					if seen[name][l.GetName()] == nil {
						seen[name][l.GetName()] = map[string]bool{}
					}
					seen[name][l.GetName()][l.GetValue()] = true
				}
				slices.Sort(labelNames)
				if want := slices.Sorted(maps.Keys(declared)); !slices.Equal(labelNames, want) {
					t.Errorf("input %d: %s has labels %q, want %q", i, name, labelNames, want)
				}
			}
		}
		for name, want := range seriesPerMetric(in.clusterTopology()) {
			got := perMetric[name]
			if slices.Contains(mayBeAbsent, name) {
				if got > want {
					t.Errorf("input %d: %s has %d series, want at most %d", i, name, got, want)
				}
			} else if got != want {
				t.Errorf("input %d: %s has %d series, want always %d", i, name, got, want)
			}
		}
	}
	// Varied enough: every declared value was taken.
	for name, labels := range FleetLabelValues {
		for label, values := range labels {
			for _, v := range values {
				if !seen[name][label][v] {
					t.Errorf("no input gave %s{%s=%q}", name, label, v)
				}
			}
		}
	}
}

// randomCluster is a cluster of a few insights, each field drawn from the
// values the API allows and garbage.
func randomCluster(r *rand.Rand) fleetInput {
	pick := func(values ...string) string { return values[r.IntN(len(values))] }
	some := func(n int) int { return r.IntN(n + 1) }
	var in fleetInput

	if r.IntN(5) > 0 {
		cv := controlPlane(insightsv1alpha1.ClusterVersionAssessment(pick("Progressing", "Completed", "Degraded", "Unknown", "", "Slow", "Stalled", "progressing", "Exploding")), nil)
		if r.IntN(2) == 0 {
			cv.Status.EstimatedCompletedAt = at(now.Add(time.Duration(r.IntN(7200)-3600) * time.Second))
		}
		cv.Status.CompletionPercent = int32(r.IntN(250) - 50)
		in.clusterVersions = cvs(cv)
	}
	for i := range some(6) {
		h := health(fmt.Sprintf("h-%d", i), insightsv1alpha1.ScopeType(pick("ControlPlane", "WorkerPool", "", "Elsewhere")),
			insightsv1alpha1.InsightImpactType(pick("Update Speed", "Update Stalled", "API Availability", "None", "", "update stalled", "Chaos")))
		h.Status.Impact.Level = insightsv1alpha1.InsightImpactLevel(pick("Unknown", "Info", "Warning", "Error", "Critical", "", "critical", "Severe"))
		in.health = append(in.health, h)
	}
	poolNames := []string{"master", "worker", "infra", "gpu", "", "Worker", "MASTER", "pool with spaces/and=signs"}
	for i := range some(4) {
		p := pool(pick(poolNames...), pick("Progressing", "Completed", "Pending", "Paused", rollingOut, "", "Exploding"),
			int32(r.IntN(20)-2), int32(r.IntN(20)-2))
		p.Name = fmt.Sprintf("%s-%d", p.Name, i)
		if r.IntN(3) == 0 {
			p.Status.Summaries = nil
		}
		p.Status.Conditions[0].Status = metav1.ConditionStatus(pick("True", "False", "Unknown", ""))
		in.pools = append(in.pools, p)
	}
	for i := range some(30) {
		n := node(fmt.Sprintf("n-%d", i), pick(poolNames...),
			pick("Pending", "Draining", "Updating", "Rebooting", "Paused", "Completed", "CannotDetermine", "", "Updated", "Degraded", "Exploding"),
			r.IntN(4) == 0)
		for j := range n.Status.Conditions {
			if r.IntN(8) == 0 {
				n.Status.Conditions[j].Status = metav1.ConditionStatus(pick("True", "False", "Unknown", "", "Maybe"))
			}
		}
		in.nodes = append(in.nodes, n)
	}
	if r.IntN(4) > 0 {
		var insights []string
		for range some(4) {
			insights = append(insights, pick(updatestatus.OfflineUIDPrefix+pick("a", "b", "c"), "x", ""))
		}
		in.statuses = []*insightsv1alpha1.UpdateStatus{updateStatus(metav1.ConditionStatus(pick("True", "False", "Unknown", "")),
			insightsv1alpha1.InformerInsights{Name: pick(updatestatus.BuiltinInformer, "mco"), Insights: uids(insights...)})}
	}
	for i := range some(3) {
		var findings []finding
		for range some(12) {
			findings = append(findings, finding{
				level:    insightsv1alpha1.UpdateInsightLevel(pick("status", "info", "warning", "error", "critical", "", "Critical", "fatal")),
				accepted: r.IntN(2) == 0,
				pool:     pick("", "worker", "infra"),
			})
		}
		status := func() metav1.ConditionStatus {
			return metav1.ConditionStatus(pick("True", "False", "Unknown", "", "Yes"))
		}
		p := plan(fmt.Sprintf("4.16.%d", i), started.Add(time.Duration(r.IntN(3))*time.Hour), status(), status(), findings...)
		p.Spec.EvaluationRequest = pick("1", "2")
		in.plans = append(in.plans, p)
	}
	// Drains held on nodes of any name, the pods' blocks from 10 minutes
	// ahead of the clock to 2 hours behind it.
	for range some(3) {
		var pods []drain.Pod
		for i := range 1 + r.IntN(2) {
			pods = append(pods, drainHeld(fmt.Sprintf("db-%d", i), now.Add(-time.Duration(r.IntN(7800)-600)*time.Second)))
		}
		in.health = append(in.health, drainInsights(pick("n-0", "n-1", "", "node with spaces/and=signs"), now, pods...)...)
	}
	// Records in any state, their estimates at any percent, the API's and
	// others, at times one twice, with or without an estimated completion,
	// and with or without the control plane's completion.
	for i := range some(3) {
		start := started.Add(-time.Duration(r.IntN(3)) * time.Hour)
		rec := updateRecord(fmt.Sprintf("4.16.%d", i), start, insightsv1alpha1.UpdateRecordState(pick("Progressing", "Completed", "Abandoned", "", "completed")),
			time.Duration(r.IntN(7200))*time.Second)
		if r.IntN(4) > 0 {
			rec.Status.ControlPlaneCompletedAt = at(rec.Status.ObservedUntil.Time)
		}
		for range some(4) {
			var estimated *metav1.Time
			if r.IntN(3) > 0 {
				estimated = at(start.Add(time.Duration(r.IntN(7200)) * time.Second))
			}
			rec.Status.Estimates = append(rec.Status.Estimates, estimate([]int32{25, 50, 75, 0, 30, 100}[r.IntN(6)], estimated))
		}
		for j := range some(3) {
			var ended time.Time
			if r.IntN(2) == 0 {
				ended = start.Add(time.Duration(r.IntN(7200)) * time.Second)
			}
			rec.Status.Stalls = append(rec.Status.Stalls, stall(fmt.Sprintf("s-%d", j), start, ended))
		}
		in.records = append(in.records, rec)
	}
	// A hosted cluster, a time in four: its pools and nodes are NodePools',
	// but some, garbage, a MachineConfigPool's.
	if r.IntN(4) == 0 {
		in.topology = hosted.Hosted
		for _, p := range in.pools {
			if r.IntN(5) > 0 {
				ref := hosted.NodePool(p.Status.Name)
				p.Status.Resource = &ref
			}
		}
		for _, n := range in.nodes {
			if r.IntN(5) > 0 {
				n.Status.PoolResource = hosted.NodePool(n.Status.PoolResource.Name)
			}
		}
	}
	return in
}

// BenchmarkScrapeFleetMetrics measures one scrape of the fleet collector at
// 5,000 nodes, 3 pools, 180 health insights (80 about 40 drains held), 5
// plans of 1,000 findings and 50 UpdateRecords.
func BenchmarkScrapeFleetMetrics(b *testing.B) {
	in := clusterAt(3, 4000, 997, 50)
	l := in.listers(b)
	registry := metrics.NewKubeRegistry()
	registry.CustomMustRegister(NewFleetCollector(l, hosted.Standalone, clocktesting.NewFakePassiveClock(now)))

	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		families, err := registry.Gather()
		if err != nil {
			b.Fatal(err)
		}
		if len(families) != 14 {
			b.Fatalf("gathered %d families, want 14", len(families))
		}
	}
}
