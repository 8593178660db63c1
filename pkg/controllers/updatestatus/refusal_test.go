package updatestatus

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clienttesting "k8s.io/client-go/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// refusalRecorder keeps what the controller last reported of refusals, and
// counts each time that changed from none to some or back.
type refusalRecorder struct {
	last        error
	transitions int
}

func (r *refusalRecorder) Refused(controller, what string, err error) {
	if (err == nil) != (r.last == nil) {
		r.transitions++
	}
	r.last = err
}

// conditionsRule refuses every write of UpdateStatus' status while on, as
// a CEL rule on its conditions would: no informer's entry is named.
func conditionsRule(h *harness, on *bool) {
	h.client.PrependReactor("update", "updatestatuses", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if !*on || action.GetSubresource() != "status" {
			return false, nil, nil
		}
		return true, nil, apierrors.NewInvalid(schema.GroupKind{Group: insightsv1alpha1.GroupName, Kind: "UpdateStatus"}, "cluster",
			field.ErrorList{field.Invalid(field.NewPath("status", "conditions"), "", "a rule the operator does not know")})
	})
}

// syncAnyway runs one sync, a window after the last, which may fail, and
// returns its writes of UpdateStatus' status.
func (h *harness) syncAnyway() int {
	h.t.Helper()
	h.clock.Step(Coalesce)
	syncCtx := controllertest.NewSyncContext(insightsv1alpha1.UpdateStatusName)
	defer syncCtx.Q.ShutDown()
	h.client.ClearActions()
	h.failed = h.controller.sync(context.Background(), syncCtx) != nil
	list, err := h.client.InsightsV1alpha1().UpdateStatuses().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	controllertest.Replace(h.t, h.statuses, list.Items)
	return statusWrites(h)
}

func statusWrites(h *harness) int {
	n := 0
	for _, a := range h.client.Actions() {
		if a.GetVerb() == "update" && a.GetSubresource() == "status" {
			n++
		}
	}
	return n
}

// A refusal no informer's insights left out mends is written once, then
// held: syncs on the same inputs neither write it again nor fail, so that
// the queue does not retry it forever; the refusal is reported steadily,
// and a new input, or the rule gone once RetryRefused passed, is written.
func TestControllerHoldsAnUpdateStatusNoSheddingMends(t *testing.T) {
	h := newHarness(t)
	reported := &refusalRecorder{}
	h.controller.refusals = reported
	h.setCV(configv1.PartialUpdate)
	h.controller.answers.Set(updatestatus.Answer{Informer: "good", Insights: warnings(1, "good")})
	on := true
	conditionsRule(h, &on)

	var syncs []string
	for range 5 {
		syncs = append(syncs, fmt.Sprintf("%d writes, failed %v", h.syncAnyway(), h.failed))
	}
	// The first sync sheds the informer and then the operator's own, whose
	// entry keeps a warning of the refusal, and holds what is still refused.
	want := []string{"3 writes, failed false", "0 writes, failed false", "0 writes, failed false", "0 writes, failed false", "0 writes, failed false"}
	if diff := cmp.Diff(want, syncs); diff != "" {
		t.Errorf("syncs (-want +got):\n%s", diff)
	}
	if reported.last == nil || !strings.Contains(reported.last.Error(), "refuses UpdateStatus even without the insights of any informer") ||
		!strings.Contains(reported.last.Error(), "a rule the operator does not know") {
		t.Errorf("reported %v, want the refusal of UpdateStatus and why", reported.last)
	}

	h.controller.answers.Set(updatestatus.Answer{Informer: "good", Insights: warnings(2, "good")})
	if got := h.syncAnyway(); got == 0 {
		t.Errorf("a new answer was not tried")
	}
	h.syncAnyway()

	on = false
	if got := h.syncAnyway(); got != 0 {
		t.Errorf("%d writes before RetryRefused passed, want none", got)
	}
	h.clock.Step(RetryRefused)
	h.sync()
	var written []string
	for _, i := range h.status().Status.ControlPlane.Informers {
		written = append(written, fmt.Sprintf("%s:%d", i.Name, len(i.Insights)))
	}
	if diff := cmp.Diff([]string{"good:2", "update-insights-operator:0"}, written); diff != "" {
		t.Errorf("control plane informers once the rule is gone (-want +got):\n%s", diff)
	}
	if reported.last != nil || reported.transitions != 2 {
		t.Errorf("reported %v after %d transitions, want nothing after 2", reported.last, reported.transitions)
	}
}

// While the API server refuses an informer's insights, UpdateStatus is
// written without them, and the operator reports so steadily: over many
// syncs, whether the informer answers the same or anew, the report is set
// once and never cleared by a write that succeeded without them.
func TestControllerReportsARefusalSteadily(t *testing.T) {
	for _, anew := range []bool{false, true} {
		t.Run(fmt.Sprintf("answers anew %v", anew), func(t *testing.T) {
			h := newHarness(t)
			reported := &refusalRecorder{}
			h.controller.refusals = reported
			h.setCV(configv1.PartialUpdate)
			h.sync()
			h.refuseWhile("bad", apierrors.NewInvalid(schema.GroupKind{Group: insightsv1alpha1.GroupName, Kind: "UpdateStatus"}, "cluster",
				field.ErrorList{field.Invalid(field.NewPath("status", "controlPlane", "informers").Index(0), "", "a rule on bad")}))
			h.controller.answers.Set(updatestatus.Answer{Informer: "good", Insights: warnings(1, "good")})
			for i := range 20 {
				n := 1
				if anew {
					n += i
				}
				h.controller.answers.Set(updatestatus.Answer{Informer: "bad", Insights: warnings(n, "bad")})
				syncCtx := controllertest.NewSyncContext(insightsv1alpha1.UpdateStatusName)
				h.clock.Step(Coalesce)
				_ = h.controller.sync(context.Background(), syncCtx)
				syncCtx.Q.ShutDown()
				if reported.last == nil || !strings.Contains(reported.last.Error(), "UpdateStatus is written without the insights of bad") {
					t.Fatalf("sync %d reported %v, want UpdateStatus written without bad", i, reported.last)
				}
			}
			if reported.transitions != 1 {
				t.Errorf("the report changed %d times over 20 syncs, want once", reported.transitions)
			}
		})
	}
}
