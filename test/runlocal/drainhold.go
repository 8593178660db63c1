package main

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
)

// The workload whose budget holds a worker's drain: a ReplicaSet of one
// pod, and a budget that wants that one pod available. No controller runs
// on the local cluster, so heldDrain writes what each would: the kubelet
// the pods' status, the ReplicaSet controller its replicas, the disruption
// controller the budget's status.
const (
	heldNamespace  = "payments"
	heldBudget     = "ledger"
	heldReplicaSet = "ledger-7c9d8b6f5d"
	// heldPod is the pod on the held worker; scaledPod the one the scale-up
	// adds on another worker; replacementPod the ReplicaSet's replacement of
	// heldPod once it is evicted.
	heldPod        = heldReplicaSet + "-q8z2x"
	scaledPod      = heldReplicaSet + "-m4k7p"
	replacementPod = heldReplicaSet + "-t6w9n"
)

var heldLabels = map[string]string{"app": "ledger", "pod-template-hash": "7c9d8b6f5d"}

// heldDrain is a worker whose drain the ledger budget holds until its
// ReplicaSet is scaled up, and the workers its other pods run on.
type heldDrain struct {
	// node is the held worker; scaledTo and replacedTo the workers the
	// scale-up's pod and the evicted pod's replacement run on.
	node, scaledTo, replacedTo string
}

// newHeldDrain holds the first worker's drain; the other pods run on the
// pool's last and second workers, which the pool drains later, when the
// budget allows it.
func newHeldDrain(n *recordedNodes, pool string) (heldDrain, error) {
	var workers []string
	for _, node := range n.nodes {
		if _, ok := node.Labels["node-role.kubernetes.io/"+pool]; ok {
			workers = append(workers, node.Name)
		}
	}
	if len(workers) < 3 {
		return heldDrain{}, fmt.Errorf("want at least 3 nodes in pool %s to hold a drain, found %d", pool, len(workers))
	}
	return heldDrain{node: workers[0], scaledTo: workers[len(workers)-1], replacedTo: workers[1]}, nil
}

// create writes the workload as its controllers leave it: one ready pod on
// the held worker, and the budget's status allowing no disruption
// (InsufficientPods), as the disruption controller computes it for
// minAvailable 1 and one healthy pod.
func (h heldDrain) create(ctx context.Context, c *clients) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: heldNamespace}}
	if _, err := c.kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: heldNamespace, Name: heldReplicaSet, Labels: heldLabels},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: heldLabels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: heldLabels}, Spec: ledgerPodSpec()},
		},
	}
	created, err := c.kube.AppsV1().ReplicaSets(heldNamespace).Create(ctx, rs, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating ReplicaSet %s/%s: %w", heldNamespace, heldReplicaSet, err)
	}
	if err := h.runPod(ctx, c, created, heldPod, h.node); err != nil {
		return err
	}
	if err := writeReplicaSetStatus(ctx, c, 1); err != nil {
		return err
	}
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: heldNamespace, Name: heldBudget},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(1)),
			Selector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": "ledger"}},
		},
	}
	if _, err := c.kube.PolicyV1().PodDisruptionBudgets(heldNamespace).Create(ctx, pdb, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating PodDisruptionBudget %s/%s: %w", heldNamespace, heldBudget, err)
	}
	return writeBudgetStatus(ctx, c, 1)
}

// allow is the administrator's fix: the ReplicaSet scaled to two, its new
// pod ready on another worker, and the budget's status, recomputed,
// allowing one disruption (SufficientPods).
func (h heldDrain) allow(ctx context.Context, c *clients) error {
	rs, err := scaleReplicaSet(ctx, c, 2)
	if err != nil {
		return err
	}
	if err := h.runPod(ctx, c, rs, scaledPod, h.scaledTo); err != nil {
		return err
	}
	if err := writeReplicaSetStatus(ctx, c, 2); err != nil {
		return err
	}
	return writeBudgetStatus(ctx, c, 2)
}

// drain evicts the held pod as the machine-config controller's drain does,
// through the API server's eviction subresource, which checks the budget
// and records the disruption in its status; then the kubelet confirms the
// pod's deletion, the ReplicaSet controller's replacement runs on another
// worker, and the disruption controller counts it.
func (h heldDrain) drain(ctx context.Context, c *clients) error {
	pods := c.kube.CoreV1().Pods(heldNamespace)
	pod, err := pods.Get(ctx, heldPod, metav1.GetOptions{})
	if err != nil {
		return err
	}
	eviction := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Namespace: heldNamespace, Name: heldPod}}
	if err := pods.EvictV1(ctx, eviction); err != nil {
		return fmt.Errorf("evicting pod %s/%s: %w", heldNamespace, heldPod, err)
	}
	// The kubelet's status manager deletes a stopped pod at once, for its
	// UID (pkg/kubelet/status/status_manager.go, syncPod).
	if err := pods.Delete(ctx, heldPod, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0),
		Preconditions: metav1.NewUIDPreconditions(string(pod.UID))}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting pod %s/%s as its kubelet: %w", heldNamespace, heldPod, err)
	}
	rs, err := c.kube.AppsV1().ReplicaSets(heldNamespace).Get(ctx, heldReplicaSet, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := h.runPod(ctx, c, rs, replacementPod, h.replacedTo); err != nil {
		return err
	}
	return writeBudgetStatus(ctx, c, 2)
}

func ledgerPodSpec() corev1.PodSpec {
	return corev1.PodSpec{Containers: []corev1.Container{{Name: "ledger", Image: "quay.io/example/ledger:1.4"}}}
}

// runPod creates a pod of the ReplicaSet bound to node, as the ReplicaSet
// controller creates it and the scheduler binds it, and writes its status
// as the kubelet does once its container runs and is ready.
func (h heldDrain) runPod(ctx context.Context, c *clients, rs *appsv1.ReplicaSet, name, node string) error {
	pods := c.kube.CoreV1().Pods(heldNamespace)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: heldNamespace, Name: name, Labels: heldLabels,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(rs, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))}},
		Spec: ledgerPodSpec(),
	}
	pod.Spec.NodeName = node
	created, err := pods.Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating pod %s/%s: %w", heldNamespace, name, err)
	}
	now := metav1.Now()
	created.Status.Phase = corev1.PodRunning
	created.Status.StartTime = &now
	for _, t := range []corev1.PodConditionType{corev1.PodInitialized, corev1.PodReady, corev1.ContainersReady, corev1.PodScheduled} {
		created.Status.Conditions = append(created.Status.Conditions, corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: now})
	}
	created.Status.ContainerStatuses = []corev1.ContainerStatus{{
		Name: "ledger", Image: "quay.io/example/ledger:1.4", ImageID: "quay.io/example/ledger@sha256:5b0b8f0c1e4c3f2a", ContainerID: "cri-o://9d2f6c1a",
		Ready: true, Started: ptr.To(true), State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
	}}
	if _, err := pods.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing pod %s/%s status as its kubelet: %w", heldNamespace, name, err)
	}
	return nil
}

func scaleReplicaSet(ctx context.Context, c *clients, replicas int32) (*appsv1.ReplicaSet, error) {
	var scaled *appsv1.ReplicaSet
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		rs, err := c.kube.AppsV1().ReplicaSets(heldNamespace).Get(ctx, heldReplicaSet, metav1.GetOptions{})
		if err != nil {
			return err
		}
		rs.Spec.Replicas = ptr.To(replicas)
		scaled, err = c.kube.AppsV1().ReplicaSets(heldNamespace).Update(ctx, rs, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("scaling ReplicaSet %s/%s to %d: %w", heldNamespace, heldReplicaSet, replicas, err)
	}
	return scaled, nil
}

// writeReplicaSetStatus writes the ReplicaSet's status as its controller
// does once its ready pods number ready (calculateStatus in
// pkg/controller/replicaset/replica_set_utils.go).
func writeReplicaSetStatus(ctx context.Context, c *clients, ready int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		rs, err := c.kube.AppsV1().ReplicaSets(heldNamespace).Get(ctx, heldReplicaSet, metav1.GetOptions{})
		if err != nil {
			return err
		}
		rs.Status = appsv1.ReplicaSetStatus{Replicas: ready, FullyLabeledReplicas: ready, ReadyReplicas: ready, AvailableReplicas: ready, ObservedGeneration: rs.Generation}
		_, err = c.kube.AppsV1().ReplicaSets(heldNamespace).UpdateStatus(ctx, rs, metav1.UpdateOptions{})
		return err
	})
}

// writeBudgetStatus writes the budget's status as kubernetes' disruption
// controller computes it for its healthy pods, all expected and ready, and
// minAvailable 1 (updatePdbStatus in pkg/controller/disruption/disruption.go,
// and UpdateDisruptionAllowedCondition in
// k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go): the
// condition's transition time moves only when its status changes, and the
// disrupted pods the eviction handler recorded are dropped once gone.
func writeBudgetStatus(ctx context.Context, c *clients, healthy int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		budgets := c.kube.PolicyV1().PodDisruptionBudgets(heldNamespace)
		pdb, err := budgets.Get(ctx, heldBudget, metav1.GetOptions{})
		if err != nil {
			return err
		}
		const desired = 1
		allowed := max(healthy-desired, 0)
		cond := metav1.Condition{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionTrue, Reason: policyv1.SufficientPodsReason,
			ObservedGeneration: pdb.Generation, LastTransitionTime: metav1.Now()}
		if allowed == 0 {
			cond.Status, cond.Reason = metav1.ConditionFalse, policyv1.InsufficientPodsReason
		}
		for _, old := range pdb.Status.Conditions {
			if old.Type == cond.Type && old.Status == cond.Status {
				cond.LastTransitionTime = old.LastTransitionTime
			}
		}
		pdb.Status = policyv1.PodDisruptionBudgetStatus{
			ObservedGeneration: pdb.Generation, DisruptionsAllowed: allowed,
			CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: healthy,
			Conditions: []metav1.Condition{cond},
		}
		_, err = budgets.UpdateStatus(ctx, pdb, metav1.UpdateOptions{})
		return err
	})
}
