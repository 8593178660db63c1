package updateplan

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clienttesting "k8s.io/client-go/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/controllertest"
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
