package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

const (
	hostedScaleNodes     = 500
	hostedScaleNodePools = 10
)

// BenchmarkHostedNodePoolScale runs the operator in this process against a
// local API server holding a hosted cluster of 500 nodes in 10 NodePools
// (four InPlace mid-update, four Replace mid-rollout, two behind the
// control plane), measured like BenchmarkNodeScale:
//
//   - first-sync-s, first-sync-writes, first-sync-cpu-s: from the
//     operator's start until every node and NodePool has an insight with a
//     status, and the writes and CPU that took;
//   - heap-MiB: the heap in use with the 500 nodes and their insights
//     cached (the whole test process's, an upper bound for the operator's);
//   - writes-unchanged: the writes after every node's heartbeat changed,
//     which the NodePool assessment does not read (target: 0).
//
// Use -benchtime 1x: the setup runs on every call.
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench HostedNodePoolScale -benchtime 1x -v
func BenchmarkHostedNodePoolScale(b *testing.B) {
	s := newNodeScaleOf(b, func(int) scalePhase { return scaleUpdated })
	s.createHostedCluster()

	insights := s.watchNodeInsights()
	cpu := processCPUTime()
	start := time.Now()
	s.startOperator()
	if err := awaitNodeInsights(insights, hostedScaleNodes, 5*time.Minute, func(i *insightsv1alpha1.NodeProgressInsight) bool {
		return i.Status.Name != ""
	}); err != nil {
		b.Fatalf("first sync: %v; the operator made %s", err, s.writes)
	}
	insights.Stop()
	s.awaitNodePoolInsights()
	s.metric(time.Since(start).Seconds(), "first-sync-s")
	s.metric((processCPUTime() - cpu).Seconds(), "first-sync-cpu-s")
	s.writes.settle(b, 2*time.Second)
	s.metric(float64(s.writes.total()), "first-sync-writes")
	b.Logf("first sync wrote %s", s.writes)

	s.measureHeap()

	s.writes.reset()
	s.touchHostedHeartbeats()
	// As in BenchmarkNodeScale: ten seconds is ample for a write, if any,
	// to follow.
	time.Sleep(10 * time.Second)
	s.metric(float64(s.writes.total()), "writes-unchanged")
	if s.writes.total() > 0 {
		b.Errorf("the operator wrote after changes the assessment does not read: %s", s.writes)
	}
	for _, m := range s.metrics {
		b.ReportMetric(m.value, m.unit)
	}
}

// hostedScaleNode is node i of a hosted cluster: a node of BenchmarkNodeScale
// (an AWS worker) as a NodePool has it instead of a MachineConfigPool. Its
// NodePool label and cluster-api annotations are those the
// hosted-cluster-config-operator's node controller reads and writes
// (control-plane-operator/hostedclusterconfigoperator/controllers/node/
// node.go); an InPlace NodePool's nodes carry the in-place annotations in
// inplaceupgrader_test.go's shapes, a Replace NodePool's none.
func hostedScaleNode(i int, images []corev1.ContainerImage, heartbeat metav1.Time) *corev1.Node {
	n := scaleNode(i, scaleUpdated, images, heartbeat)
	pool, j := i%hostedScaleNodePools, i/hostedScaleNodePools
	name := fmt.Sprintf("np-%d", pool)
	n.Labels[hosted.NodePoolLabel] = name
	for k := range n.Annotations {
		if strings.HasPrefix(k, nodes.AnnotationPrefix) || strings.HasPrefix(k, "machine.openshift.io/") {
			delete(n.Annotations, k)
		}
	}
	n.Annotations["cluster.x-k8s.io/machine"] = fmt.Sprintf("%s-%05x", name, i)
	n.Annotations["cluster.x-k8s.io/owner-name"] = name + "-6f9d8b7c5"
	n.Annotations["cluster.x-k8s.io/cluster-namespace"] = "clusters-scale"
	n.Annotations["hypershift.openshift.io/labelsSynced"] = "true"

	updated := j < 10
	kubelet := hostedKubeletOld
	if updated {
		kubelet = hostedKubeletNew
	}
	switch {
	case pool < 4: // InPlace, mid-update: two nodes at a time.
		switch {
		case updated:
			n.Annotations = withChanges(n.Annotations, atRest(hostedNewHash))
		case j < 12:
			n.Annotations = withChanges(n.Annotations, drainedInPlace())
			n.Spec.Unschedulable = true
		default:
			n.Annotations = withChanges(n.Annotations, atRest(hostedOldHash))
		}
	case pool < 8: // Replace, mid-rollout: one old node cordoned.
		n.Spec.Unschedulable = j == 10
	default: // Behind the control plane.
		kubelet = hostedKubeletOld
	}
	n.Status.NodeInfo.KubeletVersion, n.Status.NodeInfo.KubeProxyVersion = kubelet, kubelet
	return n
}

// createHostedCluster makes the API server a hosted cluster's, with its
// ClusterOperators, ClusterVersion and nodes, and deletes them, and the
// insights the operator wrote, when the benchmark ends.
func (s *nodeScale) createHostedCluster() {
	b, ctx := s.b, context.Background()
	start := time.Now()
	createHostedInfrastructure(b)
	createSyntheticOperators(b)
	createClusterVersion(b, nil, hostedStatus())

	images := scaleImages()
	heartbeat := metav1.NewTime(time.Now().Truncate(time.Second))
	b.Cleanup(func() {
		if err := forEachIndex(hostedScaleNodes, func(i int) error {
			err := s.kube.CoreV1().Nodes().Delete(context.Background(), scaleNodeName(i), metav1.DeleteOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return err
		}); err != nil {
			b.Errorf("deleting the nodes: %v", err)
		}
	})
	if err := forEachIndex(hostedScaleNodes, func(i int) error {
		_, err := s.kube.CoreV1().Nodes().Create(ctx, hostedScaleNode(i, images, heartbeat), metav1.CreateOptions{})
		return err
	}); err != nil {
		b.Fatalf("creating the nodes: %v", err)
	}
	b.Cleanup(s.deleteInsights)
	b.Logf("created %d nodes in %d NodePools in %s", hostedScaleNodes, hostedScaleNodePools, time.Since(start).Round(time.Millisecond))
}

// awaitNodePoolInsights waits until every NodePool has an insight with a
// status.
func (s *nodeScale) awaitNodePoolInsights() {
	err := wait.PollUntilContextTimeout(context.Background(), 20*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := s.insights.InsightsV1alpha1().MachineConfigPoolProgressInsights().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		written := 0
		for _, p := range list.Items {
			if hosted.IsNodePool(p.Status.Resource) {
				written++
			}
		}
		return written == hostedScaleNodePools, nil
	})
	if err != nil {
		s.b.Fatalf("waiting for the %d NodePools' insights: %v; the operator made %s", hostedScaleNodePools, err, s.writes)
	}
}

// touchHostedHeartbeats renews every node's heartbeats as the kubelet does.
func (s *nodeScale) touchHostedHeartbeats() {
	heartbeat := metav1.NewTime(time.Now().Truncate(time.Second))
	var conditions []map[string]any
	for _, c := range scaleNodeConditions(metav1.Time{}, heartbeat) {
		conditions = append(conditions, map[string]any{"type": c.Type, "lastHeartbeatTime": c.LastHeartbeatTime})
	}
	patch, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": conditions}})
	if err != nil {
		s.b.Fatal(err)
	}
	if err := forEachIndex(hostedScaleNodes, func(i int) error {
		_, err := s.kube.CoreV1().Nodes().Patch(context.Background(), scaleNodeName(i), types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
		return err
	}); err != nil {
		s.b.Fatalf("renewing the heartbeats: %v", err)
	}
}
