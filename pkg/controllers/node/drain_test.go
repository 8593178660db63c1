package node

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	"github.com/openshift/library-go/pkg/controller/factory"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// A node the machine-config controller drains has its pods watched; once
// a pod's budget has held the drain past the controller's first attempt,
// the node's note names it and a health insight says why, and once the
// drain is done the pods are no longer watched and the insight goes.
func TestAHeldDrainIsNamedAndClearsWhenTheDrainEnds(t *testing.T) {
	c, now := loadRecorded(t)
	h := newHarness(t, c, now)
	h.run(factory.DefaultQueueKey)

	const (
		name      = "build0-gstfj-ci-tests-worker-c-2c4vg"
		oldConfig = "rendered-worker-6b0cfe9b92e34c641ac59510e408b311"
		newConfig = "rendered-worker-55c03f1f59ad9bd3b224c96a3618ce1d"
	)
	ctx := context.Background()
	db := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db-0", Labels: map[string]string{"app": "db"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db", Controller: ptr.To(true)}}},
		Spec:   corev1.PodSpec{NodeName: name},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
	elsewhere := db.DeepCopy()
	elsewhere.Name, elsewhere.Spec.NodeName = "db-1", "build0-gstfj-ci-tests-worker-c-other"
	for _, p := range []*corev1.Pod{db, elsewhere} {
		if _, err := h.kube.CoreV1().Pods("shop").Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// At its limit since long before the drain, as the disruption
	// controller writes it (kubernetes pkg/controller/disruption,
	// updatePdbStatus).
	must(t, h.budgets.Add(&policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db", Generation: 1},
		Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr.To(intstr.FromInt32(2)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}},
		Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2,
			Conditions: []metav1.Condition{{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse, Reason: policyv1.InsufficientPodsReason,
				LastTransitionTime: metav1.NewTime(now.Add(-24 * time.Hour))}}},
	}))

	obj, _, err := h.nodes.GetByKey(name)
	must(t, err)
	node := obj.(*corev1.Node).DeepCopy()
	step := func(after time.Duration, annotations map[string]string) (string, []string) {
		t.Helper()
		h.clock.SetTime(now.Add(after))
		for k, v := range annotations {
			node.Annotations[k] = v
		}
		h.updateNode(node)
		h.run(nodeKeyPrefix + name)
		s := h.nodeStatus(name)
		var drains []string
		for _, i := range h.healthInsights() {
			if strings.HasPrefix(i.Status.Impact.Summary, "Pod ") {
				drains = append(drains, string(i.Status.Impact.Level)+": "+i.Status.Impact.Summary)
			}
		}
		return s.Message, drains
	}

	draining := mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig)
	step(0, draining)
	if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		_, synced, _ := h.controller.drains.pods.Pods(name)
		_, pendingSynced, _ := h.controller.drains.pods.Pods(unscheduled)
		return synced && pendingSynced, nil
	}); err != nil {
		t.Fatalf("the drained node's pods were not cached: %v", err)
	}
	// The recording drains a dozen other workers: their pods are watched
	// too, and those waiting to be scheduled ("").
	if followed := h.controller.drains.pods.Followed(); !slices.Contains(followed, name) || !slices.Contains(followed, unscheduled) {
		t.Errorf("pods watched of %q, want %s's and the unscheduled", followed, name)
	}

	note, drains := step(30*time.Second, draining)
	if note != "" || len(drains) != 0 {
		t.Errorf("30s into the drain: note %q, health insights %v; want neither before the controller's first attempt failed", note, drains)
	}
	note, drains = step(10*time.Minute, draining)
	want := []string{"Warning: Pod shop/db-0 holds the drain of node " + name + ": PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)"}
	if diff := cmp.Diff([]any{"Drain held by pod shop/db-0", want}, []any{note, drains}); diff != "" {
		t.Errorf("10m into the drain: note and health insights (-want +got):\n%s", diff)
	}

	note, drains = step(20*time.Minute, mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "drain-"+newConfig))
	if note != "" || len(drains) != 0 || slices.Contains(h.controller.drains.pods.Followed(), name) {
		t.Errorf("drained: note %q, health insights %v, pods watched of %v; want none", note, drains, h.controller.drains.pods.Followed())
	}
}

func (h *harness) healthInsights() []*insightsv1alpha1.UpdateHealthInsight {
	h.t.Helper()
	list, err := h.client.InsightsV1alpha1().UpdateHealthInsights().List(context.Background(), metav1.ListOptions{})
	must(h.t, err)
	var out []*insightsv1alpha1.UpdateHealthInsight
	for i := range list.Items {
		out = append(out, &list.Items[i])
	}
	return out
}
