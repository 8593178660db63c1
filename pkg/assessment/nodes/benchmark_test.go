package nodes

import (
	"fmt"
	"testing"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// largePool is a 5,000-node worker pool in the middle of an update: a
// fifth updated, a few draining or rebooting, a few degraded, the rest
// waiting, each node with the annotations and conditions of a real one.
func largePool(n int) ([]*corev1.Node, []*insightsv1alpha1.NodeProgressInsightStatus) {
	nodes := make([]*corev1.Node, n)
	previous := make([]*insightsv1alpha1.NodeProgressInsightStatus, n)
	for i := range nodes {
		var annotations map[string]string
		unschedulable := false
		switch {
		case i%5 == 0:
			annotations = mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, "")
		case i%97 == 1:
			annotations = mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig, "")
			unschedulable = true
		case i%97 == 2:
			annotations = mcd(oldConfig, newConfig, "Rebooting", "drain-"+newConfig, "drain-"+newConfig, "")
			unschedulable = true
		case i%499 == 3:
			annotations = mcd(oldConfig, newConfig, "Degraded", "drain-"+newConfig, "uncordon-"+oldConfig, fmt.Sprintf("failed to drain node: worker-%d after 1 hour", i))
			unschedulable = true
		default:
			annotations = mcd(oldConfig, oldConfig, "Done", "uncordon-"+oldConfig, "uncordon-"+oldConfig, "")
		}
		nodes[i] = testNode(fmt.Sprintf("worker-%d.example.com", i), annotations, healthy(), unschedulable)
		a := NodeProgress(Input{Node: nodes[i], Pool: testPool("worker", false), Versions: versions, Target: target, Now: now.Add(-time.Minute)})
		previous[i] = &a.Status
	}
	return nodes, previous
}

// BenchmarkPoolChange finds the pool of every node of a 5,000-node cluster,
// evaluates each node and then the pool, as a pool change makes the
// operator do. ns/op is the CPU time of the whole evaluation.
func BenchmarkPoolChange(b *testing.B) {
	const n = 5000
	nodes, previous := largePool(n)
	pool := testPool("worker", false)
	assessments := make([]*Assessment, n)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		pools, _ := NewPools([]*machineconfigurationv1.MachineConfigPool{testPool("master", false), pool})
		for i, node := range nodes {
			a := NodeProgress(Input{Node: node, Pool: pools.Of(node.Labels), Versions: versions, Target: target, Previous: previous[i], PerNode: DefaultPerNodeTime, Now: now})
			assessments[i] = &a
		}
		_ = Pool(pool, assessments, nil, now)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/pool-change")
}
