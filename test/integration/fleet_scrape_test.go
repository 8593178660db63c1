package integration

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	"github.com/prometheus/common/model"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	insightsinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/metrics"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/test/internal/prometheus"
)

const (
	// fleetScenario is the recorded cluster run-local plays by default:
	// early in an update to 4.15.0-ec.2, three control plane nodes and
	// three workers.
	fleetScenario = "4.15.0-ec2-early"
	// fleetJob is the job label of the operator's series in the test's
	// Prometheus.
	fleetJob = "update-insights-operator"
	// fleetScrapeInterval is how often the test's Prometheus scrapes the
	// operator, and how long it waits for an answer.
	fleetScrapeInterval = time.Second
	// maxFleetSeries bounds the fleet metrics' series per cluster, which a
	// hub federates from each of thousands of clusters
	// (docs/operations.md).
	maxFleetSeries = 55
	// maxScrapesWithTheOldValue: once the insight changed, the change is
	// in the first or, should the operator's cache see it a moment after
	// the test's, the second scrape after it: within two scrape intervals.
	// Scrapes are counted rather than seconds: a busy machine delays
	// scrapes, not what each one reads.
	maxScrapesWithTheOldValue = 1
	// estimateSlack is how far the estimated remaining seconds may be from
	// what the insight's estimate says at the scrape's timestamp: the
	// operator reads its clock when it answers, within a scrape timeout
	// (the interval) of when Prometheus starts waiting, or the scrape
	// fails; a second interval covers what a busy machine delays between
	// Prometheus stamping the scrape and starting to wait. A change of the
	// estimate within the slack is no change.
	estimateSlack = 2 * fleetScrapeInterval
)

// followedMetrics are the fleet gauges the test follows through the update:
// those about the update's progress and health.
var followedMetrics = []string{
	metrics.ControlPlaneAssessmentMetric,
	metrics.ControlPlaneCompletionRatioMetric,
	metrics.ControlPlaneEstimatedRemainingMetric,
	metrics.PoolCompletionRatioMetric,
	metrics.PoolNodesMetric,
	metrics.HealthInsightsMetric,
	metrics.NodesDrainHeldMetric,
	metrics.DrainHeldLongestMetric,
}

// estimateKey and drainHeldKey are the seriesKeys of the estimated
// remaining seconds and of the seconds the longest-held drain has been.
var (
	estimateKey  = seriesKey(metrics.ControlPlaneEstimatedRemainingMetric, nil)
	drainHeldKey = seriesKey(metrics.DrainHeldLongestMetric, nil)
)

// fleetValues are the values of fleet series by seriesKey. In a view of
// the insights, the estimated remaining seconds' series holds the
// estimated completion time instead, in Unix seconds: what it counts down
// to; and the longest drain held's, when a drain is held, the time it
// began to be, in Unix seconds: what it counts up from (see at).
type fleetValues map[string]float64

// at is what a scrape at that time reads of a view of the insights: the
// estimate as the seconds remaining then, the longest drain held as the
// seconds it has been held then.
func (v fleetValues) at(t time.Time) fleetValues {
	out := maps.Clone(v)
	now := float64(t.UnixMilli()) / 1000
	if estimate, ok := v[estimateKey]; ok {
		out[estimateKey] = max(0, estimate-now)
	}
	if since := v[drainHeldKey]; since > 0 {
		out[drainHeldKey] = max(0, now-since)
	}
	return out
}

// only is the series of key alone, or none when v has no such series.
func (v fleetValues) only(key string) fleetValues {
	out := fleetValues{}
	if value, ok := v[key]; ok {
		out[key] = value
	}
	return out
}

// fleetTolerance compares the series read off a clock, the estimate's and
// the longest drain held's (seconds, or in a view the times they count
// from), to within estimateSlack, and every other series exactly.
var fleetTolerance = cmp.FilterPath(func(p cmp.Path) bool {
	index, ok := p.Last().(cmp.MapIndex)
	return ok && (index.Key().String() == estimateKey || index.Key().String() == drainHeldKey)
}, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= estimateSlack.Seconds() }))

// seriesKey names a series by its metric name and labels, as
// name{label="value",...} with the labels sorted, leaving out those
// Prometheus adds to what it scrapes.
func seriesKey(name string, labelValues map[string]string) string {
	var pairs []string
	for l, v := range labelValues {
		if l == model.MetricNameLabel || l == model.JobLabel || l == model.InstanceLabel {
			continue
		}
		pairs = append(pairs, fmt.Sprintf("%s=%q", l, v))
	}
	if len(pairs) == 0 {
		return name
	}
	sort.Strings(pairs)
	return name + "{" + strings.Join(pairs, ",") + "}"
}

func metricKey(m model.Metric) string {
	labelValues := map[string]string{}
	for l, v := range m {
		labelValues[string(l)] = string(v)
	}
	return seriesKey(string(m[model.MetricNameLabel]), labelValues)
}

// phaseOfReason is the phase the fleet counts a node in by its insight's
// Updating reason, as the API documents the reasons; a degraded node
// counts as Degraded instead (docs/operations.md).
var phaseOfReason = map[string]string{
	insightsv1alpha1.NodePending:   metrics.PhasePending,
	insightsv1alpha1.NodeDraining:  metrics.PhaseDraining,
	insightsv1alpha1.NodeUpdating:  metrics.PhaseUpdating,
	insightsv1alpha1.NodeRebooting: metrics.PhaseRebooting,
	insightsv1alpha1.NodePaused:    metrics.PhasePaused,
	insightsv1alpha1.NodeCompleted: metrics.PhaseUpdated,
}

// fleetInsights are the insights the followed gauges say.
type fleetInsights struct {
	clusterVersion *insightsv1alpha1.ClusterVersionProgressInsight
	pools          []*insightsv1alpha1.MachineConfigPoolProgressInsight
	nodes          []*insightsv1alpha1.NodeProgressInsight
	health         []*insightsv1alpha1.UpdateHealthInsight
}

// view is what the followed gauges must say of these insights, as
// docs/operations.md describes them: written from the documentation, not
// from the collector, so that the two check each other.
func (in fleetInsights) view() fleetValues {
	v := fleetValues{}

	assessment := metrics.AssessmentUnknown
	if cv := in.clusterVersion; cv != nil {
		v[seriesKey(metrics.ControlPlaneCompletionRatioMetric, nil)] = float64(cv.Status.CompletionPercent) / 100
		inProgress := map[insightsv1alpha1.ClusterVersionAssessment]string{
			insightsv1alpha1.ClusterVersionAssessmentProgressing:     metrics.AssessmentProgressing,
			insightsv1alpha1.ClusterVersionAssessmentProgressingSlow: metrics.AssessmentSlow,
			insightsv1alpha1.ClusterVersionAssessmentStalled:         metrics.AssessmentStalled,
		}
		if a, ok := inProgress[cv.Status.Assessment]; ok {
			assessment = a
			if cv.Status.EstimatedCompletedAt != nil {
				v[estimateKey] = float64(cv.Status.EstimatedCompletedAt.Unix())
			}
		} else if cv.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted {
			assessment = metrics.AssessmentCompleted
		}
	}
	for _, a := range metrics.FleetAssessments {
		v[seriesKey(metrics.ControlPlaneAssessmentMetric, map[string]string{"assessment": a})] = 0
	}
	v[seriesKey(metrics.ControlPlaneAssessmentMetric, map[string]string{"assessment": assessment})] = 1

	for _, level := range metrics.FleetHealthLevels {
		v[seriesKey(metrics.HealthInsightsMetric, map[string]string{"level": level})] = 0
	}
	for _, h := range in.health {
		if level := string(h.Status.Impact.Level); slices.Contains(metrics.FleetHealthLevels, level) {
			v[seriesKey(metrics.HealthInsightsMetric, map[string]string{"level": level})]++
		}
	}

	// The drains held: the nodes the health insights about pods holding a
	// drain name, each once, and since when the oldest of them is held.
	heldNodes := map[string]bool{}
	var oldest time.Time
	for _, h := range in.health {
		if node, _, _, ok := health.DrainHeld(h.Status.Scope.Resources); ok {
			heldNodes[node] = true
			if started := h.Status.StartedAt.Time; !started.IsZero() && (oldest.IsZero() || started.Before(oldest)) {
				oldest = started
			}
		}
	}
	v[seriesKey(metrics.NodesDrainHeldMetric, nil)] = float64(len(heldNodes))
	v[drainHeldKey] = 0
	if !oldest.IsZero() {
		v[drainHeldKey] = float64(oldest.UnixMilli()) / 1000
	}

	for _, kind := range metrics.FleetPoolKinds {
		for _, phase := range metrics.FleetNodePhases {
			v[seriesKey(metrics.PoolNodesMetric, map[string]string{"pool": kind, "phase": phase})] = 0
		}
	}
	// A pool's nodes are its node insights, or its summaries when it has
	// any, as status reads them.
	type poolNodes struct{ total, updated int }
	byPool := map[string]*poolNodes{}
	for _, n := range in.nodes {
		pool := n.Status.PoolResource.Name
		if byPool[pool] == nil {
			byPool[pool] = &poolNodes{}
		}
		byPool[pool].total++
		phase, known := "", false
		if updating := meta.FindStatusCondition(n.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating); updating != nil {
			phase, known = phaseOfReason[updating.Reason]
		}
		if phase == metrics.PhaseUpdated {
			byPool[pool].updated++
		}
		if meta.IsStatusConditionTrue(n.Status.Conditions, insightsv1alpha1.NodeProgressInsightDegraded) {
			phase, known = metrics.PhaseDegraded, true
		}
		if known {
			v[seriesKey(metrics.PoolNodesMetric, map[string]string{"pool": fleetPoolKind(pool), "phase": phase})]++
		}
	}
	for _, p := range in.pools {
		if len(p.Status.Summaries) == 0 {
			continue
		}
		var total, outdated int
		for _, s := range p.Status.Summaries {
			switch s.Type {
			case insightsv1alpha1.NodesTotal:
				total = int(s.Count)
			case insightsv1alpha1.NodesOutdated:
				outdated = int(s.Count)
			}
		}
		name := p.Status.Name
		if name == "" {
			name = p.Name
		}
		byPool[name] = &poolNodes{total: total, updated: total - outdated}
	}
	byKind := map[string]*poolNodes{}
	for pool, n := range byPool {
		kind := fleetPoolKind(pool)
		if byKind[kind] == nil {
			byKind[kind] = &poolNodes{}
		}
		byKind[kind].total += n.total
		byKind[kind].updated += n.updated
	}
	for kind, n := range byKind {
		if n.total > 0 {
			v[seriesKey(metrics.PoolCompletionRatioMetric, map[string]string{"pool": kind})] = float64(n.updated) / float64(n.total)
		}
	}
	return v
}

// fleetPoolKind is the kind of the pool of that name: master, worker, or
// custom for every other pool.
func fleetPoolKind(pool string) string {
	if pool == metrics.PoolMaster || pool == metrics.PoolWorker {
		return pool
	}
	return metrics.PoolCustom
}

// apiFleetView reads the insights from the API server and returns what the
// followed gauges must say of them.
func apiFleetView(ctx context.Context) (fleetValues, error) {
	c := insightsClient.InsightsV1alpha1()
	var in fleetInsights
	cv, err := c.ClusterVersionProgressInsights().Get(ctx, names.ClusterVersion, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		return nil, err
	default:
		in.clusterVersion = cv
	}
	pools, err := c.MachineConfigPoolProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	nodeList, err := c.NodeProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	health, err := c.UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	in.pools, in.nodes, in.health = pointers(pools.Items), pointers(nodeList.Items), pointers(health.Items)
	return in.view(), nil
}

func pointers[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

// fleetTimeline is what the followed gauges must say of the insights, as
// the test's own informers saw them change, and when: the operator's
// gauges read its informers' caches at each scrape, fed by the same watches
// of the API server.
type fleetTimeline struct {
	mu      sync.Mutex
	entries []timedFleetView
}

type timedFleetView struct {
	at     time.Time
	values fleetValues
}

// watchFleet starts informers of the insights the followed gauges read,
// stopped when the test ends, recording each change of their view.
func watchFleet(t *testing.T) *fleetTimeline {
	t.Helper()
	factory := insightsinformers.NewSharedInformerFactory(insightsClient, 0)
	i := factory.Insights().V1alpha1()
	cvs, pools, nodeInsights, health := i.ClusterVersionProgressInsights(), i.MachineConfigPoolProgressInsights(), i.NodeProgressInsights(), i.UpdateHealthInsights()
	tl := &fleetTimeline{}
	record := func() {
		tl.mu.Lock()
		defer tl.mu.Unlock()
		at := time.Now()
		var in fleetInsights
		if cv, err := cvs.Lister().Get(names.ClusterVersion); err == nil {
			in.clusterVersion = cv
		}
		// Listing a cache with labels.Everything fails never.
		in.pools, _ = pools.Lister().List(labels.Everything())
		in.nodes, _ = nodeInsights.Lister().List(labels.Everything())
		in.health, _ = health.Lister().List(labels.Everything())
		v := in.view()
		if len(tl.entries) == 0 || !maps.Equal(tl.entries[len(tl.entries)-1].values, v) {
			tl.entries = append(tl.entries, timedFleetView{at: at, values: v})
		}
	}
	handler := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { record() },
		UpdateFunc: func(any, any) { record() },
		DeleteFunc: func(any) { record() },
	}
	for _, informer := range []cache.SharedIndexInformer{cvs.Informer(), pools.Informer(), nodeInsights.Informer(), health.Informer()} {
		if _, err := informer.AddEventHandler(handler); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	factory.Start(stop)
	t.Cleanup(func() {
		close(stop)
		factory.Shutdown()
	})
	for informer, synced := range factory.WaitForCacheSync(stop) {
		if !synced {
			t.Fatalf("the test's informer of %v did not sync", informer)
		}
	}
	record()
	return tl
}

// latest is the view of the insights as the test last saw them.
func (tl *fleetTimeline) latest() fleetValues {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	if len(tl.entries) == 0 {
		return nil
	}
	return tl.entries[len(tl.entries)-1].values
}

// changedTo is when the test last saw the series of key change to what it
// is in want (present with that value, or absent, as fleetTolerance
// compares them): the start of the latest run of views in which it was,
// which later changes may have ended.
func (tl *fleetTimeline) changedTo(key string, want fleetValues) (time.Time, bool) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	same := func(i int) bool { return cmp.Equal(tl.entries[i].values.only(key), want.only(key), fleetTolerance) }
	last := len(tl.entries) - 1
	for last >= 0 && !same(last) {
		last--
	}
	if last < 0 {
		return time.Time{}, false
	}
	first := last
	for first > 0 && same(first-1) {
		first--
	}
	return tl.entries[first].at, true
}

// fleetScrape is what one scrape of the operator stored in Prometheus.
type fleetScrape struct {
	at time.Time
	// up says the scrape succeeded; a failed one stored no sample.
	up bool
	// followed are the followed series' values.
	followed fleetValues
	// fleet are the fleet series, with the labels Prometheus stored.
	fleet []model.Metric
}

// fleetPlay plays an update forward a step at a time, and checks after
// each that the test's Prometheus scraped what the insights now say.
type fleetPlay struct {
	t        *testing.T
	server   *prometheus.Server
	timeline *fleetTimeline
	// reflected is what Prometheus reflected at the end of the previous
	// step.
	reflected fleetValues
	// lags are the observed lags, for the summary.
	lags []time.Duration
}

// fleetStep is a change to the cluster, and the insights it leads to.
type fleetStep struct {
	name string
	// change is nil for none.
	change func()
	// settled says whether the insights are what the change leads to; nil
	// if the change leads to no change of the insights.
	settled func(context.Context) bool
}

// scrapes are the scrapes of the operator stored from from to to, in
// order, read at once: Prometheus commits each scrape's samples together,
// so each scrape is whole.
func (p *fleetPlay) scrapes(ctx context.Context, from, to time.Time) ([]*fleetScrape, error) {
	selector := fmt.Sprintf(`{__name__=~%q,job=%q}`, strings.Join(append([]string{"up"}, metrics.FleetMetricNames...), "|"), fleetJob)
	matrix, err := p.server.Samples(ctx, selector, from, to)
	if err != nil {
		return nil, err
	}
	byTime := map[model.Time]*fleetScrape{}
	scrape := func(at model.Time) *fleetScrape {
		if byTime[at] == nil {
			byTime[at] = &fleetScrape{at: at.Time(), followed: fleetValues{}}
		}
		return byTime[at]
	}
	for _, series := range matrix {
		name := string(series.Metric[model.MetricNameLabel])
		for _, sample := range series.Values {
			s := scrape(sample.Timestamp)
			if name == "up" {
				s.up = sample.Value == 1
				continue
			}
			s.fleet = append(s.fleet, series.Metric)
			if slices.Contains(followedMetrics, name) {
				s.followed[metricKey(series.Metric)] = float64(sample.Value)
			}
		}
	}
	scrapes := slices.Collect(maps.Values(byTime))
	slices.SortFunc(scrapes, func(a, b *fleetScrape) int { return a.at.Compare(b.at) })
	return scrapes, nil
}

// storedScrapes returns the scrapes as scrapes does, asking again while
// Prometheus fails to answer, which a busy machine may make it do.
func (p *fleetPlay) storedScrapes(what string, from, to time.Time) []*fleetScrape {
	p.t.Helper()
	var scrapes []*fleetScrape
	var lastErr error
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		scrapes, lastErr = p.scrapes(ctx, from, to)
		return lastErr == nil, nil
	})
	if err != nil {
		p.t.Fatalf("%s: reading the scrapes from Prometheus: %v: %v", what, err, lastErr)
	}
	return scrapes
}

// step makes a change to the cluster, waits until the insights are what
// it leads to, then until Prometheus' latest successful scrape says what
// the insights say, and checks how soon after the test saw each changed
// series' insight change it was scraped.
func (p *fleetPlay) step(s fleetStep) {
	t := p.t
	t.Helper()
	if s.change != nil {
		s.change()
	}
	if s.settled != nil {
		err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
			return s.settled(ctx), nil
		})
		if err != nil {
			t.Fatalf("%s: the insights did not settle: %v", s.name, err)
		}
	}

	var want fleetValues
	var last *fleetScrape
	var lastErr error
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		var err error
		if want, err = apiFleetView(ctx); err != nil {
			lastErr = err
			return false, nil
		}
		now := time.Now()
		scrapes, err := p.scrapes(ctx, now.Add(-10*fleetScrapeInterval), now)
		if err != nil {
			lastErr = err
			return false, nil
		}
		lastErr = nil
		for _, scrape := range slices.Backward(scrapes) {
			if scrape.up {
				last = scrape
				return cmp.Equal(want.at(scrape.at), scrape.followed, fleetTolerance), nil
			}
		}
		return false, nil
	})
	if err != nil {
		var diff string
		if last != nil {
			diff = cmp.Diff(want.at(last.at), last.followed, fleetTolerance)
		}
		t.Fatalf("%s: Prometheus' latest scrape does not say what the insights say (-insights +Prometheus):\n%s\nlast error: %v\nPrometheus' targets: %s",
			s.name, diff, lastErr, p.server.Targets(context.Background()))
	}

	p.measure(s.name, want, last.at)
	p.reflected = want
}

// measure finds, for each followed series the step changed, the first
// scrape of the run of scrapes that agree with the insights, up to the one
// that matched at reflectedAt, and compares it with when the test saw the
// insight change: the change must be in one of the first
// maxScrapesWithTheOldValue+1 successful scrapes after it.
func (p *fleetPlay) measure(name string, want fleetValues, reflectedAt time.Time) {
	t := p.t
	t.Helper()
	if p.reflected == nil {
		return // the first reading: nothing changed yet
	}
	// A series may also have appeared or gone.
	both := maps.Clone(want)
	maps.Copy(both, p.reflected)
	var changed []string
	for _, key := range slices.Sorted(maps.Keys(both)) {
		if !cmp.Equal(want.only(key), p.reflected.only(key), fleetTolerance) {
			changed = append(changed, key)
		}
	}
	if len(changed) == 0 {
		t.Errorf("%s: changed none of the followed gauges", name)
		return
	}

	// The test's informers may see the last change a moment after the
	// API server answered the test's reads.
	observed := map[string]time.Time{}
	err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		for _, key := range changed {
			at, ok := p.timeline.changedTo(key, want)
			if !ok {
				return false, nil
			}
			observed[key] = at
		}
		return true, nil
	})
	if err != nil {
		t.Fatalf("%s: the test's informers did not see the insights change to what the API server says (-API server +informers):\n%s",
			name, cmp.Diff(want, p.timeline.latest()))
	}

	earliest := reflectedAt
	for _, at := range observed {
		if at.Before(earliest) {
			earliest = at
		}
	}
	// Every scrape from a few before the earliest change seen: the
	// operator may have seen a change before the test.
	scrapes := p.storedScrapes(name, earliest.Add(-5*fleetScrapeInterval), time.Now())
	scrapes = slices.DeleteFunc(scrapes, func(s *fleetScrape) bool { return s.at.After(reflectedAt) })

	for _, key := range changed {
		agrees := func(s *fleetScrape) bool {
			return cmp.Equal(want.at(s.at).only(key), s.followed.only(key), fleetTolerance)
		}
		var first *fleetScrape
		for _, s := range slices.Backward(scrapes) {
			if !s.up {
				continue
			}
			if !agrees(s) {
				break
			}
			first = s
		}
		if first == nil {
			t.Errorf("%s: %s: no scrape up to %s agrees with the insights, though the one then did", name, key, reflectedAt.Format(time.RFC3339Nano))
			continue
		}
		at := observed[key]
		var oldScrapes, failedScrapes int
		for _, s := range scrapes {
			if s.at.After(at) && s.at.Before(first.at) {
				if s.up {
					oldScrapes++
				} else {
					failedScrapes++
				}
			}
		}
		lag := first.at.Sub(at)
		p.lags = append(p.lags, lag)
		value := "absent"
		if v, ok := first.followed[key]; ok {
			value = fmt.Sprint(v)
		}
		t.Logf("%s: %s = %s: insight seen changed at %s, first scraped at %s: lag %s, %d scrape(s) in between still with the old value, %d failed",
			name, key, value, at.Format("15:04:05.000"), first.at.Format("15:04:05.000"), lag.Round(time.Millisecond), oldScrapes, failedScrapes)
		if oldScrapes > maxScrapesWithTheOldValue {
			t.Errorf("%s: %s changed in the insights at %s, but only the scrape at %s had it: %d scrapes after the change still had the old value, want at most %d",
				name, key, at.Format(time.RFC3339Nano), first.at.Format(time.RFC3339Nano), oldScrapes, maxScrapesWithTheOldValue)
		}
	}
}

// checkFleetSet checks every scrape since begun: each has at most
// maxFleetSeries fleet series, and so do they all together, every label of
// which is one the fleet metric declares (metrics.FleetLabelValues), with
// one of its declared values, and none a label ACM's collector sets or
// drops. It returns the number of fleet series.
func (p *fleetPlay) checkFleetSet(begun time.Time) int {
	t := p.t
	t.Helper()
	scrapes := p.storedScrapes("the whole update", begun, time.Now())
	series := map[string]model.Metric{}
	for _, s := range scrapes {
		if len(s.fleet) > maxFleetSeries {
			t.Errorf("the scrape at %s has %d fleet series, want at most %d", s.at.Format(time.RFC3339Nano), len(s.fleet), maxFleetSeries)
		}
		for _, m := range s.fleet {
			series[metricKey(m)] = m
		}
	}
	if len(series) > maxFleetSeries {
		t.Errorf("Prometheus had %d fleet series of the operator during the update, want at most %d", len(series), maxFleetSeries)
	}
	for key, m := range series {
		declared := metrics.FleetLabelValues[string(m[model.MetricNameLabel])]
		var labelNames []string
		for l, v := range m {
			if metrics.ACMReservedLabel(string(l)) {
				t.Errorf("%s has label %s, which ACM's collector sets or drops", key, l)
			}
			if l == model.MetricNameLabel || l == model.JobLabel || l == model.InstanceLabel {
				continue // Prometheus' own
			}
			labelNames = append(labelNames, string(l))
			if !slices.Contains(declared[string(l)], string(v)) {
				t.Errorf("%s: %s=%q is not one of the declared %q", key, l, v, declared[string(l)])
			}
		}
		if diff := cmp.Diff(slices.Sorted(maps.Keys(declared)), slices.Sorted(slices.Values(labelNames))); diff != "" {
			t.Errorf("%s: labels differ from the declared ones (-declared +scraped):\n%s", key, diff)
		}
	}
	return len(series)
}

// moveRecordedToNow moves every recorded time as run-local does, so that
// the recording's latest condition transition is now and its update
// started as long ago as recorded; nodes are ready as of now.
func moveRecordedToNow(c *analyze.Cluster, now time.Time) {
	var all []*metav1.Time
	for _, cv := range c.ClusterVersions {
		for i := range cv.Status.Conditions {
			all = append(all, &cv.Status.Conditions[i].LastTransitionTime)
		}
		for i := range cv.Status.History {
			all = append(all, &cv.Status.History[i].StartedTime)
			if cv.Status.History[i].CompletionTime != nil {
				all = append(all, cv.Status.History[i].CompletionTime)
			}
		}
	}
	for _, co := range c.ClusterOperators {
		for i := range co.Status.Conditions {
			all = append(all, &co.Status.Conditions[i].LastTransitionTime)
		}
	}
	var latest time.Time
	for _, at := range all {
		if at.After(latest) {
			latest = at.Time
		}
	}
	delta := now.Sub(latest).Truncate(time.Second)
	for _, at := range all {
		at.Time = at.Add(delta)
	}
	for _, n := range c.Nodes {
		for i := range n.Status.Conditions {
			n.Status.Conditions[i].LastTransitionTime = metav1.NewTime(now)
			n.Status.Conditions[i].LastHeartbeatTime = metav1.NewTime(now)
		}
	}
}

// createRecordedConfigs creates a recorded cluster's MachineConfigs, which
// say the version of the configurations its nodes run, deleting them when
// the test ends.
func createRecordedConfigs(t testing.TB, c *analyze.Cluster) {
	t.Helper()
	configs := machineConfigClient(t).MachineconfigurationV1().MachineConfigs()
	for _, mc := range c.MachineConfigs {
		fresh := &machineconfigurationv1.MachineConfig{
			ObjectMeta: metav1.ObjectMeta{Name: mc.Name, Labels: mc.Labels, Annotations: mc.Annotations},
			Spec:       mc.Spec,
		}
		if _, err := createAndDelete(t, configs.Create, configs.Delete, fresh); err != nil {
			t.Fatalf("creating MachineConfig %s: %v", mc.Name, err)
		}
	}
}

// deleteAllInsights deletes every insight once the operator has stopped,
// so that the next test starts from none.
func deleteAllInsights(t testing.TB) {
	t.Helper()
	ctx, i := context.Background(), insightsClient.InsightsV1alpha1()
	for kind, deleteAll := range map[string]func(context.Context, metav1.DeleteOptions, metav1.ListOptions) error{
		"NodeProgressInsights":              i.NodeProgressInsights().DeleteCollection,
		"MachineConfigPoolProgressInsights": i.MachineConfigPoolProgressInsights().DeleteCollection,
		"ClusterVersionProgressInsights":    i.ClusterVersionProgressInsights().DeleteCollection,
		"ClusterOperatorProgressInsights":   i.ClusterOperatorProgressInsights().DeleteCollection,
		"UpdateHealthInsights":              i.UpdateHealthInsights().DeleteCollection,
	} {
		if err := deleteAll(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
			t.Errorf("deleting the %s: %v", kind, err)
		}
	}
}

// startScrapingPrometheus starts a real Prometheus that scrapes the
// operator's metrics as the platform Prometheus does, with the token of
// openshift-monitoring's prometheus-k8s service account, stopped when the
// test ends.
func startScrapingPrometheus(t *testing.T, op *operatorProcess) *prometheus.Server {
	t.Helper()
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(tokenOf(t, "openshift-monitoring", "prometheus-k8s")), 0o600); err != nil {
		t.Fatal(err)
	}
	server, err := prometheus.StartScraping(t, prometheus.Target{Job: fleetJob, Address: op.Address(), Interval: fleetScrapeInterval, TokenFile: tokenFile})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := server.Stop(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("prometheus's log:\n%s", server.Log())
		}
	})
	return server
}

// The fleet gauges reach a real Prometheus that scrapes the operator as the
// platform Prometheus does, from which a hub federates them: as a recorded
// update is played forward, as run-local plays it, with an operator
// degraded on the way, the control plane's assessment, completion and
// estimate, the pools' completion and nodes by phase, and the health
// insights by level that Prometheus stores say what the insights say, each
// change at the next scrape (or the one after, should the operator see it a
// moment after the test); and the fleet set stays within its series budget
// and its declared labels.
func TestFleetGaugesReachARealPrometheus(t *testing.T) {
	if _, err := prometheus.Binary(); err != nil {
		t.Fatal(err)
	}
	begun := time.Now()
	recorded := loadRecorded(t, fleetScenario)
	moveRecordedToNow(recorded, time.Now())
	target := recorded.ClusterVersions[0].Status.Desired.Version

	payload := controlplane.PayloadOperators(recorded.ClusterOperators)
	var pending []*configv1.ClusterOperator
	for _, co := range payload {
		if v, _ := controlplane.OperatorVersion(co); v != target {
			pending = append(pending, co)
		}
	}
	// The operators progressing first, as run-local plays them.
	sort.SliceStable(pending, func(i, j int) bool {
		return v1helpers.IsStatusConditionTrue(pending[i].Status.Conditions, configv1.OperatorProgressing) &&
			!v1helpers.IsStatusConditionTrue(pending[j].Status.Conditions, configv1.OperatorProgressing)
	})
	var masters, workers []string
	for _, n := range recorded.Nodes {
		if _, ok := n.Labels[roleLabel(nodes.MasterPool)]; ok {
			masters = append(masters, n.Name)
		} else if _, ok := n.Labels[roleLabel(nodes.WorkerPool)]; ok {
			workers = append(workers, n.Name)
		}
	}
	if len(pending) < 3 || len(masters) == 0 || len(workers) < 2 {
		t.Fatalf("%s: want at least 3 pending operators, control plane nodes and 2 workers; it has %d, %d and %d", fleetScenario, len(pending), len(masters), len(workers))
	}
	masterConfig, workerConfig := "rendered-master-"+target, "rendered-worker-"+target

	recordedUpdated := len(payload) - len(pending)
	steps := []fleetStep{
		// The operator's gauges of no cluster: no ClusterVersion insight.
		{name: "before the cluster exists"},
		{
			name: fmt.Sprintf("the recorded cluster %s appears: %d of %d operators at %s", fleetScenario, recordedUpdated, len(payload), target),
			change: func() {
				createRecordedConfigs(t, recorded)
				createRenderedConfig(t, masterConfig, target)
				createRenderedConfig(t, workerConfig, target)
				createRecorded(t, recorded)
			},
			settled: func(ctx context.Context) bool {
				return completionIs(ctx, recordedUpdated, len(payload)) && nodesAre(ctx, insightsv1alpha1.NodePending, append(slices.Clone(masters), workers...)...)
			},
		},
	}
	// The pending operators update in three batches.
	batches := [][]*configv1.ClusterOperator{pending[:len(pending)/3], pending[len(pending)/3 : 2*len(pending)/3], pending[2*len(pending)/3:]}
	updated := recordedUpdated
	for i, batch := range batches {
		updated += len(batch)
		updatedNow := updated
		steps = append(steps, fleetStep{
			name: fmt.Sprintf("%d more operators at %s", len(batch), target),
			change: func() {
				for _, co := range batch {
					updateClusterOperatorTo(t, co.Name, target)
				}
			},
			settled: func(ctx context.Context) bool { return completionIs(ctx, updatedNow, len(payload)) },
		})
		if i > 0 {
			continue
		}
		// An updated operator degraded long enough for an Error, which
		// the health gauge counts; the assessment stays Progressing, with
		// its estimate, as oc assesses an update by its estimate alone.
		degraded := batch[0].Name
		steps = append(steps, fleetStep{
			name: fmt.Sprintf("%s degraded for 41 minutes", degraded),
			change: func() {
				setClusterOperatorDegraded(t, degraded, configv1.ConditionTrue, time.Now().Add(-41*time.Minute))
			},
			settled: func(ctx context.Context) bool {
				return controlPlaneIs(ctx, insightsv1alpha1.ClusterVersionAssessmentProgressing, 1)
			},
		}, fleetStep{
			name:   degraded + " recovers",
			change: func() { setClusterOperatorDegraded(t, degraded, configv1.ConditionFalse, time.Now()) },
			settled: func(ctx context.Context) bool {
				return controlPlaneIs(ctx, insightsv1alpha1.ClusterVersionAssessmentProgressing, 0)
			},
		})
	}
	steps = append(steps, fleetStep{
		name: "the control plane nodes updated",
		change: func() {
			for _, name := range masters {
				setNodeAnnotations(t, name, atRest(masterConfig))
			}
		},
		settled: func(ctx context.Context) bool { return nodesAre(ctx, insightsv1alpha1.NodeCompleted, masters...) },
	}, fleetStep{
		name:   "the ClusterVersion completes",
		change: func() { completeClusterVersion(t, target) },
		settled: func(ctx context.Context) bool {
			return controlPlaneIs(ctx, insightsv1alpha1.ClusterVersionAssessmentCompleted, 0)
		},
	})
	// A worker through the phases the machine-config daemon reports, as
	// run-local rolls it; then the others.
	worker := workers[0]
	for _, phase := range []struct {
		reason        string
		annotations   map[string]string
		unschedulable bool
	}{
		{insightsv1alpha1.NodeDraining, map[string]string{nodes.DesiredConfigAnnotation: workerConfig, nodes.DesiredDrainAnnotation: "drain-" + workerConfig, nodes.StateAnnotation: "Working"}, true},
		{insightsv1alpha1.NodeUpdating, map[string]string{nodes.LastAppliedDrainAnnotation: "drain-" + workerConfig}, true},
		{insightsv1alpha1.NodeRebooting, map[string]string{nodes.StateAnnotation: "Rebooting"}, true},
		{insightsv1alpha1.NodeCompleted, atRest(workerConfig), false},
	} {
		steps = append(steps, fleetStep{
			name: fmt.Sprintf("worker %s %s", worker, phase.reason),
			change: func() {
				updateNode(t, worker, func(n *corev1.Node) {
					n.Annotations = withChanges(n.Annotations, phase.annotations)
					n.Spec.Unschedulable = phase.unschedulable
				})
			},
			settled: func(ctx context.Context) bool { return nodesAre(ctx, phase.reason, worker) },
		})
	}
	steps = append(steps, fleetStep{
		name: "the other workers updated",
		change: func() {
			for _, name := range workers[1:] {
				setNodeAnnotations(t, name, atRest(workerConfig))
			}
		},
		settled: func(ctx context.Context) bool { return nodesAre(ctx, insightsv1alpha1.NodeCompleted, workers...) },
	})

	// Registered before the operator starts, so that it runs once the
	// operator has stopped and can write no insight back.
	t.Cleanup(func() { deleteAllInsights(t) })
	op := startOperator(t)
	play := &fleetPlay{t: t, timeline: watchFleet(t), server: startScrapingPrometheus(t, op)}
	for _, s := range steps {
		play.step(s)
	}

	series := play.checkFleetSet(begun)
	slices.Sort(play.lags)
	t.Logf("%d fleet series in Prometheus during the update; %d changes scraped, lag from the insight change to the first scrape with it: min %s, median %s, max %s (scrape interval %s)",
		series, len(play.lags), play.lags[0].Round(time.Millisecond), play.lags[len(play.lags)/2].Round(time.Millisecond),
		play.lags[len(play.lags)-1].Round(time.Millisecond), fleetScrapeInterval)
}

// completionIs says whether the ClusterVersion insight's completion is
// updated of total payload operators, rounded to a whole percent (half to
// even) as the API documents it.
func completionIs(ctx context.Context, updated, total int) bool {
	i, err := insightsClient.InsightsV1alpha1().ClusterVersionProgressInsights().Get(ctx, names.ClusterVersion, metav1.GetOptions{})
	return err == nil && float64(i.Status.CompletionPercent) == math.RoundToEven(float64(updated)/float64(total)*100)
}

// controlPlaneIs says whether the ClusterVersion insight has that
// assessment while there are that many Error health insights.
func controlPlaneIs(ctx context.Context, assessment insightsv1alpha1.ClusterVersionAssessment, errors int) bool {
	c := insightsClient.InsightsV1alpha1()
	i, err := c.ClusterVersionProgressInsights().Get(ctx, names.ClusterVersion, metav1.GetOptions{})
	if err != nil || i.Status.Assessment != assessment {
		return false
	}
	health, err := c.UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return false
	}
	n := 0
	for _, h := range health.Items {
		if h.Status.Impact.Level == insightsv1alpha1.ErrorImpactLevel {
			n++
		}
	}
	return n == errors
}

// nodesAre says whether the insights of the named nodes have that Updating
// reason.
func nodesAre(ctx context.Context, reason string, nodeNames ...string) bool {
	for _, name := range nodeNames {
		i, err := insightsClient.InsightsV1alpha1().NodeProgressInsights().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		updating := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
		if updating == nil || updating.Reason != reason {
			return false
		}
	}
	return true
}

// updateClusterOperatorStatus applies change to the ClusterOperator's
// status as the API server has it.
func updateClusterOperatorStatus(t testing.TB, name string, change func(*configv1.ClusterOperatorStatus)) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ctx := context.Background()
		co, err := configClient.ConfigV1().ClusterOperators().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(&co.Status)
		_, err = configClient.ConfigV1().ClusterOperators().UpdateStatus(ctx, co, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("writing the status of ClusterOperator %s: %v", name, err)
	}
}

// updateClusterOperatorTo reports the ClusterOperator updated to version,
// as run-local does.
func updateClusterOperatorTo(t testing.TB, name, version string) {
	t.Helper()
	updateClusterOperatorStatus(t, name, func(s *configv1.ClusterOperatorStatus) {
		v1helpers.SetStatusCondition(&s.Conditions, configv1.ClusterOperatorStatusCondition{
			Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse, Reason: "AsExpected", Message: "Updated to " + version,
		}, clock.RealClock{})
		found := false
		for i := range s.Versions {
			if s.Versions[i].Name == names.OperatorVersion {
				s.Versions[i].Version, found = version, true
			}
		}
		if !found {
			s.Versions = append(s.Versions, configv1.OperandVersion{Name: names.OperatorVersion, Version: version})
		}
	})
}

// setClusterOperatorDegraded reports the ClusterOperator Degraded (or not)
// since a time, keeping its other conditions.
func setClusterOperatorDegraded(t testing.TB, name string, status configv1.ConditionStatus, since time.Time) {
	t.Helper()
	updateClusterOperatorStatus(t, name, func(s *configv1.ClusterOperatorStatus) {
		s.Conditions = slices.DeleteFunc(s.Conditions, func(c configv1.ClusterOperatorStatusCondition) bool { return c.Type == configv1.OperatorDegraded })
		s.Conditions = append(s.Conditions, configv1.ClusterOperatorStatusCondition{
			Type: configv1.OperatorDegraded, Status: status, Reason: "MembersUnhealthy", Message: "2 of 3 members are available",
			LastTransitionTime: metav1.NewTime(since),
		})
	})
}

// completeClusterVersion reports the update to version completed, as
// run-local does.
func completeClusterVersion(t testing.TB, version string) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ctx := context.Background()
		cv, err := configClient.ConfigV1().ClusterVersions().Get(ctx, "version", metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		cv.Status.History[0].State, cv.Status.History[0].CompletionTime = configv1.CompletedUpdate, &now
		for i := range cv.Status.Conditions {
			if c := &cv.Status.Conditions[i]; c.Type == configv1.OperatorProgressing {
				c.Status, c.Message, c.LastTransitionTime = configv1.ConditionFalse, "Cluster version is "+version, now
			}
		}
		_, err = configClient.ConfigV1().ClusterVersions().UpdateStatus(ctx, cv, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("completing the ClusterVersion's update to %s: %v", version, err)
	}
}
