package node

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"
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
			d := newDrains(kubefake.NewClientset(),
				policylisters.NewPodDisruptionBudgetLister(cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})), func(any) {})
			t.Cleanup(d.stop)
			d.objects(drainNode("worker-0", "drain-rendered-worker-new", "uncordon-rendered-worker-old"))
			d.objects(drainNode("worker-1", "drain-rendered-worker-new", "uncordon-rendered-worker-old"))
			// Drained, and so no longer followed.
			d.objects(drainNode("worker-1", "drain-rendered-worker-new", "drain-rendered-worker-new"))
			d.objects(drainNode("worker-2", "uncordon-rendered-worker-old", "uncordon-rendered-worker-old"))

			var queued []string
			tc.event(d.budgetHandler(func(key any) { queued = append(queued, key.(string)) }))
			slices.Sort(queued)
			if diff := cmp.Diff([]string{nodeKeyPrefix + "worker-0"}, queued); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
		})
	}
}

func drainNode(name, desiredDrain, lastAppliedDrain string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{
		nodes.DesiredDrainAnnotation:     desiredDrain,
		nodes.LastAppliedDrainAnnotation: lastAppliedDrain,
	}}}
}
