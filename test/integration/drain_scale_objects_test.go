package integration

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// The workloads of BenchmarkDrainScale: 300 apps of 500 pods, each app in
// a tenth of the nodes (a group: the nodes whose index ends in the same
// digit), one pod per node, so that each node runs 30 pods of 30 apps.
// Each app has a budget that lets one of its pods be down; one app in 30
// is at its limit, so that each node has exactly one pod whose eviction
// the API server refuses.
const (
	drainScalePodsPerNode = 30
	drainScaleGroups      = 10
	drainScaleApps        = drainScalePodsPerNode * drainScaleGroups
	drainScalePodsPerApp  = scaleNodes / drainScaleGroups
	// drainScaleAppsPerNamespace: three apps share a namespace.
	drainScaleAppsPerNamespace = 3
	// drainScaleHeldApp is the app of each group whose budget is at its
	// limit: pod 7 of every node.
	drainScaleHeldApp = 7
)

// drainScalePhaseOf is the phase of node i: a tenth updated (group 0), the
// rest waiting; the benchmark puts 50 of them into drain.
func drainScalePhaseOf(i int) scalePhase {
	if i%drainScaleGroups == 0 {
		return scaleUpdated
	}
	return scalePending
}

// drainScaleGroupOf is the group of node i: its apps are the group's.
func drainScaleGroupOf(node int) int { return node % drainScaleGroups }

// drainScaleAppOf is the app of pod j of node i.
func drainScaleAppOf(node, j int) int { return drainScalePodsPerNode*drainScaleGroupOf(node) + j }

// drainScaleHeld says whether app's budget is at its limit.
func drainScaleHeld(app int) bool { return app%drainScalePodsPerNode == drainScaleHeldApp }

func drainScaleAppName(app int) string { return fmt.Sprintf("app-%03d", app) }

func drainScaleNamespace(app int) string {
	return fmt.Sprintf("tenant-%03d", app/drainScaleAppsPerNamespace)
}

// drainScaleReplicaSet is the ReplicaSet that owns app's pods. No
// controller-manager runs, so it need not exist: nothing reads it.
func drainScaleReplicaSet(app int) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: "apps/v1", Kind: "ReplicaSet", Name: drainScaleAppName(app) + "-5d8f7c9b4",
		UID:        types.UID(fmt.Sprintf("3f2a6c1e-0000-4000-8000-%012d", app)),
		Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}
}

// drainScalePodName is the name of app's pod on node.
func drainScalePodName(app, node int) string {
	return fmt.Sprintf("%s-5d8f7c9b4-%05d", drainScaleAppName(app), node)
}

// drainScalePod is pod j of node i, as small as a Deployment's pod gets:
// one container, its app's label, its ReplicaSet.
func drainScalePod(node, j int) *corev1.Pod {
	app := drainScaleAppOf(node, j)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       drainScaleNamespace(app),
			Name:            drainScalePodName(app, node),
			Labels:          map[string]string{"app": drainScaleAppName(app)},
			OwnerReferences: []metav1.OwnerReference{drainScaleReplicaSet(app)},
		},
		Spec: corev1.PodSpec{
			NodeName:   scaleNodeName(node),
			Containers: []corev1.Container{{Name: "app", Image: "registry.example.com/app:1"}},
		},
	}
}

// drainScaleBudget is app's budget: one pod of its 500 may be down.
func drainScaleBudget(app int) *policyv1.PodDisruptionBudget {
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: drainScaleNamespace(app), Name: drainScaleAppName(app)},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MaxUnavailable: ptr.To(intstr.FromInt32(1)),
			Selector:       &metav1.LabelSelector{MatchLabels: map[string]string{"app": drainScaleAppName(app)}},
		},
	}
}

// drainScaleBudgetStatus is the status the disruption controller writes
// for a budget of maxUnavailable 1 over 500 pods of a ReplicaSet
// (kubernetes pkg/controller/disruption/disruption.go, trySync and
// updatePdbStatus: expectedPods the ReplicaSet's replicas, desiredHealthy
// expectedPods-1, disruptionsAllowed currentHealthy-desiredHealthy, and
// the DisruptionAllowed condition, whose lastTransitionTime moves only
// with its status, as meta.SetStatusCondition moves it): healthy pods of
// 500, the condition's time taken from previous when its status is the
// same.
func drainScaleBudgetStatus(generation int64, healthy int32, previous []metav1.Condition, now time.Time) policyv1.PodDisruptionBudgetStatus {
	desired := int32(drainScalePodsPerApp - 1)
	allowed := max(healthy-desired, 0)
	condition := metav1.Condition{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse,
		Reason: policyv1.InsufficientPodsReason, ObservedGeneration: generation, LastTransitionTime: metav1.NewTime(now)}
	if allowed > 0 {
		condition.Status, condition.Reason = metav1.ConditionTrue, policyv1.SufficientPodsReason
	}
	for _, c := range previous {
		if c.Type == condition.Type && c.Status == condition.Status {
			condition.LastTransitionTime = c.LastTransitionTime
		}
	}
	return policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: generation, DisruptionsAllowed: allowed, CurrentHealthy: healthy, DesiredHealthy: desired,
		ExpectedPods: drainScalePodsPerApp, Conditions: []metav1.Condition{condition},
	}
}

// createWorkloads creates the namespaces, the 150,000 pods (the status of
// those on the nodes to drain written as their kubelets write it) and the
// 300 budgets with their status, and deletes them when the benchmark ends.
//
// Only the pods of the drained nodes get a status: the operator reads no
// other, and a status write per pod would double the setup. A pod the API
// server creates is Pending, which the eviction handler never refuses; the
// budgets' status is that of a cluster whose kubelets report every pod
// Running and ready but one pod of each app at its limit, on a node that
// is not drained.
func (d *drainScale) createWorkloads(drained []int) {
	b, ctx := d.b, context.Background()
	start := time.Now()
	namespaces := make([]string, 0, drainScaleApps/drainScaleAppsPerNamespace)
	for app := 0; app < drainScaleApps; app += drainScaleAppsPerNamespace {
		namespaces = append(namespaces, drainScaleNamespace(app))
	}
	b.Cleanup(func() {
		start := time.Now()
		// No namespace controller runs: the pods go first, at once
		// (grace period 0: no kubelet confirms their deletion).
		if err := forEachIndex(len(namespaces), func(i int) error {
			err := d.kube.CoreV1().Pods(namespaces[i]).DeleteCollection(context.Background(),
				metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}, metav1.ListOptions{})
			if err == nil {
				err = d.kube.PolicyV1().PodDisruptionBudgets(namespaces[i]).DeleteCollection(context.Background(), metav1.DeleteOptions{}, metav1.ListOptions{})
			}
			if err == nil {
				err = d.kube.CoreV1().Namespaces().Delete(context.Background(), namespaces[i], metav1.DeleteOptions{})
			}
			if apierrors.IsNotFound(err) {
				return nil
			}
			return err
		}); err != nil {
			b.Errorf("deleting the workloads: %v", err)
		}
		b.Logf("deleted the pods, budgets and namespaces in %s", time.Since(start).Round(time.Second))
	})
	if err := forEachIndex(len(namespaces), func(i int) error {
		_, err := d.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespaces[i]}}, metav1.CreateOptions{})
		return err
	}); err != nil {
		b.Fatalf("creating the namespaces: %v", err)
	}

	isDrained := map[int]bool{}
	for _, i := range drained {
		isDrained[i] = true
	}
	if err := forEachIndex(scaleNodes*drainScalePodsPerNode, func(k int) error {
		node, j := k/drainScalePodsPerNode, k%drainScalePodsPerNode
		pods := d.kube.CoreV1().Pods(drainScaleNamespace(drainScaleAppOf(node, j)))
		created, err := pods.Create(ctx, drainScalePod(node, j), metav1.CreateOptions{})
		if err != nil || !isDrained[node] {
			return err
		}
		created.Status = kubeletStatus(podReady, created.CreationTimestamp)
		_, err = pods.UpdateStatus(ctx, created, metav1.UpdateOptions{})
		return err
	}); err != nil {
		b.Fatalf("creating the pods: %v", err)
	}

	// At its limit since long before the drains; allowing since as long.
	since := time.Now().Add(-24 * time.Hour)
	if err := forEachIndex(drainScaleApps, func(app int) error {
		budgets := d.kube.PolicyV1().PodDisruptionBudgets(drainScaleNamespace(app))
		created, err := budgets.Create(ctx, drainScaleBudget(app), metav1.CreateOptions{})
		if err != nil {
			return err
		}
		healthy := int32(drainScalePodsPerApp)
		if drainScaleHeld(app) {
			healthy--
		}
		created.Status = drainScaleBudgetStatus(created.Generation, healthy, nil, since)
		_, err = budgets.UpdateStatus(ctx, created, metav1.UpdateOptions{})
		return err
	}); err != nil {
		b.Fatalf("creating the budgets: %v", err)
	}
	b.Logf("created %d namespaces, %d pods (%d with a status) and %d budgets in %s", len(namespaces),
		scaleNodes*drainScalePodsPerNode, len(drained)*drainScalePodsPerNode, drainScaleApps, time.Since(start).Round(time.Second))
}

// setBudgetHealthy writes app's budget's status with healthy pods, as the
// disruption controller writes it when a pod's readiness changes, and
// returns when its write began.
func (d *drainScale) setBudgetHealthy(app int, healthy int32) (time.Time, error) {
	ctx := context.Background()
	budgets := d.kube.PolicyV1().PodDisruptionBudgets(drainScaleNamespace(app))
	pdb, err := budgets.Get(ctx, drainScaleAppName(app), metav1.GetOptions{})
	if err != nil {
		return time.Time{}, err
	}
	start := time.Now()
	pdb.Status = drainScaleBudgetStatus(pdb.Generation, healthy, pdb.Status.Conditions, start)
	if _, err := budgets.UpdateStatus(ctx, pdb, metav1.UpdateOptions{}); err != nil {
		return time.Time{}, fmt.Errorf("writing the status of budget %s/%s: %w", pdb.Namespace, pdb.Name, err)
	}
	return start, nil
}
