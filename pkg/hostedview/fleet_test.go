package hostedview_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hostedview"
)

// summary is what Build decides of a cluster, beside what it copies.
type summary struct {
	Name      string
	Attention hostedview.Attention
	Count     hostedview.NodePoolCount
	Estimate  hostedview.Estimate
	Problem   string
}

func summaries(f hostedview.Fleet) []summary {
	var out []summary
	for _, c := range f.Clusters {
		s := summary{Name: c.Namespace + "/" + c.Name, Attention: c.Attention, Count: c.NodePoolCount, Estimate: c.Estimate}
		if c.Problem != nil {
			s.Problem = c.Problem.NodePool + ":" + c.Problem.Reason
		}
		out = append(out, s)
	}
	return out
}

func withPool(f fixture, edit func(*insightsv1alpha1.NodePoolProgressInsightStatus)) fixture {
	return func() ([]insightsv1alpha1.HostedClusterProgressInsight, []insightsv1alpha1.NodePoolProgressInsight) {
		c, p := f()
		edit(&p[0].Status)
		return c, p
	}
}

func TestBuild(t *testing.T) {
	for _, tc := range []struct {
		name     string
		fixtures []fixture
		want     []summary
	}{{
		name:     "the fleet: what needs attention first, then what progresses, then by name",
		fixtures: []fixture{completed, midUpdate, blocked, unknown},
		want: []summary{
			{Name: "clusters/analytics", Attention: hostedview.AttentionNeeded, Count: hostedview.NodePoolCount{Total: 1, FromNodePools: true}, Estimate: hostedview.Estimate{Unknown: true}},
			{Name: "clusters/billing", Attention: hostedview.AttentionNeeded, Count: hostedview.NodePoolCount{Total: 1, FromNodePools: true}, Estimate: hostedview.Estimate{Unknown: true}, Problem: ":ClusterVersionUpgradeable"},
			{Name: "clusters/staging", Attention: hostedview.AttentionNeeded, Count: hostedview.NodePoolCount{Updated: int32p(0)}, Estimate: hostedview.Estimate{Unknown: true}},
			{Name: "clusters/ledger", Attention: hostedview.AttentionProgressing, Count: hostedview.NodePoolCount{Total: 1, Updated: int32p(0), FromNodePools: true}, Estimate: hostedview.Estimate{At: in(41 * time.Minute)}, Problem: "workers-a:DrainingNode"},
			{Name: "clusters/payments", Attention: hostedview.AttentionNone, Count: hostedview.NodePoolCount{Total: 1, Updated: int32p(1), FromNodePools: true}},
		},
	}, {
		name: "a Degraded NodePool needs attention though its control plane completed",
		fixtures: []fixture{midUpdate, withPool(completed, func(s *insightsv1alpha1.NodePoolProgressInsightStatus) {
			s.Assessment = insightsv1alpha1.PoolDegraded
		})},
		want: []summary{
			{Name: "clusters/payments", Attention: hostedview.AttentionNeeded, Count: hostedview.NodePoolCount{Total: 1, Updated: int32p(1), FromNodePools: true}, Estimate: hostedview.Estimate{Unknown: true}},
			{Name: "clusters/ledger", Attention: hostedview.AttentionProgressing, Count: hostedview.NodePoolCount{Total: 1, Updated: int32p(0), FromNodePools: true}, Estimate: hostedview.Estimate{At: in(41 * time.Minute)}, Problem: "workers-a:DrainingNode"},
		},
	}, {
		name: "an Error problem of a NodePool needs attention",
		fixtures: []fixture{completed, withPool(midUpdate, func(s *insightsv1alpha1.NodePoolProgressInsightStatus) {
			s.Problems[0].Level = insightsv1alpha1.ErrorImpactLevel
		})},
		want: []summary{
			{Name: "clusters/ledger", Attention: hostedview.AttentionNeeded, Count: hostedview.NodePoolCount{Total: 1, Updated: int32p(0), FromNodePools: true}, Estimate: hostedview.Estimate{At: in(41 * time.Minute)}, Problem: "workers-a:DrainingNode"},
			{Name: "clusters/payments", Attention: hostedview.AttentionNone, Count: hostedview.NodePoolCount{Total: 1, Updated: int32p(1), FromNodePools: true}},
		},
	}, {
		name: "a NodePool that waits to update is progress, and without an estimate leaves the whole unknown",
		fixtures: []fixture{withPool(completed, func(s *insightsv1alpha1.NodePoolProgressInsightStatus) {
			s.Assessment = insightsv1alpha1.PoolPending
			s.Versions.Current = "4.17.8"
		})},
		want: []summary{
			{Name: "clusters/payments", Attention: hostedview.AttentionProgressing, Count: hostedview.NodePoolCount{Total: 1, Updated: int32p(0), FromNodePools: true}, Estimate: hostedview.Estimate{Unknown: true}},
		},
	}, {
		name: "without NodePool insights, the HostedCluster insight's count",
		fixtures: []fixture{func() ([]insightsv1alpha1.HostedClusterProgressInsight, []insightsv1alpha1.NodePoolProgressInsight) {
			c, _ := midUpdate()
			return c, nil
		}},
		want: []summary{
			{Name: "clusters/ledger", Attention: hostedview.AttentionProgressing, Count: hostedview.NodePoolCount{Total: 1, Updated: int32p(0)}, Estimate: hostedview.Estimate{At: in(20 * time.Minute)}},
		},
	}, {
		name: "the worst NodePool problem is the most serious one",
		fixtures: []fixture{func() ([]insightsv1alpha1.HostedClusterProgressInsight, []insightsv1alpha1.NodePoolProgressInsight) {
			c, p := midUpdate()
			other := p[0].DeepCopy()
			other.Name = "workers-b"
			other.Status.Problems = []insightsv1alpha1.HostedProblem{{Level: insightsv1alpha1.CriticalImpactLevel, Reason: "MachineFailed", Message: "failed"}}
			return c, append([]insightsv1alpha1.NodePoolProgressInsight{*other}, p...)
		}},
		want: []summary{
			{Name: "clusters/ledger", Attention: hostedview.AttentionNeeded, Count: hostedview.NodePoolCount{Total: 2, Updated: int32p(0), FromNodePools: true}, Estimate: hostedview.Estimate{At: in(41 * time.Minute)}, Problem: "workers-b:MachineFailed"},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var clusters []insightsv1alpha1.HostedClusterProgressInsight
			var pools []insightsv1alpha1.NodePoolProgressInsight
			for _, f := range tc.fixtures {
				c, p := f()
				clusters, pools = append(clusters, c...), append(pools, p...)
			}
			got := hostedview.Build(clusters, pools, now)
			if diff := cmp.Diff(tc.want, summaries(got)); diff != "" {
				t.Errorf("unexpected fleet (-want +got):\n%s", diff)
			}
			if !got.Now.Equal(&metav1.Time{Time: now}) {
				t.Errorf("Now is %s, want %s", got.Now, now)
			}
		})
	}
}

func TestFind(t *testing.T) {
	clusters, pools := fleet()
	f := hostedview.Build(clusters, pools, now)
	for _, tc := range []struct {
		namespace, name string
		found           bool
		pools           int
	}{
		{"clusters", "ledger", true, 1},
		{"clusters", "analytics", true, 1},
		{"clusters", "nope", false, 0},
		{"other", "ledger", false, 0},
	} {
		t.Run(tc.namespace+"/"+tc.name, func(t *testing.T) {
			c, found := f.Find(tc.namespace, tc.name)
			if found != tc.found {
				t.Fatalf("found %t, want %t", found, tc.found)
			}
			if found && len(c.NodePools) != tc.pools {
				t.Errorf("%d NodePools, want %d", len(c.NodePools), tc.pools)
			}
		})
	}
}
