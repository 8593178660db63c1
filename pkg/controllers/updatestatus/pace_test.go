package updatestatus

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
)

// A change after a quiet window is computed once it settled; changes within
// the window of the last computation wait for its end.
func TestChangesAreComputedOnTheLeadingEdge(t *testing.T) {
	for _, tc := range []struct {
		name string
		// computed is how long before the change the last computation
		// ended; nil when none has yet.
		computed *time.Duration
		// wantAfter is how long the change waits.
		wantAfter time.Duration
	}{
		{name: "first change", wantAfter: Settle},
		{name: "after a quiet window", computed: ptr.To(Coalesce + time.Millisecond), wantAfter: Settle},
		{name: "exactly a window later", computed: ptr.To(Coalesce), wantAfter: Settle},
		{name: "as the window ends", computed: ptr.To(Coalesce - Settle/2), wantAfter: Settle},
		{name: "just after a computation", computed: ptr.To(100 * time.Millisecond), wantAfter: Coalesce - 100*time.Millisecond},
		{name: "during a computation", computed: ptr.To(time.Duration(0)), wantAfter: Coalesce},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := clocktesting.NewFakeClock(started)
			pace := &leadingEdge{clock: clock, window: Coalesce, settle: Settle}
			if tc.computed != nil {
				pace.ended()
				clock.Step(*tc.computed)
			}
			syncCtx := controllertest.NewSyncContext("")
			defer syncCtx.Q.ShutDown()
			handler := pace.handler(syncCtx.Q)
			handler.OnAdd(&insightsv1alpha1.NodeProgressInsight{}, false)
			handler.OnUpdate(&insightsv1alpha1.NodeProgressInsight{}, &insightsv1alpha1.NodeProgressInsight{})
			handler.OnDelete(&insightsv1alpha1.NodeProgressInsight{})

			if got := syncCtx.Q.Len(); got != 0 {
				t.Errorf("%d keys queued at once, want none", got)
			}
			if diff := cmp.Diff(map[any]time.Duration{insightsv1alpha1.UpdateStatusName: tc.wantAfter}, syncCtx.Q.AddedAfter); diff != "" {
				t.Errorf("queued to wait (-want +got):\n%s", diff)
			}
		})
	}
}

// A sync's end starts the window: the next change waits for its end.
func TestASyncStartsTheWindow(t *testing.T) {
	h := newHarness(t)
	h.setCV(configv1.PartialUpdate)
	h.sync()
	h.clock.Step(300 * time.Millisecond)
	if got, want := h.controller.pace.delay(), Coalesce-300*time.Millisecond; got != want {
		t.Errorf("a change 300ms after a sync waits %s, want %s", got, want)
	}
}

// A computation asked for within the window after the last (the queue hands
// the key over again at once when a change came during a computation)
// waits for the window's end instead: two writes are never closer than the
// window, however long a computation takes.
func TestASyncWithinTheWindowWaitsForItsEnd(t *testing.T) {
	h := newHarness(t)
	h.setCV(configv1.PartialUpdate)
	h.sync()
	h.setCV(configv1.CompletedUpdate)
	h.clock.Step(300 * time.Millisecond)
	syncCtx := controllertest.NewSyncContext(insightsv1alpha1.UpdateStatusName)
	defer syncCtx.Q.ShutDown()
	h.client.ClearActions()
	if err := h.controller.sync(context.Background(), syncCtx); err != nil {
		t.Fatal(err)
	}
	if writes := controllertest.Writes(h.client.Actions()); len(writes) > 0 {
		t.Errorf("a sync 300ms after the last wrote %v, want nothing until the window ends", writes)
	}
	if diff := cmp.Diff(map[any]time.Duration{insightsv1alpha1.UpdateStatusName: Coalesce - 300*time.Millisecond}, syncCtx.Q.AddedAfter); diff != "" {
		t.Errorf("queued to wait (-want +got):\n%s", diff)
	}
	h.clock.Step(Coalesce)
	if diff := cmp.Diff([]string{"update updatestatuses/status cluster"}, h.sync()); diff != "" {
		t.Errorf("writes once the window ended (-want +got):\n%s", diff)
	}
}

// The watch's echo of the controller's own write is no change; any other
// version of the UpdateStatus is.
func TestTheEchoOfTheOwnWriteIsNoChange(t *testing.T) {
	status := func(resourceVersion string) *insightsv1alpha1.UpdateStatus {
		return &insightsv1alpha1.UpdateStatus{ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName, ResourceVersion: resourceVersion}}
	}
	for _, tc := range []struct {
		name       string
		event      func(cache.ResourceEventHandler)
		wantQueued bool
	}{
		{name: "own write", event: func(h cache.ResourceEventHandler) { h.OnUpdate(status("41"), status("42")) }},
		{name: "own write, seen first", event: func(h cache.ResourceEventHandler) { h.OnAdd(status("42"), false) }},
		{name: "someone else's write", event: func(h cache.ResourceEventHandler) { h.OnUpdate(status("42"), status("43")) }, wantQueued: true},
		{name: "deleted", event: func(h cache.ResourceEventHandler) { h.OnDelete(status("42")) }, wantQueued: true},
		{name: "an insight with the same version", event: func(h cache.ResourceEventHandler) {
			h.OnUpdate(&insightsv1alpha1.NodeProgressInsight{}, &insightsv1alpha1.NodeProgressInsight{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "42"}})
		}, wantQueued: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pace := &leadingEdge{clock: clocktesting.NewFakeClock(started), window: Coalesce, settle: Settle}
			pace.wrote("42")
			syncCtx := controllertest.NewSyncContext("")
			defer syncCtx.Q.ShutDown()
			tc.event(pace.handler(syncCtx.Q))
			if _, queued := syncCtx.Q.AddedAfter[insightsv1alpha1.UpdateStatusName]; queued != tc.wantQueued {
				t.Errorf("queued: %t, want %t", queued, tc.wantQueued)
			}
		})
	}
}
