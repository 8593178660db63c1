package integration

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// TestHostedDrainHeldByABudgetIsNamed drives a node of an InPlace NodePool
// through the start of its in-place update as HyperShift does, while a
// PodDisruptionBudget at its limit selects one of its pods:
//   - the in-place upgrader sets desiredConfig (control-plane-operator/
//     hostedclusterconfigoperator/controllers/inplaceupgrader/
//     inplaceupgrader.go, setNodesDesiredConfig); the machine-config daemon
//     in HyperShift's mode sets its state Working and asks the drain with
//     desiredDrain "drain-<hash>" (openshift/machine-config-operator
//     pkg/daemon/daemon.go, syncNodeHypershift);
//   - the HyperShift drainer cordons the node and drains it with kubectl's
//     Helper, then copies desiredDrain to lastAppliedDrain
//     (controllers/drainer/drainer.go).
//
// As in TestDrainHeldByABudgetIsNamedUntilTheBudgetAllowsIt, no kubelet,
// scheduler or kube-controller-manager runs, and the node insight's
// Updating transition, from which the drain counts, is moved back so that
// the drainer's first 90s attempt is over without a sleep.
func TestHostedDrainHeldByABudgetIsNamed(t *testing.T) {
	startHostedOperator(t)
	t.Cleanup(func() { deleteNodePoolInsights(t) })

	namespace := createTestNamespace(t, "np-drain-")
	createPoolNode(t, "inplace-0", "inplace", hostedKubeletOld, atRest(hostedOldHash), false)
	createPoolNode(t, "inplace-1", "inplace", hostedKubeletOld, atRest(hostedOldHash), false)
	deployed := metav1.NewTime(time.Now().Add(-time.Hour).Truncate(time.Second))
	frontend := map[string]string{"tier": "frontend"}
	web := controllerRef("ReplicaSet", "web-5d8f7c9b4")
	held := createRunningPod(t, namespace, "web-5d8f7c9b4-x7k2p", "inplace-0", web, frontend, deployed)
	createRunningPod(t, namespace, "web-5d8f7c9b4-m4q9z", "inplace-1", web, frontend, deployed)
	budgets := kubeClient.PolicyV1().PodDisruptionBudgets(namespace)
	budget, err := budgets.Create(context.Background(), &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "frontend"},
		Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr.To(intstr.FromInt32(2)), Selector: &metav1.LabelSelector{MatchLabels: frontend}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deleteAtEnd(t, "PodDisruptionBudget frontend", budgets.Delete, "frontend")
	// Two pods, both ready, and two needed.
	writeBudgetStatus(t, budget, 2, 2, 2, deployed)

	const behindCP = "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"
	inPlace := func(updating, available, message, estimate string) *nodeView {
		return &nodeView{Pool: nodePoolRef("inplace"), Scope: workerPool, Updating: updating, Degraded: notDegraded,
			Available: available, Message: message, Estimate: estimate}
	}

	// The upgrader tells the node its configuration and its daemon starts;
	// the operator sees the update begin now.
	setNodeAnnotations(t, "inplace-0", map[string]string{nodes.DesiredConfigAnnotation: hostedNewHash, nodes.StateAnnotation: "Working"})
	waitForNodeInsight(t, "inplace-0", inPlace("True Updating", "False "+insightsv1alpha1.NodeMachineConfigDaemonProcessing, behindCP, "10m0s"))
	drainStarted := backdateUpdating(t, "inplace-0", drainStartedAgo)

	// The daemon asks the drain, and the drainer cordons the node.
	setNodeAnnotations(t, "inplace-0", map[string]string{nodes.DesiredDrainAnnotation: "drain-" + hostedNewHash})
	updateNode(t, "inplace-0", func(n *corev1.Node) { n.Spec.Unschedulable = true })

	heldBy := "pod " + namespace + "/" + held.Name
	why := "PodDisruptionBudget " + namespace + "/frontend allows no disruption (2 of 2 expected pods healthy, 2 needed)"
	insight := waitForNodeInsightWithin(t, drainReaction, "inplace-0",
		inPlace("True Draining", "False "+insightsv1alpha1.NodeUnschedulable, "Drain held by "+heldBy+"; "+behindCP, "1m0s"))
	if diff := cmp.Diff(updatingView{Since: drainStarted.Time, Message: "The node is being drained before its in-place update; " + heldBy + " holds it: " + why},
		updatingOf(insight)); diff != "" {
		t.Errorf("Updating condition (-want +got):\n%s", diff)
	}
	healthInsights := waitForHealthInsightsOf(t, nodePoolHealthOnes, []healthView{{
		Level:     insightsv1alpha1.WarningImpactLevel,
		Summary:   "Pod " + namespace + "/" + held.Name + " holds the drain of node inplace-0: " + why,
		Scope:     workerPool,
		Resources: "nodes/inplace-0,pods/" + held.Name + ",poddisruptionbudgets/frontend",
	}})
	if status := healthInsights[0].Status; !status.StartedAt.Equal(&drainStarted) {
		t.Errorf("health insight started at %s, want the drain's start %s", status.StartedAt, drainStarted)
	}

	// What the operator calls held, the API server refuses.
	if err := evict(context.Background(), &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Namespace: held.Namespace, Name: held.Name}}); !apierrors.IsTooManyRequests(err) {
		t.Fatalf("evicting %s: %v, want the budget's 429", held.Name, err)
	}

	t.Run("the drain applied, nothing holds it", func(t *testing.T) {
		// As if the pod had gone: the drainer copies desiredDrain.
		setNodeAnnotations(t, "inplace-0", map[string]string{nodes.LastAppliedDrainAnnotation: "drain-" + hostedNewHash})
		waitForNodeInsight(t, "inplace-0", inPlace("True Updating", "False "+insightsv1alpha1.NodeUnschedulable, behindCP, "1m0s"))
		waitForHealthInsightsOf(t, nodePoolHealthOnes, nil)
	})
}
