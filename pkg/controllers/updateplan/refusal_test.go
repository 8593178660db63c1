package updateplan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clienttesting "k8s.io/client-go/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// notesRecorder keeps the plans' notes, as the store does.
type notesRecorder map[string]map[string]string

func (n notesRecorder) SetPlanNotes(plan string, notes map[string]string) { n[plan] = notes }

// A refusal the API server places in no informer's entry, such as etcd's
// of an object too large, leaves out the informer with the largest
// findings, which its note and the plan say; the others are written. A
// failure that writing again mends leaves no one out.
func TestAPlanRefusalNamingNoInformerShedsTheLargest(t *testing.T) {
	tooLarge := apierrors.NewInternalError(errors.New("rpc error: code = ResourceExhausted desc = trying to send message larger than max (2230620 vs. 2097152)"))
	for _, tc := range []struct {
		name     string
		err      error
		wantShed bool
	}{
		{name: "too large", err: tooLarge, wantShed: true},
		{name: "unavailable", err: apierrors.NewServiceUnavailable("etcd is away")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			notes := notesRecorder{}
			h.controller.notes = notes
			h.createPlan("4.17.2", "r1")
			h.planInformer("large", true)
			h.planInformer("good", true)
			large := updatestatus.Answer{Informer: "large"}
			for i := range 20 {
				large.Insights = append(large.Insights, insightsv1alpha1.UpdateInsight{UID: fmt.Sprintf("large-%d", i),
					Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
					Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel, Summary: "large says so"}})
			}
			h.asker.answers["large"] = large
			h.asker.answers["good"] = updatestatus.Answer{Informer: "good", Insights: large.Insights[:1]}
			h.client.PrependReactor("update", "updateplans", func(action clienttesting.Action) (bool, runtime.Object, error) {
				update, ok := action.(clienttesting.UpdateAction)
				if !ok || action.GetSubresource() != "status" {
					return false, nil, nil
				}
				for _, i := range update.GetObject().(*insightsv1alpha1.UpdatePlan).Status.ControlPlane.Informers {
					if i.Name == "large" && len(i.Insights) > 0 {
						return true, nil, tc.err
					}
				}
				return false, nil, nil
			})
			h.sync("4.17.2")
			h.answered(1)
			h.answered(1)
			err := h.controller.sync(context.Background(), controllertest.SyncContext{Key: "4.17.2", Q: h.queue.Q})
			if (err != nil) == tc.wantShed {
				t.Fatalf("sync: %v, want an error: %v", err, !tc.wantShed)
			}
			if !tc.wantShed {
				return
			}
			p := h.plan("4.17.2")
			var written []string
			for _, i := range p.Status.ControlPlane.Informers {
				written = append(written, fmt.Sprintf("%s:%d", i.Name, len(i.Insights)))
			}
			if diff := cmp.Diff([]string{"good:1", "large:0", "update-insights-operator:2"}, written); diff != "" {
				t.Errorf("control plane informers (-want +got):\n%s", diff)
			}
			if note := notes["4.17.2"]["large"]; !strings.Contains(note, "ResourceExhausted") || !strings.Contains(note, "were the most of any") {
				t.Errorf("the note of the shed informer is %q, want the refusal and why it was chosen", note)
			}
			if got := viewOf(p).Conditions[updateplan.ConditionAccepted]; got != "False/"+updateplan.ReasonInsightsCut {
				t.Errorf("Accepted %s, want False/%s", got, updateplan.ReasonInsightsCut)
			}
		})
	}
}

// When the API server refuses an informer's new findings, the plan keeps
// those of its the API server accepted, stale, and counts the refusal,
// which keeps the plan from being accepted.
func TestAPlanKeepsAnInformersAcceptedFindingsStaleWhenItsNewAreRefused(t *testing.T) {
	h := answeredHarness(t)
	h.client.PrependReactor("update", "updateplans", func(action clienttesting.Action) (bool, runtime.Object, error) {
		update, ok := action.(clienttesting.UpdateAction)
		if !ok || action.GetSubresource() != "status" {
			return false, nil, nil
		}
		for _, i := range update.GetObject().(*insightsv1alpha1.UpdatePlan).Status.WorkerPools {
			for _, informer := range i.Informers {
				for _, f := range informer.Insights {
					if f.UID == "refused" {
						return true, nil, apierrors.NewInvalid(insightsv1alpha1.SchemeGroupVersion.WithKind("UpdatePlan").GroupKind(), "4.17.2",
							field.ErrorList{field.Invalid(field.NewPath("status", "workerPools").Index(0).Child("informers").Index(0), "", "a rule on refused")})
					}
				}
			}
		}
		return false, nil, nil
	})
	p := h.plan("4.17.2")
	p.Spec.EvaluationRequest = "r2"
	h.add(h.plans, p)
	h.asker.answers["mco"] = mcoAnswer("refused")
	h.sync("4.17.2")
	h.answered(1)
	h.sync("4.17.2")
	got := viewOf(h.plan("4.17.2"))
	want := []string{mcoUnansweredID, durationID, "mco/WorkerPool/Node/worker-0/drain (stale)"}
	if diff := cmp.Diff(want, got.Findings); diff != "" {
		t.Errorf("findings once mco's new ones are refused (-want +got):\n%s", diff)
	}
	if got := got.Conditions[updateplan.ConditionAccepted]; got != "False/"+updateplan.ReasonInsightsCut {
		t.Errorf("Accepted %s, want False/%s", got, updateplan.ReasonInsightsCut)
	}
}

// refusalRecorder keeps what the controller last reported of refusals, by
// plan, and counts each time that changed from none to some or back.
type refusalRecorder struct {
	last        map[string]error
	transitions int
}

func (r *refusalRecorder) Refused(_, what string, err error) {
	if (err == nil) != (r.last[what] == nil) {
		r.transitions++
	}
	r.last[what] = err
}

// A plan the API server refuses with no informer's findings left to leave
// out is written once, then held: syncs on the same inputs neither write
// it again nor fail, and the refusal is reported steadily; once the rule
// is gone and RetryRefused passed, the plan is written with every finding.
func TestAPlanNoSheddingMendsIsHeldAndReportedSteadily(t *testing.T) {
	h := answeredHarness(t)
	reported := &refusalRecorder{last: map[string]error{}}
	h.controller.refusals = reported
	on := true
	h.client.PrependReactor("update", "updateplans", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if !on || action.GetSubresource() != "status" {
			return false, nil, nil
		}
		return true, nil, apierrors.NewInvalid(insightsv1alpha1.SchemeGroupVersion.WithKind("UpdatePlan").GroupKind(), "4.17.2",
			field.ErrorList{field.Invalid(field.NewPath("status", "conditions"), "", "a rule the operator does not know")})
	})
	p := h.plan("4.17.2")
	p.Spec.EvaluationRequest = "r2"
	if _, err := h.client.InsightsV1alpha1().UpdatePlans().Update(context.Background(), p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.add(h.plans, p)
	h.sync("4.17.2")
	h.answered(1)
	var writes []int
	for range 5 {
		h.client.ClearActions()
		h.sync("4.17.2")
		n := 0
		for _, a := range h.client.Actions() {
			if a.GetVerb() == "update" && a.GetSubresource() == "status" {
				n++
			}
		}
		writes = append(writes, n)
		if err := reported.last["4.17.2"]; err == nil || !strings.Contains(err.Error(), "refuses UpdatePlan 4.17.2 even without the findings of any informer") {
			t.Fatalf("reported %v, want the plan refused even without any informer's findings", err)
		}
	}
	// The mco informer's findings, then the operator's own, are left out
	// before the plan is held.
	if diff := cmp.Diff([]int{3, 0, 0, 0, 0}, writes); diff != "" {
		t.Errorf("status writes by sync (-want +got):\n%s", diff)
	}
	on = false
	h.clock.Step(RetryRefused)
	h.sync("4.17.2")
	if got := viewOf(h.plan("4.17.2")).Findings; !slices.Contains(got, "mco/WorkerPool/Node/worker-0/drain") {
		t.Errorf("findings once the rule is gone: %v, want mco's drain", got)
	}
	if reported.last["4.17.2"] != nil || reported.transitions != 2 {
		t.Errorf("reported %v after %d transitions, want nothing after 2", reported.last["4.17.2"], reported.transitions)
	}
}
