// Package hostedview renders, for a HyperShift management cluster's
// administrator, how the hosted clusters' updates are going: from the
// HostedClusterProgressInsights and NodePoolProgressInsights the operator
// keeps beside each HostedCluster and NodePool. It is pure: insights and a
// clock in, a view and text out.
package hostedview

import (
	"cmp"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// Fleet is the management cluster's hosted clusters, those that need
// attention first.
type Fleet struct {
	// Now is the time the view is rendered at.
	Now      metav1.Time `json:"now"`
	Clusters []Cluster   `json:"clusters"`
}

// Attention says how urgently a hosted cluster's update wants a look; the
// fleet is ordered by it.
type Attention string

const (
	// AttentionNeeded: the control plane is Failing, Blocked, Stalled or
	// Unknown (or its insight is missing), a NodePool is Degraded, or an
	// Error or Critical problem is reported. What cannot be known is shown
	// first, never taken for a cluster at rest.
	AttentionNeeded Attention = "NeedsAttention"
	// AttentionProgressing: the control plane or a NodePool is updating,
	// or a NodePool waits to.
	AttentionProgressing Attention = "Progressing"
	// AttentionNone: the update completed, control plane and NodePools.
	AttentionNone Attention = "Completed"
)

var attentionRank = map[Attention]int{AttentionNeeded: 0, AttentionProgressing: 1, AttentionNone: 2}

// Cluster is one hosted cluster's update: its control plane, from its
// HostedClusterProgressInsight, and its NodePools.
type Cluster struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// InsightMissing says no HostedClusterProgressInsight of this name was
	// read, only NodePool insights that name it: the control plane's fields
	// are then unknown.
	InsightMissing bool      `json:"insightMissing,omitempty"`
	Attention      Attention `json:"attention"`

	Assessment           insightsv1alpha1.HostedClusterAssessment    `json:"assessment,omitempty"`
	Versions             insightsv1alpha1.ControlPlaneUpdateVersions `json:"versions"`
	CompletionPercent    int32                                       `json:"completionPercent"`
	StartedAt            *metav1.Time                                `json:"startedAt,omitempty"`
	CompletedAt          *metav1.Time                                `json:"completedAt,omitempty"`
	EstimatedCompletedAt *metav1.Time                                `json:"estimatedCompletedAt,omitempty"`
	Problems             []insightsv1alpha1.HostedProblem            `json:"problems,omitempty"`
	// Conditions are the insight's: Updating's reason and message say why
	// an Unknown assessment is unknown.
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// NodePoolCount is how many NodePools run the control plane's target.
	NodePoolCount NodePoolCount `json:"nodePoolCount"`
	// Estimate is when the whole update, control plane and NodePools, is
	// estimated to complete.
	Estimate Estimate `json:"estimate"`
	// Problem is the worst problem, the one the fleet's table shows.
	Problem *Problem `json:"problem,omitempty"`

	NodePools []NodePool `json:"nodePools,omitempty"`
}

// NodePoolCount counts a hosted cluster's NodePools.
type NodePoolCount struct {
	Total int32 `json:"total"`
	// Updated is how many run the control plane's target version; nil when
	// it cannot be told (the target is not known).
	Updated *int32 `json:"updated,omitempty"`
	// FromNodePools says they were counted from the NodePool insights;
	// otherwise from the HostedCluster insight's status.nodePools.
	FromNodePools bool `json:"fromNodePools,omitempty"`
}

// Estimate is when an update is estimated to complete.
type Estimate struct {
	// At is the latest estimate of the parts still updating; nil when
	// nothing updates or when Unknown.
	At *metav1.Time `json:"at,omitempty"`
	// Unknown says a part still updating has no estimate, so the whole
	// has none either.
	Unknown bool `json:"unknown,omitempty"`
}

// Problem is a problem of the control plane, or of the NodePool it names.
type Problem struct {
	NodePool                       string `json:"nodePool,omitempty"`
	insightsv1alpha1.HostedProblem `json:",inline"`
}

// NodePool is one NodePool's update, as its insight reports it.
type NodePool struct {
	Name                                           string `json:"name"`
	insightsv1alpha1.NodePoolProgressInsightStatus `json:",inline"`
}

// Build makes the fleet from the insights: a cluster per
// HostedClusterProgressInsight and per HostedCluster that NodePool insights
// name without one, ordered by attention, then namespace and name.
func Build(clusters []insightsv1alpha1.HostedClusterProgressInsight, pools []insightsv1alpha1.NodePoolProgressInsight, now time.Time) Fleet {
	type key struct{ namespace, name string }
	byKey := map[key]*Cluster{}
	var keys []key
	for i := range clusters {
		hc := &clusters[i]
		k := key{hc.Namespace, hc.Name}
		byKey[k] = fromInsight(hc)
		keys = append(keys, k)
	}
	for i := range pools {
		np := &pools[i]
		k := key{np.Namespace, np.Status.HostedCluster}
		c, ok := byKey[k]
		if !ok {
			c = &Cluster{Namespace: np.Namespace, Name: np.Status.HostedCluster, InsightMissing: true}
			byKey[k] = c
			keys = append(keys, k)
		}
		c.NodePools = append(c.NodePools, NodePool{Name: np.Name, NodePoolProgressInsightStatus: *np.Status.DeepCopy()})
	}
	f := Fleet{Now: metav1.NewTime(now), Clusters: make([]Cluster, 0, len(keys))}
	for _, k := range keys {
		c := byKey[k]
		slices.SortFunc(c.NodePools, func(a, b NodePool) int { return cmp.Compare(a.Name, b.Name) })
		c.NodePoolCount = countNodePools(c)
		c.Estimate = estimate(c)
		c.Problem = worstProblem(c)
		c.Attention = attention(c)
		f.Clusters = append(f.Clusters, *c)
	}
	slices.SortFunc(f.Clusters, func(a, b Cluster) int {
		return cmp.Or(
			cmp.Compare(attentionRank[a.Attention], attentionRank[b.Attention]),
			cmp.Compare(a.Namespace, b.Namespace),
			cmp.Compare(a.Name, b.Name))
	})
	return f
}

// unknownWhy is the Updating condition's reason and message while the
// assessment is Unknown: the controller's word for what it could not read.
func (c *Cluster) unknownWhy() string {
	if c.Assessment != insightsv1alpha1.HostedClusterAssessmentUnknown {
		return ""
	}
	u := meta.FindStatusCondition(c.Conditions, insightsv1alpha1.HostedProgressInsightUpdating)
	if u == nil || u.Message == "" {
		return ""
	}
	return u.Reason + ": " + u.Message
}

// Find returns the cluster of that namespace and name, or false.
func (f *Fleet) Find(namespace, name string) (*Cluster, bool) {
	for i := range f.Clusters {
		if c := &f.Clusters[i]; c.Namespace == namespace && c.Name == name {
			return c, true
		}
	}
	return nil, false
}

func fromInsight(hc *insightsv1alpha1.HostedClusterProgressInsight) *Cluster {
	s := hc.Status.DeepCopy()
	return &Cluster{
		Namespace:            hc.Namespace,
		Name:                 hc.Name,
		Assessment:           s.Assessment,
		Versions:             s.Versions,
		CompletionPercent:    s.CompletionPercent,
		StartedAt:            s.StartedAt,
		CompletedAt:          s.CompletedAt,
		EstimatedCompletedAt: s.EstimatedCompletedAt,
		Problems:             s.Problems,
		Conditions:           s.Conditions,
		NodePoolCount:        NodePoolCount{Total: s.NodePools.Total, Updated: &s.NodePools.Updated},
	}
}

// countNodePools counts the NodePools at the control plane's target from
// their insights when there are any, which are read with the cluster's and
// so agree with it; else it keeps the count the HostedCluster insight holds.
func countNodePools(c *Cluster) NodePoolCount {
	if len(c.NodePools) == 0 {
		return c.NodePoolCount
	}
	n := NodePoolCount{Total: int32(len(c.NodePools)), FromNodePools: true}
	target := c.Versions.Target.Version
	if target == "" {
		return n
	}
	var updated int32
	for i := range c.NodePools {
		if c.NodePools[i].Versions.Current == target {
			updated++
		}
	}
	n.Updated = &updated
	return n
}

// estimate is the latest estimate of the parts still updating: the control
// plane until it completes, and each NodePool that has not. One without an
// estimate leaves the whole unknown, rather than falsely early.
func estimate(c *Cluster) Estimate {
	var parts []*metav1.Time
	if c.InsightMissing || c.Assessment != insightsv1alpha1.HostedClusterAssessmentCompleted {
		parts = append(parts, c.EstimatedCompletedAt)
	}
	for i := range c.NodePools {
		if p := &c.NodePools[i]; p.Assessment != insightsv1alpha1.PoolCompleted && p.Assessment != insightsv1alpha1.PoolBehind && p.Assessment != insightsv1alpha1.PoolExcluded {
			parts = append(parts, p.EstimatedCompletedAt)
		}
	}
	var e Estimate
	for _, at := range parts {
		if at == nil {
			return Estimate{Unknown: true}
		}
		if e.At == nil || at.After(e.At.Time) {
			e.At = at
		}
	}
	return e
}

// levelRank orders problem levels, the most serious first.
var levelRank = map[insightsv1alpha1.InsightImpactLevel]int{
	insightsv1alpha1.CriticalImpactLevel: 0,
	insightsv1alpha1.ErrorImpactLevel:    1,
	insightsv1alpha1.WarningImpactLevel:  2,
	insightsv1alpha1.UnknownImpactLevel:  3,
	insightsv1alpha1.InfoImpactLevel:     4,
}

func rank(l insightsv1alpha1.InsightImpactLevel) int {
	if r, ok := levelRank[l]; ok {
		return r
	}
	return len(levelRank)
}

// worstProblem is the control plane's first problem (its insight lists the
// most serious first), else the most serious first problem of a NodePool,
// the first NodePool by name among equals.
func worstProblem(c *Cluster) *Problem {
	if len(c.Problems) > 0 {
		return &Problem{HostedProblem: c.Problems[0]}
	}
	var worst *Problem
	for i := range c.NodePools {
		p := &c.NodePools[i]
		if len(p.Problems) == 0 {
			continue
		}
		if worst == nil || rank(p.Problems[0].Level) < rank(worst.Level) {
			worst = &Problem{NodePool: p.Name, HostedProblem: p.Problems[0]}
		}
	}
	return worst
}

func attention(c *Cluster) Attention {
	switch c.Assessment {
	case "", insightsv1alpha1.HostedClusterAssessmentFailing, insightsv1alpha1.HostedClusterAssessmentBlocked,
		insightsv1alpha1.HostedClusterAssessmentStalled, insightsv1alpha1.HostedClusterAssessmentUnknown:
		return AttentionNeeded
	}
	if c.InsightMissing || slices.ContainsFunc(c.Problems, serious) {
		return AttentionNeeded
	}
	progressing := c.Assessment != insightsv1alpha1.HostedClusterAssessmentCompleted
	for i := range c.NodePools {
		p := &c.NodePools[i]
		if p.Assessment == insightsv1alpha1.PoolDegraded || slices.ContainsFunc(p.Problems, serious) {
			return AttentionNeeded
		}
		if p.Assessment == insightsv1alpha1.PoolProgressing || p.Assessment == insightsv1alpha1.PoolPending {
			progressing = true
		}
	}
	if progressing {
		return AttentionProgressing
	}
	return AttentionNone
}

func serious(p insightsv1alpha1.HostedProblem) bool {
	return rank(p.Level) <= rank(insightsv1alpha1.ErrorImpactLevel)
}
