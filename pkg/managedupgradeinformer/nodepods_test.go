package managedupgradeinformer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/listwatch"
	"github.com/update-insights/update-insights-operator/pkg/managedupgrade"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// A budget allowing no disruption of the db pods of namespace shop.
var dbBudget = &policyv1.PodDisruptionBudget{
	ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db"},
	Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}},
}

func shopPod(name, app, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, Labels: map[string]string{"app": app}},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "app", Image: "shop:1"}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1"},
	}
}

// drainSetup is an update upgrading, worker-a drained and worker-b not, a
// db pod, which the budget holds, on each, and a web pod on worker-a.
func drainSetup() setup {
	return setup{synced: true, cachesSynced: true,
		upgradeConfigs: []*upgradev1alpha1.UpgradeConfig{upgrading()},
		nodes:          []*corev1.Node{drainedNode("worker-a", 30*time.Minute), {ObjectMeta: metav1.ObjectMeta{Name: "worker-b"}}},
		budgets:        []*policyv1.PodDisruptionBudget{dbBudget},
		objects:        []runtime.Object{shopPod("db-a", "db", "worker-a"), shopPod("web-a", "web", "worker-a"), shopPod("db-b", "db", "worker-b")},
	}
}

// cachedNodes are the nodes whose pods are cached.
func (f fixture) cachedNodes() []string {
	return f.informer.drainedPods.Followed()
}

// nodeCache is the cache of node's pods, nil without one.
func (f fixture) nodeCache(node string) *listwatch.Watched {
	return f.informer.drainedPods.Cache(node)
}

// podRequests are the pod requests made, with their field selectors.
func (f fixture) podRequests() []string {
	var out []string
	for _, a := range f.client.Actions() {
		switch a := a.(type) {
		case clienttesting.ListAction:
			if a.GetResource().Resource == "pods" {
				out = append(out, "list "+a.GetListRestrictions().Fields.String())
			}
		case clienttesting.WatchAction:
			if a.GetResource().Resource == "pods" {
				out = append(out, "watch "+a.GetWatchRestrictions().Fields.String())
			}
		default:
			if a.GetResource().Resource == "pods" {
				out = append(out, a.GetVerb())
			}
		}
	}
	return out
}

// drainsReported are the nodes of the answer's forced drains.
func drainsReported(t *testing.T, f fixture) []string {
	t.Helper()
	got, err := f.status(t)
	if err != nil {
		t.Fatal(err)
	}
	if got.Response != protocol.ResponseSuccess {
		t.Fatalf("answer %+v, want Success", got)
	}
	var nodes []string
	for _, i := range got.Insights {
		if node, ok := strings.CutPrefix(i, "warning Application Availability: Node "); ok {
			nodes = append(nodes, strings.SplitN(node, ":", 2)[0])
		}
	}
	return nodes
}

// TestDrainedNodePodsAreCached: a call that sees a node drained caches its
// pods, and only its, watched by spec.nodeName; later calls read the cache
// with no request, and only what the drains read is kept of each pod.
func TestDrainedNodePodsAreCached(t *testing.T) {
	f := newFixture(t, drainSetup())
	if got := drainsReported(t, f); !slices.Equal(got, []string{"worker-a"}) {
		t.Fatalf("drains held on %v, want worker-a", got)
	}
	if got := f.cachedNodes(); !slices.Equal(got, []string{"worker-a"}) {
		t.Errorf("pods cached of nodes %v, want worker-a's alone", got)
	}
	want := []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db-a", Labels: map[string]string{"app": "db"}},
			Spec: corev1.PodSpec{NodeName: "worker-a"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-a", Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{NodeName: "worker-a"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
	}
	var cached []*corev1.Pod
	for _, o := range f.nodeCache("worker-a").Informer.GetStore().List() {
		cached = append(cached, o.(*corev1.Pod))
	}
	slices.SortFunc(cached, func(a, b *corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
	if diff := cmp.Diff(want, cached); diff != "" {
		t.Errorf("cached pods (-want +got):\n%s", diff)
	}

	wantRequests := []string{"list spec.nodeName=worker-a", "watch spec.nodeName=worker-a"}
	waitUntil(t, "the pods of worker-a watched", func() bool { return len(f.podRequests()) == len(wantRequests) })
	for range 3 {
		drainsReported(t, f)
	}
	if diff := cmp.Diff(wantRequests, f.podRequests()); diff != "" {
		t.Errorf("pod requests (-want +got):\n%s", diff)
	}
}

// TestNodePodCachesFollowTheDrains: a node's cache stops once a call no
// longer sees it drained, once no update drains nodes, and when the
// informer stops.
func TestNodePodCachesFollowTheDrains(t *testing.T) {
	f := newFixture(t, drainSetup())
	drainsReported(t, f)
	cacheA := f.nodeCache("worker-a")

	// worker-a uncordoned, worker-b drained: worker-b's pods are cached
	// instead.
	if err := f.nodes.Update(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "worker-a"}}); err != nil {
		t.Fatal(err)
	}
	if err := f.nodes.Update(drainedNode("worker-b", 10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := drainsReported(t, f); !slices.Equal(got, []string{"worker-b"}) {
		t.Errorf("drains held on %v, want worker-b", got)
	}
	if got := f.cachedNodes(); !slices.Equal(got, []string{"worker-b"}) {
		t.Errorf("pods cached of nodes %v, want worker-b's alone", got)
	}
	waitUntil(t, "worker-a's cache stopped", cacheA.Informer.IsStopped)
	cacheB := f.nodeCache("worker-b")

	// The update upgraded: no update drains nodes.
	upgraded := upgrading()
	upgraded.Status.History[0].Phase = upgradev1alpha1.PhaseUpgraded
	upgraded.Status.History[0].CompleteTime = ptr.To(metav1.NewTime(now))
	if err := f.upgradeConfigs.Update(upgraded); err != nil {
		t.Fatal(err)
	}
	if _, err := f.status(t); err != nil {
		t.Fatal(err)
	}
	if got := f.cachedNodes(); len(got) != 0 {
		t.Errorf("pods cached of nodes %v once no update drains nodes, want none", got)
	}
	waitUntil(t, "worker-b's cache stopped", cacheB.Informer.IsStopped)

	// Upgrading again, until the informer stops.
	if err := f.upgradeConfigs.Update(upgrading()); err != nil {
		t.Fatal(err)
	}
	drainsReported(t, f)
	cacheB = f.nodeCache("worker-b")
	f.stop()
	if !cacheB.Informer.IsStopped() {
		t.Error("worker-b's cache runs after the informer stopped")
	}
	if _, err := f.status(t); err == nil || err.Error() != "the informer is stopping" {
		t.Errorf("a call once the informer stopped: error %v, want the informer is stopping", err)
	}
}

// TestNodePodCacheNotSyncedInTime: a call waits for a new cache for half
// its budget, then answers Wait; or the error of the cache's list.
func TestNodePodCacheNotSyncedInTime(t *testing.T) {
	for _, tc := range []struct {
		name    string
		listErr error
		want    answer
		wantErr string
	}{
		{name: "the list is slow", want: answer{Response: protocol.ResponseWait, Message: "the pods of node worker-a are not cached yet"}},
		{name: "the list fails", listErr: errors.New("pods is forbidden"),
			wantErr: "listing the pods of node worker-a: failed to list *v1.Pod: pods is forbidden"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, drainSetup())
			release := make(chan struct{})
			f.client.PrependReactor("list", "pods", func(clienttesting.Action) (bool, runtime.Object, error) {
				if tc.listErr != nil {
					return true, nil, tc.listErr
				}
				<-release
				return true, &corev1.PodList{}, nil
			})
			// Run last, before the informer stops.
			t.Cleanup(func() { close(release) })

			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			start := time.Now()
			got, err := f.statusWithin(t, ctx)
			if took := time.Since(start); ctx.Err() != nil {
				t.Errorf("the call took %s, its whole budget: its answer came too late", took)
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Errorf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

// A pod stripped for the cache says of a drain what the whole pod says:
// what the drain model reads (drain.Strip) and the owners the Managed
// Upgrade Operator reads stay.
func TestAStrippedPodDrainsAsTheWholePod(t *testing.T) {
	node := drainedNode("worker-a", 30*time.Minute)
	budgets := []*policyv1.PodDisruptionBudget{
		{
			ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db", Generation: 1},
			Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}},
			Status:     policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "cache", Generation: 1},
			Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "cache"}}},
			Status:     policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: 1, CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3},
		},
	}
	owner := func(kind string, controller bool) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: "x", UID: types.UID(kind), Controller: ptr.To(controller)}
	}
	ready := []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}, {Type: corev1.ContainersReady, Status: corev1.ConditionTrue}}
	var pods []*corev1.Pod
	for i, owners := range [][]metav1.OwnerReference{
		nil,
		{owner("ReplicaSet", true)},
		{owner("DaemonSet", true)},
		{owner("ReplicaSet", true), owner("DaemonSet", false)},
		{owner("ConfigMap", false), owner("StatefulSet", true)},
	} {
		pods = append(pods, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: fmt.Sprintf("db-%d", i), Labels: map[string]string{"app": "db"}, OwnerReferences: owners,
				Annotations: map[string]string{"big": strings.Repeat("x", 1024)}},
			Spec:   corev1.PodSpec{NodeName: "worker-a", Containers: []corev1.Container{{Name: "db", Image: "db"}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: ready},
		})
	}
	variant := func(name string, labels map[string]string, change func(*corev1.Pod)) {
		p := pods[1].DeepCopy()
		p.Name, p.Labels = name, labels
		change(p)
		pods = append(pods, p)
	}
	db, both := map[string]string{"app": "db"}, map[string]string{"app": "db", "tier": "cache"}
	variant("not-ready", db, func(p *corev1.Pod) { p.Status.Conditions = nil })
	variant("pending", db, func(p *corev1.Pod) { p.Status.Phase = corev1.PodPending })
	variant("done", db, func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded })
	variant("deleted", db, func(p *corev1.Pod) {
		p.DeletionTimestamp, p.DeletionGracePeriodSeconds, p.Finalizers = ptr.To(metav1.NewTime(now)), ptr.To(int64(30)), []string{"example.com/hold"}
	})
	variant("two-budgets", both, func(*corev1.Pod) {})
	variant("scratch", db, func(p *corev1.Pod) {
		p.Spec.Volumes = []corev1.Volume{{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	})
	variant("static", db, func(p *corev1.Pod) {
		p.OwnerReferences = nil
		p.Annotations[corev1.MirrorPodAnnotationKey] = "hash"
	})
	var stripped []*corev1.Pod
	for _, p := range pods {
		s, err := stripPod(p)
		if err != nil {
			t.Fatal(err)
		}
		stripped = append(stripped, s.(*corev1.Pod))
	}
	whole := managedupgrade.Drains([]*corev1.Node{node}, pods, budgets, now)
	if len(whole) != 1 || len(whole[0].Blocking) < 3 {
		t.Fatalf("the whole pods block too little to tell a stripped pod from a whole one: %+v", whole)
	}
	if diff := cmp.Diff(whole, managedupgrade.Drains([]*corev1.Node{node}, stripped, budgets, now)); diff != "" {
		t.Errorf("drains of the stripped pods differ (-whole +stripped):\n%s", diff)
	}
	if got := stripped[0]; got.Annotations["big"] != "" || len(got.Spec.Containers) > 0 {
		t.Errorf("a stripped pod keeps what no drain reads: %+v", got)
	}
}
