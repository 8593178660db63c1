package integration

import (
	"context"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// On a hosted cluster (Infrastructure External, no MachineConfigPools) the
// operator follows the nodes by NodePool: an InPlace NodePool mid-update, a
// Replace NodePool mid-rollout and a NodePool behind the control plane, each
// as the API server stores their insights, and it is healthy saying so.
func TestHostedNodePoolsInsteadOfMachineConfigPools(t *testing.T) {
	op := startHostedOperator(t, "--degraded-grace-period=3s")

	createPoolNode(t, "inplace-0", "inplace", hostedKubeletNew, atRest(hostedNewHash), false)
	createPoolNode(t, "inplace-1", "inplace", hostedKubeletOld, drainedInPlace(), true)
	createPoolNode(t, "inplace-2", "inplace", hostedKubeletOld, atRest(hostedOldHash), false)
	createPoolNode(t, "replace-new", "replace", hostedKubeletNew, nil, false)
	createPoolNode(t, "replace-old-0", "replace", hostedKubeletOld, nil, true)
	createPoolNode(t, "replace-old-1", "replace", hostedKubeletOld, nil, false)
	createPoolNode(t, "behind-0", "behind", hostedKubeletOld, nil, false)
	createPoolNode(t, "behind-1", "behind", hostedKubeletOld, nil, false)
	// Joined, not yet labelled by the hosted-cluster-config-operator.
	createPoolNode(t, "fresh", "", hostedKubeletNew, nil, false)

	const atCP = "kubelet v1.31.6+a1b2c3d, the control plane's release"
	const behindCP = "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"
	worker := func(pool, updating, available, message, estimate string) *nodeView {
		return &nodeView{Pool: nodePoolRef(pool), Scope: workerPool, Updating: updating, Degraded: notDegraded,
			Available: available, Message: message, Estimate: estimate}
	}
	for name, want := range map[string]*nodeView{
		"inplace-0":     worker("inplace", "False Completed", available, atCP, ""),
		"inplace-1":     worker("inplace", "True Updating", "False Unschedulable", behindCP, "10m0s"),
		"inplace-2":     worker("inplace", "False Pending", available, behindCP, ""),
		"replace-new":   worker("replace", "False Completed", available, atCP, ""),
		"replace-old-0": worker("replace", "True Draining", "False Unschedulable", behindCP, ""),
		"replace-old-1": worker("replace", "False Pending", available, behindCP, ""),
		"behind-0":      worker("behind", "False Behind", available, behindCP, ""),
		"behind-1":      worker("behind", "False Behind", available, behindCP, ""),
	} {
		waitForNodeInsight(t, name, want)
	}
	for name, want := range map[string]*poolView{
		"inplace": {Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Completion: 33, Updating: "True Progressing", Healthy: healthy,
			Counts: poolCounts{Total: 3, Available: 2, Progressing: 1, Outdated: 2}},
		"replace": {Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Completion: 33, Updating: "True Progressing", Healthy: healthy,
			Counts: poolCounts{Total: 3, Available: 2, Progressing: 1, Outdated: 2, Draining: 1}},
		"behind": {Scope: workerPool, Assessment: insightsv1alpha1.PoolBehind, Completion: 0, Updating: "False BehindControlPlane", Healthy: healthy,
			Counts: poolCounts{Total: 2, Available: 2, Outdated: 2}},
	} {
		waitForPoolInsight(t, name, want)
	}

	ctx := context.Background()
	pools, err := insightsClient.InsightsV1alpha1().MachineConfigPoolProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pools.Items) != 3 {
		t.Errorf("%d pool insights, want the 3 NodePools'", len(pools.Items))
	}
	for _, p := range pools.Items {
		if !hosted.IsNodePool(p.Status.Resource) || p.Status.Resource.Name != p.Name {
			t.Errorf("pool insight %s has status.resource %v, want the NodePool %s", p.Name, p.Status.Resource, p.Name)
		}
	}
	behind, err := insightsClient.InsightsV1alpha1().MachineConfigPoolProgressInsights().Get(ctx, "behind", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := behind.Status.Conditions[0].Message; !strings.Contains(msg, "1 minor release behind") ||
		!strings.Contains(msg, "HyperShift supports NodePools up to 3 minor releases behind the control plane") {
		t.Errorf("the Behind NodePool's Updating message %q names neither the skew nor the limit", msg)
	}
	nodeInsights, err := insightsClient.InsightsV1alpha1().NodeProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodeInsights.Items) != 8 {
		t.Errorf("%d node insights, want the 8 labelled nodes': the node without a NodePool has none", len(nodeInsights.Items))
	}

	co := waitForOwnClusterOperator(t, eventually, "healthy in hosted mode", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && strings.HasPrefix(availableMessage(co), operatorstatus.HostedMode)
	})
	if msg := availableMessage(co); strings.Contains(msg, "MachineConfigPool insight") || strings.Contains(msg, "Node controller") ||
		strings.Contains(msg, "NodePool controller") {
		t.Errorf("Available's message %q speaks of the node controllers, want them working unseen", msg)
	}

	t.Run("a replaced node deleted", func(t *testing.T) {
		if err := kubeClient.CoreV1().Nodes().Delete(ctx, "replace-old-0", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		waitForNodeInsight(t, "replace-old-0", nil)
		waitForPoolInsight(t, "replace", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Completion: 50,
			Updating: "True Progressing", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2, Outdated: 1}})
	})
	t.Run("the in-place node done", func(t *testing.T) {
		setNodeAnnotations(t, "inplace-1", atRest(hostedNewHash))
		updateNode(t, "inplace-1", func(n *corev1.Node) { n.Spec.Unschedulable = false })
		updateNodeStatus(t, "inplace-1", func(s *corev1.NodeStatus) { s.NodeInfo.KubeletVersion = hostedKubeletNew })
		waitForNodeInsight(t, "inplace-1", worker("inplace", "False Completed", available, atCP, ""))
	})

	// Through every change no sync failed (a failure is logged at once,
	// before its grace period would make the operator Degraded), and the
	// operator stayed healthy.
	waitForOwnClusterOperator(t, eventually, "still healthy in hosted mode", func(co *configv1.ClusterOperator) bool {
		return conditionsAre(co, healthyConditions) && strings.HasPrefix(availableMessage(co), operatorstatus.HostedMode)
	})
	if out := op.output.String(); strings.Contains(out, "failed to sync") {
		t.Errorf("a sync failed:\n%s", out)
	}
}
