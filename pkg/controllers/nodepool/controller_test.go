package nodepool

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/drains"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/healthinsights"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/internal/hostedtest"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

var now = time.Date(2026, 8, 24, 9, 30, 0, 0, time.UTC)

const (
	kubeletNew   = "v1.31.6+a1b2c3d"
	kubeletOld   = "v1.30.10+5f9c2b1"
	kubeletOlder = "v1.27.16+03f2a51"
	// Config-version hashes as HyperShift's HashSimple names them
	// (support/util/util.go).
	oldHash = "7a1d3c55"
	newHash = "e40b9f12"
)

// node is a NodePool's node as the guest holds it: labelled and annotated
// by the hosted-cluster-config-operator and cluster-api
// (controllers/node/node.go), with in-place annotations in the shapes of
// inplaceupgrader_test.go; pool "" is a node that has just joined.
func node(name, pool, kubelet string, annotations map[string]string) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/os": "linux"},
			Annotations: map[string]string{"cluster.x-k8s.io/machine": name, "cluster.x-k8s.io/cluster-namespace": "clusters-guest"}},
		Status: corev1.NodeStatus{
			NodeInfo:   corev1.NodeSystemInfo{KubeletVersion: kubelet},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(now.Add(-time.Hour))}},
		},
	}
	if pool != "" {
		n.Labels[hosted.NodePoolLabel] = pool
		n.Annotations["cluster.x-k8s.io/owner-name"] = pool + "-6f9d8b7c5"
	}
	for k, v := range annotations {
		n.Annotations[k] = v
	}
	return n
}

// drained is a node the upgrader told newHash, drained by the drainer,
// its daemon writing the configuration.
func drained() map[string]string {
	return map[string]string{
		nodes.CurrentConfigAnnotation:    oldHash,
		nodes.DesiredConfigAnnotation:    newHash,
		nodes.StateAnnotation:            "Working",
		nodes.DesiredDrainAnnotation:     "drain-" + newHash,
		nodes.LastAppliedDrainAnnotation: "drain-" + newHash,
	}
}

// kubeAPIServer is the kube-apiserver ClusterOperator as the
// hosted-cluster-config-operator writes it, the control plane's Kubernetes
// at version.
func kubeAPIServer(version string) *configv1.ClusterOperator {
	return hostedtest.SyntheticOperator(hosted.KubeAPIServer, "4.18.3", version, now)
}

type harness struct {
	t          *testing.T
	controller *Controller
	client     *fake.Clientset
	clock      *clocktesting.FakePassiveClock
	kube       *kubefake.Clientset
	nodes      cache.Indexer
	operators  cache.Indexer
	budgets    cache.Indexer
	daemonSets cache.Indexer
	npis       cache.Indexer
	mcppis     cache.Indexer
	uhis       cache.Indexer
}

func newHarness(t *testing.T, objects ...*corev1.Node) *harness {
	h := &harness{
		t:          t,
		client:     fake.NewSimpleClientset(),
		clock:      clocktesting.NewFakePassiveClock(now),
		kube:       kubefake.NewClientset(),
		nodes:      cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{poolIndex: nodePoolOf}),
		operators:  cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		budgets:    cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		daemonSets: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		npis:       cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		mcppis:     cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		uhis:       cache.NewIndexer(cache.MetaNamespaceKeyFunc, healthinsights.Indexers()),
	}
	for _, n := range objects {
		h.putNode(n)
	}
	must(t, h.operators.Add(kubeAPIServer("1.31.6")))
	h.controller = &Controller{
		nodes:        corelisters.NewNodeLister(h.nodes),
		nodeIndexer:  h.nodes,
		operators:    configlisters.NewClusterOperatorLister(h.operators),
		nodeInsights: insightslisters.NewNodeProgressInsightLister(h.npis),
		poolInsights: insightslisters.NewMachineConfigPoolProgressInsightLister(h.mcppis),
		nodeWriter:   insightwrite.NodeProgressInsights(h.client.InsightsV1alpha1()),
		poolWriter:   insightwrite.MachineConfigPoolProgressInsights(h.client.InsightsV1alpha1()),
		health:       healthinsights.NewSyncer(healthInsightManager, h.client.InsightsV1alpha1(), h.uhis, h.clock),
		drains:       drains.New(h.kube, policylisters.NewPodDisruptionBudgetLister(h.budgets), appslisters.NewDaemonSetLister(h.daemonSets), func(any) {}),
		perNode:      &nodes.PerNodeTimes{},
		clock:        h.clock,
	}
	t.Cleanup(h.controller.drains.Stop)
	return h
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// putNode stores a node as the informer's transform leaves it.
func (h *harness) putNode(n *corev1.Node) {
	h.t.Helper()
	stripped, err := StripNode(n)
	must(h.t, err)
	must(h.t, h.nodes.Update(stripped))
}

// refresh makes the insight caches hold what the fake server holds.
func (h *harness) refresh() {
	ctx := context.Background()
	npis, err := h.client.InsightsV1alpha1().NodeProgressInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	controllertest.Replace(h.t, h.npis, npis.Items)
	mcppis, err := h.client.InsightsV1alpha1().MachineConfigPoolProgressInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	controllertest.Replace(h.t, h.mcppis, mcppis.Items)
	uhis, err := h.client.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	controllertest.Replace(h.t, h.uhis, uhis.Items)
}

// run syncs key and every key it queues for now, through the tracker, as
// the workers would; it returns the writes and the keys queued for later.
func (h *harness) run(key string) ([]string, map[any]time.Duration) {
	h.t.Helper()
	h.client.ClearActions()
	sync := tracker.New(h.clock, func(string, time.Duration, error) {}).Sync(Name, h.controller.sync)
	later := map[any]time.Duration{}
	pending := []string{key}
	for len(pending) > 0 {
		key, pending = pending[0], pending[1:]
		syncCtx := controllertest.NewSyncContext(key)
		must(h.t, sync(context.Background(), syncCtx))
		h.refresh()
		for _, k := range syncCtx.Drain() {
			if !slices.Contains(pending, k) {
				pending = append(pending, k)
			}
		}
		for k, d := range syncCtx.Q.AddedAfter {
			later[k] = d
		}
		syncCtx.Q.ShutDown()
	}
	return controllertest.Writes(h.client.Actions()), later
}

// stored lists the node and pool insights the fake server holds, each as
// "name pool phase" and "name resource assessment".
func (h *harness) stored() (nodeInsights, poolInsights []string) {
	h.refresh()
	for _, o := range h.npis.List() {
		s := o.(*insightsv1alpha1.NodeProgressInsight).Status
		nodeInsights = append(nodeInsights, s.Name+" "+s.PoolResource.Resource+"/"+s.PoolResource.Name+" "+s.Conditions[0].Reason)
	}
	for _, o := range h.mcppis.List() {
		s := o.(*insightsv1alpha1.MachineConfigPoolProgressInsight).Status
		resource := "-"
		if s.Resource != nil {
			resource = s.Resource.Resource + "/" + s.Resource.Name
		}
		poolInsights = append(poolInsights, s.Name+" "+resource+" "+string(s.Assessment))
	}
	slices.Sort(nodeInsights)
	slices.Sort(poolInsights)
	return nodeInsights, poolInsights
}

func TestFirstSyncWritesEveryNodePoolOnceAndThenLeavesThemAlone(t *testing.T) {
	h := newHarness(t,
		node("ip-a", "inplace", kubeletOld, drained()),
		node("ip-b", "inplace", kubeletOld, nil),
		node("rp-a", "replace", kubeletNew, nil),
		node("old-a", "old", kubeletOlder, nil),
		node("fresh", "", kubeletNew, nil))

	writes, later := h.run(factory.DefaultQueueKey)
	got := map[string]int{}
	for _, w := range writes {
		got[w]++
	}
	want := map[string]int{
		"create nodeprogressinsights ip-a": 1, "update nodeprogressinsights/status ip-a": 1,
		"create nodeprogressinsights ip-b": 1, "update nodeprogressinsights/status ip-b": 1,
		"create nodeprogressinsights rp-a": 1, "update nodeprogressinsights/status rp-a": 1,
		"create nodeprogressinsights old-a": 1, "update nodeprogressinsights/status old-a": 1,
		"create machineconfigpoolprogressinsights inplace": 1, "update machineconfigpoolprogressinsights/status inplace": 1,
		"create machineconfigpoolprogressinsights replace": 1, "update machineconfigpoolprogressinsights/status replace": 1,
		"create machineconfigpoolprogressinsights old": 1, "update machineconfigpoolprogressinsights/status old": 1,
	}
	// The skew insight's name is a hash; which insights there are is
	// checked below.
	for w := range got {
		if strings.Contains(w, "updatehealthinsights") {
			delete(got, w)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}

	nodeInsights, poolInsights := h.stored()
	if diff := cmp.Diff([]string{
		"ip-a nodepools/inplace Updating", "ip-b nodepools/inplace Pending",
		"old-a nodepools/old Behind", "rp-a nodepools/replace Completed",
	}, nodeInsights); diff != "" {
		t.Errorf("node insights (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{
		"inplace nodepools/inplace Progressing", "old nodepools/old Behind", "replace nodepools/replace Completed",
	}, poolInsights); diff != "" {
		t.Errorf("pool insights (-want +got):\n%s", diff)
	}
	var problems []string
	for _, o := range h.uhis.List() {
		uhi := o.(*insightsv1alpha1.UpdateHealthInsight)
		problems = append(problems, uhi.Labels[healthinsights.ManagerLabel]+" "+uhi.Status.Scope.Resources[0].Resource+"/"+uhi.Status.Scope.Resources[0].Name)
	}
	if diff := cmp.Diff([]string{"nodepool nodepools/old"}, problems); diff != "" {
		t.Errorf("health insights (-want +got):\n%s", diff)
	}
	// The in-place node's estimate counts down by the minute.
	if diff := cmp.Diff(map[any]time.Duration{"pool/inplace": time.Minute}, later); diff != "" {
		t.Errorf("queued for later (-want +got):\n%s", diff)
	}

	h.clock.SetTime(now.Add(30 * time.Second))
	if writes, _ := h.run(factory.DefaultQueueKey); len(writes) != 0 {
		t.Errorf("a resync with nothing changed wrote %d times: %v", len(writes), writes)
	}
}

func TestNodesLeavingTheirNodePools(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(h *harness)
		// node is the node whose key the change queues.
		node   string
		writes []string
		nodes  []string
		pools  []string
	}{{
		name: "a node deleted",
		node: "rp-old",
		change: func(h *harness) {
			must(h.t, h.nodes.Delete(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "rp-old"}}))
		},
		writes: []string{"delete nodeprogressinsights rp-old", "update machineconfigpoolprogressinsights/status replace"},
		nodes:  []string{"old-a nodepools/old Behind", "rp-new nodepools/replace Completed"},
		pools:  []string{"old nodepools/old Behind", "replace nodepools/replace Completed"},
	}, {
		name:   "a node that lost its label",
		node:   "rp-old",
		change: func(h *harness) { h.putNode(node("rp-old", "", kubeletOld, nil)) },
		writes: []string{"delete nodeprogressinsights rp-old", "update machineconfigpoolprogressinsights/status replace"},
		nodes:  []string{"old-a nodepools/old Behind", "rp-new nodepools/replace Completed"},
		pools:  []string{"old nodepools/old Behind", "replace nodepools/replace Completed"},
	}, {
		name: "the last node of a NodePool deleted",
		node: "old-a",
		change: func(h *harness) {
			must(h.t, h.nodes.Delete(&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "old-a"}}))
		},
		writes: []string{"delete machineconfigpoolprogressinsights old", "delete nodeprogressinsights old-a"},
		nodes:  []string{"rp-new nodepools/replace Completed", "rp-old nodepools/replace Pending"},
		pools:  []string{"replace nodepools/replace Progressing"},
	}, {
		name:   "a node moved to another NodePool",
		node:   "rp-old",
		change: func(h *harness) { h.putNode(node("rp-old", "old", kubeletOld, nil)) },
		writes: []string{"update machineconfigpoolprogressinsights/status old", "update machineconfigpoolprogressinsights/status replace",
			"update nodeprogressinsights/status rp-old"},
		nodes: []string{"old-a nodepools/old Behind", "rp-new nodepools/replace Completed", "rp-old nodepools/old Behind"},
		pools: []string{"old nodepools/old Behind", "replace nodepools/replace Completed"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, node("rp-new", "replace", kubeletNew, nil), node("rp-old", "replace", kubeletOld, nil), node("old-a", "old", kubeletOld, nil))
			h.run(factory.DefaultQueueKey)
			tc.change(h)
			writes, _ := h.run(nodeKeyPrefix + tc.node)
			slices.Sort(writes)
			if diff := cmp.Diff(tc.writes, writes); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			nodeInsights, poolInsights := h.stored()
			if diff := cmp.Diff(tc.nodes, nodeInsights); diff != "" {
				t.Errorf("node insights (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.pools, poolInsights); diff != "" {
				t.Errorf("pool insights (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMachineConfigPoolInsightsAreLeftAlone keeps the controller to its own
// insights: a pool insight of a MachineConfigPool, and a node insight of a
// MachineConfigPool's node, are neither written nor deleted; the NodePool's
// nodes still get theirs.
func TestMachineConfigPoolInsightsAreLeftAlone(t *testing.T) {
	h := newHarness(t, node("w-0", "worker", kubeletNew, nil))
	ctx := context.Background()
	_, err := h.client.InsightsV1alpha1().MachineConfigPoolProgressInsights().Create(ctx, &insightsv1alpha1.MachineConfigPoolProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "worker"},
		Status:     insightsv1alpha1.MachineConfigPoolProgressInsightStatus{Name: "worker", Assessment: insightsv1alpha1.PoolCompleted},
	}, metav1.CreateOptions{})
	must(t, err)
	_, err = h.client.InsightsV1alpha1().NodeProgressInsights().Create(ctx, &insightsv1alpha1.NodeProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "gone"},
		Status:     insightsv1alpha1.NodeProgressInsightStatus{Name: "gone", PoolResource: health.PoolResource("worker")},
	}, metav1.CreateOptions{})
	must(t, err)
	h.refresh()

	writes, _ := h.run(factory.DefaultQueueKey)
	if diff := cmp.Diff([]string{"create nodeprogressinsights w-0", "update nodeprogressinsights/status w-0"}, writes); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if writes, _ := h.run(nodeKeyPrefix + "gone"); len(writes) != 0 {
		t.Errorf("syncing a MachineConfigPool's node insight wrote %v", writes)
	}
}

func TestHandlers(t *testing.T) {
	for _, tc := range []struct {
		name string
		fire func(h *harness, add func(any))
		want []string
	}{{
		name: "a heartbeat is no change",
		fire: func(h *harness, add func(any)) {
			before := node("rp-a", "replace", kubeletNew, nil)
			after := before.DeepCopy()
			after.ResourceVersion = "2"
			after.Status.Conditions[0].LastHeartbeatTime = metav1.NewTime(now)
			old, _ := StripNode(before)
			stripped, _ := StripNode(after)
			nodeHandler(add).OnUpdate(old, stripped)
		},
	}, {
		// cluster-api taints a Replace rollout's old nodes before any new
		// node is labelled with the NodePool: the rollout's first sign.
		name: "cluster-api's outdated-revision taint",
		fire: func(h *harness, add func(any)) {
			before := node("rp-a", "replace", kubeletOld, nil)
			after := before.DeepCopy()
			after.ResourceVersion = "2"
			after.Spec.Taints = []corev1.Taint{{Key: hosted.OutdatedRevisionTaint, Effect: corev1.TaintEffectPreferNoSchedule}}
			old, _ := StripNode(before)
			tainted, _ := StripNode(after)
			nodeHandler(add).OnUpdate(old, tainted)
		},
		want: []string{"node/rp-a"},
	}, {
		name: "a relabelled node and the NodePool it left",
		fire: func(h *harness, add func(any)) {
			old, _ := StripNode(node("rp-a", "replace", kubeletNew, nil))
			moved, _ := StripNode(node("rp-a", "other", kubeletNew, nil))
			nodeHandler(add).OnUpdate(old, moved)
		},
		want: []string{"node/rp-a", "pool/replace"},
	}, {
		name: "the control plane's Kubernetes version changed",
		fire: func(h *harness, add func(any)) {
			h.controller.controlPlaneHandler(add).OnUpdate(kubeAPIServer("1.30.10"), kubeAPIServer("1.31.6"))
		},
		want: []string{"pool/inplace", "pool/replace"},
	}, {
		name: "another ClusterOperator changed",
		fire: func(h *harness, add func(any)) {
			other := hostedtest.RealOperator("ingress", "4.18.3", false, now)
			changed := hostedtest.RealOperator("ingress", "4.18.4", true, now)
			h.controller.controlPlaneHandler(add).OnUpdate(other, changed)
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, node("rp-a", "replace", kubeletNew, nil), node("ip-a", "inplace", kubeletNew, nil))
			var got []string
			tc.fire(h, func(key any) { got = append(got, key.(string)) })
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNodePoolLearnsPerNodeTime: a node seen updating in place and then
// done teaches the controller how long its NodePool's nodes take, and the
// next node's estimate is that time, not the 10-minute default.
func TestNodePoolLearnsPerNodeTime(t *testing.T) {
	atRest := func(hash string) map[string]string {
		return map[string]string{nodes.CurrentConfigAnnotation: hash, nodes.DesiredConfigAnnotation: hash, nodes.StateAnnotation: "Done",
			nodes.DesiredDrainAnnotation: "uncordon-" + hash, nodes.LastAppliedDrainAnnotation: "uncordon-" + hash}
	}
	h := newHarness(t, node("ip-a", "inplace", kubeletOld, drained()), node("ip-b", "inplace", kubeletOld, atRest(oldHash)))
	h.run(poolKeyPrefix + "inplace")

	h.clock.SetTime(now.Add(25 * time.Minute))
	h.putNode(node("ip-a", "inplace", kubeletNew, atRest(newHash)))
	told := atRest(oldHash)
	told[nodes.DesiredConfigAnnotation] = newHash
	h.putNode(node("ip-b", "inplace", kubeletOld, told))
	h.run(poolKeyPrefix + "inplace")

	if got := h.controller.perNode.Expected("inplace"); got != 25*time.Minute {
		t.Errorf("learned per-node time %s, want 25m0s: ip-a updated from %s to %s", got, now, now.Add(25*time.Minute))
	}
	// The time is learned once ip-a's insight is written, after this sync
	// assessed ip-b; the next sync, which an updating node's estimate
	// requeues within a minute, gives ip-b the learned time.
	h.run(poolKeyPrefix + "inplace")
	b, err := h.controller.nodeInsights.Get("ip-b")
	must(t, err)
	if b.Status.EstimatedToComplete == nil || b.Status.EstimatedToComplete.Duration != 25*time.Minute {
		t.Errorf("ip-b's estimate is %v, want 25m0s, the learned time", b.Status.EstimatedToComplete)
	}
}
