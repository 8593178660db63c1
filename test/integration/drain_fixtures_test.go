package integration

import (
	"context"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// podState is a pod's state as its kubelet reports it.
type podState string

const (
	podReady     podState = "Ready"
	podNotReady  podState = "NotReady" // running, a container not ready
	podPending   podState = "Pending"  // scheduled, its containers being created
	podSucceeded podState = "Succeeded"
)

// kubeletStatus is the status a kubelet writes for a pod of one container
// "app" in state: the phase, the conditions of pkg/kubelet/status/generate.go
// and the container's state.
func kubeletStatus(state podState, at metav1.Time) corev1.PodStatus {
	condition := func(t corev1.PodConditionType, s corev1.ConditionStatus, reason string) corev1.PodCondition {
		c := corev1.PodCondition{Type: t, Status: s, Reason: reason, LastTransitionTime: at}
		if reason == "ContainersNotReady" {
			c.Message = "containers with unready status: [app]"
		}
		return c
	}
	container := corev1.ContainerStatus{Name: "app", Image: "registry.example.com/app:1"}
	status := corev1.PodStatus{HostIP: "10.0.0.1", PodIP: "10.128.0.10", StartTime: &at}
	started := condition(corev1.PodReadyToStartContainers, corev1.ConditionTrue, "")
	initialized := condition(corev1.PodInitialized, corev1.ConditionTrue, "")
	scheduled := condition(corev1.PodScheduled, corev1.ConditionTrue, "")
	switch state {
	case podReady:
		status.Phase = corev1.PodRunning
		container.Ready, container.Started = true, ptr.To(true)
		container.State.Running = &corev1.ContainerStateRunning{StartedAt: at}
		status.Conditions = []corev1.PodCondition{started, initialized,
			condition(corev1.PodReady, corev1.ConditionTrue, ""), condition(corev1.ContainersReady, corev1.ConditionTrue, ""), scheduled}
	case podNotReady:
		status.Phase = corev1.PodRunning
		container.Started = ptr.To(true)
		container.State.Running = &corev1.ContainerStateRunning{StartedAt: at}
		status.Conditions = []corev1.PodCondition{started, initialized,
			condition(corev1.PodReady, corev1.ConditionFalse, "ContainersNotReady"), condition(corev1.ContainersReady, corev1.ConditionFalse, "ContainersNotReady"), scheduled}
	case podPending:
		status.Phase = corev1.PodPending
		status.PodIP = ""
		container.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}
		status.Conditions = []corev1.PodCondition{condition(corev1.PodReadyToStartContainers, corev1.ConditionFalse, ""), initialized,
			condition(corev1.PodReady, corev1.ConditionFalse, "ContainersNotReady"), condition(corev1.ContainersReady, corev1.ConditionFalse, "ContainersNotReady"), scheduled}
	case podSucceeded:
		status.Phase = corev1.PodSucceeded
		container.State.Terminated = &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: at, FinishedAt: at}
		status.Conditions = []corev1.PodCondition{condition(corev1.PodReadyToStartContainers, corev1.ConditionFalse, ""), initialized,
			condition(corev1.PodReady, corev1.ConditionFalse, "PodCompleted"), condition(corev1.ContainersReady, corev1.ConditionFalse, "PodCompleted"), scheduled}
	}
	status.ContainerStatuses = []corev1.ContainerStatus{container}
	return status
}

// createReplicaSet creates the ReplicaSet name of replicas pods labelled
// labels; no controller-manager runs, so it never creates them itself.
func createReplicaSet(t testing.TB, namespace, name string, replicas int32, labels map[string]string) *appsv1.ReplicaSet {
	t.Helper()
	rs, err := kubeClient.AppsV1().ReplicaSets(namespace).Create(context.Background(), &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "registry.example.com/app:1"}}},
			},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating ReplicaSet %s/%s: %v", namespace, name, err)
	}
	return rs
}

// syncBudget writes the status of the budget as kubernetes' disruption
// controller computes it from the pods and ReplicaSets the API server has
// (pkg/controller/disruption/disruption.go, v1.35: sync, trySync,
// getExpectedPodCount, getExpectedScale with getPodReplicaSet,
// countHealthyPods and updatePdbStatus; the condition of
// k8s.io/component-helpers/apps/poddisruptionbudget
// UpdateDisruptionAllowedCondition). A computation that fails is written as
// its failSafe writes it. Only ReplicaSets own the pods here; no budget of
// these tests has disrupted pods yet.
func syncBudget(t testing.TB, namespace, name string) *policyv1.PodDisruptionBudget {
	t.Helper()
	ctx := context.Background()
	budgets := kubeClient.PolicyV1().PodDisruptionBudgets(namespace)
	pdb, err := budgets.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	selector, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
	if err != nil {
		t.Fatal(err)
	}
	pods, err := kubeClient.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
	if err != nil {
		t.Fatal(err)
	}
	expected, desired, err := expectedPodCount(ctx, pdb, pods.Items)
	if err != nil {
		// failSafe: no disruption allowed, the rest of the status as it was.
		pdb.Status.DisruptionsAllowed = 0
		if pdb.Status.Conditions == nil {
			pdb.Status.Conditions = []metav1.Condition{}
		}
		apimeta.SetStatusCondition(&pdb.Status.Conditions, metav1.Condition{
			Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse, Reason: policyv1.SyncFailedReason,
			Message: err.Error(), ObservedGeneration: pdb.Status.ObservedGeneration,
		})
	} else {
		var healthy int32
		for i := range pods.Items {
			if pods.Items[i].DeletionTimestamp == nil && podReadyCondition(&pods.Items[i]) {
				healthy++
			}
		}
		allowed := healthy - desired
		if expected <= 0 || allowed <= 0 {
			allowed = 0
		}
		pdb.Status = policyv1.PodDisruptionBudgetStatus{
			CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected, DisruptionsAllowed: allowed,
			ObservedGeneration: pdb.Generation, Conditions: pdb.Status.Conditions,
		}
		if pdb.Status.Conditions == nil {
			pdb.Status.Conditions = []metav1.Condition{}
		}
		condition := metav1.Condition{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse,
			Reason: policyv1.InsufficientPodsReason, ObservedGeneration: pdb.Status.ObservedGeneration}
		if allowed > 0 {
			condition.Status, condition.Reason = metav1.ConditionTrue, policyv1.SufficientPodsReason
		}
		apimeta.SetStatusCondition(&pdb.Status.Conditions, condition)
	}
	written, err := budgets.UpdateStatus(ctx, pdb, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("writing the status of budget %s/%s: %v", namespace, name, err)
	}
	return written
}

// expectedPodCount is the disruption controller's getExpectedPodCount.
func expectedPodCount(ctx context.Context, pdb *policyv1.PodDisruptionBudget, pods []corev1.Pod) (expected, desired int32, err error) {
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		if expected, err = expectedScale(ctx, pods); err != nil {
			return 0, 0, err
		}
		maxUnavailable, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expected), true)
		if err != nil {
			return 0, 0, err
		}
		return expected, max(expected-int32(maxUnavailable), 0), nil
	case pdb.Spec.MinAvailable != nil && pdb.Spec.MinAvailable.Type == intstr.Int:
		return int32(len(pods)), pdb.Spec.MinAvailable.IntVal, nil
	case pdb.Spec.MinAvailable != nil:
		if expected, err = expectedScale(ctx, pods); err != nil {
			return 0, 0, err
		}
		minAvailable, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expected), true)
		return expected, int32(minAvailable), err
	}
	return 0, 0, nil
}

// expectedScale is the disruption controller's getExpectedScale, with the
// one finder these tests need, getPodReplicaSet: the sum of the replicas of
// the pods' controllers, an error for a pod whose controller is not found.
func expectedScale(ctx context.Context, pods []corev1.Pod) (int32, error) {
	scales := map[types.UID]int32{}
	for i := range pods {
		ref := metav1.GetControllerOf(&pods[i])
		if ref == nil {
			continue
		}
		if _, found := scales[ref.UID]; found {
			continue
		}
		rs, err := kubeClient.AppsV1().ReplicaSets(pods[i].Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return 0, err
		}
		if ref.Kind != "ReplicaSet" || err != nil || rs.UID != ref.UID {
			return 0, fmt.Errorf("found no controllers for pod %q", pods[i].Name)
		}
		scales[ref.UID] = *rs.Spec.Replicas
	}
	var expected int32
	for _, scale := range scales {
		expected += scale
	}
	return expected, nil
}

// podReadyCondition is k8s.io/kubernetes/pkg/api/v1/pod IsPodReady, which
// both the disruption controller and the eviction handler call.
func podReadyCondition(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
