// Package estimates replays updates whose every ClusterOperator's and
// node's duration is known, and measures how far the operator's estimates
// of their completion fall from it: with the cluster's own UpdateRecords,
// and without them (the method `oc adm upgrade status` uses,
// pkg/cli/admin/upgrade/status/controlplane.go, estimateCompletion and
// baselineDuration, which pkg/eta follows).
package estimates

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/eta"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

// Percents are the control plane completions the estimate is measured at.
var Percents = []int{25, 50, 75}

// Profile is a kind of cluster: its ClusterOperators in the order the
// cluster-version operator's run levels update them, a level after the one
// before has completed, each level's operators together; and its workers.
type Profile struct {
	Name string
	// Levels are the typical durations of each level's operators.
	Levels [][]time.Duration
	// Workers and PerNode are its worker pool's nodes, updated one at a
	// time (maxUnavailable 1), and a node's typical update time.
	Workers int
	PerNode time.Duration
}

// Profiles are three clusters unlike the one TimewiseCompletion was fitted
// on: one whose etcd and API servers are slow, one whose last operators
// (the machine-config operator rolling the control plane nodes) take
// most of the time, and a compact one.
func Profiles() []Profile {
	m := time.Minute
	level := func(n int, d time.Duration) []time.Duration {
		out := make([]time.Duration, n)
		for i := range out {
			out[i] = d + time.Duration(i)*30*time.Second
		}
		return out
	}
	return []Profile{
		{Name: "slow etcd and API servers", Levels: [][]time.Duration{level(1, 28*m), level(2, 22*m), level(6, 4*m), level(12, 3*m), level(10, 2*m), level(2, 6*m)}, Workers: 12, PerNode: 14 * m},
		{Name: "control plane nodes last", Levels: [][]time.Duration{level(1, 8*m), level(2, 9*m), level(8, 3*m), level(14, 2*m), level(8, 2*m), level(1, 45*m)}, Workers: 30, PerNode: 7 * m},
		{Name: "compact", Levels: [][]time.Duration{level(1, 6*m), level(2, 7*m), level(10, 2*m), level(10, 2*m), level(6, time.Minute), level(1, 12*m)}, Workers: 3, PerNode: 22 * m},
	}
}

// Update is one played update: when each operator and node completed.
type Update struct {
	Start time.Time
	// Operators are each operator's completion, in the order they complete.
	Operators []time.Duration
	// ControlPlane is the control plane's duration: its last operator's.
	ControlPlane time.Duration
	// Nodes are each worker's update time, one after another.
	Nodes    []time.Duration
	From, To string
}

// Play plays n patch updates of the profile, each operator's and node's
// time drawn within 20% of its typical one, the third update with a level
// held up 20 minutes (a degraded operator), a fixed seed per profile so
// that the figures are the same on every run.
func Play(p Profile, n int, seed int64) []Update {
	rng := rand.New(rand.NewSource(seed))
	vary := func(d time.Duration) time.Duration {
		return time.Duration(float64(d) * (0.8 + 0.4*rng.Float64())).Round(time.Second)
	}
	start := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var out []Update
	for u := 0; u < n; u++ {
		up := Update{Start: start, From: fmt.Sprintf("4.16.%d", u), To: fmt.Sprintf("4.16.%d", u+1)}
		at := time.Duration(0)
		for l, level := range p.Levels {
			longest := time.Duration(0)
			for _, d := range level {
				took := vary(d)
				if u == 2 && l == 1 {
					took += 20 * time.Minute
				}
				up.Operators = append(up.Operators, at+took)
				longest = max(longest, took)
			}
			at += longest
		}
		slices.Sort(up.Operators)
		up.ControlPlane = up.Operators[len(up.Operators)-1]
		for i := 0; i < p.Workers; i++ {
			up.Nodes = append(up.Nodes, vary(p.PerNode))
		}
		out = append(out, up)
		start = start.Add(30 * 24 * time.Hour)
	}
	return out
}

// Record is the UpdateRecord the operator would have kept of the update,
// its operators named by their order.
func (u *Update) Record() insightsv1alpha1.UpdateRecordStatus {
	started := metav1.NewTime(u.Start)
	done := metav1.NewTime(u.Start.Add(u.ControlPlane))
	r := insightsv1alpha1.UpdateRecordStatus{
		From: &insightsv1alpha1.Version{Version: u.From}, To: insightsv1alpha1.Version{Version: u.To},
		State: insightsv1alpha1.UpdateRecordCompleted, StartedAt: started, ControlPlaneCompletedAt: &done, CompletedAt: &done,
		Durations: insightsv1alpha1.UpdateRecordDurations{ControlPlane: &metav1.Duration{Duration: u.ControlPlane}},
	}
	for i, d := range u.Operators {
		at := metav1.NewTime(u.Start.Add(d))
		r.ClusterOperators = append(r.ClusterOperators, insightsv1alpha1.OperatorUpdateRecord{Name: fmt.Sprintf("operator-%02d", i), CompletedAt: &at, Updated: true})
	}
	var nt insightsv1alpha1.NodeTimes
	for _, d := range u.Nodes {
		nt = updaterecord.AddNodeTime(nt, d)
	}
	r.Pools = []insightsv1alpha1.PoolUpdateRecord{{Name: "worker", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Nodes: int32(len(u.Nodes)), Updated: int32(len(u.Nodes)), NodeTimes: nt}}
	return r
}

// Errors are the mean absolute errors of the estimates over the replayed
// updates that had a completed update before them, in minutes: the
// control plane's completion at each of Percents, and the workers'
// duration as estimated when they begin.
type Errors struct {
	ControlPlane map[int]float64
	Workers      float64
	Updates      int
}

// Replay replays every profile's updates, each estimated from the records
// of the updates before it (withRecords) or from its ClusterVersion
// history alone, and returns the mean absolute errors.
func Replay(withRecords bool) Errors {
	sums := map[int]float64{}
	var workers float64
	count := 0
	for i, p := range Profiles() {
		updates := Play(p, 6, int64(i+1))
		var records []insightsv1alpha1.UpdateRecordStatus
		for k := range updates {
			u := &updates[k]
			if k > 0 {
				var past *eta.Past
				perNode := nodes.DefaultPerNodeTime
				if withRecords {
					past, _ = updaterecord.Learn(records, u.From, u.To)
					if learned, _, ok := updaterecord.PerNode(records, "worker"); ok {
						perNode = learned
					}
				}
				for _, percent := range Percents {
					sums[percent] += math.Abs(estimateError(u, updates[k-1].ControlPlane, past, percent).Minutes())
				}
				estimated := time.Duration(len(u.Nodes)) * perNode
				workers += math.Abs((estimated - total(u.Nodes)).Minutes())
				count++
			}
			records = append(records, u.Record())
		}
	}
	out := Errors{ControlPlane: map[int]float64{}, Updates: count}
	for _, percent := range Percents {
		out.ControlPlane[percent] = sums[percent] / float64(count)
	}
	out.Workers = workers / float64(count)
	return out
}

// estimateError is the estimated completion, when the control plane is
// first at percent, less the actual: the baseline from the last update, as
// the ClusterVersion's history gives it, and the past when there is one.
func estimateError(u *Update, lastDuration time.Duration, past *eta.Past, percent int) time.Duration {
	total := len(u.Operators)
	for i, d := range u.Operators {
		updated := i + 1
		if updated*100/total < percent {
			continue
		}
		now := u.Start.Add(d)
		in := eta.Input{StartedAt: u.Start, LastObservedProgress: now, Now: now, Updated: updated, Total: total, Baseline: lastDuration, Past: past}
		return now.Add(eta.Remaining(in)).Sub(u.Start.Add(u.ControlPlane))
	}
	return 0
}

func total(ds []time.Duration) time.Duration {
	var t time.Duration
	for _, d := range ds {
		t += d
	}
	return t
}
