package nodepods

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

func pod(name, node string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name}, Spec: corev1.PodSpec{NodeName: node}}
}

// changes records the nodes the caches said changed.
type changes struct {
	mu    sync.Mutex
	nodes []string
}

func (c *changes) add(node string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nodes = append(c.nodes, node)
}

func (c *changes) count(node string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, got := range c.nodes {
		if got == node {
			n++
		}
	}
	return n
}

func waitUntil(t *testing.T, what string, done func() bool) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(context.Background(), 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return done(), nil
	}); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// A followed node's pods are cached through the transform, watched by
// spec.nodeName alone, and each change (the first list among them) is
// said; a node no longer followed is not cached, and once stopped nothing
// is followed any more.
func TestCachesFollowNodesAndSayWhenTheirPodsChange(t *testing.T) {
	client := kubefake.NewSimpleClientset(pod("db-a", "worker-a"))
	var selectors []string
	var mu sync.Mutex
	client.PrependReactor("list", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		selectors = append(selectors, a.(clienttesting.ListAction).GetListRestrictions().Fields.String())
		return false, nil, nil
	})
	transform := func(obj any) (any, error) {
		p := obj.(*corev1.Pod).DeepCopy()
		p.Labels = map[string]string{"stripped": "true"}
		return p, nil
	}
	var seen changes
	c := New(client, transform, seen.add)
	defer c.Stop()

	if _, synced, _ := c.Pods("worker-a"); synced {
		t.Fatal("the pods of a node not followed are cached")
	}
	if _, err := c.Follow([]string{"worker-a"}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the pods of worker-a listed and said", func() bool {
		_, synced, _ := c.Pods("worker-a")
		return synced && seen.count("worker-a") >= 2
	})
	pods, _, err := c.Pods("worker-a")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]*corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db-a", Labels: map[string]string{"stripped": "true"}},
		Spec: corev1.PodSpec{NodeName: "worker-a"}}}, pods); diff != "" {
		t.Errorf("cached pods (-want +got):\n%s", diff)
	}
	mu.Lock()
	if diff := cmp.Diff([]string{"spec.nodeName=worker-a"}, selectors); diff != "" {
		t.Errorf("pod lists' field selectors (-want +got):\n%s", diff)
	}
	mu.Unlock()

	before := seen.count("worker-a")
	if _, err := client.CoreV1().Pods("shop").Create(context.Background(), pod("web-a", "worker-a"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "a new pod of worker-a said", func() bool { return seen.count("worker-a") > before })

	cache := c.Cache("worker-a")
	if _, err := c.Follow([]string{"worker-b"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"worker-b"}, c.Followed()); diff != "" {
		t.Errorf("followed (-want +got):\n%s", diff)
	}
	waitUntil(t, "the cache of worker-a stopped", cache.Informer.IsStopped)

	c.Stop()
	if _, err := c.Follow([]string{"worker-a"}); !errors.Is(err, ErrStopped) {
		t.Errorf("Follow once stopped: %v, want %v", err, ErrStopped)
	}
	if got := c.Followed(); len(got) != 0 {
		t.Errorf("followed once stopped: %v", got)
	}
}

// A budget's cache lists and watches its namespace's pods by the budget's
// selector alone, and holds none of another namespace or label.
func TestCachesByBudgetHoldThePodsItsSelectorSelects(t *testing.T) {
	labelled := func(namespace, name, node string, l map[string]string) *corev1.Pod {
		p := pod(name, node)
		p.Namespace, p.Labels = namespace, l
		return p
	}
	client := kubefake.NewSimpleClientset(
		labelled("shop", "db-a", "worker-a", map[string]string{"app": "db"}),
		labelled("shop", "db-b", "worker-b", map[string]string{"app": "db"}),
		labelled("shop", "web-a", "worker-a", map[string]string{"app": "web"}),
		labelled("bank", "db-c", "worker-c", map[string]string{"app": "db"}),
	)
	var requests []string
	var mu sync.Mutex
	client.PrependReactor("list", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		r := a.(clienttesting.ListAction).GetListRestrictions()
		requests = append(requests, a.GetNamespace()+" labels="+r.Labels.String()+" fields="+r.Fields.String())
		return false, nil, nil
	})
	selector, err := metav1.LabelSelectorAsSelector(&metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}})
	if err != nil {
		t.Fatal(err)
	}
	key := BudgetKey("shop", selector)
	var seen changes
	c := NewByBudget(client, nil, seen.add)
	defer c.Stop()
	if _, err := c.Follow([]string{key}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the budget's pods listed and said", func() bool {
		_, synced, _ := c.Pods(key)
		return synced && seen.count(key) >= 1
	})
	pods, _, err := c.Pods(key)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pods {
		names = append(names, p.Namespace+"/"+p.Name)
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"shop/db-a", "shop/db-b"}, names); diff != "" {
		t.Errorf("cached pods (-want +got):\n%s", diff)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"shop labels=app=db fields="}, requests); diff != "" {
		t.Errorf("pod lists (-want +got):\n%s", diff)
	}
}
