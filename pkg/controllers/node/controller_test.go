package node

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	machineconfigurationlisters "github.com/openshift/client-go/machineconfiguration/listers/machineconfiguration/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/drains"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/healthinsights"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

// The recorded cluster whose worker pool is stuck behind PodDisruptionBudgets:
// 59 workers in every phase, 7 degraded, 1 not ready.
const recordedCase = "4.16.0-ec2-control-plane-updated-pdb-prohibits-draining"

func loadRecorded(t *testing.T) (*analyze.Cluster, time.Time) {
	t.Helper()
	file := func(suffix string) string {
		return filepath.Join("../../../test/testdata/oc-examples", recordedCase+suffix)
	}
	c, err := analyze.Load(analyze.Paths{
		ClusterVersions:    file("-cv.yaml"),
		MachineConfigPools: file("-mcp.yaml"),
		MachineConfigs:     file("-mc.yaml"),
		Nodes:              file("-node.yaml"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// The recording's clock, as the reference output computed it.
	return c, time.Date(2024, 2, 27, 16, 16, 13, 0, time.UTC)
}

type harness struct {
	t          *testing.T
	controller *Controller
	client     *fake.Clientset
	clock      *clocktesting.FakePassiveClock
	nodes      cache.Indexer
	pools      cache.Indexer
	configs    cache.Indexer
	versions   cache.Indexer
	npis       cache.Indexer
	mcppis     cache.Indexer
	uhis       cache.Indexer
	budgets    cache.Indexer
	daemonSets cache.Indexer
	// kube serves the pods of drained nodes.
	kube *kubefake.Clientset
}

func newHarness(t *testing.T, c *analyze.Cluster, now time.Time) *harness {
	h := &harness{
		t:          t,
		client:     fake.NewSimpleClientset(),
		clock:      clocktesting.NewFakePassiveClock(now),
		nodes:      cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{configIndex: configsOfNode}),
		pools:      cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		configs:    cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		versions:   cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		npis:       cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		mcppis:     cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		uhis:       cache.NewIndexer(cache.MetaNamespaceKeyFunc, healthinsights.Indexers()),
		budgets:    cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		daemonSets: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		kube:       kubefake.NewSimpleClientset(),
	}
	h.kube.PrependReactor("list", "pods", h.listPodsByNode)
	// The caches hold what the informers' transforms leave.
	for _, n := range c.Nodes {
		h.put(h.nodes, n, StripNode)
	}
	for _, p := range c.MachineConfigPools {
		h.put(h.pools, p, StripMachineConfiguration)
	}
	for _, mc := range c.MachineConfigs {
		h.put(h.configs, mc, StripMachineConfiguration)
	}
	for _, cv := range c.ClusterVersions {
		must(t, h.versions.Add(cv))
	}
	h.controller = &Controller{
		nodes:           corelisters.NewNodeLister(h.nodes),
		nodeIndexer:     h.nodes,
		pools:           machineconfigurationlisters.NewMachineConfigPoolLister(h.pools),
		configs:         machineconfigurationlisters.NewMachineConfigLister(h.configs),
		clusterVersions: configlisters.NewClusterVersionLister(h.versions),
		nodeInsights:    insightslisters.NewNodeProgressInsightLister(h.npis),
		poolInsights:    insightslisters.NewMachineConfigPoolProgressInsightLister(h.mcppis),
		nodeWriter:      insightwrite.NodeProgressInsights(h.client.InsightsV1alpha1()),
		poolWriter:      insightwrite.MachineConfigPoolProgressInsights(h.client.InsightsV1alpha1()),
		health:          healthinsights.NewSyncer(healthInsightManager, h.client.InsightsV1alpha1(), h.uhis, h.clock),
		membership:      newMembership(events.NewInMemoryRecorder("test", h.clock)),
		drains:          drains.New(h.kube, policylisters.NewPodDisruptionBudgetLister(h.budgets), appslisters.NewDaemonSetLister(h.daemonSets), func(any) {}),
		perNode:         &nodes.PerNodeTimes{},
		clock:           h.clock,
	}
	t.Cleanup(h.controller.drains.Stop)
	must(t, h.controller.placeNodes())
	return h
}

// listPodsByNode lists the pods a spec.nodeName field selector selects, as
// the API server does: the fake clientset ignores field selectors, and a
// drained node's cache would hold every pod.
func (h *harness) listPodsByNode(a clienttesting.Action) (bool, runtime.Object, error) {
	r := a.(clienttesting.ListAction).GetListRestrictions()
	if r.Fields == nil || r.Fields.Empty() {
		return false, nil, nil
	}
	obj, err := h.kube.Tracker().List(corev1.SchemeGroupVersion.WithResource("pods"), corev1.SchemeGroupVersion.WithKind("Pod"), a.GetNamespace())
	if err != nil {
		return true, nil, err
	}
	list := obj.(*corev1.PodList)
	selected := &corev1.PodList{ListMeta: list.ListMeta}
	for _, p := range list.Items {
		if r.Fields.Matches(fields.Set{"spec.nodeName": p.Spec.NodeName}) && r.Labels.Matches(labels.Set(p.Labels)) {
			selected.Items = append(selected.Items, p)
		}
	}
	return true, selected, nil
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (h *harness) put(indexer cache.Indexer, obj any, transform cache.TransformFunc) {
	h.t.Helper()
	stripped, err := transform(obj)
	must(h.t, err)
	must(h.t, indexer.Update(stripped))
}

// updateNode stores a changed node and hands the change to the node
// handler, as the informer would.
func (h *harness) updateNode(node *corev1.Node) {
	h.t.Helper()
	old, _, err := h.nodes.GetByKey(node.Name)
	must(h.t, err)
	h.put(h.nodes, node, StripNode)
	stored, _, err := h.nodes.GetByKey(node.Name)
	must(h.t, err)
	h.controller.nodeHandler(func(any) {}).OnUpdate(old, stored)
}

// refresh makes the insight caches hold what the fake server holds, as
// informers would after their watches deliver.
func (h *harness) refresh() {
	ctx := context.Background()
	npis, err := h.client.InsightsV1alpha1().NodeProgressInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	mcppis, err := h.client.InsightsV1alpha1().MachineConfigPoolProgressInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	uhis, err := h.client.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	var objs []any
	for i := range npis.Items {
		objs = append(objs, &npis.Items[i])
	}
	must(h.t, h.npis.Replace(objs, ""))
	objs = nil
	for i := range mcppis.Items {
		objs = append(objs, &mcppis.Items[i])
	}
	must(h.t, h.mcppis.Replace(objs, ""))
	objs = nil
	for i := range uhis.Items {
		objs = append(objs, &uhis.Items[i])
	}
	must(h.t, h.uhis.Replace(objs, ""))
}

// run syncs key and then every key that queues for now, until the queue
// is empty, as the controller's workers would, through the tracker (which
// retries a lost race). It returns the writes and the keys queued for later.
func (h *harness) run(key string) ([]string, map[any]time.Duration) {
	h.t.Helper()
	h.client.ClearActions()
	sync := tracker.New(h.clock, ignoreSyncs).Sync(Name, h.controller.sync)
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

func (h *harness) nodeStatus(name string) insightsv1alpha1.NodeProgressInsightStatus {
	i, err := h.client.InsightsV1alpha1().NodeProgressInsights().Get(context.Background(), name, metav1.GetOptions{})
	must(h.t, err)
	return i.Status
}

// ignoreSyncs is a tracker's observer for tests that do not measure syncs.
func ignoreSyncs(string, time.Duration, error) {}

func count(writes []string, prefix string) int {
	n := 0
	for _, w := range writes {
		if strings.HasPrefix(w, prefix) {
			n++
		}
	}
	return n
}

// TestRecordedClusterIsWrittenOnceAndThenLeftAlone syncs a recorded cluster
// from scratch: the controller writes what analyze computes for it, and a
// second pass over everything writes nothing.
func TestRecordedClusterIsWrittenOnceAndThenLeftAlone(t *testing.T) {
	c, now := loadRecorded(t)
	h := newHarness(t, c, now)

	writes, _ := h.run(factory.DefaultQueueKey)
	want := map[string]int{
		"create nodeprogressinsights ":                     62,
		"update nodeprogressinsights/status ":              62,
		"create machineconfigpoolprogressinsights ":        2,
		"update machineconfigpoolprogressinsights/status ": 2,
		"create updatehealthinsights ":                     8,
		"update updatehealthinsights/status ":              8,
		"delete ":                                          0,
		// Every node's first write queues the pool; it is written once.
		"update machineconfigpoolprogressinsights/status worker": 1,
	}
	got := map[string]int{}
	for prefix := range want {
		got[prefix] = count(writes, prefix)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("writes of the first sync (-want +got):\n%s\nall writes: %v", diff, writes)
	}

	for _, i := range analyze.Insights(c, now) {
		switch o := i.Object.(type) {
		case *insightsv1alpha1.NodeProgressInsight:
			if diff := cmp.Diff(o.Status, h.nodeStatus(o.Name)); diff != "" {
				t.Errorf("node %s: the controller and analyze disagree (-analyze +controller):\n%s", o.Name, diff)
			}
		case *insightsv1alpha1.MachineConfigPoolProgressInsight:
			got, err := h.client.InsightsV1alpha1().MachineConfigPoolProgressInsights().Get(context.Background(), o.Name, metav1.GetOptions{})
			must(t, err)
			if diff := cmp.Diff(o.Status, got.Status); diff != "" {
				t.Errorf("pool %s: the controller and analyze disagree (-analyze +controller):\n%s", o.Name, diff)
			}
		}
	}

	h.clock.SetTime(now.Add(30 * time.Second))
	if writes, _ := h.run(factory.DefaultQueueKey); len(writes) != 0 {
		t.Errorf("a resync with nothing changed wrote %d times: %v", len(writes), writes)
	}
}

func TestNodeRemovedOrLeavingItsPool(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(h *harness, node *corev1.Node)
	}{
		{name: "node deleted", change: func(h *harness, node *corev1.Node) { must(h.t, h.nodes.Delete(node)) }},
		{name: "node relabelled out of every pool", change: func(h *harness, node *corev1.Node) {
			node = node.DeepCopy()
			node.Labels = map[string]string{"kubernetes.io/os": "linux"}
			h.updateNode(node)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, now := loadRecorded(t)
			h := newHarness(t, c, now)
			h.run(factory.DefaultQueueKey)

			// A degraded node: it has a health insight to lose too.
			const name = "build0-gstfj-ci-prowjobs-worker-b-9lztv"
			degraded := healthInsightName(t, h, name)
			obj, _, err := h.nodes.GetByKey(name)
			must(t, err)
			tc.change(h, obj.(*corev1.Node))

			writes, _ := h.run(nodeKeyPrefix + name)
			want := []string{
				"delete updatehealthinsights " + degraded,
				"delete nodeprogressinsights " + name,
				"update machineconfigpoolprogressinsights/status worker",
			}
			if diff := cmp.Diff(want, writes); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			pool, err := h.client.InsightsV1alpha1().MachineConfigPoolProgressInsights().Get(context.Background(), "worker", metav1.GetOptions{})
			must(t, err)
			if total := pool.Status.Summaries[0]; total.Type != insightsv1alpha1.NodesTotal || total.Count != 58 {
				t.Errorf("pool summary %+v, want 58 nodes in total", total)
			}
		})
	}
}

// healthInsightName is the name of the one health insight about a node.
func healthInsightName(t *testing.T, h *harness, node string) string {
	t.Helper()
	for _, obj := range h.uhis.List() {
		uhi := obj.(*insightsv1alpha1.UpdateHealthInsight)
		if uhi.Status.Scope.Resources[0].Name == node {
			return uhi.Name
		}
	}
	t.Fatalf("no health insight about %s", node)
	return ""
}

// TestNodeWalksThroughItsUpdate follows a node from waiting to updated
// through the controller: its phase, its estimate, the pool's count, and
// what the next node is then expected to take.
func TestNodeWalksThroughItsUpdate(t *testing.T) {
	c, now := loadRecorded(t)
	h := newHarness(t, c, now)
	h.run(factory.DefaultQueueKey)

	const (
		name      = "build0-gstfj-ci-tests-worker-c-2c4vg"
		oldConfig = "rendered-worker-6b0cfe9b92e34c641ac59510e408b311"
		newConfig = "rendered-worker-55c03f1f59ad9bd3b224c96a3618ce1d"
	)
	steps := []struct {
		after         time.Duration
		annotations   map[string]string
		unschedulable bool
		wantReason    string
		wantEstimate  time.Duration
		wantLater     time.Duration
	}{
		{annotations: mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "uncordon-"+oldConfig), unschedulable: true,
			wantReason: insightsv1alpha1.NodeDraining, wantEstimate: 10 * time.Minute, wantLater: time.Minute},
		{after: 3 * time.Minute, annotations: mcd(oldConfig, newConfig, "Working", "drain-"+newConfig, "drain-"+newConfig), unschedulable: true,
			// Drained: 7 minutes of the 10 are left, but no more than half.
			wantReason: insightsv1alpha1.NodeUpdating, wantEstimate: 5 * time.Minute, wantLater: time.Minute},
		{after: 6 * time.Minute, annotations: mcd(oldConfig, newConfig, "Rebooting", "drain-"+newConfig, "drain-"+newConfig), unschedulable: true,
			wantReason: insightsv1alpha1.NodeRebooting, wantEstimate: 4 * time.Minute, wantLater: time.Minute},
		{after: 8 * time.Minute, annotations: mcd(newConfig, newConfig, "Done", "uncordon-"+newConfig, "uncordon-"+newConfig),
			wantReason: insightsv1alpha1.NodeCompleted},
	}
	obj, _, err := h.nodes.GetByKey(name)
	must(t, err)
	node := obj.(*corev1.Node).DeepCopy()
	for _, step := range steps {
		h.clock.SetTime(now.Add(step.after))
		for k, v := range step.annotations {
			node.Annotations[k] = v
		}
		node.Spec.Unschedulable = step.unschedulable
		h.updateNode(node)
		_, later := h.run(nodeKeyPrefix + name)

		s := h.nodeStatus(name)
		var estimate time.Duration
		if s.EstimatedToComplete != nil {
			estimate = s.EstimatedToComplete.Duration
		}
		got := []any{s.Conditions[0].Reason, estimate, later[nodeKeyPrefix+name]}
		if diff := cmp.Diff([]any{step.wantReason, step.wantEstimate, step.wantLater}, got); diff != "" {
			t.Errorf("after %v: reason, estimate, requeue (-want +got):\n%s", step.after, diff)
		}
	}

	pool, err := h.client.InsightsV1alpha1().MachineConfigPoolProgressInsights().Get(context.Background(), "worker", metav1.GetOptions{})
	must(t, err)
	if pool.Status.CompletionPercent != 38 {
		t.Errorf("pool completion %d%%, want 38%% (23 of 59)", pool.Status.CompletionPercent)
	}
	if got := h.controller.perNode.Expected("worker"); got != 8*time.Minute {
		t.Errorf("the worker pool's expected per-node time is %v, want the 8m this node took", got)
	}
}

func mcd(current, desired, state, desiredDrain, lastAppliedDrain string) map[string]string {
	return map[string]string{
		"machineconfiguration.openshift.io/currentConfig":    current,
		"machineconfiguration.openshift.io/desiredConfig":    desired,
		"machineconfiguration.openshift.io/state":            state,
		"machineconfiguration.openshift.io/desiredDrain":     desiredDrain,
		"machineconfiguration.openshift.io/lastAppliedDrain": lastAppliedDrain,
	}
}

func TestNotReadyNodeIsReportedWhenItsGraceEnds(t *testing.T) {
	c, now := loadRecorded(t)
	h := newHarness(t, c, now)
	h.run(factory.DefaultQueueKey)

	const name = "build0-gstfj-ci-prowjobs-worker-c-f6dkk"
	obj, _, err := h.nodes.GetByKey(name)
	must(t, err)
	node := obj.(*corev1.Node).DeepCopy()
	for i := range node.Status.Conditions {
		if node.Status.Conditions[i].Type == corev1.NodeReady {
			node.Status.Conditions[i].Status = corev1.ConditionFalse
			node.Status.Conditions[i].LastTransitionTime = metav1.NewTime(now.Add(-2 * time.Minute))
		}
	}
	h.updateNode(node)
	writes, later := h.run(nodeKeyPrefix + name)
	if count(writes, "create updatehealthinsights") != 0 || later[nodeKeyPrefix+name] != 3*time.Minute {
		t.Errorf("2 minutes not ready: writes %v, requeued after %v; want no insight yet and a look again in 3m", writes, later[nodeKeyPrefix+name])
	}
	h.clock.SetTime(now.Add(3 * time.Minute))
	writes, _ = h.run(nodeKeyPrefix + name)
	if count(writes, "create updatehealthinsights") != 1 {
		t.Errorf("5 minutes not ready: writes %v, want a health insight", writes)
	}
}

// TestRacedHealthInsightWritesAreRequeued has every health insight status
// write conflict, as one does when the cache has not yet seen the insight the
// previous sync wrote: the syncs do not fail, and look again a second later.
func TestRacedHealthInsightWritesAreRequeued(t *testing.T) {
	c, now := loadRecorded(t)
	h := newHarness(t, c, now)
	h.client.PrependReactor("update", "updatehealthinsights", func(a clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "openshift.muller.dev", Resource: "updatehealthinsights"}, "", errors.New("stale"))
	})
	_, later := h.run(factory.DefaultQueueKey)

	created, err := h.client.InsightsV1alpha1().UpdateHealthInsights().List(context.Background(), metav1.ListOptions{})
	must(t, err)
	if len(created.Items) == 0 {
		t.Fatal("no health insight was created; the recorded cluster has degraded nodes")
	}
	prefixes := map[string]string{"NodeProgressInsight": nodeKeyPrefix, "MachineConfigPoolProgressInsight": poolKeyPrefix}
	for _, i := range created.Items {
		owner := i.OwnerReferences[0]
		key := prefixes[owner.Kind] + owner.Name
		if got := later[key]; got != tracker.RaceDelay {
			t.Errorf("%s, whose health insight %s raced, queued again after %v, want %v", key, i.Name, got, tracker.RaceDelay)
		}
	}
}

func TestHandlersQueueOnlyWhatAChangeAffects(t *testing.T) {
	c, now := loadRecorded(t)
	h := newHarness(t, c, now)
	allNodes := len(c.Nodes)

	nodeObj, _, err := h.nodes.GetByKey("build0-gstfj-ci-tests-worker-c-2c4vg")
	must(t, err)
	node := nodeObj.(*corev1.Node)
	heartbeat := node.DeepCopy()
	heartbeat.ResourceVersion = "2"
	cordoned := node.DeepCopy()
	cordoned.Spec.Unschedulable = true
	reconfigured := node.DeepCopy()
	reconfigured.Annotations = maps.Clone(node.Annotations)
	reconfigured.Annotations[nodes.StateAnnotation] = "Working"

	poolObj, _, err := h.pools.GetByKey("worker")
	must(t, err)
	pool := poolObj.(*machineconfigurationv1.MachineConfigPool)
	paused := pool.DeepCopy()
	paused.Spec.Paused = true
	statusOnly := pool.DeepCopy()
	statusOnly.Status.MachineCount = 60
	retargetedPool := pool.DeepCopy()
	retargetedPool.Spec.Configuration.Name = "rendered-worker-multi"
	workers := len(h.controller.membership.nodesIn("worker"))

	mcObj, _, err := h.configs.GetByKey("rendered-worker-55c03f1f59ad9bd3b224c96a3618ce1d")
	must(t, err)
	mc := mcObj.(*machineconfigurationv1.MachineConfig)
	reversioned := mc.DeepCopy()
	reversioned.Annotations = map[string]string{"machineconfiguration.openshift.io/release-image-version": "4.16.0-ec.4"}

	cv := c.ClusterVersions[0]
	retargeted := cv.DeepCopy()
	retargeted.Status.Desired.Version = "4.16.0"
	migrating := cv.DeepCopy()
	migrating.Status.History = append([]configv1.UpdateHistory{{Version: cv.Status.History[0].Version, Image: "quay.io/release@sha256:multi", State: configv1.PartialUpdate}}, migrating.Status.History...)
	v1helpers.SetStatusCondition(&migrating.Status.Conditions, configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue}, clocktesting.NewFakePassiveClock(now))
	migrated := migrating.DeepCopy()
	migrated.Status.History[0].State = configv1.CompletedUpdate
	v1helpers.SetStatusCondition(&migrated.Status.Conditions, configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse}, clocktesting.NewFakePassiveClock(now))
	conditionsOnly := cv.DeepCopy()
	conditionsOnly.Status.Conditions = append(conditionsOnly.Status.Conditions, configv1.ClusterOperatorStatusCondition{Type: "Extra"})

	testCases := []struct {
		name    string
		handler func(add func(any)) cache.ResourceEventHandler
		old     any
		new     any
		want    int
	}{
		{name: "a node update that changed only what the cache strips", handler: h.controller.nodeHandler, old: node, new: heartbeat, want: 0},
		{name: "a node cordoned", handler: h.controller.nodeHandler, old: node, new: cordoned, want: 1},
		{name: "a node's machine-config daemon began work: the node and its pool, which counts who runs its configuration", handler: h.controller.nodeHandler, old: node, new: reconfigured, want: 2},
		{name: "a pool paused: every node and the pool", handler: h.controller.poolHandler, old: pool, new: paused, want: allNodes + 1},
		{name: "a pool's status counts changed", handler: h.controller.poolHandler, old: pool, new: statusOnly, want: 0},
		{name: "a pool targets another configuration: its nodes and the pool", handler: h.controller.poolHandler, old: pool, new: retargetedPool, want: workers + 1},
		{name: "a rendered config's version changed: the nodes at or going to it", handler: h.controller.configHandler, old: mc, new: reversioned, want: 22 + 12},
		{name: "the target version changed: every node and pool", handler: h.controller.targetVersionHandler, old: cv, new: retargeted, want: allNodes + 2},
		{name: "a migration to another architecture began: every node and pool", handler: h.controller.targetVersionHandler, old: cv, new: migrating, want: allNodes + 2},
		{name: "the migration stopped progressing: every node and pool, judged by version again", handler: h.controller.targetVersionHandler, old: migrating, new: migrated, want: allNodes + 2},
		{name: "the ClusterVersion changed otherwise", handler: h.controller.targetVersionHandler, old: cv, new: conditionsOnly, want: 0},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			var queued []any
			tc.handler(func(key any) { queued = append(queued, key) }).OnUpdate(tc.old, tc.new)
			if len(queued) != tc.want {
				t.Errorf("queued %d keys, want %d: %v", len(queued), tc.want, queued)
			}
		})
	}
}
