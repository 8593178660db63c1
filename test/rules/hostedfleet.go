package rules

import (
	"time"

	"github.com/update-insights/update-insights-operator/pkg/metrics"
)

// The fleet's HyperShift management clusters. A management cluster's
// operator follows every HostedCluster on it and serves a few series per
// hosted cluster (pkg/metrics/hostedclusters.go), labelled with the hosted
// cluster's namespace and name; ACM federates them with the management
// cluster's cluster and clusterID, as every other series of it.

// The alerts on hosted clusters' updates, by name.
const (
	AlertHostedBlocked = "UpdateInsightsHostedClusterUpdateBlocked"
	AlertHostedStalled = "UpdateInsightsHostedClusterUpdateStalled"
	AlertHostedFailing = "UpdateInsightsHostedClusterUpdateFailing"
)

// The hosted clusters' assessments (pkg/apis/insights/v1alpha1,
// HostedClusterAssessment) the model plays.
const (
	hostedProgressing = "Progressing"
	hostedCompleted   = "Completed"
	hostedBlocked     = "Blocked"
	hostedStalled     = "Stalled"
	hostedFailing     = "Failing"
)

// hostedStalledAfter is how long past its estimate a hosted cluster's
// update that has stopped is assessed Stalled
// (pkg/assessment/hostedclusters, stalledAfter).
const hostedStalledAfter = 10 * time.Minute

// HostedCluster is a hosted cluster of a management cluster, its control
// plane's update as the management cluster's operator assesses it
// (pkg/assessment/hostedclusters).
type HostedCluster struct {
	Namespace, Name string
	// Update is its control plane's update, its NodePools rolling over
	// Workers once it completed; nil for one whose last update completed
	// before the data.
	Update *Update
	// Blocked is when HyperShift refuses the requested release before the
	// guest is asked for it (Progressing False, reason Blocked), as a
	// minor update while the guest is not upgradeable.
	Blocked *Span
	// Failing is when the guest's cluster-version operator says the
	// update is failing (ClusterVersionFailing True).
	Failing   *Span
	NodePools int
}

// hostedState is what the operator's series say of a hosted cluster.
type hostedState struct {
	assessment       string
	ratio, remaining float64
	hasEstimate      bool
	// updated is how many NodePools run the control plane's target.
	updated int
}

// state is the hosted cluster's state at t, as the assessment computes it:
// the estimate is 1.2 times the update's healthy duration from its start,
// 0 once passed; an update stopped is Stalled hostedStalledAfter past it.
// The order of the assessments is assess.go's: blocked, failing, stalled.
func (h *HostedCluster) state(t time.Duration) hostedState {
	if h.Blocked.contains(t) {
		// Refused before the guest was asked: the insight has a previous
		// version and no target, so no NodePool is at it (assess.go
		// assessVersion, summarize), and no completion.
		return hostedState{assessment: hostedBlocked}
	}
	u := h.Update
	if u == nil || t < u.Start {
		return hostedState{assessment: hostedCompleted, ratio: 1, updated: h.NodePools}
	}
	e := t - u.Start
	if u.StallAt == 0 && e >= u.Duration {
		// The NodePools follow one after the other, each at the target
		// once its rollout completed.
		s := hostedState{assessment: hostedCompleted, ratio: 1}
		workers := workersOr(u)
		for i := 0; i < h.NodePools; i++ {
			if e >= u.Duration+workers*time.Duration(i+1)/time.Duration(h.NodePools) {
				s.updated++
			}
		}
		return s
	}
	progress := e
	if u.StallAt > 0 && progress > u.StallAt {
		progress = u.StallAt
	}
	left := time.Duration(1.2*float64(u.Duration)) - e
	s := hostedState{ratio: float64(int(100*progress/u.Duration)) / 100, remaining: max(0, left.Seconds()), hasEstimate: true}
	switch {
	case h.Failing.contains(t):
		s.assessment = hostedFailing
	case u.StallAt > 0 && -left > hostedStalledAfter:
		s.assessment = hostedStalled
	default:
		s.assessment = hostedProgressing
	}
	return s
}

// hostedLabels are the labels of a hosted cluster's series.
func (h *HostedCluster) labels(more ...[2]string) [][2]string {
	return append([][2]string{{metrics.HostedClusterNameLabel, h.Name}, {metrics.HostedClusterNamespaceLabel, h.Namespace}}, more...)
}

// addSeries adds the hosted cluster's series, as pkg/metrics serves them.
func (h *HostedCluster) addSeries(add func(name string, labels [][2]string, value func(*snapshot) (float64, bool))) {
	for _, a := range metrics.HostedClusterAssessments {
		add(metrics.HostedClusterAssessmentMetric, h.labels([2]string{"assessment", a}), func(s *snapshot) (float64, bool) {
			return boolValue(h.state(s.at).assessment == a), true
		})
	}
	add(metrics.HostedClusterCompletionRatioMetric, h.labels(), func(s *snapshot) (float64, bool) { return h.state(s.at).ratio, true })
	add(metrics.HostedClusterEstimatedRemainingMetric, h.labels(), func(s *snapshot) (float64, bool) {
		st := h.state(s.at)
		return st.remaining, st.hasEstimate && st.assessment != hostedCompleted
	})
	add(metrics.HostedClusterNodePoolsMetric, h.labels([2]string{"state", "total"}), func(*snapshot) (float64, bool) { return float64(h.NodePools), true })
	add(metrics.HostedClusterNodePoolsMetric, h.labels([2]string{"state", "updated"}), func(s *snapshot) (float64, bool) {
		return float64(h.state(s.at).updated), true
	})
}

// hostedKey is the condition's key of a hosted cluster's alert.
func (h *HostedCluster) key() string {
	return labelKey(metrics.HostedClusterNameLabel, h.Name, metrics.HostedClusterNamespaceLabel, h.Namespace)
}

// hostedAssessed is the condition of a hosted cluster's alert: the latest
// sample of the 10 minutes says its assessment is the one given.
func hostedAssessed(assessment string) condition {
	return func(c *Cluster, t time.Duration) map[string]float64 {
		v, _, ok := c.view(t)
		if !ok {
			return nil
		}
		out := map[string]float64{}
		for _, h := range c.Hosted {
			if h.state(v.at).assessment == assessment {
				out[h.key()] = 1
			}
		}
		return out
	}
}

// managementClusters are the fleet's management clusters: each has three
// hosted clusters, the first playing its role, the second updating
// healthily, the third idle.
func managementClusters(add func(role string, plays []string, c Cluster)) {
	m := time.Minute
	hosted := func(i int, role *HostedCluster) []*HostedCluster {
		role.Namespace, role.Name, role.NodePools = "clusters", "payments", 2+i
		return []*HostedCluster{
			role,
			{Namespace: "clusters", Name: "ledger", NodePools: 3, Update: &Update{Start: time.Duration(30+20*i) * m, Duration: 50 * m, Workers: 40 * m}},
			{Namespace: "team-b", Name: "analytics", NodePools: 1},
		}
	}
	for i, from := range []time.Duration{20 * m, 25 * m, 50 * m} {
		add("management: a hosted cluster's minor update blocked", []string{AlertHostedBlocked},
			Cluster{Hosted: hosted(i, &HostedCluster{Blocked: &Span{From: from}})})
	}
	for i := 0; i < 3; i++ {
		add("management: a hosted cluster's update stalled", []string{AlertHostedStalled},
			Cluster{Hosted: hosted(i, &HostedCluster{Update: &Update{Start: time.Duration(10+10*i) * m, Duration: 60 * m, StallAt: 30 * m}})})
	}
	for i := 0; i < 3; i++ {
		add("management: a hosted cluster's update failing for an hour", []string{AlertHostedFailing},
			Cluster{Hosted: hosted(i, &HostedCluster{Update: &Update{Start: 15 * m, Duration: 120 * m, Workers: 30 * m},
				Failing: &Span{From: time.Duration(40+10*i) * m, To: time.Duration(100+10*i) * m}})})
	}
	add("healthy: management, a hosted cluster blocked for 10 minutes", nil,
		Cluster{Hosted: hosted(0, &HostedCluster{Blocked: &Span{From: 60 * m, To: 70 * m}, Update: &Update{Start: 70 * m, Duration: 60 * m, Workers: 20 * m}})})
	add("healthy: management, a hosted cluster's update failing for 10 minutes", nil,
		Cluster{Hosted: hosted(1, &HostedCluster{Update: &Update{Start: 20 * m, Duration: 70 * m}, Failing: &Span{From: 50 * m, To: 60 * m}})})
	add("healthy: management, operator restarted while hosted clusters update", nil,
		Cluster{Restart: 110 * m, Hosted: hosted(2, &HostedCluster{Update: &Update{Start: 60 * m, Duration: 90 * m, Workers: 30 * m}})})
}
