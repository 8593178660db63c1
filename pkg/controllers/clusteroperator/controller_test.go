package clusteroperator

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	configinformers "github.com/openshift/client-go/config/informers/externalversions"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	appslisters "k8s.io/client-go/listers/apps/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/internal/hostedtest"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

var now = time.Date(2024, 8, 2, 9, 20, 0, 0, time.UTC)

type harness struct {
	t           *testing.T
	controller  *Controller
	client      *fake.Clientset
	operators   cache.Indexer
	versions    cache.Indexer
	deployments cache.Indexer
	insights    cache.Indexer
}

func newHarness(t *testing.T, objects ...runtime.Object) *harness {
	h := &harness{
		t:           t,
		operators:   cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		versions:    cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		deployments: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}),
		insights:    cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
	}
	var insightObjects []runtime.Object
	for _, o := range objects {
		switch o := o.(type) {
		case *configv1.ClusterOperator:
			must(t, h.operators.Add(o))
		case *configv1.ClusterVersion:
			must(t, h.versions.Add(o))
		case *appsv1.Deployment:
			must(t, h.deployments.Add(o))
		default:
			insightObjects = append(insightObjects, o)
		}
	}
	h.client = fake.NewSimpleClientset(insightObjects...)
	h.refresh()
	h.controller = &Controller{
		operators:       configlisters.NewClusterOperatorLister(h.operators),
		clusterVersions: configlisters.NewClusterVersionLister(h.versions),
		deployments:     appslisters.NewDeploymentLister(h.deployments).Deployments(names.MachineConfigOperatorNamespace),
		insights:        insightslisters.NewClusterOperatorProgressInsightLister(h.insights),
		writer:          insightwrite.ClusterOperatorProgressInsights(h.client.InsightsV1alpha1()).ChangedWhen(controlplane.ClusterOperatorProgressChanged),
		clock:           clocktesting.NewFakePassiveClock(now),
	}
	return h
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// refresh makes the insight cache hold what the fake server holds.
func (h *harness) refresh() {
	list, err := h.client.InsightsV1alpha1().ClusterOperatorProgressInsights().List(context.Background(), metav1.ListOptions{})
	must(h.t, err)
	var objs []any
	for i := range list.Items {
		objs = append(objs, &list.Items[i])
	}
	must(h.t, h.insights.Replace(objs, ""))
}

// sync runs one sync of key, through the tracker as in the operator (which
// retries a lost race), and returns the queue's delayed additions.
func (h *harness) sync(key string) map[any]time.Duration {
	h.t.Helper()
	syncCtx := controllertest.NewSyncContext(key)
	defer syncCtx.Q.ShutDown()
	h.client.ClearActions()
	must(h.t, tracker.New(clocktesting.NewFakePassiveClock(now), ignoreSyncs).Sync(Name, h.controller.sync)(context.Background(), syncCtx))
	h.refresh()
	return syncCtx.Q.AddedAfter
}

func (h *harness) writes() []string { return controllertest.Writes(h.client.Actions()) }

func (h *harness) status(name string) insightsv1alpha1.ClusterOperatorProgressInsightStatus {
	i, err := h.client.InsightsV1alpha1().ClusterOperatorProgressInsights().Get(context.Background(), name, metav1.GetOptions{})
	must(h.t, err)
	return i.Status
}

func operator(name, version string, payload bool) *configv1.ClusterOperator {
	co := &configv1.ClusterOperator{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: configv1.ClusterOperatorStatus{
			Versions: []configv1.OperandVersion{{Name: "operator", Version: version}},
			Conditions: []configv1.ClusterOperatorStatusCondition{
				{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue},
				{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Message: "Rolling out"},
			},
		},
	}
	if payload {
		co.Annotations = map[string]string{"include.release.openshift.io/self-managed-high-availability": "true"}
	}
	return co
}

func clusterVersion(desired string) *configv1.ClusterVersion {
	return &configv1.ClusterVersion{ObjectMeta: metav1.ObjectMeta{Name: "version"}, Status: configv1.ClusterVersionStatus{Desired: configv1.Release{Version: desired}}}
}

func insight(name string) *insightsv1alpha1.ClusterOperatorProgressInsight {
	return &insightsv1alpha1.ClusterOperatorProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: name, UID: "uid"}}
}

func TestSyncCreatesThenWritesAndThenLeavesAlone(t *testing.T) {
	h := newHarness(t, clusterVersion("4.16.0"), operator("etcd", "4.15.3", true))
	h.sync("etcd")
	if diff := cmp.Diff([]string{"create clusteroperatorprogressinsights etcd", "update clusteroperatorprogressinsights/status etcd"}, h.writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if got := h.status("etcd").Conditions[0]; got.Reason != insightsv1alpha1.ClusterOperatorProgressing {
		t.Errorf("Updating %s, want Progressing", got.Reason)
	}

	h.sync("etcd")
	if w := h.writes(); len(w) != 0 {
		t.Errorf("nothing changed, yet wrote %v", w)
	}
}

func TestSyncFollowsTheTargetVersionAndTheMachineConfigOperatorImage(t *testing.T) {
	mco := operator("machine-config", "4.16.0", true)
	mco.Status.Versions = append(mco.Status.Versions, configv1.OperandVersion{Name: "operator-image", Version: "quay.io/mco:amd64"})
	deployment := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: names.MachineConfigOperatorNamespace, Name: "machine-config-operator"},
		Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "kube-rbac-proxy", Image: "quay.io/proxy"},
			{Name: "machine-config-operator", Image: "quay.io/mco:multi"},
		}}}},
	}
	h := newHarness(t, clusterVersion("4.16.0"), mco, deployment)
	h.sync("machine-config")
	if got := h.status("machine-config").Conditions[0]; got.Reason != insightsv1alpha1.ClusterOperatorProgressing {
		t.Errorf("machine-config at the target version but not the Deployment's image: Updating %s, want Progressing", got.Reason)
	}

	mco = mco.DeepCopy()
	mco.Status.Versions[1].Version = "quay.io/mco:multi"
	must(t, h.operators.Update(mco))
	h.sync("machine-config")
	if got := h.status("machine-config").Conditions[0]; got.Reason != insightsv1alpha1.ClusterOperatorUpdated {
		t.Errorf("machine-config at the target version and image: Updating %s, want Updated", got.Reason)
	}

	must(t, h.versions.Update(clusterVersion("4.17.0")))
	h.sync("machine-config")
	if got := h.status("machine-config").Conditions[0]; got.Reason != insightsv1alpha1.ClusterOperatorProgressing {
		t.Errorf("after the target moved on: Updating %s, want Progressing", got.Reason)
	}
}

func TestSyncDeletesTheInsightOfAnOperatorGoneOrNoLongerInThePayload(t *testing.T) {
	for _, tc := range []struct {
		name    string
		objects []runtime.Object
	}{
		{name: "gone", objects: []runtime.Object{insight("etcd")}},
		{name: "no longer in the payload", objects: []runtime.Object{insight("etcd"), operator("etcd", "4.16.0", false)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, append(tc.objects, clusterVersion("4.16.0"))...)
			h.sync("etcd")
			if diff := cmp.Diff([]string{"delete clusteroperatorprogressinsights etcd"}, h.writes()); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("an add-on never gets one", func(t *testing.T) {
		h := newHarness(t, clusterVersion("4.16.0"), operator("add-on", "1.0", false))
		h.sync("add-on")
		if w := h.writes(); len(w) != 0 {
			t.Errorf("wrote %v for an add-on", w)
		}
	})
}

func TestSyncRequeuesAfterASecondWhenItLosesARace(t *testing.T) {
	h := newHarness(t, clusterVersion("4.16.0"), operator("etcd", "4.15.3", true), insight("etcd"))
	h.client.PrependReactor("update", "clusteroperatorprogressinsights", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "clusteroperatorprogressinsights"}, "etcd", fmt.Errorf("stale"))
	})
	if diff := cmp.Diff(map[any]time.Duration{"etcd": time.Second}, h.sync("etcd")); diff != "" {
		t.Errorf("requeue (-want +got):\n%s", diff)
	}
}

func TestTargetVersionChangesQueueEveryOperator(t *testing.T) {
	h := newHarness(t, operator("etcd", "4.15.3", true), operator("dns", "4.15.3", true))
	var queued []any
	handler := h.controller.targetVersionHandler(func(k any) { queued = append(queued, k) })

	handler.OnUpdate(clusterVersion("4.16.0"), clusterVersion("4.16.0"))
	if len(queued) != 0 {
		t.Errorf("a ClusterVersion change that kept the target queued %v", queued)
	}
	handler.OnUpdate(clusterVersion("4.16.0"), clusterVersion("4.17.0"))
	if len(queued) != 2 {
		t.Errorf("a new target queued %v, want both operators", queued)
	}
}

func TestPeriodicResyncQueuesEveryOperatorAndInsight(t *testing.T) {
	h := newHarness(t, operator("etcd", "4.15.3", true), insight("gone"))
	syncCtx := controllertest.NewSyncContext(factory.DefaultQueueKey)
	defer syncCtx.Q.ShutDown()
	must(t, h.controller.sync(context.Background(), syncCtx))
	if diff := cmp.Diff([]string{"etcd", "gone"}, syncCtx.Drain()); diff != "" {
		t.Errorf("queued (-want +got):\n%s", diff)
	}
}

// ignoreSyncs is a tracker's observer for tests that do not measure syncs.
func ignoreSyncs(string, time.Duration, error) {}

// TestHostedClusterSyntheticOperatorsGetNoInsight: on a hosted cluster the
// six ClusterOperators of the hosted-cluster-config-operator get no insight,
// annotated or not, and one left from before is deleted: their Healthy
// condition would repeat its constant conditions, and their Updating its
// flip (see controlplane.Counts). The guest's own operators get theirs, and
// nothing needs the machine-config operator's Deployment, which is not
// there.
func TestHostedClusterSyntheticOperatorsGetNoInsight(t *testing.T) {
	since := now.Add(-time.Hour)
	annotated := hostedtest.SyntheticOperator("kube-apiserver", "4.18.3", "1.31.6", since)
	annotated.Annotations = map[string]string{hostedtest.IBMCloudManaged: "true"}
	for _, tc := range []struct {
		name       string
		objects    []runtime.Object
		sync       string
		wantWrites []string
	}{
		{name: "synthetic, as written", objects: []runtime.Object{hostedtest.SyntheticOperator("kube-scheduler", "4.18.3", "1.31.6", since)},
			sync: "kube-scheduler"},
		{name: "synthetic, annotated", objects: []runtime.Object{annotated}, sync: "kube-apiserver"},
		{name: "synthetic, an insight left from before", objects: []runtime.Object{annotated, insight("kube-apiserver")}, sync: "kube-apiserver",
			wantWrites: []string{"delete clusteroperatorprogressinsights kube-apiserver"}},
		{name: "a guest operator", objects: []runtime.Object{hostedtest.RealOperator("ingress", "4.17.8", true, since)}, sync: "ingress",
			wantWrites: []string{"create clusteroperatorprogressinsights ingress", "update clusteroperatorprogressinsights/status ingress"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, append(tc.objects, clusterVersion("4.18.3"))...)
			h.controller.topology, h.controller.deployments = hosted.Hosted, nil
			h.sync(tc.sync)
			if diff := cmp.Diff(tc.wantWrites, h.writes()); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNewOnAHostedCluster: on a hosted cluster there is no machine-config
// operator Deployment to watch: the controller is built without its
// informer.
func TestNewOnAHostedCluster(t *testing.T) {
	config := configinformers.NewSharedInformerFactory(configfake.NewSimpleClientset(), 0)
	client := fake.NewSimpleClientset()
	insights := insightinformers.NewSharedInformerFactory(client, 0).Insights().V1alpha1()
	clock := clocktesting.NewFakeClock(now)
	c, err := New(config.Config().V1().ClusterOperators(), config.Config().V1().ClusterVersions(), nil,
		insights.ClusterOperatorProgressInsights(), client.InsightsV1alpha1(),
		tracker.New(clock, ignoreSyncs), events.NewInMemoryRecorder("test", clock), clock, Options{Topology: hosted.Hosted})
	if err != nil || c == nil {
		t.Fatalf("New without the machine-config operator's Deployments: %v", err)
	}
}
