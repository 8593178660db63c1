package hostedclusters

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

var now = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

type harness struct {
	t            *testing.T
	c            *Controller
	client       *fake.Clientset
	caches       caches
	hcpis, nppis cache.Indexer
}

// newHarness is the controller with caches holding objects, by their
// pkg/hypershift type, indexed as the informers index them.
func newHarness(t *testing.T, objects ...any) *harness {
	// As an informer's, which indexes by namespace too.
	indexer := func(r int) cache.Indexer {
		indexers := cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
		for name, f := range resources[r].indexers {
			indexers[name] = f
		}
		return cache.NewIndexer(cache.MetaNamespaceKeyFunc, indexers)
	}
	h := &harness{
		t:      t,
		client: fake.NewSimpleClientset(),
		caches: caches{hostedClusters: indexer(0), nodePools: indexer(1), components: indexer(2), machines: indexer(3), machineSets: indexer(4), machineDeployments: indexer(5)},
		hcpis:  cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}),
		nppis:  cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}),
	}
	clock := clocktesting.NewFakePassiveClock(now)
	h.c = &Controller{
		caches:          h.caches,
		clusterInsights: insightslisters.NewHostedClusterProgressInsightLister(h.hcpis),
		poolInsights:    insightslisters.NewNodePoolProgressInsightLister(h.nppis),
		client:          h.client.InsightsV1alpha1(),
		tracker:         tracker.New(clock, nil),
		clock:           clock,
	}
	for _, o := range objects {
		h.put(o)
	}
	return h
}

func (h *harness) cacheOf(obj any) cache.Indexer {
	switch o := obj.(type) {
	case *hypershift.HostedCluster:
		return h.caches.hostedClusters
	case *hypershift.NodePool:
		return h.caches.nodePools
	case *hypershift.ControlPlaneComponent:
		return h.caches.components
	case *hypershift.Machine:
		return h.caches.machines
	case *hypershift.MachineSet:
		return h.caches.machineSets
	case *hypershift.MachineDeployment:
		return h.caches.machineDeployments
	case *hypershift.Malformed:
		return map[string]cache.Indexer{"HostedCluster": h.caches.hostedClusters, "NodePool": h.caches.nodePools, "Machine": h.caches.machines}[o.Kind]
	}
	h.t.Fatalf("no cache of %T", obj)
	return nil
}

func (h *harness) put(obj any) {
	h.t.Helper()
	c := h.cacheOf(obj)
	if err := c.Update(obj); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) remove(obj any) {
	h.t.Helper()
	if err := h.cacheOf(obj).Delete(obj); err != nil {
		h.t.Fatal(err)
	}
}

// sync syncs key, then makes the insights' caches hold what was written,
// and returns how many writes the sync made.
func (h *harness) sync(key string) int {
	h.t.Helper()
	h.client.ClearActions()
	if err := h.c.sync(context.Background(), controllertest.NewSyncContext(key)); err != nil {
		h.t.Fatalf("sync %s: %v", key, err)
	}
	writes := 0
	for _, a := range h.client.Actions() {
		if a.GetVerb() != "list" && a.GetVerb() != "watch" && a.GetVerb() != "get" {
			writes++
		}
	}
	clusters, err := h.client.InsightsV1alpha1().HostedClusterProgressInsights("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	controllertest.Replace(h.t, h.hcpis, clusters.Items)
	pools, err := h.client.InsightsV1alpha1().NodePoolProgressInsights("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	controllertest.Replace(h.t, h.nppis, pools.Items)
	return writes
}

// names are the namespace/name of the insights stored, and their owners'
// kind/name/uid.
func (h *harness) names() []string {
	var out []string
	for _, o := range append(h.hcpis.List(), h.nppis.List()...) {
		m := o.(metav1.Object)
		var owners []string
		for _, r := range m.GetOwnerReferences() {
			owners = append(owners, r.Kind+"/"+r.Name+"/"+string(r.UID))
		}
		kind := "nppi"
		if _, ok := o.(*insightsv1alpha1.HostedClusterProgressInsight); ok {
			kind = "hcpi"
		}
		out = append(out, kind+" "+m.GetNamespace()+"/"+m.GetName()+" owned by "+strings.Join(owners, ","))
	}
	slices.Sort(out)
	return out
}

func hostedCluster(namespace, name string) *hypershift.HostedCluster {
	return &hypershift.HostedCluster{
		TypeMeta:   metav1.TypeMeta{APIVersion: "hypershift.openshift.io/v1beta1", Kind: "HostedCluster"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, UID: types.UID("uid-" + name)},
		Spec:       hypershift.HostedClusterSpec{Release: hypershift.Release{Image: "quay.io/r@sha256:4173"}},
		Status: hypershift.HostedClusterStatus{Version: &hypershift.ClusterVersionStatus{
			Desired: hypershift.DesiredRelease{Version: "4.17.3", Image: "quay.io/r@sha256:4173"}}},
	}
}

func nodePool(namespace, name, cluster string) *hypershift.NodePool {
	return &hypershift.NodePool{
		TypeMeta:   metav1.TypeMeta{APIVersion: "hypershift.openshift.io/v1beta1", Kind: "NodePool"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, UID: types.UID("uid-" + name)},
		Spec: hypershift.NodePoolSpec{ClusterName: cluster, Release: hypershift.Release{Image: "quay.io/r@sha256:4173"},
			Management: hypershift.NodePoolManagement{UpgradeType: hypershift.UpgradeTypeReplace}},
	}
}

func machine(namespace, name, nodePool string) *hypershift.Machine {
	return &hypershift.Machine{
		TypeMeta: metav1.TypeMeta{APIVersion: "cluster.x-k8s.io/v1beta2", Kind: "Machine"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name,
			Annotations: map[string]string{hypershift.NodePoolAnnotation: nodePool}},
	}
}

// Each HostedCluster gets an insight of its name beside it, and each of its
// NodePools one, owned by what they report on so that garbage collection
// deletes them with it; a NodePool of another cluster is not written with
// it; a sync with nothing changed writes nothing.
func TestEachHostedClusterAndNodePoolGetsAnInsightBesideIt(t *testing.T) {
	h := newHarness(t, hostedCluster("clusters", "prod"), nodePool("clusters", "workers-a", "prod"),
		nodePool("clusters", "workers-b", "prod"), nodePool("clusters", "other", "dev"))
	if writes := h.sync("clusters/prod"); writes == 0 {
		t.Fatal("the first sync wrote nothing")
	}
	want := []string{
		"hcpi clusters/prod owned by HostedCluster/prod/uid-prod",
		"nppi clusters/workers-a owned by NodePool/workers-a/uid-workers-a",
		"nppi clusters/workers-b owned by NodePool/workers-b/uid-workers-b",
	}
	if diff := cmp.Diff(want, h.names()); diff != "" {
		t.Errorf("insights (-want +got):\n%s", diff)
	}
	obj, _, _ := h.hcpis.GetByKey("clusters/prod")
	if got := obj.(*insightsv1alpha1.HostedClusterProgressInsight).Status.NodePools.Total; got != 2 {
		t.Errorf("the cluster's insight counts %d NodePools, want 2", got)
	}
	obj, _, _ = h.nppis.GetByKey("clusters/workers-a")
	if got := obj.(*insightsv1alpha1.NodePoolProgressInsight).Status.HostedCluster; got != "prod" {
		t.Errorf("the NodePool's insight names HostedCluster %q, want prod", got)
	}
	if writes := h.sync("clusters/prod"); writes != 0 {
		t.Errorf("a sync with nothing changed made %d writes, want 0: %v", writes, h.client.Actions())
	}
}

// The insight of a NodePool that is gone is deleted; once the HostedCluster
// is gone, its insight and its NodePools' are.
func TestTheInsightsOfWhatIsGoneAreDeleted(t *testing.T) {
	hc, gone := hostedCluster("clusters", "prod"), nodePool("clusters", "workers-b", "prod")
	h := newHarness(t, hc, nodePool("clusters", "workers-a", "prod"), gone, hostedCluster("clusters", "dev"), nodePool("clusters", "dev-a", "dev"))
	h.sync("clusters/prod")
	h.sync("clusters/dev")
	h.remove(gone)
	h.sync("clusters/prod")
	want := []string{
		"hcpi clusters/dev owned by HostedCluster/dev/uid-dev",
		"hcpi clusters/prod owned by HostedCluster/prod/uid-prod",
		"nppi clusters/dev-a owned by NodePool/dev-a/uid-dev-a",
		"nppi clusters/workers-a owned by NodePool/workers-a/uid-workers-a",
	}
	if diff := cmp.Diff(want, h.names()); diff != "" {
		t.Errorf("once a NodePool is gone, insights (-want +got):\n%s", diff)
	}
	h.remove(hc)
	h.sync("clusters/prod")
	want = []string{"hcpi clusters/dev owned by HostedCluster/dev/uid-dev", "nppi clusters/dev-a owned by NodePool/dev-a/uid-dev-a"}
	if diff := cmp.Diff(want, h.names()); diff != "" {
		t.Errorf("once the HostedCluster is gone, insights (-want +got):\n%s", diff)
	}
}

// A change of any object queues the HostedCluster it is part of: a
// NodePool's by spec.clusterName, a ControlPlaneComponent's by its
// control-plane namespace, a Cluster API object's through the NodePool its
// annotation names.
func TestAChangeQueuesItsHostedCluster(t *testing.T) {
	h := newHarness(t, hostedCluster("clusters", "prod"), nodePool("clusters", "workers-a", "prod"))
	component := &hypershift.ControlPlaneComponent{ObjectMeta: metav1.ObjectMeta{Namespace: "clusters-prod", Name: "kube-apiserver"}}
	for _, tc := range []struct {
		name     string
		clusters func(any) []string
		obj      any
		want     []string
	}{
		{"HostedCluster", ownKey, hostedCluster("clusters", "prod"), []string{"clusters/prod"}},
		{"NodePool", nodePoolsCluster, nodePool("clusters", "workers-a", "prod"), []string{"clusters/prod"}},
		{"ControlPlaneComponent", h.c.componentsCluster, component, []string{"clusters/prod"}},
		{"ControlPlaneComponent elsewhere", h.c.componentsCluster,
			&hypershift.ControlPlaneComponent{ObjectMeta: metav1.ObjectMeta{Namespace: "clusters-dev", Name: "etcd"}}, nil},
		{"Machine", h.c.nodePoolObjectsCluster, machine("clusters-prod", "workers-a-x7k2p", "clusters/workers-a"), []string{"clusters/prod"}},
		{"Machine of an unknown NodePool", h.c.nodePoolObjectsCluster, machine("clusters-prod", "m", "clusters/gone"), nil},
		{"deleted Machine", h.c.nodePoolObjectsCluster,
			cache.DeletedFinalStateUnknown{Key: "clusters-prod/m", Obj: machine("clusters-prod", "m", "clusters/workers-a")}, []string{"clusters/prod"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			h.c.handler(func(key any) { got = append(got, key.(string)) }, tc.clusters).OnDelete(tc.obj)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
		})
	}
}

// An object that does not have its API's shape is said, and left out: a
// Machine in the NodePool's problems, a HostedCluster as an Unknown
// insight. Once readable again, it is reported on as any other.
func TestAnUnreadableObjectIsSaidAndLeftOut(t *testing.T) {
	bad := &hypershift.Malformed{TypeMeta: metav1.TypeMeta{Kind: "Machine"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters-prod", Name: "workers-a-x7k2p", Annotations: map[string]string{hypershift.NodePoolAnnotation: "clusters/workers-a"}},
		Err:        `Machine clusters-prod/workers-a-x7k2p: .status.phase: expected string`}
	h := newHarness(t, hostedCluster("clusters", "prod"), nodePool("clusters", "workers-a", "prod"), bad)
	h.sync("clusters/prod")
	obj, _, _ := h.nppis.GetByKey("clusters/workers-a")
	problems := obj.(*insightsv1alpha1.NodePoolProgressInsight).Status.Problems
	if len(problems) == 0 || problems[0].Reason != UnreadableReason || !strings.Contains(problems[0].Message, "Machine workers-a-x7k2p cannot be read") ||
		problems[0].Resource == nil || problems[0].Resource.Resource != "machines" {
		t.Errorf("the NodePool's problems %+v, want first the Machine that cannot be read", problems)
	}
	h.remove(bad)
	h.put(machine("clusters-prod", "workers-a-x7k2p", "clusters/workers-a"))
	h.sync("clusters/prod")
	obj, _, _ = h.nppis.GetByKey("clusters/workers-a")
	for _, p := range obj.(*insightsv1alpha1.NodePoolProgressInsight).Status.Problems {
		if p.Reason == UnreadableReason {
			t.Errorf("once the Machine is readable, the NodePool still says %q", p.Message)
		}
	}

	badCluster := &hypershift.Malformed{TypeMeta: metav1.TypeMeta{Kind: "HostedCluster"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "dev", UID: "uid-dev"}, Err: "HostedCluster clusters/dev: .status.version: expected map"}
	h.put(badCluster)
	h.sync("clusters/dev")
	obj, _, _ = h.hcpis.GetByKey("clusters/dev")
	s := obj.(*insightsv1alpha1.HostedClusterProgressInsight).Status
	if s.Assessment != insightsv1alpha1.HostedClusterAssessmentUnknown || len(s.Problems) != 1 || !strings.Contains(s.Problems[0].Message, ".status.version: expected map") {
		t.Errorf("an unreadable HostedCluster's insight %+v, want Unknown saying why", s)
	}
	if writes := h.sync("clusters/dev"); writes != 0 {
		t.Errorf("an unreadable HostedCluster's insight was written %d times again with nothing changed", writes)
	}
}

func TestAnUnreadableNodePoolIsSaidInItsClustersInsight(t *testing.T) {
	bad := &hypershift.Malformed{TypeMeta: metav1.TypeMeta{Kind: "NodePool"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "workers-b"},
		Err:        `NodePool clusters/workers-b: .spec.replicas: expected integer`, ClusterName: "prod"}
	h := newHarness(t, hostedCluster("clusters", "prod"), nodePool("clusters", "workers-a", "prod"))
	h.sync("clusters/prod")
	h.put(bad)
	h.sync("clusters/prod")
	obj, _, _ := h.hcpis.GetByKey("clusters/prod")
	problems := obj.(*insightsv1alpha1.HostedClusterProgressInsight).Status.Problems
	if len(problems) == 0 || problems[0].Reason != UnreadableReason || !strings.Contains(problems[0].Message, "NodePool workers-b cannot be read") ||
		!strings.Contains(problems[0].Message, ".spec.replicas: expected integer") || problems[0].Resource == nil || problems[0].Resource.Resource != "nodepools" {
		t.Errorf("the hosted cluster's problems %+v, want first the NodePool that cannot be read", problems)
	}
	if writes := h.sync("clusters/prod"); writes != 0 {
		t.Errorf("the insights were written %d times again with nothing changed", writes)
	}
	h.remove(bad)
	h.sync("clusters/prod")
	obj, _, _ = h.hcpis.GetByKey("clusters/prod")
	for _, p := range obj.(*insightsv1alpha1.HostedClusterProgressInsight).Status.Problems {
		if p.Reason == UnreadableReason {
			t.Errorf("once the NodePool is gone, the cluster still says %q", p.Message)
		}
	}
}
