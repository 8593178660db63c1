package nodes

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// drainingNode is a worker updating to target, whose drain the
// machine-config daemon asked (machine-config-operator's desiredDrain
// "drain-<config>", lastAppliedDrain still the former uncordon).
func drainingNode() *corev1.Node {
	return testNode("worker-a", mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig, ""), healthy(), true)
}

// shopPod is a ReplicaSet's ready pod of app on worker-a.
func shopPod(name, app string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, Labels: map[string]string{"app": app},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: app + "-7d9", Controller: ptr.To(true)}}},
		Spec: corev1.PodSpec{NodeName: "worker-a"},
		Status: corev1.PodStatus{Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
}

// budget selects app's pods with minAvailable 2, its status as the
// disruption controller writes it (pkg/controller/disruption,
// updatePdbStatus) with allowed disruptions, since when it has allowed none.
func budget(app string, allowed int32, atLimitFor time.Duration) *policyv1.PodDisruptionBudget {
	condition := metav1.Condition{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionTrue, Reason: policyv1.SufficientPodsReason,
		LastTransitionTime: metav1.NewTime(now.Add(-72 * time.Hour))}
	if allowed == 0 {
		condition = metav1.Condition{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse, Reason: policyv1.InsufficientPodsReason,
			LastTransitionTime: metav1.NewTime(now.Add(-atLimitFor))}
	}
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: app, Generation: 1},
		Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr.To(intstr.FromInt32(2)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}},
		Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: allowed, CurrentHealthy: 2 + allowed,
			DesiredHealthy: 2, ExpectedPods: 2 + allowed, Conditions: []metav1.Condition{condition}},
	}
}

// drainingFor is the node's insight as written when it began draining, ago.
func drainingFor(ago time.Duration) *insightsv1alpha1.NodeProgressInsightStatus {
	return &insightsv1alpha1.NodeProgressInsightStatus{Conditions: []metav1.Condition{{
		Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: metav1.ConditionTrue, Reason: insightsv1alpha1.NodeDraining,
		LastTransitionTime: metav1.NewTime(now.Add(-ago)),
	}}}
}

// A draining node names the pods that hold its drain, once the
// machine-config controller's first attempt would have failed, in its
// note, its Updating condition and a health insight each, whose level
// rises to Error once the controller would raise its drain error. What
// does not block is never named.
func TestADrainingNodeNamesWhatHoldsItsDrain(t *testing.T) {
	manyPods := &DrainObjects{Budgets: []*policyv1.PodDisruptionBudget{budget("db", 0, 3*time.Hour)}}
	for i := range 5 {
		manyPods.Pods = append(manyPods.Pods, shopPod(fmt.Sprintf("db-%d", i), "db"))
	}
	for _, tt := range []struct {
		name         string
		node         *corev1.Node
		drain        *DrainObjects
		drainingFor  time.Duration
		note         string
		updating     string
		healthLevels []string
	}{{
		name:         "a budget at its limit for ten minutes",
		node:         drainingNode(),
		drain:        &DrainObjects{Pods: []*corev1.Pod{shopPod("db-0", "db"), shopPod("web-0", "web")}, Budgets: []*policyv1.PodDisruptionBudget{budget("db", 0, 3*time.Hour), budget("web", 1, 0)}},
		drainingFor:  10 * time.Minute,
		note:         "Drain held by pod shop/db-0",
		updating:     "The node is being drained before its update to 4.16.0-ec.3; pod shop/db-0 holds it: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
		healthLevels: []string{"Warning: Pod shop/db-0 holds the drain of node worker-a: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)"},
	}, {
		name:         "past the machine-config controller's drain error",
		node:         drainingNode(),
		drain:        &DrainObjects{Pods: []*corev1.Pod{shopPod("db-0", "db")}, Budgets: []*policyv1.PodDisruptionBudget{budget("db", 0, 3*time.Hour)}},
		drainingFor:  2 * time.Hour,
		note:         "Drain held by pod shop/db-0",
		updating:     "The node is being drained before its update to 4.16.0-ec.3; pod shop/db-0 holds it: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
		healthLevels: []string{"Error: Pod shop/db-0 holds the drain of node worker-a: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)"},
	}, {
		name:        "refused for less than an attempt: not yet a block",
		node:        drainingNode(),
		drain:       &DrainObjects{Pods: []*corev1.Pod{shopPod("db-0", "db")}, Budgets: []*policyv1.PodDisruptionBudget{budget("db", 0, 3*time.Hour)}},
		drainingFor: 30 * time.Second,
		updating:    "The node is being drained before its update to 4.16.0-ec.3",
	}, {
		name:        "five pods: three named, then a count",
		node:        drainingNode(),
		drain:       manyPods,
		drainingFor: 10 * time.Minute,
		note:        "Drain held by pod shop/db-0 and 4 more",
		updating:    "The node is being drained before its update to 4.16.0-ec.3; pod shop/db-0 holds it: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed); so do pods shop/db-1, shop/db-2 and 2 more",
		healthLevels: []string{
			"Warning: Pod shop/db-0 holds the drain of node worker-a: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
			"Warning: Pod shop/db-1 holds the drain of node worker-a: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
			"Warning: Pod shop/db-2 holds the drain of node worker-a: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
			"Warning: Pod shop/db-3 holds the drain of node worker-a: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
			"Warning: Pod shop/db-4 holds the drain of node worker-a: PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
		},
	}, {
		name:        "its pods not cached yet",
		node:        drainingNode(),
		drainingFor: 10 * time.Minute,
		updating:    "The node is being drained before its update to 4.16.0-ec.3",
	}, {
		name:        "updating, no drain asked: a budget at its limit holds nothing yet",
		node:        testNode("worker-a", mcd(oldConfig, newConfig, "Done", "uncordon-"+oldConfig, "uncordon-"+oldConfig, ""), healthy(), false),
		drain:       &DrainObjects{Pods: []*corev1.Pod{shopPod("db-0", "db")}, Budgets: []*policyv1.PodDisruptionBudget{budget("db", 0, 3*time.Hour)}},
		drainingFor: 10 * time.Minute,
		updating:    "The node is being drained before its update to 4.16.0-ec.3",
	}} {
		t.Run(tt.name, func(t *testing.T) {
			a, insights, _ := Assess(Input{Node: tt.node, Pool: testPool("worker", false), Versions: versions, Target: target,
				Previous: drainingFor(tt.drainingFor), Drain: tt.drain, Now: now})
			updating := meta.FindStatusCondition(a.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
			var levels []string
			for _, i := range insights {
				if len(i.Problem) > len(health.DrainBlockedPrefix) && i.Problem[:len(health.DrainBlockedPrefix)] == health.DrainBlockedPrefix {
					levels = append(levels, string(i.Status.Impact.Level)+": "+i.Status.Impact.Summary)
				}
			}
			got := []any{a.Status.Message, updating.Message, levels}
			if diff := cmp.Diff([]any{tt.note, tt.updating, tt.healthLevels}, got); diff != "" {
				t.Errorf("note, Updating's message and drain health insights (-want +got):\n%s", diff)
			}
		})
	}
}
