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
// With machineConfigNodes, each node also has its MachineConfigNode as the
// daemon writes it at that point (every condition present), and the
// previous insights are assessed with them.
func largePool(n int, machineConfigNodes bool) ([]*corev1.Node, []*machineconfigurationv1.MachineConfigNode, []*insightsv1alpha1.NodeProgressInsightStatus) {
	nodes := make([]*corev1.Node, n)
	var mcns []*machineconfigurationv1.MachineConfigNode
	if machineConfigNodes {
		mcns = make([]*machineconfigurationv1.MachineConfigNode, n)
	}
	previous := make([]*insightsv1alpha1.NodeProgressInsightStatus, n)
	for i := range nodes {
		name := fmt.Sprintf("worker-%d.example.com", i)
		var annotations map[string]string
		unschedulable := false
		var sim *mcnSim
		switch {
		case i%5 == 0:
			annotations = mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig, "")
			if machineConfigNodes {
				sim = updating(name, oldConfig, newConfig, updateStart, stageDone)
			}
		case i%97 == 1:
			annotations = mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig, "")
			unschedulable = true
			if machineConfigNodes {
				sim = updating(name, oldConfig, newConfig, updateStart, stageDraining)
			}
		case i%97 == 2:
			annotations = mcd(oldConfig, newConfig, "Rebooting", "drain-"+newConfig, "drain-"+newConfig, "")
			unschedulable = true
			if machineConfigNodes {
				sim = updating(name, oldConfig, newConfig, updateStart, stageRebooting)
			}
		case i%499 == 3:
			reason := fmt.Sprintf("failed to drain node: worker-%d after 1 hour", i)
			annotations = mcd(oldConfig, newConfig, "Degraded", "drain-"+newConfig, "uncordon-"+oldConfig, reason)
			unschedulable = true
			if machineConfigNodes {
				sim = updating(name, oldConfig, newConfig, updateStart, stageDraining).degraded(updateStart.Add(time.Hour), reason)
			}
		default:
			annotations = mcd(oldConfig, oldConfig, "Done", "uncordon-"+oldConfig, "uncordon-"+oldConfig, "")
			if machineConfigNodes {
				sim = updating(name, "rendered-worker-older", oldConfig, settledAt.Add(time.Hour), stageDone)
			}
		}
		nodes[i] = testNode(name, annotations, healthy(), unschedulable)
		in := Input{Node: nodes[i], Pool: testPool("worker", false), Versions: versions, Target: target, Now: now.Add(-time.Minute)}
		if sim != nil {
			mcns[i], in.MachineConfigNode = sim.mcn, sim.mcn
		}
		a := NodeProgress(in)
		previous[i] = &a.Status
	}
	return nodes, mcns, previous
}

// BenchmarkPoolChange finds the pool of every node of a 5,000-node cluster,
// evaluates each node and then the pool, as a pool change makes the
// operator do. ns/op is the CPU time of the whole evaluation.
func BenchmarkPoolChange(b *testing.B) {
	benchmarkPoolChange(b, false)
}

// BenchmarkPoolChangeWithMachineConfigNodes is BenchmarkPoolChange with
// every node's MachineConfigNode read too, with the daemon's full set of
// conditions.
func BenchmarkPoolChangeWithMachineConfigNodes(b *testing.B) {
	benchmarkPoolChange(b, true)
}

func benchmarkPoolChange(b *testing.B, machineConfigNodes bool) {
	const n = 5000
	nodes, mcns, previous := largePool(n, machineConfigNodes)
	pool := testPool("worker", false)
	assessments := make([]*Assessment, n)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		pools, _ := NewPools([]*machineconfigurationv1.MachineConfigPool{testPool("master", false), pool})
		for i, node := range nodes {
			in := Input{Node: node, Pool: pools.Of(node.Labels), Versions: versions, Target: target, Previous: previous[i], PerNode: DefaultPerNodeTime, Now: now}
			if mcns != nil {
				in.MachineConfigNode = mcns[i]
			}
			a := NodeProgress(in)
			assessments[i] = &a
		}
		_ = Pool(pool, assessments, nil, nil, now)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/pool-change")
}
