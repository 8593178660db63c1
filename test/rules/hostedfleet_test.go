package rules

import (
	"time"

	"github.com/update-insights/update-insights-operator/pkg/metrics"
)

// needsAttention are the hosted clusters' assessments the dashboard's
// hosted cluster panel shows.
var needsAttention = []string{hostedProgressing, hostedBlocked, hostedStalled, hostedFailing}

// hostedKey is a result's key for a hosted cluster's series.
func hostedKey(c *Cluster, h *HostedCluster, labels ...string) string {
	return clusterKey(c, append([]string{metrics.HostedClusterNameLabel, h.Name, metrics.HostedClusterNamespaceLabel, h.Namespace}, labels...)...)
}

// hostedAssessedAt are the hosted cluster's assessments among those given
// whose series is 1 on some pod at t.
func (c *Cluster) hostedAssessedAt(h *HostedCluster, t time.Duration, among []string) []string {
	var out []string
	for _, a := range among {
		v, ok := maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return boolValue(h.state(s.at).assessment == a), true }))
		if ok && v == 1 {
			out = append(out, a)
		}
	}
	return out
}

// hostedPanelChecks are the checks of the hosted cluster panel's queries:
// A its assessments, the others each hosted cluster's value while one of
// them holds.
func hostedPanelChecks() map[string]panelCheck {
	value := func(v func(h *HostedCluster, s hostedState) (float64, bool)) panelCheck {
		return perClusterCheck(func(c *Cluster, t time.Duration, r result) {
			for _, h := range c.Hosted {
				if len(c.hostedAssessedAt(h, t, needsAttention)) == 0 {
					continue
				}
				if m, ok := maxOf(c.lastOver(t, func(s *snapshot) (float64, bool) { return v(h, h.state(s.at)) })); ok {
					r[hostedKey(c, h)] = m
				}
			}
		})
	}
	return map[string]panelCheck{
		"A": perClusterCheck(func(c *Cluster, t time.Duration, r result) {
			for _, h := range c.Hosted {
				for _, a := range c.hostedAssessedAt(h, t, needsAttention) {
					r[hostedKey(c, h, "assessment", a)] = 1
				}
			}
		}),
		"B": value(func(_ *HostedCluster, s hostedState) (float64, bool) { return s.ratio, true }),
		"C": value(func(_ *HostedCluster, s hostedState) (float64, bool) {
			return s.remaining, s.hasEstimate && s.assessment != hostedCompleted
		}),
		"D": value(func(_ *HostedCluster, s hostedState) (float64, bool) { return float64(s.updated), true }),
		"E": value(func(h *HostedCluster, _ hostedState) (float64, bool) { return float64(h.NodePools), true }),
	}
}
