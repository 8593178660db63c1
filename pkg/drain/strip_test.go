package drain

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A cache of stripped pods judges a drain as the whole pods do, whatever
// holds them; its pods keep nothing Node does not read.
func TestAStrippedPodDrainsAsTheWholePod(t *testing.T) {
	turned := started.Add(5 * time.Minute)
	pods := []*corev1.Pod{
		pod("web-1"), pod("web-2", notReady), pod("ds", controlledBy("DaemonSet", "node-exporter")), pod("static", mirror),
		pod("scratch", emptyDir), pod("lone", bare), pod("done", phase(corev1.PodSucceeded)),
		pod("leaving", deletedAt(now.Add(time.Minute), 600)), pod("held", deletedAt(started, 0), finalizers("example.com/backup")),
		pod("db-0", labelled("app", "db")),
	}
	pending := []*corev1.Pod{unschedulablePod("db-1", labelled("app", "db"))}
	budgets := []*policyv1.PodDisruptionBudget{
		budget("web", 2, 2, 3, turned),
		budget("db", 1, 1, 2, turned, selecting(&metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}})),
	}
	strip := func(pods []*corev1.Pod) []*corev1.Pod {
		var out []*corev1.Pod
		for _, p := range pods {
			s, err := Strip(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s.(*corev1.Pod))
		}
		return out
	}
	for _, node := range []*corev1.Node{readyNode(), silentNode()} {
		whole := Node(Input{Node: node, Pods: pods, Pending: pending, Budgets: budgets, Policy: MCO, Started: started, Now: now})
		stripped := Node(Input{Node: node, Pods: strip(pods), Pending: strip(pending), Budgets: budgets, Policy: MCO, Started: started, Now: now})
		reasons := map[Reason]bool{}
		for _, p := range whole {
			reasons[p.Reason] = true
		}
		if len(reasons) < 5 {
			t.Fatalf("the pods are judged for only %d reasons, too few to tell a stripped pod from a whole one: %v", len(reasons), reasons)
		}
		if diff := cmp.Diff(whole, stripped); diff != "" {
			t.Errorf("stripped pods on %s judged otherwise (-whole +stripped):\n%s", node.Status.Conditions[0].Reason, diff)
		}
	}
	if got, _ := Strip(pod("web-1")); got.(*corev1.Pod).Spec.TerminationGracePeriodSeconds != nil {
		t.Error("a stripped pod keeps its spec's grace period, which Node does not read")
	}
}
