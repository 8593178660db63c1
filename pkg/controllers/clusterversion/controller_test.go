package clusterversion

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
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/healthinsights"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/payload"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/internal/hostedtest"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

var started = time.Date(2024, 8, 2, 9, 0, 0, 0, time.UTC)

// harness runs the controller's sync against a fake clientset, with indexers
// standing in for the informers' caches.
type harness struct {
	t           *testing.T
	controller  *Controller
	client      *fake.Clientset
	clock       *clocktesting.FakeClock
	cvs         cache.Indexer
	operators   cache.Indexer
	deployments cache.Indexer
	insights    cache.Indexer
	health      cache.Indexer
}

func newHarness(t *testing.T, objects ...runtime.Object) *harness {
	h := &harness{
		t:           t,
		clock:       clocktesting.NewFakeClock(started.Add(20 * time.Minute)),
		cvs:         cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		operators:   cache.NewIndexer(cache.MetaNamespaceKeyFunc, payload.Indexers()),
		deployments: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}),
		insights:    cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		health:      cache.NewIndexer(cache.MetaNamespaceKeyFunc, healthinsights.Indexers()),
	}
	var insightObjects []runtime.Object
	for _, o := range objects {
		switch o := o.(type) {
		case *configv1.ClusterVersion:
			must(t, h.cvs.Add(o))
		case *configv1.ClusterOperator:
			must(t, h.operators.Add(o))
		case *appsv1.Deployment:
			must(t, h.deployments.Add(o))
		default:
			insightObjects = append(insightObjects, o)
		}
	}
	h.client = fake.NewSimpleClientset(insightObjects...)
	h.refreshInsightCaches()
	c := h.client.InsightsV1alpha1()
	h.controller = &Controller{
		clusterVersions: configlisters.NewClusterVersionLister(h.cvs),
		operators:       h.operators,
		deployments:     appslisters.NewDeploymentLister(h.deployments).Deployments(names.MachineConfigOperatorNamespace),
		insights:        insightslisters.NewClusterVersionProgressInsightLister(h.insights),
		writer:          insightwrite.ClusterVersionProgressInsights(c).ChangedWhen(controlplane.ClusterVersionProgressChanged),
		health:          healthinsights.NewSyncer(healthInsightManager, c, h.health, h.clock),
		clock:           h.clock,
	}
	return h
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// refreshInsightCaches makes the caches hold what the fake server holds, as
// informers would after their watches deliver.
func (h *harness) refreshInsightCaches() {
	ctx := context.Background()
	cvpis, err := h.client.InsightsV1alpha1().ClusterVersionProgressInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	uhis, err := h.client.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	controllertest.Replace(h.t, h.insights, cvpis.Items)
	controllertest.Replace(h.t, h.health, uhis.Items)
}

// sync runs one sync of key, through the tracker as in the operator (which
// retries a lost race), and returns the queue's delayed additions.
func (h *harness) sync(key string) (map[any]time.Duration, error) {
	syncCtx := controllertest.NewSyncContext(key)
	defer syncCtx.Q.ShutDown()
	h.client.ClearActions()
	err := tracker.New(h.clock, ignoreSyncs).Sync(Name, h.controller.sync)(context.Background(), syncCtx)
	h.refreshInsightCaches()
	return syncCtx.Q.AddedAfter, err
}

// writes lists the fake server's write actions as "verb resource[/subresource] name".
func (h *harness) writes() []string { return controllertest.Writes(h.client.Actions()) }

func (h *harness) insight(name string) *insightsv1alpha1.ClusterVersionProgressInsight {
	i, err := h.client.InsightsV1alpha1().ClusterVersionProgressInsights().Get(context.Background(), name, metav1.GetOptions{})
	must(h.t, err)
	return i
}

func clusterVersion(annotations map[string]string) *configv1.ClusterVersion {
	return &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version", Annotations: annotations},
		Status: configv1.ClusterVersionStatus{
			Desired: configv1.Release{Version: "4.16.0"},
			Conditions: []configv1.ClusterOperatorStatusCondition{
				{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Message: "Working towards 4.16.0", LastTransitionTime: metav1.NewTime(started)},
				{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: metav1.NewTime(started)},
			},
			History: []configv1.UpdateHistory{
				{Version: "4.16.0", State: configv1.PartialUpdate, StartedTime: metav1.NewTime(started)},
				{Version: "4.15.3", State: configv1.CompletedUpdate, StartedTime: metav1.NewTime(started.Add(-time.Hour)), CompletionTime: &metav1.Time{Time: started.Add(-10 * time.Minute)}},
			},
		},
	}
}

func clusterOperator(name, version string, payload bool) *configv1.ClusterOperator {
	co := &configv1.ClusterOperator{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status:     configv1.ClusterOperatorStatus{Versions: []configv1.OperandVersion{{Name: "operator", Version: version}}},
	}
	if payload {
		co.Annotations = map[string]string{"include.release.openshift.io/self-managed-high-availability": "true"}
	}
	return co
}

func insightObject(name string) *insightsv1alpha1.ClusterVersionProgressInsight {
	return &insightsv1alpha1.ClusterVersionProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: name, UID: "uid-" + "name"}}
}

func TestSyncCreatesTheInsightThenWritesItsStatus(t *testing.T) {
	h := newHarness(t, clusterVersion(nil),
		clusterOperator("etcd", "4.16.0", true), clusterOperator("dns", "4.15.3", true),
		clusterOperator("add-on", "4.15.3", false))
	requeued, err := h.sync("version")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"create clusterversionprogressinsights version",
		"update clusterversionprogressinsights/status version",
	}
	if diff := cmp.Diff(want, h.writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	got := h.insight("version").Status
	// The non-payload add-on does not count: 1 of 2.
	if got.Assessment != insightsv1alpha1.ClusterVersionAssessmentProgressing || got.CompletionPercent != 50 || got.EstimatedCompletedAt == nil {
		t.Fatalf("status %+v, want Progressing at 50%% with an estimate", got)
	}
	// Synced again the moment the update runs past its estimate, which the
	// assessment then says, with nothing else changed.
	after, ok := requeued["version"]
	if len(requeued) != 1 || !ok {
		t.Fatalf("requeued %v, want version once the estimate passes", requeued)
	}
	h.clock.Step(after - 2*time.Millisecond)
	if _, err := h.sync("version"); err != nil {
		t.Fatal(err)
	}
	if a := h.insight("version").Status.Assessment; a != insightsv1alpha1.ClusterVersionAssessmentProgressing {
		t.Errorf("assessment %s just before the requeue, want Progressing", a)
	}
	h.clock.Step(2 * time.Millisecond)
	if _, err := h.sync("version"); err != nil {
		t.Fatal(err)
	}
	if a := h.insight("version").Status.Assessment; a != insightsv1alpha1.ClusterVersionAssessmentProgressingSlow {
		t.Errorf("assessment %s at the requeue, want ProgressingSlow", a)
	}
}

func mcoDeployment(image string) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: names.MachineConfigOperatorNamespace, Name: names.MachineConfigOperatorDeployment},
		Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "kube-rbac-proxy", Image: "quay.io/proxy"},
			{Name: names.MachineConfigOperatorDeployment, Image: image},
		}}}},
	}
}

// TestCompletionCountsMachineConfigByTheDeploymentImage: during a migration
// to the multi-architecture payload every operator is at the target version
// at once; machine-config is updated only once it reports the image its
// Deployment runs, as its ClusterOperator insight says.
func TestCompletionCountsMachineConfigByTheDeploymentImage(t *testing.T) {
	mco := clusterOperator("machine-config", "4.16.0", true)
	mco.Status.Versions = append(mco.Status.Versions, configv1.OperandVersion{Name: "operator-image", Version: "quay.io/mco:amd64"})
	h := newHarness(t, clusterVersion(nil), clusterOperator("etcd", "4.16.0", true), mco, mcoDeployment("quay.io/mco:multi"))
	if _, err := h.sync("version"); err != nil {
		t.Fatal(err)
	}
	if got := h.insight("version").Status.CompletionPercent; got != 50 {
		t.Errorf("completion %d, want 50: machine-config does not run its Deployment's image yet", got)
	}

	mco = mco.DeepCopy()
	mco.Status.Versions[1].Version = "quay.io/mco:multi"
	must(t, h.operators.Update(mco))
	if _, err := h.sync("version"); err != nil {
		t.Fatal(err)
	}
	if got := h.insight("version").Status.CompletionPercent; got != 100 {
		t.Errorf("completion %d, want 100 once machine-config runs its Deployment's image", got)
	}
}

func TestSyncRequeuesAfterASecondWhenItLosesARace(t *testing.T) {
	t.Run("the insight was created by someone else after the cache was read", func(t *testing.T) {
		h := newHarness(t, clusterVersion(nil))
		must(t, h.client.Tracker().Add(insightObject("version")))
		must(t, h.insights.Delete(insightObject("version")))

		requeued, err := h.sync("version")
		if err != nil {
			t.Fatalf("an AlreadyExists race is not an error, got %v", err)
		}
		if diff := cmp.Diff(map[any]time.Duration{"version": time.Second}, requeued); diff != "" {
			t.Errorf("requeue (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"create clusterversionprogressinsights version"}, h.writes()); diff != "" {
			t.Errorf("writes (-want +got):\n%s", diff)
		}
	})
	t.Run("the status write conflicts", func(t *testing.T) {
		h := newHarness(t, clusterVersion(nil), insightObject("version"))
		h.client.PrependReactor("update", "clusterversionprogressinsights", func(a clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "openshift.muller.dev", Resource: "clusterversionprogressinsights"}, "version", fmt.Errorf("stale"))
		})
		requeued, err := h.sync("version")
		if err != nil {
			t.Fatalf("a conflict is not an error, got %v", err)
		}
		if diff := cmp.Diff(map[any]time.Duration{"version": time.Second}, requeued); diff != "" {
			t.Errorf("requeue (-want +got):\n%s", diff)
		}
	})
	// The health insight a sync created is not yet in the cache when the
	// next sync runs, which then writes from a stale copy.
	t.Run("a health insight's status write conflicts", func(t *testing.T) {
		h := newHarness(t, clusterVersion(map[string]string{health.ForceInsightAnnotation: ""}))
		h.client.PrependReactor("update", "updatehealthinsights", func(a clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "openshift.muller.dev", Resource: "updatehealthinsights"}, "forced", fmt.Errorf("stale"))
		})
		requeued, err := h.sync("version")
		if err != nil {
			t.Fatalf("a conflict is not an error, got %v", err)
		}
		if diff := cmp.Diff(map[any]time.Duration{"version": time.Second}, requeued); diff != "" {
			t.Errorf("requeue (-want +got):\n%s", diff)
		}
	})
}

func TestSyncDeletesTheInsightAndItsHealthInsightsWhenTheClusterVersionIsGone(t *testing.T) {
	h := newHarness(t, clusterVersion(map[string]string{health.ForceInsightAnnotation: ""}))
	_, err := h.sync("version")
	must(t, err)
	forced := health.Forced(clusterVersion(map[string]string{health.ForceInsightAnnotation: ""}))[0].Name

	must(t, h.cvs.Delete(clusterVersion(nil)))
	_, err = h.sync("version")
	must(t, err)
	// The health insights first: a ClusterVersion recreated before the
	// insight's deletion completes must not inherit them.
	want := []string{
		"delete updatehealthinsights " + forced,
		"delete clusterversionprogressinsights version",
	}
	if diff := cmp.Diff(want, h.writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}

	_, err = h.sync("version")
	must(t, err)
	if w := h.writes(); len(w) != 0 {
		t.Errorf("with neither a ClusterVersion nor an insight, wrote %v", w)
	}
}

func TestSyncWritesNothingWhenNothingSignificantChanged(t *testing.T) {
	// 52 minutes into an update expected to take 60 (no earlier update to
	// learn from) with nothing updated yet: 8m x1.2 remain, estimated to the
	// second, and the estimate drifts by a fifth of the time that passes.
	h := newHarness(t, clusterVersion(nil), clusterOperator("etcd", "4.15.3", true), clusterOperator("dns", "4.15.3", true))
	h.clock.SetTime(started.Add(52 * time.Minute))
	_, err := h.sync("version")
	must(t, err)

	for _, step := range []time.Duration{time.Second, 10 * time.Second, 2 * time.Minute} {
		h.clock.Step(step)
		_, err = h.sync("version")
		must(t, err)
		if w := h.writes(); len(w) != 0 {
			t.Errorf("after %s more, wrote %v; want nothing (estimate drifted under 30s)", step, w)
		}
	}
	// Three minutes more: the estimate has drifted 62s in all and is refreshed.
	h.clock.Step(3 * time.Minute)
	_, err = h.sync("version")
	must(t, err)
	if diff := cmp.Diff([]string{"update clusterversionprogressinsights/status version"}, h.writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
}

func TestForcedHealthInsightLifecycle(t *testing.T) {
	forcedCV := clusterVersion(map[string]string{health.ForceInsightAnnotation: "yes"})
	name := health.Forced(forcedCV)[0].Name
	h := newHarness(t, forcedCV)
	_, err := h.sync("version")
	must(t, err)

	uhi, err := h.client.InsightsV1alpha1().UpdateHealthInsights().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("forced health insight not created: %v", err)
	}
	if uhi.Labels[healthinsights.ManagerLabel] != "clusterversion" {
		t.Errorf("labels %v, want insight-manager=clusterversion", uhi.Labels)
	}
	owner := h.insight("version")
	// The insight is its controller, without blocking its deletion.
	wantOwner := []metav1.OwnerReference{{APIVersion: insightsv1alpha1.SchemeGroupVersion.String(), Kind: "ClusterVersionProgressInsight",
		Name: owner.Name, UID: owner.UID, Controller: ptr.To(true)}}
	if diff := cmp.Diff(wantOwner, uhi.OwnerReferences); diff != "" {
		t.Errorf("owner references (-want +got):\n%s", diff)
	}
	firstStart := uhi.Status.StartedAt
	if !firstStart.Time.Equal(h.clock.Now()) {
		t.Errorf("startedAt = %v, want the time it was first reported, %v", firstStart, h.clock.Now())
	}

	h.clock.Step(10 * time.Second)
	_, err = h.sync("version")
	must(t, err)
	if w := h.writes(); len(w) != 0 {
		t.Errorf("nothing changed, yet wrote %v", w)
	}
	uhi, err = h.client.InsightsV1alpha1().UpdateHealthInsights().Get(context.Background(), name, metav1.GetOptions{})
	must(t, err)
	if !uhi.Status.StartedAt.Equal(&firstStart) {
		t.Errorf("startedAt moved from %v to %v", firstStart, uhi.Status.StartedAt)
	}

	must(t, h.cvs.Update(clusterVersion(nil)))
	_, err = h.sync("version")
	must(t, err)
	if diff := cmp.Diff([]string{"delete updatehealthinsights " + name}, h.writes()); diff != "" {
		t.Errorf("writes after the annotation went (-want +got):\n%s", diff)
	}
}

func TestPeriodicResyncQueuesEveryClusterVersionAndInsight(t *testing.T) {
	h := newHarness(t, clusterVersion(nil), insightObject("orphan"))
	syncCtx := controllertest.NewSyncContext(factory.DefaultQueueKey)
	defer syncCtx.Q.ShutDown()
	must(t, h.controller.sync(context.Background(), syncCtx))
	if diff := cmp.Diff([]string{"version", "orphan"}, syncCtx.Drain()); diff != "" {
		t.Errorf("queued (-want +got):\n%s", diff)
	}
}

func TestOperatorEventsThatQueueTheClusterVersion(t *testing.T) {
	withVersion := func(co *configv1.ClusterOperator, v string) *configv1.ClusterOperator {
		co = co.DeepCopy()
		co.Status.Versions[0].Version = v
		return co
	}
	withCondition := func(co *configv1.ClusterOperator, t configv1.ClusterStatusConditionType) *configv1.ClusterOperator {
		co = co.DeepCopy()
		co.Status.Conditions = append(co.Status.Conditions, configv1.ClusterOperatorStatusCondition{Type: t, Status: configv1.ConditionFalse})
		return co
	}
	withImage := func(co *configv1.ClusterOperator, image string) *configv1.ClusterOperator {
		co = co.DeepCopy()
		co.Status.Versions = append(co.Status.Versions, configv1.OperandVersion{Name: "operator-image", Version: image})
		return co
	}
	payloadCO := clusterOperator("etcd", "4.15.3", true)
	addOn := clusterOperator("add-on", "1.0", false)
	synthetic := hostedtest.SyntheticOperator("kube-apiserver", "4.17.8", "1.30.10", started)
	flipped := hostedtest.SyntheticOperator("kube-apiserver", "4.18.3", "1.31.6", started)
	annotatedSynthetic, annotatedFlipped := synthetic.DeepCopy(), flipped.DeepCopy()
	annotatedSynthetic.Annotations = map[string]string{hostedtest.IBMCloudManaged: "true"}
	annotatedFlipped.Annotations = annotatedSynthetic.Annotations
	guest := hostedtest.RealOperator("ingress", "4.17.8", false, started)
	testCases := []struct {
		name   string
		hosted bool
		fire   func(cache.ResourceEventHandler)
		want   int
	}{
		{name: "payload operator added", fire: func(h cache.ResourceEventHandler) { h.OnAdd(payloadCO, false) }, want: 1},
		{name: "add-on added", fire: func(h cache.ResourceEventHandler) { h.OnAdd(addOn, false) }, want: 0},
		{name: "payload operator version changed", fire: func(h cache.ResourceEventHandler) { h.OnUpdate(payloadCO, withVersion(payloadCO, "4.16.0")) }, want: 1},
		{name: "payload operator reports a new operator image", fire: func(h cache.ResourceEventHandler) {
			h.OnUpdate(withImage(payloadCO, "quay.io/mco:amd64"), withImage(payloadCO, "quay.io/mco:multi"))
		}, want: 1},
		{name: "payload operator became degraded", fire: func(h cache.ResourceEventHandler) {
			h.OnUpdate(payloadCO, withCondition(payloadCO, configv1.OperatorDegraded))
		}, want: 1},
		{name: "payload operator became unavailable", fire: func(h cache.ResourceEventHandler) {
			h.OnUpdate(payloadCO, withCondition(payloadCO, configv1.OperatorAvailable))
		}, want: 1},
		{name: "payload operator Progressing changed", fire: func(h cache.ResourceEventHandler) {
			h.OnUpdate(payloadCO, withCondition(payloadCO, configv1.OperatorProgressing))
		}, want: 0},
		{name: "add-on version changed", fire: func(h cache.ResourceEventHandler) { h.OnUpdate(addOn, withVersion(addOn, "2.0")) }, want: 0},
		{name: "operator became a payload operator", fire: func(h cache.ResourceEventHandler) {
			h.OnUpdate(addOn, clusterOperator("add-on", "1.0", true))
		}, want: 1},
		{name: "payload operator deleted", fire: func(h cache.ResourceEventHandler) { h.OnDelete(payloadCO) }, want: 1},
		{name: "payload operator deleted, seen as a tombstone", fire: func(h cache.ResourceEventHandler) {
			h.OnDelete(cache.DeletedFinalStateUnknown{Key: "etcd", Obj: payloadCO})
		}, want: 1},
		{name: "add-on deleted", fire: func(h cache.ResourceEventHandler) { h.OnDelete(addOn) }, want: 0},
		{name: "hosted: synthetic operator flipped", hosted: true, fire: func(h cache.ResourceEventHandler) { h.OnUpdate(synthetic, flipped) }, want: 0},
		{name: "hosted: synthetic operator, annotated, flipped", hosted: true, fire: func(h cache.ResourceEventHandler) {
			h.OnUpdate(annotatedSynthetic, annotatedFlipped)
		}, want: 0},
		{name: "hosted: synthetic operator, annotated, added", hosted: true, fire: func(h cache.ResourceEventHandler) { h.OnAdd(annotatedSynthetic, false) }, want: 0},
		{name: "standalone: the same operator's version changed", fire: func(h cache.ResourceEventHandler) {
			h.OnUpdate(annotatedSynthetic, annotatedFlipped)
		}, want: 1},
		{name: "hosted: guest operator version changed", hosted: true, fire: func(h cache.ResourceEventHandler) { h.OnUpdate(guest, withVersion(guest, "4.18.3")) }, want: 1},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			var queued []any
			topology := hosted.Standalone
			if tc.hosted {
				topology = hosted.Hosted
			}
			tc.fire(operatorEventHandler(topology, func(key any) { queued = append(queued, key) }))
			if len(queued) != tc.want {
				t.Fatalf("queued %v, want %d entries", queued, tc.want)
			}
			for _, k := range queued {
				if k != "version" {
					t.Errorf("queued %v, want the ClusterVersion's name, version", k)
				}
			}
		})
	}
}

// TestUpdateReplayWritesOncePerCompletionStep replays an update of 33
// operators moving one by one, a minute apart, and counts status writes.
func TestUpdateReplayWritesOncePerCompletionStep(t *testing.T) {
	var objects []runtime.Object
	for i := 0; i < 33; i++ {
		objects = append(objects, clusterOperator(fmt.Sprintf("operator-%02d", i), "4.15.3", true))
	}
	h := newHarness(t, append(objects, clusterVersion(nil))...)
	statusWrites := 0
	countWrites := func() {
		for _, w := range h.writes() {
			if w == "update clusterversionprogressinsights/status version" {
				statusWrites++
			}
		}
	}
	_, err := h.sync("version")
	must(t, err)
	countWrites()

	completions := map[int32]bool{h.insight("version").Status.CompletionPercent: true}
	for i := 0; i < 33; i++ {
		h.clock.Step(time.Minute)
		must(t, h.operators.Update(clusterOperator(fmt.Sprintf("operator-%02d", i), "4.16.0", true)))
		// Each change is seen twice, as events from two informers would do.
		for range 2 {
			_, err := h.sync("version")
			must(t, err)
			countWrites()
		}
		completions[h.insight("version").Status.CompletionPercent] = true
	}

	// The ClusterVersion completes: one more write, the condition change.
	cv := clusterVersion(nil)
	cv.Status.Conditions[0].Status = configv1.ConditionFalse
	cv.Status.History[0].State = configv1.CompletedUpdate
	cv.Status.History[0].CompletionTime = &metav1.Time{Time: h.clock.Now()}
	must(t, h.cvs.Update(cv))
	_, err = h.sync("version")
	must(t, err)
	countWrites()
	conditionChanges := 1

	t.Logf("%d status writes for %d distinct completion values and %d condition change", statusWrites, len(completions), conditionChanges)
	if max := len(completions) + conditionChanges; statusWrites > max {
		t.Errorf("%d status writes for %d distinct completion values and %d condition changes, want at most %d", statusWrites, len(completions), conditionChanges, max)
	}
	if got := h.insight("version").Status; got.Assessment != insightsv1alpha1.ClusterVersionAssessmentCompleted || got.CompletionPercent != 100 {
		t.Errorf("final status %s at %d%%, want Completed at 100%%", got.Assessment, got.CompletionPercent)
	}

	// An idle cluster costs nothing.
	h.clock.Step(time.Hour)
	_, err = h.sync("version")
	must(t, err)
	if w := h.writes(); len(w) != 0 {
		t.Errorf("idle cluster, yet wrote %v", w)
	}
}

func TestSyncReportsADegradedOperatorAndRequeuesForItsEscalation(t *testing.T) {
	co := clusterOperator("etcd", "4.15.3", true)
	h := newHarness(t, clusterVersion(nil), co)
	degradedSince := h.clock.Now().Add(-10 * time.Minute)
	co.Status.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue},
		{Type: configv1.OperatorDegraded, Status: configv1.ConditionTrue, Reason: "Broken", LastTransitionTime: metav1.NewTime(degradedSince)},
	}
	must(t, h.operators.Update(co))

	requeued, err := h.sync("version")
	must(t, err)
	list, err := h.client.InsightsV1alpha1().UpdateHealthInsights().List(context.Background(), metav1.ListOptions{})
	must(t, err)
	if len(list.Items) != 1 || list.Items[0].Status.Impact.Summary != "Cluster Operator etcd is degraded (Broken)" || list.Items[0].Status.Impact.Level != insightsv1alpha1.WarningImpactLevel {
		t.Fatalf("health insights %+v, want one Warning about etcd", list.Items)
	}
	if !list.Items[0].Status.StartedAt.Time.Equal(degradedSince) {
		t.Errorf("startedAt %v, want when etcd became degraded, %v", list.Items[0].Status.StartedAt, degradedSince)
	}
	// The escalation, 30 minutes away, comes before the estimate passes.
	if d := requeued["version"]; d != 30*time.Minute {
		t.Errorf("requeued after %v, want 30m, when the degradation becomes an error", d)
	}
}

// ignoreSyncs is a tracker's observer for tests that do not measure syncs.
func ignoreSyncs(string, time.Duration, error) {}

// TestHostedClusterCompletionCountsTheGuestsOperators: on a hosted cluster,
// where there is no machine-config operator Deployment to read, the six
// ClusterOperators of the hosted-cluster-config-operator, flipped early in
// the update and even if annotated as payload ones, do not count: one of the
// guest's two operators is updated, 50%.
func TestHostedClusterCompletionCountsTheGuestsOperators(t *testing.T) {
	objects := []runtime.Object{clusterVersion(nil),
		hostedtest.RealOperator("ingress", "4.16.0", false, started.Add(5*time.Minute)),
		hostedtest.RealOperator("dns", "4.15.3", true, started.Add(6*time.Minute))}
	for _, co := range hostedtest.SyntheticOperators("4.16.0", "1.29.8", started.Add(-time.Hour)) {
		co.Annotations = map[string]string{hostedtest.IBMCloudManaged: "true"}
		objects = append(objects, co)
	}
	h := newHarness(t, objects...)
	h.controller.topology, h.controller.deployments = hosted.Hosted, nil
	if _, err := h.sync("version"); err != nil {
		t.Fatal(err)
	}
	if got := h.insight("version").Status.CompletionPercent; got != 50 {
		t.Errorf("completion %d%%, want 50%%: one of the guest's two operators updated", got)
	}
}

// TestNewOnAHostedCluster: on a hosted cluster there is no machine-config
// operator Deployment to watch: the controller is built without its
// informer, and judges every operator by its version.
func TestNewOnAHostedCluster(t *testing.T) {
	config := configinformers.NewSharedInformerFactory(configfake.NewSimpleClientset(), 0)
	client := fake.NewSimpleClientset()
	insights := insightinformers.NewSharedInformerFactory(client, 0).Insights().V1alpha1()
	clock := clocktesting.NewFakeClock(started)
	c, err := New(config.Config().V1().ClusterVersions(), config.Config().V1().ClusterOperators(), nil,
		insights.ClusterVersionProgressInsights(), insights.UpdateHealthInsights(), client.InsightsV1alpha1(),
		tracker.New(clock, ignoreSyncs), events.NewInMemoryRecorder("test", clock), clock, Options{Topology: hosted.Hosted})
	if err != nil || c == nil {
		t.Fatalf("New without the machine-config operator's Deployments: %v", err)
	}
}
