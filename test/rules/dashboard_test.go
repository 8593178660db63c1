package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/update-insights/update-insights-operator/pkg/metrics"
	"github.com/update-insights/update-insights-operator/test/internal/prometheus"
)

// What ACM's grafana-dashboard-loader reads (the ConfigMap's header
// comment cites its code): the namespace Grafana runs in, the label that
// selects a custom dashboard, the annotation that names its folder; and
// the datasource ACM provisions, Observatorium, by its fixed uid.
const (
	acmNamespace      = "open-cluster-management-observability"
	acmDashboardLabel = "grafana-custom-dashboard"
	acmFolderKey      = "observability.open-cluster-management.io/dashboard-folder"
)

var acmDatasource = Datasource{Type: "prometheus", UID: "000000001"}

// hubMetrics are the metrics the dashboard may read: a hub has the fleet
// metrics of the operator, and the ALERTS and cluster_version that ACM
// federates by default, and nothing else of ours.
var hubMetrics = append([]string{"ALERTS", "cluster_version"}, fleetMetrics...)

func loadDashboard(t *testing.T) (*corev1.ConfigMap, *Dashboard) {
	t.Helper()
	cm, d, err := LoadDashboard(DashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	return cm, d
}

func TestDashboardIsWhatACMsLoaderReads(t *testing.T) {
	cm, d := loadDashboard(t)
	var keys []string
	for k := range cm.Data {
		keys = append(keys, k)
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"kind", cm.APIVersion + " " + cm.Kind, "v1 ConfigMap"},
		{"namespace, Grafana's, the only one the loader lists", cm.Namespace, acmNamespace},
		{"label selecting it", cm.Labels[acmDashboardLabel], "true"},
		// Without it, the loader files it under Custom with every other.
		{"folder named", cm.Annotations[acmFolderKey] != "", true},
		{"no binaryData, which the loader ignores", len(cm.BinaryData), 0},
		{"one data key, a .json", len(keys) == 1 && strings.HasSuffix(keys[0], ".json"), true},
		// The uid names the dashboard in Grafana, which takes up to 40
		// characters: a uid the loader would otherwise derive from the
		// ConfigMap's name changes with it.
		{"uid set, at most 40 characters", d.UID != "" && len(d.UID) <= 40, true},
		{"title", d.Title, "OpenShift updates across the fleet"},
		// ACM's Grafana 11 dashboards' schema; an older one is migrated
		// on load, a newer one is not understood.
		{"schemaVersion", d.SchemaVersion, 39},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Every datasource reference, wherever Grafana reads one, is ACM's
// Observatorium by uid: a reference by name, or to the default, breaks on
// a hub whose Grafana has another.
func TestDashboardReadsACMsDatasource(t *testing.T) {
	cm, d := loadDashboard(t)
	var tree any
	for _, value := range cm.Data {
		if err := json.Unmarshal([]byte(value), &tree); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]any{"type": acmDatasource.Type, "uid": acmDatasource.UID}
	found := 0
	var walk func(path string, node any)
	walk = func(path string, node any) {
		switch n := node.(type) {
		case map[string]any:
			for k, v := range n {
				if k == "datasource" {
					found++
					if diff := cmp.Diff(want, v); diff != "" {
						t.Errorf("%s.datasource (-want +got):\n%s", path, diff)
					}
					continue
				}
				walk(path+"."+k, v)
			}
		case []any:
			for i, v := range n {
				walk(fmt.Sprintf("%s[%d]", path, i), v)
			}
		}
	}
	walk("", tree)
	wantFound := len(d.Panels) + len(d.Templating.List)
	for _, p := range d.Panels {
		wantFound += len(p.Targets)
	}
	if found != wantFound {
		t.Errorf("%d datasource references, want one on each panel, target and variable: %d", found, wantFound)
	}
}

func TestDashboardPanels(t *testing.T) {
	_, d := loadDashboard(t)
	if n := len(d.Panels); n < 8 || n > 12 {
		t.Errorf("%d panels: a dashboard read at a glance has a dozen at most", n)
	}
	ids, titles := map[int]bool{}, map[string]bool{}
	for _, p := range d.Panels {
		t.Run(p.Title, func(t *testing.T) {
			if ids[p.ID] || p.ID == 0 {
				t.Errorf("id %d is 0 or not unique", p.ID)
			}
			if titles[p.Title] {
				t.Errorf("the title is not unique")
			}
			ids[p.ID], titles[p.Title] = true, true
			if len(p.Targets) == 0 {
				t.Errorf("no query")
			}
			refs := map[string]bool{}
			for _, q := range p.Targets {
				if refs[q.RefID] || q.RefID == "" {
					t.Errorf("refId %q is empty or not unique", q.RefID)
				}
				refs[q.RefID] = true
				// A time series panel draws a range; the others show the
				// latest values.
				if want := p.Type == "timeseries"; q.Range != want || q.Instant == want {
					t.Errorf("%s: range %t, instant %t on a %s panel", q.RefID, q.Range, q.Instant, p.Type)
				}
			}
			g := p.GridPos
			if g.X < 0 || g.W <= 0 || g.H <= 0 || g.X+g.W > 24 {
				t.Errorf("gridPos %+v is not within Grafana's 24 columns", g)
			}
			for _, o := range d.Panels {
				h := o.GridPos
				if o.ID != p.ID && g.X < h.X+h.W && h.X < g.X+g.W && g.Y < h.Y+h.H && h.Y < g.Y+g.H {
					t.Errorf("overlaps %q", o.Title)
				}
			}
		})
	}
}

// The cluster variable lists the clusters that run the operator, and lets
// one choose several or all.
func TestDashboardClusterVariable(t *testing.T) {
	_, d := loadDashboard(t)
	got := d.Templating.List
	want := []Variable{{
		Name: "cluster", Type: "query", Datasource: acmDatasource,
		Query:      "label_values(update_insights_control_plane_assessment, cluster)",
		IncludeAll: true, Multi: true, AllValue: ".*",
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("template variables (-want +got):\n%s", diff)
	}
}

var (
	// selector is a series selector: a metric's name and its matchers.
	selector = regexp.MustCompile(`([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}`)
	// perCluster is a selector reduced to one series per cluster, as the
	// PrometheusRule reduces them.
	perCluster = regexp.MustCompile(`\b(?:max|min) by \(cluster, clusterID(?:, \w+)*\) \(last_over_time\([a-zA-Z_:][a-zA-Z0-9_:]*\{[^}]*\}\[10m\]\)\)`)
	// The parts of an expression that hold no metric name: strings,
	// matchers, durations, label lists.
	quoted     = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	matchers   = regexp.MustCompile(`\{[^}]*\}`)
	durations  = regexp.MustCompile(`\[[^\]]*\]`)
	labelLists = regexp.MustCompile(`\b(?:by|on|without|ignoring|group_left|group_right)\s*\([^)]*\)`)
	identifier = regexp.MustCompile(`([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*[({]?)`)
)

// The PromQL the dashboard may use besides selectors: a function or
// operator outside this list wants a look at how it behaves on a fleet
// store before it is added.
var (
	promqlCalls     = []string{"count", "max", "min", "topk", "last_over_time"}
	promqlOperators = []string{"and"}
)

// Every query reads only what a hub has of ours, through the $cluster
// filter, and reduces each selector to one series per cluster with
// last_over_time(...[10m]): ACM pushes a sample every 300 s, so an instant
// selector's 5-minute lookback misses some, and the operator's pod label
// changes when it restarts (see the PrometheusRule's header).
func TestDashboardQueriesFollowTheFleetConventions(t *testing.T) {
	_, d := loadDashboard(t)
	for _, p := range d.Panels {
		for _, q := range p.Targets {
			t.Run(p.Title+"/"+q.RefID, func(t *testing.T) {
				selectors := selector.FindAllStringSubmatch(q.Expr, -1)
				if len(selectors) == 0 {
					t.Fatalf("no selector in %s", q.Expr)
				}
				for _, s := range selectors {
					if !slices.Contains(hubMetrics, s[1]) {
						t.Errorf("reads %s, which a hub does not have: only %v", s[1], hubMetrics)
					}
					if !slices.Contains(strings.Split(s[2], ", "), `cluster=~"$cluster"`) {
						t.Errorf("%s is not filtered by the variable: cluster=~\"$cluster\"", s[0])
					}
				}
				if n := len(perCluster.FindAllString(q.Expr, -1)); n != len(selectors) {
					t.Errorf("%d of %d selectors reduced per cluster as `max by (cluster, clusterID[, label]) (last_over_time(selector[10m]))` (or min): %s", n, len(selectors), q.Expr)
				}
				rest := labelLists.ReplaceAllString(durations.ReplaceAllString(matchers.ReplaceAllString(quoted.ReplaceAllString(q.Expr, `""`), "{}"), "[]"), "")
				for _, m := range identifier.FindAllStringSubmatch(rest, -1) {
					name, next := m[1], strings.TrimSpace(m[2])
					switch {
					case slices.Contains(promqlOperators, name):
					case next == "{":
						// A selector, checked above.
					case next == "(":
						if !slices.Contains(promqlCalls, name) {
							t.Errorf("calls %s, which is not among %v", name, promqlCalls)
						}
					default:
						t.Errorf("%s is a selector without matchers, or an operator not among %v", name, promqlOperators)
					}
				}
			})
		}
	}
}

// result is a query's result, or what it should be: each series' value
// by its labels (key), at each time of a range query (at).
type result map[string]float64

func key(labels map[string]string) string {
	parts := make([]string, 0, len(labels))
	for k, v := range labels {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func at(k string, t time.Duration) string { return k + "@" + t.String() }

func clusterKey(c *Cluster, labels ...string) string {
	m := map[string]string{"cluster": c.Name, "clusterID": c.ID}
	for i := 0; i+1 < len(labels); i += 2 {
		m[labels[i]] = labels[i+1]
	}
	return key(m)
}

// lastOver is what last_over_time(metric[10m]) gives at t for each of the
// cluster's series of a metric, one per pod of the operator: the value of
// the latest sample of the 10 minutes up to t that has one.
func (c *Cluster) lastOver(t time.Duration, value func(*snapshot) (float64, bool)) []float64 {
	var out []float64
	for pod := 0; pod < 2; pod++ {
		for s := t / PushInterval * PushInterval; s >= 0 && s >= t-10*time.Minute; s -= PushInterval {
			snap := c.sample(s)
			if !snap.present || snap.pod != pod {
				continue
			}
			if v, ok := value(&snap); ok {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

func maxOf(values []float64) (float64, bool) {
	if len(values) == 0 {
		return 0, false
	}
	return slices.Max(values), true
}

func minOf(values []float64) (float64, bool) {
	if len(values) == 0 {
		return 0, false
	}
	return slices.Min(values), true
}

func assessmentIs(a int) func(*snapshot) (float64, bool) {
	return func(s *snapshot) (float64, bool) { return boolValue(s.assessment == a), true }
}

var updatingAssessments = []int{aProgressing, aSlow, aStalled}

// assessed are the assessments whose series is 1 on some pod.
func (c *Cluster) assessed(t time.Duration, among []int) []int {
	var out []int
	for _, a := range among {
		if m, ok := maxOf(c.lastOver(t, assessmentIs(a))); ok && m == 1 {
			out = append(out, a)
		}
	}
	return out
}

func (c *Cluster) updatingAt(t time.Duration) bool {
	return len(c.assessed(t, updatingAssessments)) > 0
}

// versionsOver is what max by (version) (last_over_time(cluster_version{type=kind}[10m]))
// gives at t: each version's Unix time.
func (c *Cluster) versionsOver(t time.Duration, kind string) map[string]float64 {
	out := map[string]float64{}
	for s := t / PushInterval * PushInterval; s >= 0 && s >= t-10*time.Minute; s -= PushInterval {
		if !c.sample(s).present {
			continue
		}
		completed, updating := c.history(s)
		e := updating
		if kind == "completed" {
			e = &completed[len(completed)-1]
		}
		if e != nil {
			out[e.version] = max(out[e.version], float64(fleetStart.Add(e.at).Unix()))
		}
	}
	return out
}

// alertsSeen caches alertSeen's answers: Expected computes an alert's
// timeline from the first sample.
type alertsSeen map[*Cluster]map[string]map[time.Duration]bool

// seen says whether the cluster's ALERTS series of alert has a sample in
// the 10 minutes up to t, as WriteOpenMetrics writes them: at each push at
// which Expected can tell that the alert fires.
func (a alertsSeen) seen(c *Cluster, alert string, t time.Duration) bool {
	if a[c] == nil {
		a[c] = map[string]map[time.Duration]bool{}
	}
	if a[c][alert] == nil {
		a[c][alert] = map[time.Duration]bool{}
	}
	for s := t / PushInterval * PushInterval; s >= 0 && s >= t-10*time.Minute; s -= PushInterval {
		firing, ok := a[c][alert][s]
		if !ok {
			f, err := c.Expected(alert, s)
			firing = err == nil && len(f) > 0
			a[c][alert][s] = firing
		}
		if firing {
			return true
		}
	}
	return false
}

// panelCheck is what a panel's query should give at t, from the fleet's
// model, for the clusters the $cluster variable selects.
type panelCheck func(clusters []*Cluster, t time.Duration) result

// perClusterCheck is a check of a query that gives a series per cluster:
// add adds the cluster's.
func perClusterCheck(add func(c *Cluster, t time.Duration, r result)) panelCheck {
	return func(clusters []*Cluster, t time.Duration) result {
		r := result{}
		for _, c := range clusters {
			add(c, t, r)
		}
		return r
	}
}

// plansNotReady: a plan (answered is absent without one) whose ready is 0.
func planNotReady(c *Cluster, t time.Duration) (answered float64, ok bool) {
	answered, ok = maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) {
		return boolValue(s.plan == PlanReady || s.plan == PlanNotReady), s.plan != NoPlan
	}))
	ready, _ := maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return boolValue(s.plan == PlanReady), true }))
	return answered, ok && ready == 0
}

func unacceptedFindings(level string) panelCheck {
	return perClusterCheck(func(c *Cluster, t time.Duration, r result) {
		if _, ok := planNotReady(c, t); ok {
			r[clusterKey(c)], _ = maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return float64(findings(s.plan, level, false)), true }))
		}
	})
}

// dashboardChecks are the checks of every query, by panel title and refId.
func dashboardChecks(alerts []string, seen alertsSeen) map[string]map[string]panelCheck {
	countAssessments := func(among []int) panelCheck {
		return func(clusters []*Cluster, t time.Duration) result {
			r := result{}
			for _, c := range clusters {
				for _, a := range c.assessed(t, among) {
					r["assessment="+assessments[a]]++
				}
			}
			return r
		}
	}
	return map[string]map[string]panelCheck{
		"Clusters by control plane assessment": {"A": countAssessments([]int{aProgressing, aCompleted, aSlow, aStalled, aUnknown})},
		"Control plane updates by assessment":  {"A": countAssessments(updatingAssessments)},
		"Clusters by version": {"A": func(clusters []*Cluster, t time.Duration) result {
			r := result{}
			for _, c := range clusters {
				newest, when := "", 0.0
				for v, at := range c.versionsOver(t, "completed") {
					if at > when {
						newest, when = v, at
					}
				}
				if newest != "" {
					r["version="+newest]++
				}
			}
			return r
		}},
		"Clusters updating their control plane": {
			"A": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
				for _, a := range c.assessed(t, updatingAssessments) {
					r[clusterKey(c, "assessment", assessments[a])] = 1
				}
			}),
			"B": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
				if c.updatingAt(t) {
					r[clusterKey(c)], _ = maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return s.ratio, true }))
				}
			}),
			"C": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
				if v, ok := maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return s.remaining, s.hasEstimate })); ok && c.updatingAt(t) {
					r[clusterKey(c)] = v
				}
			}),
			"D": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
				if c.updatingAt(t) {
					for v, started := range c.versionsOver(t, "updating") {
						r[clusterKey(c, "version", v)] = 1000 * started
					}
				}
			}),
			"E": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
				var ratios []float64
				for _, kind := range []int{poolWorker, poolCustom} {
					ratios = append(ratios, c.lastOver(t, func(s *snapshot) (float64, bool) { return s.poolRatio(kind), s.poolPresent[kind] })...)
				}
				if v, ok := minOf(ratios); ok && c.updatingAt(t) {
					r[clusterKey(c)] = v
				}
			}),
		},
		"Stalled or overdue updates": {"A": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
			for _, alert := range []string{AlertStalled, AlertOverdue} {
				if seen.seen(c, alert, t) {
					r[clusterKey(c, "alertname", alert)] = 1
				}
			}
		})},
		"Update Insights alerts firing": {"A": func(clusters []*Cluster, t time.Duration) result {
			r := result{}
			for _, c := range clusters {
				for _, alert := range alerts {
					if seen.seen(c, alert, t) {
						r["alertname="+alert]++
					}
				}
			}
			return r
		}},
		"Worker pools behind a completed control plane": {"A": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
			if len(c.assessed(t, []int{aCompleted})) == 0 {
				return
			}
			for _, kind := range []int{poolWorker, poolCustom} {
				if v, ok := minOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return s.poolRatio(kind), s.poolPresent[kind] })); ok && v < 1 {
					r[clusterKey(c, "pool", poolKinds[kind])] = v
				}
			}
		})},
		"Paused pools with outdated nodes": {"A": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
			for _, kind := range []int{poolWorker, poolCustom} {
				if v, _ := maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return float64(s.nodes[kind][phasePaused]), true })); v > 0 {
					r[clusterKey(c, "pool", poolKinds[kind])] = v
				}
			}
		})},
		"Critical and Error health insights": {"A": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
			for _, level := range []int{levelError, levelCritical} {
				if v, _ := maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return float64(s.health[level]), true })); v > 0 {
					r[clusterKey(c, "level", healthLevels[level])] = v
				}
			}
		})},
		"UpdatePlans not ready": {
			"A": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
				if answered, ok := planNotReady(c, t); ok {
					r[clusterKey(c)] = answered
				}
			}),
			"B": unacceptedFindings("Critical"),
			"C": unacceptedFindings("Error"),
			"D": unacceptedFindings("Warning"),
			"E": unacceptedFindings("Info"),
		},
		"Hosted cluster control plane updates": hostedPanelChecks(),
		"Informers offline": {"A": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
			if v, _ := maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return float64(s.offline), true })); v > 0 {
				r[clusterKey(c)] = v
			}
		})},
	}
}

// dashboardWindow is how much of the fleet's life the Prometheus holds:
// the progress alerts' checkpoints, every unhealthy role playing.
const dashboardWindow = 4 * time.Hour

// instants are the times the tests run the panels' instant queries at:
// the window's end, and 70 minutes in, when a cluster has pushed nothing
// for 10 minutes and two operators have restarted.
var instants = []time.Duration{dashboardWindow, 70 * time.Minute}

// The dashboard's queries, run by a real Prometheus on a fleet of 1,000
// clusters as ACM's observability stores them, give what the fleet's model
// says they should: each panel, with every cluster or a few chosen.
//
// The ALERTS series are those WriteOpenMetrics writes from the model's
// Expected, not ALERTS a Prometheus evaluated from the rules: promtool
// backfills recording rules only, and a live evaluation cannot hold an
// alert's `for` (30 minutes, a day) over data written before it started.
// TestAlertsOnAFleet holds the rules to the same Expected, on the same
// fleet, with promtool.
func TestDashboardOnAFleet(t *testing.T) {
	_, d := loadDashboard(t)
	pr := loadRules(t)
	fleet := NewFleet(fleetSize)
	tsdb, err := ServeFleet(t, fleet, pr, dashboardWindow)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var alerts []string
	for name := range pr.Alerts() {
		alerts = append(alerts, name)
	}
	checks := dashboardChecks(alerts, alertsSeen{})

	t.Run("the variable lists every cluster", func(t *testing.T) {
		var want []string
		for _, c := range fleet.Clusters {
			want = append(want, c.Name)
		}
		got, err := tsdb.LabelValues(ctx, "cluster", "update_insights_control_plane_assessment", tsdb.Start, tsdb.End)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})

	// A few clusters, as a reader picks them: stalled, a critical
	// insight, an informer offline, a paused pool, a restart, idle.
	chosen := []*Cluster{fleet.Clusters[0], fleet.Clusters[6], fleet.Clusters[11], fleet.Clusters[15], fleet.Clusters[26], fleet.Clusters[500]}
	// And a management cluster, whose hosted cluster's update is blocked.
	for _, c := range fleet.Clusters {
		if slices.Contains(c.Plays, AlertHostedBlocked) {
			chosen = append(chosen, c)
			break
		}
	}
	var names []string
	for _, c := range chosen {
		names = append(names, c.Name)
	}
	selections := []struct {
		name     string
		clusters []*Cluster
		expr     func(string) string
	}{
		{"all clusters", fleet.Clusters, func(e string) string { return Expand(e) }},
		{strings.Join(names, ","), chosen, func(e string) string { return Expand(e, names...) }},
	}
	for _, p := range d.Panels {
		for _, q := range p.Targets {
			check, ok := checks[p.Title][q.RefID]
			if !ok {
				t.Errorf("%s/%s has no check", p.Title, q.RefID)
				continue
			}
			for _, sel := range selections {
				t.Run(p.Title+"/"+q.RefID+"/"+sel.name, func(t *testing.T) {
					want, got := result{}, result{}
					var samples []prometheus.Sample
					var err error
					if q.Range {
						samples, err = tsdb.QueryRange(ctx, sel.expr(q.Expr), tsdb.Start, tsdb.End, PushInterval)
						for step := time.Duration(0); step <= dashboardWindow; step += PushInterval {
							for k, v := range check(sel.clusters, step) {
								want[at(k, step)] = v
							}
						}
					} else {
						for _, instant := range instants {
							var s []prometheus.Sample
							s, err = tsdb.Query(ctx, sel.expr(q.Expr), tsdb.Start.Add(instant))
							if err != nil {
								break
							}
							samples = append(samples, s...)
							for k, v := range check(sel.clusters, instant) {
								want[at(k, instant)] = v
							}
						}
					}
					if err != nil {
						t.Fatal(err)
					}
					for _, s := range samples {
						for ts, v := range s.Values {
							got[at(key(s.Labels), ts.Sub(tsdb.Start))] = v
						}
					}
					if len(want) == 0 {
						t.Errorf("the model expects nothing: the check shows nothing")
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s (-want +got):\n%s", sel.expr(q.Expr), diff)
					}
				})
			}
		}
	}

	// What the panels show at the window's end, against the roles the
	// fleet's clusters play rather than the model's arithmetic.
	end := dashboardWindow
	clustersIn := func(t *testing.T, title, ref string, where func(labels map[string]string) bool) []string {
		t.Helper()
		for _, p := range d.Panels {
			for _, q := range p.Targets {
				if p.Title != title || q.RefID != ref {
					continue
				}
				samples, err := tsdb.Query(ctx, Expand(q.Expr), tsdb.End)
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, s := range samples {
					if where(s.Labels) {
						out = append(out, s.Labels["cluster"])
					}
				}
				slices.Sort(out)
				return slices.Compact(out)
			}
		}
		t.Fatalf("no panel %s with a query %s", title, ref)
		return nil
	}
	sumOf := func(t *testing.T, title string) float64 {
		t.Helper()
		for _, p := range d.Panels {
			if p.Title == title {
				samples, err := tsdb.Query(ctx, Expand(p.Targets[0].Expr), tsdb.End)
				if err != nil {
					t.Fatal(err)
				}
				sum := 0.0
				for _, s := range samples {
					for _, v := range s.Values {
						sum += v
					}
				}
				return sum
			}
		}
		t.Fatalf("no panel %s", title)
		return 0
	}
	playing := func(where func(c *Cluster) bool) []string {
		var out []string
		for _, c := range fleet.Clusters {
			if where(c) {
				out = append(out, c.Name)
			}
		}
		return out
	}
	alertIs := func(name string) func(map[string]string) bool {
		return func(l map[string]string) bool { return l["alertname"] == name }
	}
	all := func(map[string]string) bool { return true }
	roles := []struct {
		name      string
		got, want any
	}{
		{"every cluster has one assessment", sumOf(t, "Clusters by control plane assessment"), float64(fleetSize)},
		{"every cluster has one version", sumOf(t, "Clusters by version"), float64(fleetSize)},
		{"the stalled clusters are those playing a stall", clustersIn(t, "Stalled or overdue updates", "A", alertIs(AlertStalled)),
			playing(func(c *Cluster) bool { return slices.Contains(c.Plays, AlertStalled) })},
		{"the overdue clusters are those playing an overdue update", clustersIn(t, "Stalled or overdue updates", "A", alertIs(AlertOverdue)),
			playing(func(c *Cluster) bool { return slices.Contains(c.Plays, AlertOverdue) })},
		// The case ClusterVersion says done while nodes still update: the
		// worker pools' turn, and the pools left paused.
		{"worker pools behind a completed control plane", clustersIn(t, "Worker pools behind a completed control plane", "A", all),
			playing(func(c *Cluster) bool {
				u := c.Update
				updating := u != nil && !u.Migration && u.StallAt == 0 && end >= u.Start+u.Duration && end < u.Start+u.Duration+workersOr(u) && c.Workers+c.Custom > 0
				return updating || c.WorkersPaused.contains(end) || c.CustomPaused.contains(end)
			})},
		{"paused pools are those paused", clustersIn(t, "Paused pools with outdated nodes", "A", all),
			playing(func(c *Cluster) bool { return c.WorkersPaused.contains(end) || c.CustomPaused.contains(end) })},
		{"critical insights are those of the clusters that have them", clustersIn(t, "Critical and Error health insights", "A", all),
			playing(func(c *Cluster) bool { return c.Critical.contains(end) })},
		{"plans not ready are those not answered or with findings to accept", clustersIn(t, "UpdatePlans not ready", "A", all),
			playing(func(c *Cluster) bool { return c.Plan == PlanNotReady || c.Plan == PlanNotAnswered })},
		{"informers offline are those of the clusters whose are", clustersIn(t, "Informers offline", "A", all),
			playing(func(c *Cluster) bool { return c.Offline.contains(end) })},
		// The failing hosted clusters' failures ended before the window's
		// end; the blocked and stalled ones' did not.
		{"hosted clusters needing attention are those of the management clusters playing a block or a stall", clustersIn(t, "Hosted cluster control plane updates", "A",
			func(l map[string]string) bool { return l["assessment"] != hostedProgressing }),
			playing(func(c *Cluster) bool {
				return slices.Contains(c.Plays, AlertHostedBlocked) || slices.Contains(c.Plays, AlertHostedStalled)
			})},
	}
	for _, tt := range roles {
		t.Run("roles/"+tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDashboardWorkerPanelsShowNodePools: a hosted control plane's nodes
// are in HyperShift NodePools, which its fleet metrics report as the pool
// kind nodepool alone (pkg/metrics, FleetNodePoolKinds): every query that
// selects the worker pools' kinds selects NodePools too, or a hosted
// cluster's workers never show.
func TestDashboardWorkerPanelsShowNodePools(t *testing.T) {
	_, d := loadDashboard(t)
	poolMatcher := regexp.MustCompile(`pool=~"([^"]*)"`)
	for _, p := range d.Panels {
		for _, q := range p.Targets {
			for _, m := range poolMatcher.FindAllStringSubmatch(q.Expr, -1) {
				kinds := regexp.MustCompile("^(?:" + m[1] + ")$")
				if !kinds.MatchString(metrics.PoolWorker) {
					continue
				}
				for _, kind := range metrics.FleetNodePoolKinds {
					if !kinds.MatchString(kind) {
						t.Errorf("%s/%s selects the worker pools with %s, not the NodePools' kind %s", p.Title, q.RefID, m[0], kind)
					}
				}
			}
		}
	}
}
