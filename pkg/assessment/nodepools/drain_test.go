package nodepools

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// webPod is a ready pod of a ReplicaSet on node, labelled app=web, as the
// ReplicaSet controller and the kubelet write it.
func webPod(name, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, Labels: map[string]string{"app": "web"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d9c", UID: "uid-web", Controller: ptr.To(true)}}},
		Spec: corev1.PodSpec{NodeName: node},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
}

// upgradePod is the in-place upgrader's bare machine-config daemon pod of
// node (inplaceupgrader.go inPlaceUpgradePod), labelled so that the
// budget selects it too.
func upgradePod(node string) *corev1.Pod {
	p := webPod("machine-config-daemon-"+node, node)
	p.Namespace, p.OwnerReferences = "shop", nil
	return p
}

// webBudgetAtLimit is a minAvailable 2 budget of app=web with its 2 pods
// healthy, as the disruption controller writes it, at its limit for an hour.
func webBudgetAtLimit() *policyv1.PodDisruptionBudget {
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", Generation: 1},
		Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr.To(intstr.FromInt32(2)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2,
			Conditions: []metav1.Condition{{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse,
				Reason: policyv1.InsufficientPodsReason, ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))}}},
	}
}

// updatingSince is a node's previous insight, updating since d ago.
func updatingSince(d time.Duration) func(string) *insightsv1alpha1.NodeProgressInsightStatus {
	return func(string) *insightsv1alpha1.NodeProgressInsightStatus {
		return &insightsv1alpha1.NodeProgressInsightStatus{Conditions: []metav1.Condition{
			{Type: "Updating", Status: metav1.ConditionTrue, Reason: "Draining", LastTransitionTime: metav1.NewTime(now.Add(-d))}}}
	}
}

// A node the HyperShift drainer drains names the pod and budget that hold
// its drain once the drainer's first attempt has timed out, in its Updating
// condition and its message, and the block is a Warning health insight
// with the pod's reason and remedy; the node's own upgrade pod, which the
// drainer skips, holds nothing.
func TestAssessNamesWhatHoldsAnInPlaceDrain(t *testing.T) {
	drains := map[string]*nodes.DrainObjects{"ip-a": {
		Pods:    []*corev1.Pod{webPod("web-1", "ip-a"), upgradePod("ip-a"), webPod("web-2", "ip-b")},
		Budgets: []*policyv1.PodDisruptionBudget{webBudgetAtLimit()},
	}}
	members := func() []*corev1.Node {
		return []*corev1.Node{cordoned(node("ip-a", "ip", kubeletOld, draining(oldHash, newHash))), node("ip-b", "ip", kubeletOld, atRest(oldHash))}
	}
	const why = "PodDisruptionBudget shop/web allows no disruption (2 of 2 expected pods healthy, 2 needed)"
	for _, tc := range []struct {
		name            string
		updating        time.Duration
		condition, note string
		insights        []string
		next            time.Time
	}{
		{name: "within the first attempt", updating: 30 * time.Second,
			condition: "The node is being drained before its in-place update",
			note:      "kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6",
			next:      now.Add(time.Minute)},
		{name: "past the first attempt", updating: 10 * time.Minute,
			condition: "The node is being drained before its in-place update; pod shop/web-1 holds it: " + why,
			note:      "Drain held by pod shop/web-1; kubelet v1.30.10+5f9c2b1, 1 minor release behind the control plane's 1.31.6",
			insights:  []string{"Warning DrainBlockedBudgetAtLimit Pod shop/web-1 holds the drain of node ip-a: " + why},
			next:      now.Add(time.Minute)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Assess(Input{NodePool: "ip", ControlPlane: controlPlane, Now: now, Nodes: members(), Drains: drains, PreviousNode: updatingSince(tc.updating)})
			a := r.Nodes[0]
			var insights []string
			for _, i := range a.Health {
				insights = append(insights, string(i.Status.Impact.Level)+" "+i.Problem+" "+i.Status.Impact.Summary)
				if d := i.Status.Impact.Description; !strings.Contains(d, "Scale ReplicaSet/web-7d9c up") || !strings.HasSuffix(d, health.HyperShiftDrainer.Meanwhile) {
					t.Errorf("description %q lacks the remedy or what the HyperShift drainer does", d)
				}
			}
			got := []any{findCondition(a.Status.Conditions, "Updating").Message, a.Status.Message, insights}
			if diff := cmp.Diff([]any{tc.condition, tc.note, tc.insights}, got); diff != "" {
				t.Errorf("Updating message, node message, health (-want +got):\n%s", diff)
			}
		})
	}

	// The block's Warning comes when the first attempt would have timed
	// out: the node is looked at again then.
	r := Assess(Input{NodePool: "ip", ControlPlane: controlPlane, Now: now, Nodes: members(), Drains: drains, PreviousNode: updatingSince(80 * time.Second)})
	if want := now.Add(10 * time.Second); !r.Next.Equal(want) {
		t.Errorf("Next = %s, want %s, when the drainer's first attempt times out", r.Next, want)
	}
}

// A Replace NodePool's node is drained by cluster-api's Machine deletion,
// whose drain is not the HyperShift drainer's: what holds it is not named.
func TestAssessDoesNotNameWhatHoldsAReplacedNode(t *testing.T) {
	old := cordoned(outdatedRevision(node("np1-old", "np1", kubeletOld, nil)))
	r := Assess(Input{NodePool: "np1", ControlPlane: controlPlane, Now: now, PreviousNode: updatingSince(time.Hour),
		Nodes:  []*corev1.Node{old, node("np1-new", "np1", kubeletNew, nil)},
		Drains: map[string]*nodes.DrainObjects{"np1-old": {Pods: []*corev1.Pod{webPod("web-1", "np1-old")}, Budgets: []*policyv1.PodDisruptionBudget{webBudgetAtLimit()}}}})
	for _, n := range r.Nodes {
		if n.Status.Name != "np1-old" {
			continue
		}
		if c := findCondition(n.Status.Conditions, "Updating"); c.Reason != "Draining" || strings.Contains(c.Message, "web-1") || strings.Contains(n.Status.Message, "web-1") || len(n.Health) > 0 {
			t.Errorf("replaced node: Updating %s %q, message %q, %d health insights; want Draining, no pod named, no insight", c.Reason, c.Message, n.Status.Message, len(n.Health))
		}
	}
}

func findCondition(conditions []metav1.Condition, t string) metav1.Condition {
	for _, c := range conditions {
		if c.Type == t {
			return c
		}
	}
	return metav1.Condition{}
}
