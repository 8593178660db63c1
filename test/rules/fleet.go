package rules

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"time"
)

// The fleet: clusters whose fleet metrics (55 series each, and 10 per hosted
// cluster of a HyperShift management cluster: hostedfleet.go; see
// docs/operations.md#fleet-metrics) are modelled as ACM's observability
// stores them on the hub: one sample every
// PushInterval, each series with the scrape's target labels and the
// cluster and clusterID labels ACM's collector adds (and clusterType=SNO on
// single-node clusters). A few clusters play each unhealthy role, and some
// healthy ones play the cases the alerts must not fire on; the rest update
// healthily or sit idle. From the model come a promtool test of the rules,
// with the alerts expected at checkpoints, and OpenMetrics for a real
// Prometheus that the dashboard's queries run against.

const (
	// PushInterval is how often ACM's collector pushes a cluster's series
	// (its default): the fleet's samples are this far apart.
	PushInterval = 5 * time.Minute
	// FleetEvalInterval is how often the fleet tests evaluate the rules, as
	// a hub's ruler would.
	FleetEvalInterval = time.Minute
	// subqueryStep is the step of the rules' subqueries.
	subqueryStep = 5 * time.Minute

	operatorNamespace = "openshift-update-insights"
	// payloadOperators is how many ClusterOperators an update counts.
	payloadOperators = 33
)

// The label values of the fleet metrics, as fixed by the design.
var (
	assessments   = []string{"Progressing", "Completed", "Slow", "Stalled", "Unknown"}
	poolKinds     = []string{"master", "worker", "custom"}
	nodePhases    = []string{"Pending", "Draining", "Updating", "Rebooting", "Paused", "Updated", "Degraded"}
	healthLevels  = []string{"Unknown", "Info", "Warning", "Error", "Critical"}
	findingLevels = []string{"Critical", "Error", "Warning", "Info"}
)

// Indices into the label values.
const (
	aProgressing = iota
	aCompleted
	aSlow
	aStalled
	aUnknown
)

const (
	poolMaster = iota
	poolWorker
	poolCustom
)

const (
	phasePending = iota
	phaseDraining
	phaseUpdating
	phaseRebooting
	phasePaused
	phaseUpdated
	phaseDegraded
)

const (
	levelInfo     = 1
	levelWarning  = 2
	levelError    = 3
	levelCritical = 4
)

// The alerts the fleet expects, by name.
const (
	AlertStalled  = "UpdateInsightsUpdateStalled"
	AlertOverdue  = "UpdateInsightsUpdateOverdue"
	AlertCritical = "UpdateInsightsCriticalHealthInsight"
	AlertInformer = "UpdateInsightsInformerOffline"
	AlertPaused   = "UpdateInsightsPoolPausedWithOutdatedNodes"
)

// The versions of the fleet's ClusterVersion histories: every cluster was
// installed at versionInstalled and updated to versionFrom; most have
// updated to versionTo, and those whose update the data shows update to it.
const (
	versionInstalled = "4.14.38"
	versionFrom      = "4.15.30"
	versionTo        = "4.16.12"
)

// Span is the time from From to To (exclusive; To 0 is open-ended),
// counted from the first sample.
type Span struct{ From, To time.Duration }

func (s *Span) contains(t time.Duration) bool {
	return s != nil && t >= s.From && (s.To == 0 || t < s.To)
}

// Update is a cluster's update, timed from the first sample.
type Update struct {
	// Start is when the update starts, before the first sample if
	// negative; Duration is how long its control plane takes when healthy.
	Start, Duration time.Duration
	// StallAt, when not 0, is how long after Start the control plane stops
	// progressing, never to complete.
	StallAt time.Duration
	// Migration is a migration to the multi-architecture payload: no
	// estimate, one ClusterOperator pending until it completes.
	Migration bool
	// Workers is how long the worker and custom pools take once the
	// control plane completed.
	Workers time.Duration
}

// Plan is the state of a cluster's newest UpdatePlan.
type Plan int

const (
	NoPlan Plan = iota
	PlanReady
	PlanNotReady
	PlanNotAnswered
)

// Cluster is a cluster of the fleet and what happens to it.
type Cluster struct {
	Name, ID string
	// Role says what the cluster plays, for failure messages; Plays are
	// the alerts it fires at some checkpoint of the fleet's tests.
	Role  string
	Plays []string
	SNO   bool
	// Nodes per pool kind.
	Masters, Workers, Custom int

	// Update is the cluster's update; nil for one that completed its last
	// update long before the data.
	Update *Update
	// WorkersPaused and CustomPaused are when those pools are paused.
	WorkersPaused, CustomPaused *Span
	// DegradedWorker is when a worker node is degraded.
	DegradedWorker *Span
	// Critical and Offline are when that many Critical health insights
	// exist and informers are offline.
	Critical, Offline           *Span
	CriticalCount, OfflineCount int
	// Restart, when not 0, is when the operator's pod is replaced: its
	// series change their pod label.
	Restart time.Duration
	// Gap is when ACM pushes nothing (its collector down).
	Gap *Span
	// ConfigRollout is when a pool rolls out a new configuration.
	ConfigRollout *Span
	Plan          Plan
	// Hosted are the hosted clusters of a HyperShift management cluster.
	Hosted []*HostedCluster
	// Completed are the versions the cluster's ClusterVersion history
	// says it completed before the data, oldest first (the first
	// installed); Update, when not nil, goes to Target.
	Completed []string
	Target    string

	// samples caches sample's snapshots, by index; timelines each alert's
	// condition at every evaluation, once computed.
	samples   []snapshot
	timelines map[string][]map[string]float64
}

// snapshot is a cluster's fleet metrics at one sample.
type snapshot struct {
	// at is the sample's time, which the hosted clusters' series are of.
	at          time.Duration
	present     bool
	pod         int
	assessment  int
	ratio       float64
	remaining   float64
	hasEstimate bool
	poolPresent [3]bool
	nodes       [3][7]int
	health      [5]int
	offline     int
	plan        Plan
	rollout     bool
}

// controlPlane returns the assessment, the ClusterOperators updated and the
// estimate of the time remaining at t, as the operator computes them: the
// estimate is 1.2 times the time the healthy update has left, as the
// estimator projects an update progressing as expected; once passed it is
// 0 (Slow), and 12 minutes later (10 minutes past the estimate as it
// creeps on) Stalled, still 0. The update's problems (the ClusterVersion
// failing) do not change the assessment, as in oc.
func (u *Update) controlPlane(t time.Duration) (assessment, updated int, remaining float64, hasEstimate bool) {
	if u == nil || t < u.Start {
		return aCompleted, payloadOperators, 0, false
	}
	e := t - u.Start
	if u.Migration {
		if e >= u.Duration {
			return aCompleted, payloadOperators, 0, false
		}
		return aProgressing, payloadOperators - 1, 0, false
	}
	progress := e
	if u.StallAt > 0 && progress > u.StallAt {
		progress = u.StallAt
	}
	if u.StallAt == 0 && e >= u.Duration {
		return aCompleted, payloadOperators, 0, false
	}
	// The payload's operators but machine-config by 70% of the time, as
	// the estimator's curve has them; machine-config at the end.
	last := time.Duration(0.7 * float64(u.Duration))
	updated = payloadOperators - 1
	if progress < last {
		updated = int(float64(payloadOperators-1) * float64(progress) / float64(last))
	}
	left := u.Duration - e
	switch {
	case left > 0:
		assessment, remaining, hasEstimate = aProgressing, 1.2*left.Seconds(), true
	case -left < 12*time.Minute:
		assessment, remaining, hasEstimate = aSlow, 0, true
	default:
		assessment, remaining, hasEstimate = aStalled, 0, true
	}
	return assessment, updated, remaining, hasEstimate
}

// nodePhase is the phase of the i-th of n nodes that update one after the
// other from start over d, unless their pool is paused: a node whose turn
// had not ended when the pause began waits, Paused, until it ends.
func nodePhase(t, start, d time.Duration, i, n int, paused *Span) int {
	if n == 0 {
		return phaseUpdated
	}
	slot := d / time.Duration(n)
	from := start + time.Duration(i)*slot
	switch {
	case paused.contains(t) && paused.From < from+slot:
		return phasePaused
	case t >= from+slot:
		return phaseUpdated
	case t < from:
		return phasePending
	}
	switch f := float64(t-from) / float64(slot); {
	case f < 0.2:
		return phaseDraining
	case f < 0.6:
		return phaseUpdating
	default:
		return phaseRebooting
	}
}

// sample is the cluster's snapshot at t, a multiple of PushInterval.
func (c *Cluster) sample(t time.Duration) snapshot {
	i := int(t / PushInterval)
	for len(c.samples) <= i {
		c.samples = append(c.samples, c.compute(time.Duration(len(c.samples))*PushInterval))
	}
	return c.samples[i]
}

func (c *Cluster) compute(t time.Duration) snapshot {
	s := snapshot{at: t, present: !c.Gap.contains(t), plan: c.Plan, rollout: c.ConfigRollout.contains(t)}
	if c.Restart != 0 && t >= c.Restart {
		s.pod = 1
	}
	var updated int
	s.assessment, updated, s.remaining, s.hasEstimate = c.Update.controlPlane(t)
	s.ratio = float64(updated*100/payloadOperators) / 100

	u := c.Update
	// The control plane nodes update during machine-config's step, the
	// others once the control plane completed; a stalled update never
	// reaches them, a migration moves no version.
	never := time.Duration(math.MaxInt64 / 2)
	mastersAt, othersAt := never, never
	if u != nil && !u.Migration {
		if u.StallAt == 0 {
			mastersAt, othersAt = u.Start+time.Duration(0.7*float64(u.Duration)), u.Start+u.Duration
		}
	}
	inUpdate := u != nil && !u.Migration && t >= u.Start
	pools := []struct {
		kind, n     int
		at, d       time.Duration
		paused      *Span
		degradedOne bool
	}{
		{poolMaster, c.Masters, mastersAt, time.Duration(0.3 * float64(durationOr(u))), nil, false},
		{poolWorker, c.Workers, othersAt, workersOr(u), c.WorkersPaused, c.DegradedWorker.contains(t)},
		{poolCustom, c.Custom, othersAt, workersOr(u), c.CustomPaused, false},
	}
	for _, p := range pools {
		if p.n == 0 {
			continue
		}
		s.poolPresent[p.kind] = true
		for i := 0; i < p.n; i++ {
			phase := phaseUpdated
			if inUpdate {
				phase = nodePhase(t, p.at, p.d, i, p.n, p.paused)
			}
			if p.degradedOne && i == 0 {
				phase = phaseDegraded
			}
			s.nodes[p.kind][phase]++
		}
	}

	s.health[levelInfo] = len(c.Name) % 3
	if s.assessment != aCompleted {
		s.health[levelWarning] = 1
	}
	if c.Critical.contains(t) {
		s.health[levelCritical] = c.CriticalCount
	}
	if c.Offline.contains(t) {
		s.offline = c.OfflineCount
	}
	return s
}

func durationOr(u *Update) time.Duration {
	if u == nil {
		return time.Hour
	}
	return u.Duration
}

func workersOr(u *Update) time.Duration {
	if u == nil || u.Workers == 0 {
		return 30 * time.Minute
	}
	return u.Workers
}

// poolRatio is a pool kind's completion: updated nodes over all.
func (s *snapshot) poolRatio(kind int) float64 {
	total := 0
	for _, n := range s.nodes[kind] {
		total += n
	}
	return float64(s.nodes[kind][phaseUpdated]) / float64(total)
}

func (s *snapshot) inProgress() bool {
	return s.present && (s.assessment == aProgressing || s.assessment == aSlow || s.assessment == aStalled)
}

// updating is an update in progress, as the rules understand it.
func (s *snapshot) updating() bool {
	if s.inProgress() {
		return true
	}
	for kind, present := range s.poolPresent {
		if present && s.poolRatio(kind) < 1 {
			return true
		}
	}
	return false
}

// Fleet is the synthetic fleet.
type Fleet struct {
	Clusters []*Cluster
}

// NewFleet returns a fleet of n clusters (at least 60): the first play the
// roles, the rest update healthily (about one in six) or sit idle.
func NewFleet(n int) *Fleet {
	if n < 60 {
		panic("a fleet of fewer than 60 clusters has no room for its roles")
	}
	m := time.Minute
	h := time.Hour
	var clusters []*Cluster
	add := func(role string, plays []string, c Cluster) {
		c.Role, c.Plays = role, plays
		clusters = append(clusters, &c)
	}
	stalledOverdue := []string{AlertOverdue, AlertStalled}
	critical, informer, paused := []string{AlertCritical}, []string{AlertInformer}, []string{AlertPaused}
	// Stalled control planes, at several points of their updates.
	add("stalled mid-update, estimate 60m", stalledOverdue, Cluster{Update: &Update{Start: 20 * m, Duration: 80 * m, StallAt: 30 * m}})
	add("stalled at machine-config, estimate under the 10m floor", stalledOverdue, Cluster{Update: &Update{Start: 100 * m, Duration: 25 * m, StallAt: 24 * m}})
	add("stalled since before the data, past its estimate since", stalledOverdue, Cluster{Update: &Update{Start: -2 * h, Duration: 60 * m, StallAt: 20 * m}})
	add("stalled late in a long update", stalledOverdue, Cluster{Update: &Update{Start: 60 * m, Duration: 125 * m, StallAt: 60 * m}})
	add("stalled early, ClusterVersion failing", stalledOverdue, Cluster{Update: &Update{Start: 10 * m, Duration: 55 * m, StallAt: 20 * m}, SNO: true})
	// A Critical health insight during an update, one after the update
	// completed (the alerts controller's insights go then; here, not, to
	// check that the alert does), one ending before the update does.
	for i := 0; i < 4; i++ {
		start := time.Duration(10+5*i) * m
		add("critical insight during the update", critical, Cluster{Update: &Update{Start: start, Duration: 70 * m, Workers: 30 * m},
			Critical: &Span{From: start + 15*m}, CriticalCount: 1 + i%2})
	}
	add("critical insight that clears during the update", critical, Cluster{Update: &Update{Start: 30 * m, Duration: 150 * m, Workers: 40 * m},
		Critical: &Span{From: 40 * m, To: 100 * m}, CriticalCount: 1})
	// Informers offline during an update.
	// The first one's update ends before the third checkpoint: the alert
	// resolves.
	for i := 0; i < 5; i++ {
		start := time.Duration(15+10*i) * m
		u := &Update{Start: start, Duration: 90 * m, Workers: 150 * m}
		if i == 0 {
			u.Duration, u.Workers = 60*m, 30*m
		}
		add("informer offline during the update", informer, Cluster{Update: u, Offline: &Span{From: start + 5*m}, OfflineCount: 1 + i/3})
	}
	// Worker pools paused with outdated nodes, from before the data: an
	// update completed 3 hours before, pools left paused.
	for i, pools := range []string{"worker", "worker", "custom", "worker", "worker+custom"} {
		c := Cluster{Update: &Update{Start: -4 * h, Duration: 60 * m, Workers: 30 * m}, Custom: 3 * (i % 3)}
		if strings.Contains(pools, "worker") {
			c.WorkersPaused = &Span{From: -5 * h}
		}
		if strings.Contains(pools, "custom") {
			c.CustomPaused = &Span{From: -5 * h}
			c.Custom = 4
		}
		add("paused "+pools+" pool with outdated nodes", paused, c)
	}
	// Healthy clusters the alerts must leave alone.
	add("healthy: multi-architecture migration, no estimate", nil, Cluster{Update: &Update{Start: 30 * m, Duration: 30 * h, Migration: true}})
	add("healthy: informer offline while idle", nil, Cluster{Offline: &Span{From: 20 * m}, OfflineCount: 2})
	add("healthy: critical insight count while idle", nil, Cluster{Critical: &Span{From: 20 * m}, CriticalCount: 1})
	add("healthy: informer offline 5 minutes during the update", nil, Cluster{Update: &Update{Start: 20 * m, Duration: 90 * m},
		Offline: &Span{From: 60 * m, To: 65 * m}, OfflineCount: 1})
	add("healthy: workers paused for 6 hours during an EUS update", nil, Cluster{Update: &Update{Start: 30 * m, Duration: 60 * m, Workers: 40 * m},
		WorkersPaused: &Span{From: 0, To: 6 * h}})
	add("healthy: operator restarted mid-update", nil, Cluster{Update: &Update{Start: 20 * m, Duration: 90 * m}, Restart: 65 * m})
	add("healthy: operator restarted at a step of progress", nil, Cluster{Update: &Update{Start: 40 * m, Duration: 60 * m}, Restart: 60 * m})
	add("healthy: no push for 20 minutes mid-update", nil, Cluster{Update: &Update{Start: 20 * m, Duration: 100 * m}, Gap: &Span{From: 60 * m, To: 80 * m}})
	add("healthy: update started before the data", nil, Cluster{Update: &Update{Start: -20 * m, Duration: 60 * m}})
	add("healthy: short final step", nil, Cluster{Update: &Update{Start: 50 * m, Duration: 25 * m}})
	add("healthy: degraded worker node", nil, Cluster{Update: &Update{Start: 20 * m, Duration: 60 * m, Workers: 60 * m}, DegradedWorker: &Span{From: 90 * m, To: 2 * h}})
	add("healthy: configuration rolling out", nil, Cluster{ConfigRollout: &Span{From: 30 * m, To: 90 * m}})
	managementClusters(add)

	// The rest: one in six updating healthily, started over the first
	// three hours, each taking 40 to 120 minutes; the others idle.
	for len(clusters) < n {
		i := len(clusters)
		if i%6 == 0 {
			start := time.Duration(-30+(i*37)%210) * m
			d := time.Duration(40+(i*53)%81) * m
			add("healthy: updating", nil, Cluster{Update: &Update{Start: start, Duration: d, Workers: time.Duration(20+i%40) * m}, SNO: i%18 == 0})
			continue
		}
		add("healthy: idle", nil, Cluster{SNO: i%25 == 1, Custom: 3 * (i % 4 / 3)})
	}

	for i, c := range clusters {
		c.Name = fmt.Sprintf("fleet-%04d", i+1)
		c.ID = fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", 0x5eed0000+i, i%0xffff, i%0xfff, (i*7)%0xfff, uint64(i)*0x9e3779b1)
		if c.SNO {
			c.Masters, c.Workers, c.Custom = 1, 0, 0
			c.WorkersPaused, c.CustomPaused, c.DegradedWorker = nil, nil, nil
		} else {
			c.Masters, c.Workers = 3, 3+(i*7)%58
		}
		c.Completed = []string{versionInstalled, versionFrom}
		switch {
		case c.Update != nil && c.Update.Migration:
			// A migration to the multi-architecture payload keeps the
			// version.
			c.Completed = append(c.Completed, versionTo)
			c.Target = versionTo
		case c.Update != nil:
			c.Target = versionTo
		case i%5 != 1:
			c.Completed = append(c.Completed, versionTo)
		}
		switch i % 7 {
		case 0, 3:
			c.Plan = PlanReady
		case 1:
			c.Plan = PlanNotReady
		case 5:
			c.Plan = PlanNotAnswered
		}
	}
	return &Fleet{Clusters: clusters}
}

// series is one series of a cluster over the samples.
type series struct {
	name   string
	labels [][2]string
	values []float64 // NaN: no sample
}

func (s *series) labelString(quoteAll bool) string {
	var b strings.Builder
	b.WriteString(s.name)
	b.WriteString("{")
	for i, l := range s.labels {
		if i > 0 {
			b.WriteString(",")
			if !quoteAll {
				b.WriteString(" ")
			}
		}
		fmt.Fprintf(&b, "%s=%q", l[0], l[1])
	}
	b.WriteString("}")
	return b.String()
}

// seriesOf returns the cluster's series over the samples 0..n (every
// PushInterval), the target labels as the platform Prometheus scrapes the
// operator's Service, the pod's changing when the operator restarts, and
// cluster, clusterID and clusterType as ACM's collector adds them.
func (c *Cluster) seriesOf(samples int) []*series {
	snaps := make([]snapshot, samples)
	for i := range snaps {
		snaps[i] = c.sample(time.Duration(i) * PushInterval)
	}
	pods := []string{"update-insights-operator-5f7d8c9b4-" + suffix(c.Name, 0), "update-insights-operator-7c6b5d4f8-" + suffix(c.Name, 1)}
	var out []*series
	add := func(name string, metricLabels [][2]string, value func(s *snapshot) (float64, bool)) {
		for pod := range pods {
			var labels [][2]string
			labels = append(labels, metricLabels...)
			labels = append(labels,
				[2]string{"cluster", c.Name}, [2]string{"clusterID", c.ID},
				[2]string{"endpoint", "https"}, [2]string{"instance", fmt.Sprintf("10.128.%d.%d:8443", pod, len(c.Name)%250)},
				[2]string{"job", "metrics"}, [2]string{"namespace", operatorNamespace},
				[2]string{"pod", pods[pod]}, [2]string{"service", "metrics"})
			if c.SNO {
				labels = append(labels, [2]string{"clusterType", "SNO"})
			}
			sort.Slice(labels, func(a, b int) bool { return labels[a][0] < labels[b][0] })
			s := &series{name: name, labels: labels, values: make([]float64, samples)}
			any := false
			for i := range snaps {
				s.values[i] = math.NaN()
				if snaps[i].present && snaps[i].pod == pod {
					if v, ok := value(&snaps[i]); ok {
						s.values[i], any = v, true
					}
				}
			}
			if any {
				out = append(out, s)
			}
		}
	}
	always := func(v float64) (float64, bool) { return v, true }
	for a, name := range assessments {
		add("update_insights_control_plane_assessment", [][2]string{{"assessment", name}}, func(s *snapshot) (float64, bool) {
			return always(boolValue(s.assessment == a))
		})
	}
	add("update_insights_control_plane_completion_ratio", nil, func(s *snapshot) (float64, bool) { return always(s.ratio) })
	add("update_insights_control_plane_estimated_remaining_seconds", nil, func(s *snapshot) (float64, bool) { return s.remaining, s.hasEstimate })
	for kind, pool := range poolKinds {
		add("update_insights_pool_completion_ratio", [][2]string{{"pool", pool}}, func(s *snapshot) (float64, bool) {
			return s.poolRatio(kind), s.poolPresent[kind]
		})
		for phase, name := range nodePhases {
			add("update_insights_pool_nodes", [][2]string{{"phase", name}, {"pool", pool}}, func(s *snapshot) (float64, bool) {
				return always(float64(s.nodes[kind][phase]))
			})
		}
	}
	for level, name := range healthLevels {
		add("update_insights_health_insights", [][2]string{{"level", name}}, func(s *snapshot) (float64, bool) {
			return always(float64(s.health[level]))
		})
	}
	add("update_insights_informers_offline", nil, func(s *snapshot) (float64, bool) { return always(float64(s.offline)) })
	for _, level := range findingLevels {
		for _, accepted := range []string{"true", "false"} {
			add("update_insights_plan_findings", [][2]string{{"accepted", accepted}, {"level", level}}, func(s *snapshot) (float64, bool) {
				return always(float64(findings(s.plan, level, accepted == "true")))
			})
		}
	}
	add("update_insights_plan_answered", nil, func(s *snapshot) (float64, bool) {
		return boolValue(s.plan == PlanReady || s.plan == PlanNotReady), s.plan != NoPlan
	})
	add("update_insights_plan_ready", nil, func(s *snapshot) (float64, bool) { return always(boolValue(s.plan == PlanReady)) })
	add("update_insights_config_rollout_in_progress", nil, func(s *snapshot) (float64, bool) { return always(boolValue(s.rollout)) })
	// No cluster of the fleet has a pod hold a drain: its nodes drain as
	// they update, and its stalls are its control plane's.
	add("update_insights_nodes_drain_held", nil, func(*snapshot) (float64, bool) { return always(0) })
	add("update_insights_drain_held_longest_seconds", nil, func(*snapshot) (float64, bool) { return always(0) })
	for _, h := range c.Hosted {
		h.addSeries(add)
	}
	return out
}

// entry is an entry of a ClusterVersion's history: a release, and when
// its update completed, or started for the one in progress (from the
// first sample; before it when negative).
type entry struct {
	version, image string
	at             time.Duration
}

// release is the entry of a version's payload; multi, of its
// multi-architecture payload.
func release(version string, multi bool, at time.Duration) entry {
	arch := "x86_64"
	if multi {
		arch = "multi"
	}
	digest := sha256.Sum256([]byte(version + "-" + arch))
	return entry{version: version, image: "quay.io/openshift-release-dev/ocp-release@sha256:" + hex.EncodeToString(digest[:]), at: at}
}

// history is the cluster's ClusterVersion history at t: the updates
// completed, oldest first (a month apart, the last a month before the
// data), and the update in progress, if any.
func (c *Cluster) history(t time.Duration) (completed []entry, updating *entry) {
	const month = 30 * 24 * time.Hour
	for i, v := range c.Completed {
		completed = append(completed, release(v, false, -time.Duration(len(c.Completed)-i)*month))
	}
	u := c.Update
	if u == nil || t < u.Start {
		return completed, nil
	}
	target := release(c.Target, u.Migration, u.Start)
	if a, _, _, _ := u.controlPlane(t); a == aCompleted {
		target.at = u.Start + u.Duration
		return append(completed, target), nil
	}
	return completed, &target
}

// versionSeries returns the cluster's cluster_version series over the
// samples, as the cluster-version operator exports them (pkg/cvo/metrics.go:
// the type label says which entry of the history a series is, its value a
// Unix time) and ACM federates them: every PushInterval, with the target
// labels of the CVO's Service and those ACM's collector adds.
func (c *Cluster) versionSeries(samples int, start time.Time) []*series {
	byLabels := map[string]*series{}
	var out []*series
	unix := func(d time.Duration) float64 { return float64(start.Add(d).Unix()) }
	for i := 0; i < samples; i++ {
		t := time.Duration(i) * PushInterval
		if !c.sample(t).present {
			continue
		}
		completed, updating := c.history(t)
		last, initial := completed[len(completed)-1], completed[0]
		current := last
		if updating != nil {
			current = *updating
		}
		type point struct {
			kind string
			e    entry
			from string
			v    float64
		}
		points := []point{
			{"initial", initial, "", unix(initial.at)},
			{"cluster", current, initial.version, unix(initial.at)},
			{"completed", last, "", unix(last.at)},
		}
		if len(completed) > 1 {
			points[2].from = completed[len(completed)-2].version
		}
		if updating != nil {
			points = append(points, point{"updating", *updating, last.version, unix(updating.at)})
		}
		for _, p := range points {
			labels := [][2]string{
				{"cluster", c.Name}, {"clusterID", c.ID},
				{"endpoint", "metrics"}, {"image", p.e.image},
				{"instance", fmt.Sprintf("10.129.0.%d:9099", len(c.Name)%250)},
				{"job", "cluster-version-operator"}, {"namespace", "openshift-cluster-version"},
				{"pod", "cluster-version-operator-6d4b8f7c9-" + suffix(c.Name, 2)},
				{"service", "cluster-version-operator"},
				{"type", p.kind}, {"version", p.e.version},
			}
			// An empty label is no label, for Prometheus and ACM's
			// collector alike.
			if p.from != "" {
				labels = append(labels, [2]string{"from_version", p.from})
			}
			if c.SNO {
				labels = append(labels, [2]string{"clusterType", "SNO"})
			}
			sort.Slice(labels, func(a, b int) bool { return labels[a][0] < labels[b][0] })
			s := &series{name: "cluster_version", labels: labels}
			key := s.labelString(true)
			if byLabels[key] == nil {
				s.values = make([]float64, samples)
				for k := range s.values {
					s.values[k] = math.NaN()
				}
				byLabels[key] = s
				out = append(out, s)
			}
			byLabels[key].values[i] = p.v
		}
	}
	return out
}

// findings is how many findings of a level a plan has, accepted or not.
func findings(p Plan, level string, accepted bool) int {
	switch {
	case p == NoPlan:
		return 0
	case level == "Warning" && accepted:
		return 2
	case level == "Info" && !accepted:
		// Info findings need acceptance too; a ready plan has none left.
		if p == PlanReady {
			return 0
		}
		return 1
	case level == "Critical" && !accepted && p == PlanNotReady:
		return 1
	}
	return 0
}

func suffix(name string, i int) string {
	const letters = "bcdfghjklmnpqrstvwxz2456789"
	var b strings.Builder
	for k := 0; k < 5; k++ {
		b.WriteByte(letters[(len(name)*31+int(name[len(name)-1-k%4])*(k+3)+i*11)%len(letters)])
	}
	return b.String()
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// formatValue writes a sample's value as promtool and OpenMetrics read it.
func formatValue(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// promtoolValues writes values in promtool's expanding notation: runs of
// a constant step as "a+bxn", absent samples as "_", none after the last.
func promtoolValues(values []float64) string {
	end := len(values)
	for end > 0 && math.IsNaN(values[end-1]) {
		end--
	}
	var parts []string
	for i := 0; i < end; {
		if math.IsNaN(values[i]) {
			j := i
			for j < end && math.IsNaN(values[j]) {
				j++
			}
			parts = append(parts, fmt.Sprintf("_x%d", j-i))
			i = j
			continue
		}
		j := i + 1
		var step float64
		if j < end && !math.IsNaN(values[j]) {
			step = values[j] - values[i]
			for j+1 < end && !math.IsNaN(values[j+1]) && values[j+1]-values[j] == step && values[i]+float64(j+1-i)*step == values[j+1] {
				j++
			}
			if values[i]+float64(j-i)*step != values[j] {
				j = i
			}
		} else {
			j = i
		}
		n := j - i
		switch {
		case n == 0:
			parts = append(parts, formatValue(values[i]))
		case step >= 0:
			parts = append(parts, fmt.Sprintf("%s+%sx%d", formatValue(values[i]), formatValue(step), n))
		default:
			parts = append(parts, fmt.Sprintf("%s-%sx%d", formatValue(values[i]), formatValue(-step), n))
		}
		i = j + 1
	}
	return strings.Join(parts, " ")
}

// view is what the rules see of a cluster at t: its latest sample of the
// last 10 minutes (last_over_time(...[10m])), if any.
func (c *Cluster) view(t time.Duration) (snapshot, time.Duration, bool) {
	for s := t / PushInterval * PushInterval; s >= 0 && s >= t-10*time.Minute; s -= PushInterval {
		if snap := c.sample(s); snap.present {
			return snap, s, true
		}
	}
	return snapshot{}, 0, false
}

// stalled says whether the control plane update is stalled at t, by the
// alert's definition (the manifest's comment): no step of progress since
// the latest one's deadline, max(10 minutes, the estimate then + 300 s),
// or in 3 hours; while in progress, with an estimate.
func (c *Cluster) stalled(t time.Duration) bool {
	v, _, ok := c.view(t)
	if !ok || !v.inProgress() || !v.hasEstimate {
		return false
	}
	for s := t / subqueryStep * subqueryStep; s >= 0 && s >= t-3*time.Hour; s -= subqueryStep {
		now, _, ok := c.view(s)
		if !ok {
			continue
		}
		// A step of progress: the ratio differs from a step before, or
		// nothing was seen then (first seen).
		before, _, seen := c.view(s - subqueryStep)
		if s-subqueryStep < 0 || !seen || before.ratio != now.ratio {
			bound := 600.0
			if now.hasEstimate {
				bound = math.Max(bound, now.remaining+300)
			}
			return t > s+time.Duration(bound)*time.Second
		}
	}
	return true
}

// overdue says whether the estimate has passed at t: the estimate is 0,
// while in progress.
func (c *Cluster) overdue(t time.Duration) bool {
	v, _, ok := c.view(t)
	return ok && v.inProgress() && v.hasEstimate && v.remaining == 0
}

// FiringAlert is an alert expected to fire: its name and the labels its
// expression gives it (the rule's own come from the manifest).
type FiringAlert struct {
	Name   string
	Labels map[string]string
	// Value is the expression's value, as the annotations print it.
	Value float64
	// key is the condition's key, which orders the alerts.
	key string
}

// condition is an alert's condition on a cluster at an evaluation, by
// labels beyond cluster and clusterID (labelKey: the pool, for the paused
// pools; the hosted cluster, for a hosted cluster's), with the
// expression's value.
type condition func(c *Cluster, t time.Duration) map[string]float64

// labelKey is a condition's key: name=value pairs, comma-separated; ""
// for none. No label value of the fleet holds a comma or an equals sign.
func labelKey(pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		parts = append(parts, pairs[i]+"="+pairs[i+1])
	}
	return strings.Join(parts, ",")
}

// keyLabels reads labelKey's pairs back.
func keyLabels(k string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(k, ",") {
		if name, value, ok := strings.Cut(part, "="); ok {
			out[name] = value
		}
	}
	return out
}

var conditions = map[string]struct {
	cond condition
	hold time.Duration
}{
	AlertStalled: {cond: func(c *Cluster, t time.Duration) map[string]float64 {
		if !c.stalled(t) {
			return nil
		}
		v, _, _ := c.view(t)
		return map[string]float64{"": v.ratio}
	}},
	AlertOverdue: {hold: 30 * time.Minute, cond: func(c *Cluster, t time.Duration) map[string]float64 {
		if !c.overdue(t) {
			return nil
		}
		return map[string]float64{"": 0}
	}},
	AlertCritical: {cond: func(c *Cluster, t time.Duration) map[string]float64 {
		if v, _, ok := c.view(t); ok && v.health[levelCritical] > 0 && v.updating() {
			return map[string]float64{"": float64(v.health[levelCritical])}
		}
		return nil
	}},
	AlertInformer: {hold: 10 * time.Minute, cond: func(c *Cluster, t time.Duration) map[string]float64 {
		if v, _, ok := c.view(t); ok && v.offline > 0 && v.updating() {
			return map[string]float64{"": float64(v.offline)}
		}
		return nil
	}},
	AlertHostedBlocked: {hold: 15 * time.Minute, cond: hostedAssessed(hostedBlocked)},
	AlertHostedStalled: {cond: hostedAssessed(hostedStalled)},
	AlertHostedFailing: {hold: 15 * time.Minute, cond: hostedAssessed(hostedFailing)},
	AlertPaused: {hold: 24 * time.Hour, cond: func(c *Cluster, t time.Duration) map[string]float64 {
		v, _, ok := c.view(t)
		if !ok {
			return nil
		}
		out := map[string]float64{}
		for _, kind := range []int{poolWorker, poolCustom} {
			if n := v.nodes[kind][phasePaused]; n > 0 {
				out[labelKey("pool", poolKinds[kind])] = float64(n)
			}
		}
		return out
	}},
}

// settle is how long after its condition ends an alert may still fire: the
// 10 minutes over which the rules bridge samples, and an evaluation.
const settle = 10*time.Minute + PushInterval + FleetEvalInterval

// Expected returns the alerts of that name firing on the cluster at the
// evaluation t, from the alert's definition: its condition evaluated every
// FleetEvalInterval from the first sample, held for the rule's `for`. It
// fails when t is too close to a change for the answer to be certain: up
// to two evaluations after the alert should start firing, or within
// settle of its condition ending.
func (c *Cluster) Expected(alert string, t time.Duration) ([]FiringAlert, error) {
	def, ok := conditions[alert]
	if !ok {
		return nil, fmt.Errorf("no condition for alert %s", alert)
	}
	if c.timelines == nil {
		c.timelines = map[string][]map[string]float64{}
	}
	timeline := c.timelines[alert]
	for e := time.Duration(len(timeline)) * FleetEvalInterval; e <= t; e += FleetEvalInterval {
		timeline = append(timeline, def.cond(c, e))
	}
	c.timelines[alert] = timeline
	at := func(e time.Duration) map[string]float64 { return timeline[e/FleetEvalInterval] }

	active := map[string]time.Duration{}
	var last map[string]float64
	for e := time.Duration(0); e <= t; e += FleetEvalInterval {
		now := at(e)
		for k := range active {
			if _, ok := now[k]; !ok {
				delete(active, k)
			}
		}
		for k := range now {
			if _, ok := active[k]; !ok {
				active[k] = e
			}
		}
		last = now
	}
	// A condition that ended within settle before t may still be seen, if
	// it held long enough to fire then.
	for e := max(0, t-settle); e < t; e += FleetEvalInterval {
		for k := range at(e) {
			if _, ok := last[k]; ok {
				continue
			}
			since := e
			for since >= FleetEvalInterval {
				if _, ok := at(since - FleetEvalInterval)[k]; !ok {
					break
				}
				since -= FleetEvalInterval
			}
			if e-since+settle >= def.hold {
				return nil, fmt.Errorf("%s %s on %s (%s) ended at most %s before %s: too close to tell", alert, k, c.Name, c.Role, settle, t)
			}
		}
	}
	var out []FiringAlert
	for k, since := range active {
		firesAt := since + def.hold
		if def.hold == 0 {
			// An alert without `for` that the condition began to hold for
			// at since has been firing since the first evaluation then.
			firesAt = since
		}
		switch {
		case t < firesAt:
			continue
		case t < firesAt+2*FleetEvalInterval:
			return nil, fmt.Errorf("%s on %s (%s) starts firing at %s, within two evaluations of %s: too close to tell", alert, c.Name, c.Role, firesAt, t)
		}
		labels := keyLabels(k)
		labels["cluster"], labels["clusterID"] = c.Name, c.ID
		out = append(out, FiringAlert{Name: alert, Labels: labels, Value: last[k], key: k})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].key < out[b].key })
	return out, nil
}

// metricName finds the metrics an expression reads.
var metricName = regexp.MustCompile(`\bupdate_insights_[a-z_]+\b`)

// PromtoolTest writes a promtool test file that loads ruleFile (relative to
// the test file), the rule file of the group alone, and evaluates it every
// FleetEvalInterval over the fleet's series (those of the metrics the
// group reads) from the first sample to window. At each checkpoint it
// expects exactly the group's firing alerts that Expected gives, with the
// rules' labels; at the last, the annotations of the alert named annotated
// too, as render renders them.
//
// The fleet is split into test groups of shard clusters, each with a
// storage of its own: promtool's query engine holds at most 10,000 samples
// in memory, and a subquery over 3 hours holds 37 per cluster.
func (f *Fleet) PromtoolTest(w io.Writer, group Group, ruleFile string, window time.Duration, checkpoints []time.Duration, shard int, annotated string) error {
	alerts := map[string]Rule{}
	metrics := map[string]bool{}
	for _, r := range group.Rules {
		if r.Alert != "" {
			alerts[r.Alert] = r
		}
		for _, m := range metricName.FindAllString(r.Expr, -1) {
			metrics[m] = true
		}
	}
	names := make([]string, 0, len(alerts))
	for name := range alerts {
		names = append(names, name)
	}
	sort.Strings(names)
	if _, ok := alerts[annotated]; annotated != "" && !ok {
		return fmt.Errorf("group %s has no alert %s", group.Name, annotated)
	}

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Generated by test/rules (fleet.go): %d clusters as ACM's observability stores them, in test groups of %d.\n", len(f.Clusters), shard)
	fmt.Fprintf(bw, "rule_files: [%s]\nevaluation_interval: %s\ntests:\n", ruleFile, promDuration(FleetEvalInterval))
	samples := int(window/PushInterval) + 1
	for from := 0; from < len(f.Clusters); from += shard {
		clusters := f.Clusters[from:min(from+shard, len(f.Clusters))]
		fmt.Fprintf(bw, "- name: %s to %s\n  interval: %s\n  input_series:\n", clusters[0].Name, clusters[len(clusters)-1].Name, promDuration(PushInterval))
		for _, c := range clusters {
			for _, s := range c.seriesOf(samples) {
				if metrics[s.name] {
					fmt.Fprintf(bw, "  - series: '%s'\n    values: '%s'\n", s.labelString(false), promtoolValues(s.values))
				}
			}
		}
		fmt.Fprintf(bw, "  promql_expr_test:\n")
		for _, cp := range checkpoints {
			var expected []string
			for _, c := range clusters {
				for _, alert := range names {
					firing, err := c.Expected(alert, cp)
					if err != nil {
						return err
					}
					for _, a := range firing {
						labels := map[string]string{"alertname": alert, "alertstate": "firing"}
						for k, v := range alerts[alert].Labels {
							labels[k] = v
						}
						for k, v := range a.Labels {
							labels[k] = v
						}
						expected = append(expected, promLabels("ALERTS", labels))
					}
				}
			}
			sort.Strings(expected)
			fmt.Fprintf(bw, "  - expr: 'ALERTS{alertstate=\"firing\"}'\n    eval_time: %s\n    exp_samples:", promDuration(cp))
			if len(expected) == 0 {
				fmt.Fprintf(bw, " []\n")
				continue
			}
			fmt.Fprintf(bw, "\n")
			for _, e := range expected {
				fmt.Fprintf(bw, "    - labels: '%s'\n      value: 1\n", e)
			}
		}
		if annotated == "" {
			continue
		}
		rule := alerts[annotated]
		cp := checkpoints[len(checkpoints)-1]
		fmt.Fprintf(bw, "  alert_rule_test:\n  - eval_time: %s\n    alertname: %s\n    exp_alerts:", promDuration(cp), annotated)
		var firing []FiringAlert
		for _, c := range clusters {
			f, err := c.Expected(annotated, cp)
			if err != nil {
				return err
			}
			firing = append(firing, f...)
		}
		if len(firing) == 0 {
			fmt.Fprintf(bw, " []\n")
			continue
		}
		fmt.Fprintf(bw, "\n")
		for _, a := range firing {
			fmt.Fprintf(bw, "    - exp_labels:\n")
			labels := map[string]string{}
			for k, v := range rule.Labels {
				labels[k] = v
			}
			for k, v := range a.Labels {
				labels[k] = v
			}
			writeMap(bw, "        ", labels)
			fmt.Fprintf(bw, "      exp_annotations:\n")
			annotations, err := render(rule.Annotations, a.Labels, a.Value)
			if err != nil {
				return err
			}
			writeMap(bw, "        ", annotations)
		}
	}
	return bw.Flush()
}

func writeMap(w io.Writer, indent string, m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%s%s: %s\n", indent, k, strconv.Quote(m[k]))
	}
}

func promLabels(name string, labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%q", k, labels[k]))
	}
	return name + "{" + strings.Join(parts, ", ") + "}"
}

// promDuration writes a duration as Prometheus reads it.
func promDuration(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	var b strings.Builder
	for _, u := range []struct {
		unit string
		d    time.Duration
	}{{"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}} {
		if n := d / u.d; n > 0 {
			fmt.Fprintf(&b, "%d%s", n, u.unit)
			d -= n * u.d
		}
	}
	return b.String()
}

// WriteOpenMetrics writes the fleet's series from the first sample to
// window, the first sample at start, in OpenMetrics for promtool tsdb
// create-blocks-from openmetrics; with the clusters' cluster_version
// series, and the ALERTS series of the alerts Expected says fire, as ACM
// federates them, where it can tell.
func (f *Fleet) WriteOpenMetrics(w io.Writer, pr *PrometheusRule, start time.Time, window time.Duration) error {
	bw := bufio.NewWriter(w)
	samples := int(window/PushInterval) + 1
	families := map[string][]*series{}
	var names []string
	for _, c := range f.Clusters {
		for _, s := range append(c.seriesOf(samples), c.versionSeries(samples, start)...) {
			if _, ok := families[s.name]; !ok {
				names = append(names, s.name)
			}
			families[s.name] = append(families[s.name], s)
		}
	}
	rules := pr.Alerts()
	alertNames := make([]string, 0, len(rules))
	for name := range rules {
		alertNames = append(alertNames, name)
	}
	slices.Sort(alertNames)
	for _, c := range f.Clusters {
		byLabels := map[string]*series{}
		for i := 0; i < samples; i++ {
			t := time.Duration(i) * PushInterval
			for _, alert := range alertNames {
				if _, ok := conditions[alert]; !ok {
					continue
				}
				firing, err := c.Expected(alert, t)
				if err != nil {
					// Too close to a change to tell: no sample.
					continue
				}
				for _, a := range firing {
					labels := [][2]string{{"alertname", alert}, {"alertstate", "firing"}, {"cluster", c.Name}, {"clusterID", c.ID}}
					for k, v := range rules[alert].Labels {
						labels = append(labels, [2]string{k, v})
					}
					for k, v := range keyLabels(a.key) {
						labels = append(labels, [2]string{k, v})
					}
					sort.Slice(labels, func(a, b int) bool { return labels[a][0] < labels[b][0] })
					s := &series{name: "ALERTS", labels: labels}
					key := s.labelString(true)
					if byLabels[key] == nil {
						s.values = make([]float64, samples)
						for k := range s.values {
							s.values[k] = math.NaN()
						}
						byLabels[key] = s
						if _, ok := families["ALERTS"]; !ok {
							names = append(names, "ALERTS")
						}
						families["ALERTS"] = append(families["ALERTS"], s)
					}
					byLabels[key].values[i] = 1
				}
			}
		}
	}
	for _, name := range names {
		fmt.Fprintf(bw, "# TYPE %s gauge\n", name)
		for _, s := range families[name] {
			l := s.labelString(true)
			for i, v := range s.values {
				if math.IsNaN(v) {
					continue
				}
				ts := start.Add(time.Duration(i) * PushInterval)
				fmt.Fprintf(bw, "%s %s %d\n", l, formatValue(v), ts.Unix())
			}
		}
	}
	fmt.Fprintf(bw, "# EOF\n")
	return bw.Flush()
}

// render expands annotations as Prometheus does for an alert whose
// expression gave labels and value, with the two functions the rules use.
func render(annotations, labels map[string]string, value float64) (map[string]string, error) {
	funcs := template.FuncMap{
		"humanize":           humanize,
		"humanizePercentage": func(v float64) string { return fmt.Sprintf("%.4g%%", v*100) },
	}
	out := map[string]string{}
	for k, text := range annotations {
		tmpl, err := template.New(k).Option("missingkey=zero").Funcs(funcs).Parse("{{$labels := .Labels}}{{$value := .Value}}" + text)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		if err := tmpl.Execute(&b, struct {
			Labels map[string]string
			Value  float64
		}{labels, value}); err != nil {
			return nil, err
		}
		out[k] = b.String()
	}
	return out, nil
}

// humanize is Prometheus' template function of that name.
func humanize(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprintf("%.4g", v)
	}
	if math.Abs(v) >= 1 {
		prefix := ""
		for _, p := range []string{"k", "M", "G", "T", "P", "E", "Z", "Y"} {
			if math.Abs(v) < 1000 {
				break
			}
			prefix = p
			v /= 1000
		}
		return fmt.Sprintf("%.4g%s", v, prefix)
	}
	prefix := ""
	for _, p := range []string{"m", "u", "n", "p", "f", "a", "z", "y"} {
		if math.Abs(v) >= 1 {
			break
		}
		prefix = p
		v *= 1000
	}
	return fmt.Sprintf("%.4g%s", v, prefix)
}
