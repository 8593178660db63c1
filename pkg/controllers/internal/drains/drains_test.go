package drains

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"
	appslisters "k8s.io/client-go/listers/apps/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// A budget's every event queues the nodes being drained, and only those: a
// budget that starts or stops allowing a disruption changes what holds
// their drains, and no event of their pods says so. (In the integration
// test a budget's change is too soon after the drain's start to tell its
// event from the pods' cache saying it has listed them.)
func TestABudgetEventQueuesTheDrainedNodes(t *testing.T) {
	budget := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web"}}
	allowing := budget.DeepCopy()
	allowing.Status.DisruptionsAllowed = 1
	testCases := []struct {
		name  string
		event func(cache.ResourceEventHandler)
	}{
		{"added", func(h cache.ResourceEventHandler) { h.OnAdd(budget, false) }},
		{"its status changed", func(h cache.ResourceEventHandler) { h.OnUpdate(budget, allowing) }},
		{"deleted", func(h cache.ResourceEventHandler) { h.OnDelete(budget) }},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			d := drainsFollowingWorker0(t)
			var queued []string
			tc.event(d.BudgetHandler(func(key any) { queued = append(queued, key.(string)) }))
			slices.Sort(queued)
			if diff := cmp.Diff([]string{NodeKeyPrefix + "worker-0"}, queued); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
		})
	}
}

// A DaemonSet that comes or goes queues the nodes being drained, and only
// those: its pods are then skipped, or evicted as orphans under their
// budgets. A change within a DaemonSet queues none.
func TestADaemonSetThatComesOrGoesQueuesTheDrainedNodes(t *testing.T) {
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: "openshift-monitoring", Name: "node-exporter", ResourceVersion: "1"}}
	changed := ds.DeepCopy()
	changed.ResourceVersion = "2"
	for _, tc := range []struct {
		name  string
		event func(cache.ResourceEventHandler)
		want  []string
	}{
		{"added", func(h cache.ResourceEventHandler) { h.OnAdd(ds, false) }, []string{NodeKeyPrefix + "worker-0"}},
		{"changed", func(h cache.ResourceEventHandler) { h.OnUpdate(ds, changed) }, nil},
		{"deleted", func(h cache.ResourceEventHandler) { h.OnDelete(ds) }, []string{NodeKeyPrefix + "worker-0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := drainsFollowingWorker0(t)
			var queued []string
			tc.event(d.DaemonSetHandler(func(key any) { queued = append(queued, key.(string)) }))
			if diff := cmp.Diff(tc.want, queued); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
		})
	}
}

// drainsFollowingWorker0 are drains that follow worker-0, which drains, and
// not worker-1, drained, nor worker-2, which is not asked to drain.
func drainsFollowingWorker0(t *testing.T) *Drains {
	t.Helper()
	d := New(kubefake.NewClientset(),
		policylisters.NewPodDisruptionBudgetLister(cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})),
		appslisters.NewDaemonSetLister(cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})), func(any) {})
	t.Cleanup(d.Stop)
	d.Objects(drainNode("worker-0", "drain-rendered-worker-new", "uncordon-rendered-worker-old"))
	d.Objects(drainNode("worker-1", "drain-rendered-worker-new", "uncordon-rendered-worker-old"))
	// Drained, and so no longer followed.
	d.Objects(drainNode("worker-1", "drain-rendered-worker-new", "drain-rendered-worker-new"))
	d.Objects(drainNode("worker-2", "uncordon-rendered-worker-old", "uncordon-rendered-worker-old"))
	return d
}

func drainNode(name, desiredDrain, lastAppliedDrain string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{
		nodes.DesiredDrainAnnotation:     desiredDrain,
		nodes.LastAppliedDrainAnnotation: lastAppliedDrain,
	}}}
}
