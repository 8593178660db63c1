package updateevents

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
)

// world is what the informers' caches hold at one sync.
type world struct {
	// insight is the status of the ClusterVersion insight, or nil for none.
	insight *insightsv1alpha1.ClusterVersionProgressInsightStatus
	health  []*insightsv1alpha1.UpdateHealthInsight
}

// harness runs the controller's sync, with indexers standing in for the
// informers' caches and a fake recorder collecting the Events.
type harness struct {
	t          *testing.T
	controller *Controller
	recorder   *record.FakeRecorder
	insights   cache.Indexer
	health     cache.Indexer
}

func newHarness(t *testing.T) *harness {
	h := &harness{
		t:        t,
		recorder: record.NewFakeRecorder(100),
		insights: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		health:   cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
	}
	h.controller = &Controller{
		clusterVersions: insightslisters.NewClusterVersionProgressInsightLister(h.insights),
		health:          insightslisters.NewUpdateHealthInsightLister(h.health),
		recorder:        h.recorder,
	}
	return h
}

// sync puts w in the caches, syncs, and returns the Events recorded.
func (h *harness) sync(w world) []string {
	h.t.Helper()
	var insights, health []any
	if w.insight != nil {
		insights = append(insights, &insightsv1alpha1.ClusterVersionProgressInsight{
			ObjectMeta: metav1.ObjectMeta{Name: "version"},
			Status:     *w.insight,
		})
	}
	for _, hi := range w.health {
		health = append(health, hi)
	}
	must(h.t, h.insights.Replace(insights, ""))
	must(h.t, h.health.Replace(health, ""))

	must(h.t, h.controller.sync(context.Background(), newSyncContext()))
	var recorded []string
	for len(h.recorder.Events) > 0 {
		recorded = append(recorded, <-h.recorder.Events)
	}
	return recorded
}

// newSyncContext is a sync context as the factory makes it; the sync uses
// neither its key nor its recorder.
func newSyncContext() factory.SyncContext {
	return factory.NewSyncContext("test", events.NewInMemoryRecorder("test", clocktesting.NewFakePassiveClock(started)))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestSync(t *testing.T) {
	updating := status("4.14.1", "4.15.0", started, time.Time{})
	updated := status("4.14.1", "4.15.0", started, completed)
	next := status("4.15.0", "4.15.1", completed.Add(24*time.Hour), time.Time{})
	earlier := status("4.14.0", "4.14.1", started.Add(-48*time.Hour), started.Add(-47*time.Hour))
	unwritten := insightsv1alpha1.ClusterVersionProgressInsightStatus{}
	etcd := healthInsight("etcd-degraded", insightsv1alpha1.ErrorImpactLevel)
	api := healthInsight("api-down", insightsv1alpha1.CriticalImpactLevel)
	slow := healthInsight("node-slow", insightsv1alpha1.WarningImpactLevel)

	const (
		startedEvent   = "Normal UpdateStarted Started updating the control plane from 4.14.1 to 4.15.0"
		completedEvent = "Normal UpdateCompleted Completed the control plane update to 4.15.0 in 1h12m"
		etcdEvent      = "Warning ErrorHealthInsight Health insight etcd-degraded is Error: Summary of etcd-degraded"
		apiEvent       = "Warning ErrorHealthInsight Health insight api-down is Critical: Summary of api-down"
	)

	type step struct {
		world world
		want  []string
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{{
		name: "the first sync only remembers",
		steps: []step{
			{world: world{insight: &updated, health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}},
			{world: world{insight: &updated, health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}},
		},
	}, {
		name: "an update starts",
		steps: []step{
			{world: world{insight: &unwritten}},
			{world: world{insight: &earlier}},
			{world: world{insight: &updating}, want: []string{startedEvent}},
			{world: world{insight: &updating}},
		},
	}, {
		name: "an update completes",
		steps: []step{
			{world: world{insight: &updating}},
			{world: world{insight: &updated}, want: []string{completedEvent}},
			{world: world{insight: &updated}},
		},
	}, {
		name: "a second update starts and completes",
		steps: []step{
			{world: world{insight: &updating}},
			{world: world{insight: &updated}, want: []string{completedEvent}},
			{world: world{insight: &next}, want: []string{"Normal UpdateStarted Started updating the control plane from 4.15.0 to 4.15.1"}},
		},
	}, {
		name: "the first Error health insight appears",
		steps: []step{
			{world: world{insight: &updating}},
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}, want: []string{etcdEvent}},
		},
	}, {
		name: "a second Error health insight appears while one exists",
		steps: []step{
			{world: world{insight: &updating}},
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}, want: []string{etcdEvent}},
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{etcd, api}}},
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{api}}},
		},
	}, {
		name: "an Error health insight appears again after all cleared",
		steps: []step{
			{world: world{insight: &updating}},
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}, want: []string{etcdEvent}},
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{slow}}},
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{api}}, want: []string{apiEvent}},
		},
	}, {
		name: "a Warning health insight is no news",
		steps: []step{
			{world: world{insight: &updating}},
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{slow}}},
		},
	}, {
		name: "an Error health insight without a ClusterVersion insight is no news",
		steps: []step{
			{world: world{}},
			{world: world{health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}},
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}},
		},
	}, {
		// A recreated insight restates an update that may have been
		// announced already: it is remembered afresh, not announced.
		name: "the insight is deleted and recreated",
		steps: []step{
			{world: world{insight: &updating, health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}},
			{world: world{health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}},
			{world: world{insight: &unwritten}},
			{world: world{insight: &next}},
			{world: world{insight: &next, health: []*insightsv1alpha1.UpdateHealthInsight{etcd}}, want: []string{etcdEvent}},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			for i, s := range tc.steps {
				if diff := cmp.Diff(s.want, h.sync(s.world)); diff != "" {
					t.Errorf("step %d: events (-want +got):\n%s", i, diff)
				}
			}
		})
	}
}

func TestFailingObject(t *testing.T) {
	for _, tc := range []struct {
		name string
		obj  any
		want bool
	}{
		{name: "Critical", obj: healthInsight("a", insightsv1alpha1.CriticalImpactLevel), want: true},
		{name: "Error", obj: healthInsight("a", insightsv1alpha1.ErrorImpactLevel), want: true},
		{name: "Warning", obj: healthInsight("a", insightsv1alpha1.WarningImpactLevel)},
		{name: "tombstone of Error", obj: cache.DeletedFinalStateUnknown{Key: "a", Obj: healthInsight("a", insightsv1alpha1.ErrorImpactLevel)}, want: true},
		{name: "tombstone of Info", obj: cache.DeletedFinalStateUnknown{Key: "a", Obj: healthInsight("a", insightsv1alpha1.InfoImpactLevel)}},
		{name: "another kind", obj: &insightsv1alpha1.ClusterVersionProgressInsight{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := failingObject(tc.obj); got != tc.want {
				t.Errorf("failingObject = %v, want %v", got, tc.want)
			}
		})
	}
}
