package drain

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
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
		pod("db-0", labelled("app", "db")), pod("orphan", controlledBy("DaemonSet", "retired-exporter")),
	}
	exists := func(_, name string) bool { return name == "node-exporter" }
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
		whole := Node(Input{Node: node, Pods: pods, Pending: pending, Budgets: budgets, Policy: MCO, DaemonSetExists: exists, Started: started, Now: now})
		stripped := Node(Input{Node: node, Pods: strip(pods), Pending: strip(pending), Budgets: budgets, Policy: MCO, DaemonSetExists: exists, Started: started, Now: now})
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

// A cache of stripped DaemonSets keeps only what says a DaemonSet exists.
func TestAStrippedDaemonSetKeepsItsIdentity(t *testing.T) {
	whole := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-monitoring", Name: "node-exporter", UID: "uid-ds", ResourceVersion: "42",
			Labels: map[string]string{"app.kubernetes.io/name": "node-exporter"}, Generation: 3},
		Spec:   appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "node-exporter", Image: "quay.io/prometheus/node-exporter"}}}}},
		Status: appsv1.DaemonSetStatus{DesiredNumberScheduled: 6, NumberReady: 6},
	}
	got, err := Strip(whole)
	if err != nil {
		t.Fatal(err)
	}
	want := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-monitoring", Name: "node-exporter", UID: "uid-ds", ResourceVersion: "42"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
