package integration

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// drainStartedAgo is how long before the test worker-0 began its update, and
// so its drain: past the 90 seconds after which the node controller names a
// pod that holds a drain (drain.MCO.WarnAfter), short of the hour after
// which it is an Error.
const drainStartedAgo = 10 * time.Minute

// drainReaction limits the waits for what must follow from the test's
// change itself: well under the minute after which the operator looks at a
// node in progress again by the clock alone (its estimate's countdown,
// nodes.estimateRefresh), and under the 90 seconds after which a block
// would be named with the drain dated now. A wait of `eventually` would pass
// on either, and so not show that the budget's or the pod's event, or the
// drain's start taken from the insight, did it. (The budget's change still
// comes within the tenth of a second in which the drained node's pod cache
// says it has listed them, which queues the node too: that a budget's event
// queues it is TestABudgetEventQueuesTheDrainedNodes's.)
const drainReaction = 30 * time.Second

// TestDrainHeldByABudgetIsNamedUntilTheBudgetAllowsIt drives worker-0 through
// its update as the machine-config operator does, while a
// PodDisruptionBudget that allows no disruption selects one of its pods:
//   - the machine-config controller's node controller sets desiredConfig;
//     the daemon sets its state Working (pkg/daemon/update.go, update), then
//     asks the drain by setting desiredDrain to "drain-<config>", its
//     lastAppliedDrain still "uncordon-<former config>" (pkg/daemon/drain.go,
//     performDrain);
//   - the drain controller cordons the node and evicts its pods, and once
//     they are gone writes lastAppliedDrain = desiredDrain
//     (pkg/controller/drain/drain_controller.go, syncNode and drainNode).
//
// No kubelet, scheduler or kube-controller-manager runs: the test writes the
// pods' status as the kubelet would, the budget's as the disruption
// controller would, and evicts through the API server's eviction
// subresource as the drain controller's Helper does.
//
// Time: the operator names a block once it has lasted 90 seconds, from the
// later of the drain's start and the budget's DisruptionAllowed transition
// (pkg/drain, Pod.Since). The drain's start is the node insight's Updating
// transition, which the operator keeps from its own previous insight while
// the node stays Updating (pkg/assessment/nodes/node.go, conditions.since):
// the machine-config operator keeps its own start in memory only. So the
// test lets the operator write the insight of the node as it begins
// updating, then moves that transition back through the insight's status
// subresource, as if the operator had seen the node begin ten minutes ago;
// the operator's writes carry the resourceVersion they read, so it cannot
// overwrite the change from an older copy. The budget has been at its limit
// for an hour, since its workload was deployed. No sleep stands in for the
// 90 seconds.
func TestDrainHeldByABudgetIsNamedUntilTheBudgetAllowsIt(t *testing.T) {
	startNodeOperator(t)
	namespace := createTestNamespace(t, "drain-")
	createNode(t, "worker-0", atRest(oldWorkerConfig), "worker")
	createNode(t, "worker-1", atRest(oldWorkerConfig), "worker")
	waitForNodeInsight(t, "worker-0", pendingWorker())

	// The budget selects the frontend tier: the web Deployment's pods, one
	// on each worker, and the edge-proxy DaemonSet's pod on worker-0.
	deployed := metav1.NewTime(time.Now().Add(-time.Hour).Truncate(time.Second))
	frontend := map[string]string{"tier": "frontend"}
	web, proxy := controllerRef("ReplicaSet", "web-5d8f7c9b4"), controllerRef("DaemonSet", "edge-proxy")
	held := createRunningPod(t, namespace, "web-5d8f7c9b4-x7k2p", "worker-0", web, frontend, deployed)
	createRunningPod(t, namespace, "web-5d8f7c9b4-m4q9z", "worker-1", web, frontend, deployed)
	createDaemonSet(t, namespace, "edge-proxy", frontend)
	createRunningPod(t, namespace, "edge-proxy-q4w8z", "worker-0", proxy, frontend, deployed)
	budgets := kubeClient.PolicyV1().PodDisruptionBudgets(namespace)
	budget, err := budgets.Create(context.Background(), &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "frontend"},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(3)),
			Selector:     &metav1.LabelSelector{MatchLabels: frontend},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deleteAtEnd(t, "PodDisruptionBudget frontend", budgets.Delete, "frontend")
	// Three pods, all ready, and three needed.
	budget = writeBudgetStatus(t, budget, 3, 3, 3, deployed)

	updating := func(reason, message string) *nodeView {
		return &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion, Updating: "True " + reason,
			Degraded: notDegraded, Available: processing, Estimate: "1m0s", Message: message}
	}
	cordoned := func(message string) *nodeView {
		v := updating(insightsv1alpha1.NodeDraining, message)
		v.Available = "False " + insightsv1alpha1.NodeUnschedulable
		return v
	}

	// The node begins its update; the operator sees it begin now.
	setNodeAnnotations(t, "worker-0", map[string]string{
		nodes.DesiredConfigAnnotation: newWorkerConfig,
		nodes.StateAnnotation:         "Working",
	})
	began := updating(insightsv1alpha1.NodeUpdating, "")
	began.Estimate = "5m0s"
	waitForNodeInsight(t, "worker-0", began)
	drainStarted := backdateUpdating(t, "worker-0", drainStartedAgo)

	// The daemon asks the drain, and the drain controller cordons the node.
	setNodeAnnotations(t, "worker-0", map[string]string{nodes.DesiredDrainAnnotation: "drain-" + newWorkerConfig})
	updateNode(t, "worker-0", func(n *corev1.Node) { n.Spec.Unschedulable = true })

	const drainingTo = "The node is being drained before its update to " + toVersion
	heldBy := "pod " + namespace + "/" + held.Name
	why := "PodDisruptionBudget " + namespace + "/frontend allows no disruption (3 of 3 expected pods healthy, 3 needed)"
	insight := waitForNodeInsightWithin(t, drainReaction, "worker-0", cordoned("Drain held by "+heldBy))
	if diff := cmp.Diff(updatingView{Since: drainStarted.Time, Message: drainingTo + "; " + heldBy + " holds it: " + why}, updatingOf(insight)); diff != "" {
		t.Errorf("Updating condition (-want +got):\n%s", diff)
	}
	healthInsights := waitForNodeHealthInsights(t, []healthView{{
		Level:     insightsv1alpha1.WarningImpactLevel,
		Summary:   "Pod " + namespace + "/" + held.Name + " holds the drain of node worker-0: " + why,
		Scope:     workerPool,
		Resources: "nodes/worker-0,pods/" + held.Name + ",poddisruptionbudgets/frontend",
	}})
	status := healthInsights[0].Status
	wantResources := []insightsv1alpha1.ResourceRef{
		{Resource: "nodes", Name: "worker-0"},
		{Resource: "pods", Namespace: namespace, Name: held.Name},
		{Group: policyv1.GroupName, Resource: "poddisruptionbudgets", Namespace: namespace, Name: "frontend"},
	}
	if diff := cmp.Diff(wantResources, status.Scope.Resources); diff != "" {
		t.Errorf("health insight resources (-want +got):\n%s", diff)
	}
	// The later of the drain's start and the budget's transition, an hour ago.
	if !status.StartedAt.Equal(&drainStarted) {
		t.Errorf("health insight started at %s, want the drain's start %s", status.StartedAt, drainStarted)
	}
	if status.Impact.Type != insightsv1alpha1.UpdateStalledImpactType {
		t.Errorf("health insight impact type %q, want %q", status.Impact.Type, insightsv1alpha1.UpdateStalledImpactType)
	}

	// What the operator calls held, the API server refuses.
	if err := evict(context.Background(), &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Namespace: held.Namespace, Name: held.Name}}); !apierrors.IsTooManyRequests(err) {
		t.Fatalf("evicting %s: %v, want the budget's 429", held.Name, err)
	}

	t.Run("the workload scaled up: the budget allows a disruption", func(t *testing.T) {
		createRunningPod(t, namespace, "web-5d8f7c9b4-c8v5n", "worker-1", web, frontend, metav1.Now())
		writeBudgetStatus(t, budget, 4, 3, 4, metav1.Now())
		// The node insight and its health insights are written in one sync.
		insight := waitForNodeInsightWithin(t, drainReaction, "worker-0", cordoned(""))
		waitForNodeHealthInsights(t, nil)
		if diff := cmp.Diff(updatingView{Since: drainStarted.Time, Message: drainingTo}, updatingOf(insight)); diff != "" {
			t.Errorf("Updating condition (-want +got):\n%s", diff)
		}
	})

	t.Run("the pod evicted and gone, the drain completes", func(t *testing.T) {
		if err := evict(context.Background(), &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Namespace: held.Namespace, Name: held.Name}}); err != nil {
			t.Fatalf("evicting %s once its budget allows it: %v", held.Name, err)
		}
		// The kubelet's last delete of a pod it has stopped
		// (pkg/kubelet/status/status_manager.go, syncPod): no grace, on
		// the pod's UID.
		if err := kubeClient.CoreV1().Pods(namespace).Delete(context.Background(), held.Name, metav1.DeleteOptions{
			GracePeriodSeconds: ptr.To[int64](0), Preconditions: &metav1.Preconditions{UID: &held.UID},
		}); err != nil {
			t.Fatal(err)
		}
		// Only the DaemonSet's pod is left, which the Helper skips: the
		// drain controller is done.
		setNodeAnnotations(t, "worker-0", map[string]string{nodes.LastAppliedDrainAnnotation: "drain-" + newWorkerConfig})
		drained := updating(insightsv1alpha1.NodeUpdating, "")
		drained.Available = "False " + insightsv1alpha1.NodeUnschedulable
		insight := waitForNodeInsight(t, "worker-0", drained)
		if diff := cmp.Diff(updatingView{Since: drainStarted.Time, Message: "The node is updating to " + toVersion}, updatingOf(insight)); diff != "" {
			t.Errorf("Updating condition (-want +got):\n%s", diff)
		}
		waitForNodeHealthInsights(t, nil)
	})
}

// controllerRef is the controller reference its controller sets on a pod.
// createDaemonSet creates the DaemonSet a pod's owner reference names:
// the drain's Helper skips a DaemonSet's pod only while its DaemonSet
// exists (kubectl's daemonSetFilter), so a fixture's DaemonSet pod needs one.
func createDaemonSet(t *testing.T, namespace, name string, labels map[string]string) {
	t.Helper()
	daemonSets := kubeClient.AppsV1().DaemonSets(namespace)
	_, err := daemonSets.Create(context.Background(), &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: name, Image: "registry.example/" + name}}},
			},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deleteAtEnd(t, "DaemonSet "+name, daemonSets.Delete, name)
}

func controllerRef(kind, name string) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: name, UID: uuid.NewUUID(),
		Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}
}

// createRunningPod creates a pod of owner bound to node, as the scheduler
// binds it, and writes its status as the node's kubelet reports a pod
// running and ready since at (kubeletStatus). with change the pod as
// created (its finalizers, its grace period). The pod is deleted at once
// when the test ends: no kubelet would confirm a graceful deletion.
func createRunningPod(t testing.TB, namespace, name, node string, owner metav1.OwnerReference, labels map[string]string, at metav1.Time, with ...func(*corev1.Pod)) *corev1.Pod {
	t.Helper()
	ctx := context.Background()
	pods := kubeClient.CoreV1().Pods(namespace)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels, OwnerReferences: []metav1.OwnerReference{owner}},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "app", Image: "registry.example.com/app:1"}}},
	}
	for _, change := range with {
		change(pod)
	}
	pod, err := pods.Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating pod %s: %v", name, err)
	}
	t.Cleanup(func() {
		err := pods.Delete(context.Background(), name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting pod %s: %v", name, err)
		}
	})
	pod.Status = kubeletStatus(podReady, at)
	if pod, err = pods.UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the status of pod %s: %v", name, err)
	}
	return pod
}

// writeBudgetStatus writes the budget's status as kubernetes' disruption
// controller computes it at time at from the healthy, desired and expected
// pods (pkg/controller/disruption/disruption.go, updatePdbStatus:
// disruptionsAllowed is currentHealthy less desiredHealthy, never below 0,
// and observedGeneration the budget's generation), with the
// DisruptionAllowed condition of k8s.io/component-helpers/apps/poddisruptionbudget
// UpdateDisruptionAllowedCondition: True SufficientPods while a disruption is
// allowed, else False InsufficientPods, its transition kept while its
// status holds.
func writeBudgetStatus(t testing.TB, pdb *policyv1.PodDisruptionBudget, currentHealthy, desiredHealthy, expectedPods int32, at metav1.Time) *policyv1.PodDisruptionBudget {
	t.Helper()
	pdb = pdb.DeepCopy()
	allowed := max(currentHealthy-desiredHealthy, 0)
	conditions := pdb.Status.Conditions
	condition := metav1.Condition{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse,
		Reason: policyv1.InsufficientPodsReason, ObservedGeneration: pdb.Generation, LastTransitionTime: at}
	if allowed > 0 {
		condition.Status, condition.Reason = metav1.ConditionTrue, policyv1.SufficientPodsReason
	}
	meta.SetStatusCondition(&conditions, condition)
	pdb.Status = policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: pdb.Generation,
		DisruptionsAllowed: allowed,
		CurrentHealthy:     currentHealthy,
		DesiredHealthy:     desiredHealthy,
		ExpectedPods:       expectedPods,
		Conditions:         conditions,
	}
	written, err := kubeClient.PolicyV1().PodDisruptionBudgets(pdb.Namespace).UpdateStatus(context.Background(), pdb, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("writing the status of PodDisruptionBudget %s: %v", pdb.Name, err)
	}
	return written
}

// backdateUpdating moves the node insight's Updating transition back by
// ago through its status subresource, and returns it.
func backdateUpdating(t testing.TB, node string, ago time.Duration) metav1.Time {
	t.Helper()
	var since metav1.Time
	insights := insightsClient.InsightsV1alpha1().NodeProgressInsights()
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		insight, err := insights.Get(context.Background(), node, metav1.GetOptions{})
		if err != nil {
			return err
		}
		c := meta.FindStatusCondition(insight.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
		if c == nil || c.Status != metav1.ConditionTrue {
			t.Fatalf("node %s's insight is not Updating: %+v", node, c)
		}
		since = metav1.NewTime(c.LastTransitionTime.Add(-ago))
		c.LastTransitionTime = since
		_, err = insights.UpdateStatus(context.Background(), insight, metav1.UpdateOptions{})
		return err
	}); err != nil {
		t.Fatalf("moving the Updating transition of node %s's insight back: %v", node, err)
	}
	return since
}

// updatingView is what the drain test checks of the Updating condition
// beyond the node view: since when, and what it says.
type updatingView struct {
	Since   time.Time
	Message string
}

func updatingOf(i *insightsv1alpha1.NodeProgressInsight) updatingView {
	c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
	if c == nil {
		return updatingView{}
	}
	return updatingView{Since: c.LastTransitionTime.Time, Message: c.Message}
}
