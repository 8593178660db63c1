package updatestatus

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

var started = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// harness runs the controller's sync against a fake clientset, with indexers
// standing in for the informers' caches.
type harness struct {
	t          *testing.T
	controller *Controller
	client     *fake.Clientset
	clock      *clocktesting.FakeClock
	cvs        cache.Indexer
	statuses   cache.Indexer
	// lagging keeps the UpdateStatus cache as it was, as if the watch had
	// not delivered the controller's writes yet.
	lagging bool
	// failed says whether syncAnyway's sync failed.
	failed bool
}

func newHarness(t *testing.T, insights ...*insightsv1alpha1.ClusterVersionProgressInsight) *harness {
	h := &harness{
		t:        t,
		client:   fake.NewSimpleClientset(),
		clock:    clocktesting.NewFakeClock(started.Add(time.Hour)),
		cvs:      cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		statuses: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
	}
	controlPlanes := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, i := range insights {
		if err := controlPlanes.Add(i); err != nil {
			t.Fatal(err)
		}
	}
	empty := func() cache.Indexer { return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}) }
	h.controller = &Controller{
		clusterVersions: configlisters.NewClusterVersionLister(h.cvs),
		controlPlanes:   insightslisters.NewClusterVersionProgressInsightLister(controlPlanes),
		pools:           insightslisters.NewMachineConfigPoolProgressInsightLister(empty()),
		nodes:           insightslisters.NewNodeProgressInsightLister(empty()),
		health:          insightslisters.NewUpdateHealthInsightLister(empty()),
		statuses:        insightslisters.NewUpdateStatusLister(h.statuses),
		writer:          insightwrite.UpdateStatuses(h.client.InsightsV1alpha1()),
		answers:         updatestatus.NewStore(),
		clock:           h.clock,
		pace:            &leadingEdge{clock: h.clock, window: Coalesce, settle: Settle},
		refused:         updatestatus.Refusals{},
	}
	return h
}

func (h *harness) setCV(state configv1.UpdateState) {
	h.t.Helper()
	cv := &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: configv1.ClusterVersionStatus{
			Desired: configv1.Release{Version: "4.16.1", Image: "quay.io/release:4.16.1"},
			History: []configv1.UpdateHistory{{Version: "4.16.1", Image: "quay.io/release:4.16.1", State: state, StartedTime: metav1.NewTime(started)}},
		},
	}
	if err := h.cvs.Add(cv); err != nil {
		h.t.Fatal(err)
	}
}

// sync runs one sync, a window after the last, and returns its writes.
func (h *harness) sync() []string {
	h.t.Helper()
	h.clock.Step(Coalesce)
	syncCtx := controllertest.NewSyncContext(insightsv1alpha1.UpdateStatusName)
	defer syncCtx.Q.ShutDown()
	h.client.ClearActions()
	if err := h.controller.sync(context.Background(), syncCtx); err != nil {
		h.t.Fatal(err)
	}
	if !h.lagging {
		list, err := h.client.InsightsV1alpha1().UpdateStatuses().List(context.Background(), metav1.ListOptions{})
		if err != nil {
			h.t.Fatal(err)
		}
		controllertest.Replace(h.t, h.statuses, list.Items)
	}
	return controllertest.Writes(h.client.Actions())
}

func (h *harness) status() *insightsv1alpha1.UpdateStatus {
	h.t.Helper()
	s, err := h.client.InsightsV1alpha1().UpdateStatuses().Get(context.Background(), "cluster", metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

func TestControllerWritesTheUpdateStatusOnlyWhenItChanges(t *testing.T) {
	progress := &insightsv1alpha1.ClusterVersionProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{
			Name: "version", Assessment: insightsv1alpha1.ClusterVersionAssessmentProgressing, CompletionPercent: 40,
			Versions: insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.16.1"}},
		},
	}
	h := newHarness(t, progress)
	h.setCV(configv1.PartialUpdate)

	writes := h.sync()
	if diff := cmp.Diff([]string{"create updatestatuses cluster", "update updatestatuses/status cluster"}, writes); diff != "" {
		t.Errorf("first sync's writes (-want +got):\n%s", diff)
	}
	s := h.status()
	if active := meta.FindStatusCondition(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdateActive); active == nil || active.Reason != "Updating" {
		t.Errorf("UpdateActive %+v, want True, Updating", active)
	}
	informers := s.Status.ControlPlane.Informers
	if len(informers) != 1 || informers[0].Name != updatestatus.BuiltinInformer || len(informers[0].Insights) != 1 ||
		informers[0].Insights[0].Impact.Summary != "Control plane progressing: 40% of its operators updated to 4.16.1" {
		t.Errorf("control plane informers %+v, want the operator's progress", informers)
	}

	h.setCV(configv1.CompletedUpdate)
	if writes := h.sync(); len(writes) != 1 {
		t.Errorf("after the update completed, writes %v, want the status", writes)
	}
	// Nothing changed: nothing is written, however much time passes.
	h.clock.Step(time.Hour)
	if writes := h.sync(); len(writes) != 0 {
		t.Errorf("without a change, writes %v", writes)
	}
	if active := meta.FindStatusCondition(h.status().Status.ControlPlane.Conditions, insightsv1alpha1.UpdateActive); active == nil || active.Reason != "Completed" {
		t.Errorf("UpdateActive %+v, want False, Completed", active)
	}
}

// External informers' answers are aggregated with the operator's own.
func TestControllerAggregatesTheStoredAnswers(t *testing.T) {
	h := newHarness(t)
	h.setCV(configv1.PartialUpdate)
	h.controller.answers.Set(updatestatus.Answer{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{{
		UID:    "reboot",
		Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel, Summary: "Reboots are slow"},
	}}})
	h.sync()
	var names []string
	for _, i := range h.status().Status.ControlPlane.Informers {
		names = append(names, fmt.Sprintf("%s:%d", i.Name, len(i.Insights)))
	}
	if diff := cmp.Diff([]string{"mco:1", "update-insights-operator:0"}, names); diff != "" {
		t.Errorf("control plane informers (-want +got):\n%s", diff)
	}
}

// A computation within the cache's lag writes over the controller's own last
// write, rather than creating the UpdateStatus again.
func TestControllerWritesOverItsOwnWriteWhileTheCacheLags(t *testing.T) {
	h := newHarness(t)
	h.lagging = true
	h.setCV(configv1.PartialUpdate)
	h.sync()
	h.setCV(configv1.CompletedUpdate)
	if diff := cmp.Diff([]string{"update updatestatuses/status cluster"}, h.sync()); diff != "" {
		t.Errorf("writes with a lagging cache (-want +got):\n%s", diff)
	}
	if active := meta.FindStatusCondition(h.status().Status.ControlPlane.Conditions, insightsv1alpha1.UpdateActive); active == nil || active.Reason != "Completed" {
		t.Errorf("UpdateActive %+v, want False, Completed", active)
	}
}

// refuseWhile makes the fake API server refuse every status update of the
// UpdateStatus that holds insights of informer, with err.
func (h *harness) refuseWhile(informer string, err error) {
	h.client.PrependReactor("update", "updatestatuses", func(action clienttesting.Action) (bool, runtime.Object, error) {
		update, ok := action.(clienttesting.UpdateAction)
		if !ok || action.GetSubresource() != "status" {
			return false, nil, nil
		}
		s := update.GetObject().(*insightsv1alpha1.UpdateStatus)
		for _, i := range s.Status.ControlPlane.Informers {
			if i.Name == informer && len(i.Insights) > 0 {
				return true, nil, err
			}
		}
		return false, nil, nil
	})
}

func warnings(n int, prefix string) []insightsv1alpha1.UpdateInsight {
	var out []insightsv1alpha1.UpdateInsight
	for i := range n {
		out = append(out, insightsv1alpha1.UpdateInsight{
			UID:    fmt.Sprintf("%s-%d", prefix, i),
			Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
			Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel, Summary: "Says " + prefix},
		})
	}
	return out
}

// A refusal the API server places in no informer's entry, such as etcd's
// of an object too large, leaves out the largest contributor, which its
// note says, and the others are written; a failure that writing again
// mends leaves no one out.
func TestControllerShedsTheLargestContributorOfARefusal(t *testing.T) {
	tooLarge := apierrors.NewInternalError(errors.New("rpc error: code = ResourceExhausted desc = trying to send message larger than max (2230620 vs. 2097152)"))
	for _, tc := range []struct {
		name      string
		err       error
		wantShed  bool
		wantError bool
	}{
		{name: "too large", err: tooLarge, wantShed: true},
		{name: "unavailable", err: apierrors.NewServiceUnavailable("etcd is away"), wantError: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.setCV(configv1.PartialUpdate)
			h.sync()
			h.refuseWhile("large", tc.err)
			h.controller.answers.Set(updatestatus.Answer{Informer: "large", Insights: warnings(20, "large")})
			h.controller.answers.Set(updatestatus.Answer{Informer: "good", Insights: warnings(1, "good")})
			var noted []string
			h.controller.answers.OnNote(func(informer string) { noted = append(noted, informer) })

			h.clock.Step(Coalesce)
			syncCtx := controllertest.NewSyncContext(insightsv1alpha1.UpdateStatusName)
			defer syncCtx.Q.ShutDown()
			err := h.controller.sync(context.Background(), syncCtx)
			if (err != nil) != tc.wantError {
				t.Fatalf("sync: %v, want an error: %v", err, tc.wantError)
			}
			var written []string
			for _, i := range h.status().Status.ControlPlane.Informers {
				written = append(written, fmt.Sprintf("%s:%d", i.Name, len(i.Insights)))
			}
			note := h.controller.answers.Note("large")
			if !tc.wantShed {
				if len(noted) != 0 || note != "" {
					t.Errorf("notes of %v, %q; want none", noted, note)
				}
				return
			}
			if diff := cmp.Diff([]string{"good:1", "large:0", "update-insights-operator:1"}, written); diff != "" {
				t.Errorf("control plane informers (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"large"}, noted); diff != "" {
				t.Errorf("informers noted (-want +got):\n%s", diff)
			}
			if !strings.Contains(note, "ResourceExhausted") || !strings.Contains(note, "were the most of any") {
				t.Errorf("the note of the shed informer is %q, want the refusal and why it was chosen", note)
			}
		})
	}
}
