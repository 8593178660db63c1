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
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	"github.com/openshift/library-go/pkg/controller/factory"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/drains"
	"github.com/update-insights/update-insights-operator/pkg/nodepods"
)

// A node the machine-config controller drains has its pods watched; once
// a pod's budget has held the drain past the controller's first attempt,
// the node's note names it and a health insight says why, and once the
// drain is done the pods are no longer watched and the insight goes.
func TestAHeldDrainIsNamedAndClearsWhenTheDrainEnds(t *testing.T) {
	d := startDrain(t, true)
	// The recording drains a dozen other workers: their pods are watched
	// too, and those waiting to be scheduled ("").
	if followed := d.h.controller.drains.Caches().Followed(); !slices.Contains(followed, heldNode) || !slices.Contains(followed, drains.Unscheduled) {
		t.Errorf("pods watched of %q, want %s's and the unscheduled", followed, heldNode)
	}

	note, held := d.step(30*time.Second, d.draining)
	if note != "" || len(held) != 0 {
		t.Errorf("30s into the drain: note %q, health insights %v; want neither before the controller's first attempt failed", note, held)
	}
	note, held = d.step(10*time.Minute, d.draining)
	want := []string{"Warning: Pod shop/db-0 holds the drain of node " + heldNode + ": PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)"}
	if diff := cmp.Diff([]any{"Drain held by pod shop/db-0", want}, []any{note, held}); diff != "" {
		t.Errorf("10m into the drain: note and health insights (-want +got):\n%s", diff)
	}

	note, held = d.step(20*time.Minute, d.drained)
	if note != "" || len(held) != 0 || slices.Contains(d.h.controller.drains.Caches().Followed(), heldNode) {
		t.Errorf("drained: note %q, health insights %v, pods watched of %v; want none", note, held, d.h.controller.drains.Caches().Followed())
	}
}

// A budget at its limit because its pod on another node is not ready
// names that pod: the controller watches the pods the budget selects,
// wherever they run, while the budget may refuse the drain's eviction,
// and no longer once the drain is done.
func TestAHeldDrainNamesTheBudgetsPodNotReadyOnAnotherNode(t *testing.T) {
	d := startDrain(t, false)
	key := nodepods.BudgetKey("shop", labels.SelectorFromSet(labels.Set{"app": "db"}))
	d.step(10*time.Minute, d.draining)
	peer := "pod db-1 on node " + otherNode + ", not ready since " + d.now.Add(-time.Hour).UTC().Format(time.RFC3339)
	var descriptions []string
	for _, i := range d.h.healthInsights() {
		if strings.HasPrefix(i.Status.Impact.Summary, "Pod shop/db-0 holds the drain") {
			descriptions = append(descriptions, i.Status.Impact.Description)
		}
	}
	for _, want := range []string{
		"PodDisruptionBudget shop/db allows no disruption (1 of 2 expected pods healthy, 2 needed): it waits for " + peer + ".",
		"Find why the pods it waits for are not ready (" + peer + ": their events and readiness probes say), scale StatefulSet/db up",
	} {
		if len(descriptions) != 1 || !strings.Contains(descriptions[0], want) {
			t.Errorf("10m into the drain: the held drain's descriptions %q, want one that says %q", descriptions, want)
		}
	}
	if diff := cmp.Diff([]string{key}, d.h.controller.drains.BudgetCaches().Followed()); diff != "" {
		t.Errorf("budgets whose pods are watched (-want +got):\n%s", diff)
	}

	d.step(20*time.Minute, d.drained)
	if got := d.h.controller.drains.BudgetCaches().Followed(); slices.Contains(got, key) {
		t.Errorf("drained: pods of budgets still watched: %v", got)
	}
}

const (
	heldNode  = "build0-gstfj-ci-tests-worker-c-2c4vg"
	otherNode = "build0-gstfj-ci-tests-worker-c-other"
)

// drainTest is the recorded cluster's node heldNode, asked to drain, with
// pod shop/db-0 on it and shop/db-1 on otherNode, whose budget shop/db
// allows no disruption.
type drainTest struct {
	t                 *testing.T
	h                 *harness
	now               time.Time
	node              *corev1.Node
	draining, drained map[string]string
}

// startDrain starts the drain of heldNode, its pods cached; db-1 is ready
// or not ready for an hour, as the budget counts it.
func startDrain(t *testing.T, otherReady bool) *drainTest {
	c, now := loadRecorded(t)
	h := newHarness(t, c, now)
	h.run(factory.DefaultQueueKey)

	const (
		oldConfig = "rendered-worker-6b0cfe9b92e34c641ac59510e408b311"
		newConfig = "rendered-worker-55c03f1f59ad9bd3b224c96a3618ce1d"
	)
	ctx := context.Background()
	db := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db-0", UID: "db-0", Labels: map[string]string{"app": "db"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db", Controller: ptr.To(true)}}},
		Spec:   corev1.PodSpec{NodeName: heldNode},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
	elsewhere := db.DeepCopy()
	elsewhere.Name, elsewhere.UID, elsewhere.Spec.NodeName = "db-1", "db-1", otherNode
	healthy := int32(2)
	if !otherReady {
		elsewhere.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))}}
		healthy = 1
	}
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
		Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, CurrentHealthy: healthy, DesiredHealthy: 2, ExpectedPods: 2,
			Conditions: []metav1.Condition{{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse, Reason: policyv1.InsufficientPodsReason,
				LastTransitionTime: metav1.NewTime(now.Add(-24 * time.Hour))}}},
	}))

	obj, _, err := h.nodes.GetByKey(heldNode)
	must(t, err)
	d := &drainTest{t: t, h: h, now: now, node: obj.(*corev1.Node).DeepCopy(),
		draining: mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig),
		drained:  mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "drain-"+newConfig),
	}
	d.step(0, d.draining)
	if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		_, synced, _ := h.controller.drains.Caches().Pods(heldNode)
		_, pendingSynced, _ := h.controller.drains.Caches().Pods(drains.Unscheduled)
		return synced && pendingSynced, nil
	}); err != nil {
		t.Fatalf("the drained node's pods were not cached: %v", err)
	}
	// The budget is seen to hold the node's pod once they are cached,
	// which queues the node; its pods are cached next.
	d.step(time.Second, d.draining)
	key := nodepods.BudgetKey("shop", labels.SelectorFromSet(labels.Set{"app": "db"}))
	if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		_, synced, _ := h.controller.drains.BudgetCaches().Pods(key)
		return synced, nil
	}); err != nil {
		t.Fatalf("the budget's pods were not cached: %v", err)
	}
	return d
}

// step sets the clock after the start and the node's annotations, syncs
// the node, and returns its note and the drains' health insights.
func (d *drainTest) step(after time.Duration, annotations map[string]string) (string, []string) {
	d.t.Helper()
	d.h.clock.SetTime(d.now.Add(after))
	for k, v := range annotations {
		d.node.Annotations[k] = v
	}
	d.h.updateNode(d.node)
	d.h.run(nodeKeyPrefix + heldNode)
	s := d.h.nodeStatus(heldNode)
	var held []string
	for _, i := range d.h.healthInsights() {
		if strings.HasPrefix(i.Status.Impact.Summary, "Pod ") {
			held = append(held, string(i.Status.Impact.Level)+": "+i.Status.Impact.Summary)
		}
	}
	return s.Message, held
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
