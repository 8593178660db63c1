package nodepool

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
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/drains"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/nodepods"
)

// draining is a node the upgrader told newHash whose daemon asked the
// HyperShift drainer to drain it (drainer.go: desiredDrain differs from
// lastAppliedDrain), as syncNodeHypershift writes it.
func draining() map[string]string {
	return map[string]string{
		nodes.CurrentConfigAnnotation:    oldHash,
		nodes.DesiredConfigAnnotation:    newHash,
		nodes.StateAnnotation:            "Working",
		nodes.DesiredDrainAnnotation:     "drain-" + newHash,
		nodes.LastAppliedDrainAnnotation: "uncordon-" + oldHash,
	}
}

// A node of a NodePool the HyperShift drainer drains has its pods watched;
// once a pod's budget has held the drain past the drainer's first attempt,
// the node's note and Updating condition name it and a health insight says
// why, and once the drain is applied the pods are no longer watched and
// the insight goes.
func TestAHeldInPlaceDrainIsNamedAndClearsWhenTheDrainEnds(t *testing.T) {
	n := node("ip-a", "inplace", kubeletOld, draining())
	n.Spec.Unschedulable = true
	h := newHarness(t, n, node("ip-b", "inplace", kubeletOld, nil))
	ctx := context.Background()
	db := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db-0", Labels: map[string]string{"app": "db"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db", Controller: ptr.To(true)}}},
		Spec:   corev1.PodSpec{NodeName: "ip-a"},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
	elsewhere := db.DeepCopy()
	elsewhere.Name, elsewhere.Spec.NodeName = "db-1", "ip-b"
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

	step := func(after time.Duration, annotations map[string]string) (string, string, []string) {
		t.Helper()
		h.clock.SetTime(now.Add(after))
		for k, v := range annotations {
			n.Annotations[k] = v
		}
		h.putNode(n)
		h.run(nodeKeyPrefix + n.Name)
		obj, ok, err := h.npis.GetByKey(n.Name)
		must(t, err)
		if !ok {
			t.Fatalf("no insight of %s", n.Name)
		}
		s := obj.(*insightsv1alpha1.NodeProgressInsight).Status
		var held []string
		for _, o := range h.uhis.List() {
			if i := o.(*insightsv1alpha1.UpdateHealthInsight); strings.HasPrefix(i.Status.Impact.Summary, "Pod ") {
				held = append(held, string(i.Status.Impact.Level)+": "+i.Status.Impact.Summary)
			}
		}
		return s.Message, s.Conditions[0].Message, held
	}

	step(0, nil)
	if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		_, synced, _ := h.controller.drains.Caches().Pods(n.Name)
		_, pendingSynced, _ := h.controller.drains.Caches().Pods(drains.Unscheduled)
		return synced && pendingSynced, nil
	}); err != nil {
		t.Fatalf("the drained node's pods were not cached: %v", err)
	}
	if diff := cmp.Diff([]string{drains.Unscheduled, n.Name}, h.controller.drains.Caches().Followed()); diff != "" {
		t.Errorf("pods watched of (-want +got):\n%s", diff)
	}

	const kubelet = "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6"
	note, updating, held := step(30*time.Second, nil)
	if note != kubelet || strings.Contains(updating, "db-0") || len(held) != 0 {
		t.Errorf("30s into the drain: note %q, Updating %q, health insights %v; want none named before the drainer's first attempt timed out", note, updating, held)
	}
	// That sync saw the budget may refuse to evict the node's pod: the
	// drain is judged once the budget's pods are cached too.
	key := nodepods.BudgetKey("shop", labels.SelectorFromSet(labels.Set{"app": "db"}))
	if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		_, synced, _ := h.controller.drains.BudgetCaches().Pods(key)
		return synced, nil
	}); err != nil {
		t.Fatalf("the budget's pods were not cached: %v", err)
	}
	note, updating, held = step(10*time.Minute, nil)
	const why = "PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)"
	want := []any{"Drain held by pod shop/db-0; " + kubelet,
		"The node is being drained before its in-place update; pod shop/db-0 holds it: " + why,
		[]string{"Warning: Pod shop/db-0 holds the drain of node ip-a: " + why}}
	if diff := cmp.Diff(want, []any{note, updating, held}); diff != "" {
		t.Errorf("10m into the drain: note, Updating message and health insights (-want +got):\n%s", diff)
	}

	// The drainer applied the drain: the daemon writes the configuration.
	note, _, held = step(20*time.Minute, map[string]string{nodes.LastAppliedDrainAnnotation: "drain-" + newHash})
	if note != kubelet || len(held) != 0 || slices.Contains(h.controller.drains.Caches().Followed(), n.Name) {
		t.Errorf("drained: note %q, health insights %v, pods watched of %v; want none", note, held, h.controller.drains.Caches().Followed())
	}
}

// Only the nodes the drainer is asked to drain have their pods watched: not
// a Replace NodePool's node that cluster-api cordons, whose drain is
// cluster-api's own, nor a node at rest; a drained node that is deleted is
// no longer watched.
func TestOnlyTheDrainedNodesPodsAreWatched(t *testing.T) {
	old := node("rp-old", "replace", kubeletOld, nil)
	old.Spec.Unschedulable = true
	old.Spec.Taints = []corev1.Taint{{Key: hosted.OutdatedRevisionTaint, Effect: corev1.TaintEffectPreferNoSchedule}}
	h := newHarness(t, old, node("rp-new", "replace", kubeletNew, nil),
		node("ip-a", "inplace", kubeletOld, draining()), node("ip-b", "inplace", kubeletOld, drained()))
	h.run(poolKeyPrefix + "replace")
	h.run(poolKeyPrefix + "inplace")
	if diff := cmp.Diff([]string{drains.Unscheduled, "ip-a"}, h.controller.drains.Caches().Followed()); diff != "" {
		t.Errorf("pods watched of (-want +got):\n%s", diff)
	}
	must(t, h.nodes.Delete(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "ip-a"}}))
	h.run(nodeKeyPrefix + "ip-a")
	if got := h.controller.drains.Caches().Followed(); len(got) != 0 {
		t.Errorf("pods watched of %v once the drained node is gone, want none", got)
	}
}
