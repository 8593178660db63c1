package planview

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

func TestEvaluated(t *testing.T) {
	waiting := plan()
	meta.SetStatusCondition(&waiting.Status.Conditions, metav1.Condition{Type: updateplan.ConditionAnswered, Status: metav1.ConditionFalse,
		Reason: updateplan.ReasonWaitingForInformers, Message: "Waiting for the findings of mco."})
	offline := plan()
	meta.SetStatusCondition(&offline.Status.Conditions, metav1.Condition{Type: updateplan.ConditionAnswered, Status: metav1.ConditionFalse,
		Reason: updateplan.ReasonInformersOffline, Message: "Could not be heard: mco (Unreachable)."})
	noConditions := plan()
	noConditions.Status.Conditions = nil
	testCases := []struct {
		name    string
		plan    *insightsv1alpha1.UpdatePlan
		request string
		want    bool
		waits   string
	}{
		{name: "answered", plan: plan(), request: "r1", want: true},
		{name: "an offline informer ends the wait", plan: offline, request: "r1", want: true},
		{name: "another request", plan: plan(), request: "r2", waits: "the operator to evaluate the plan"},
		{name: "waiting for an informer", plan: waiting, request: "r1", waits: "the findings of mco"},
		{name: "no condition yet", plan: noConditions, request: "r1", waits: "the operator to say whether every informer answered"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got, waits := Evaluated(tc.plan, tc.request)
			if diff := cmp.Diff([]any{tc.want, tc.waits}, []any{got, waits}); diff != "" {
				t.Errorf("Evaluated (-want +got):\n%s", diff)
			}
		})
	}
}

// offlineID is the identity of the operator's finding that informer mco
// did not answer.
const offlineID = "update-insights-operator/ControlPlane/UpdateInformer.openshift.muller.dev/mco/informer/mco"

var offlineFinding = insightsv1alpha1.UpdatePlanInsight{
	UpdateInsight: insight("informer/mco", insightsv1alpha1.WarningInsightLevel, "Informer mco did not answer: its findings are not known",
		insightsv1alpha1.InsightResource{Group: "openshift.muller.dev", Kind: "UpdateInformer", Name: "mco"}),
	Identity: offlineID,
}

func TestBlockers(t *testing.T) {
	refreshed := plan(riskID, rebootID)
	refreshed.Spec.EvaluationRequest = "r2"
	old := plan(riskID, rebootID)
	old.Status.EvaluatedAt = &metav1.Time{Time: now.Add(-16 * time.Minute)}
	never := plan(riskID, rebootID)
	never.Status.EvaluatedAt = nil
	offline := plan(riskID, rebootID)
	meta.SetStatusCondition(&offline.Status.Conditions, metav1.Condition{Type: updateplan.ConditionAnswered, Status: metav1.ConditionFalse,
		Reason: updateplan.ReasonInformersOffline, Message: "Could not be heard, so their findings are missing or old: mco (Unreachable)."})
	offlineUnaccepted := plan(riskID, rebootID)
	offlineUnaccepted.Status.ControlPlane.Informers[0].Insights = append(offlineUnaccepted.Status.ControlPlane.Informers[0].Insights, offlineFinding)
	offlineUnaccepted.Status.Conditions = offline.Status.Conditions
	waiting := plan(riskID, rebootID)
	meta.SetStatusCondition(&waiting.Status.Conditions, metav1.Condition{Type: updateplan.ConditionAnswered, Status: metav1.ConditionFalse,
		Reason: updateplan.ReasonWaitingForInformers, Message: "Waiting for the findings of mco."})
	cut := plan(riskID, rebootID)
	meta.SetStatusCondition(&cut.Status.Conditions, metav1.Condition{Type: updateplan.ConditionAccepted, Status: metav1.ConditionFalse,
		Reason: updateplan.ReasonInsightsCut, Message: "The plan could not hold every finding, so not all can be accepted: 3 of mco's"})
	testCases := []struct {
		name string
		plan *insightsv1alpha1.UpdatePlan
		want []string
	}{
		{name: "ready", plan: plan(riskID, rebootID)},
		{name: "unaccepted findings are named", plan: plan(), want: []string{"not accepted: OVNHang, slow-reboot"}},
		{name: "status-level findings need no acceptance", plan: plan(rebootID), want: []string{"not accepted: OVNHang"}},
		{name: "a request not evaluated yet", plan: refreshed, want: []string{`the plan was not evaluated since its evaluation request "r2" (it answers "r1")`}},
		{name: "too old", plan: old, want: []string{"the plan was evaluated 16m0s ago, more than 15m0s: is the operator running?"}},
		{name: "never evaluated", plan: never, want: []string{"the plan was never evaluated"}},
		{name: "an informer the plan stopped waiting for is a finding to accept, not a blocker of its own", plan: offline},
		{name: "its finding not accepted", plan: offlineUnaccepted, want: []string{"not accepted: informer/mco"}},
		{name: "an informer still awaited", plan: waiting, want: []string{
			"not every informer answered: Answered=False (WaitingForInformers) Waiting for the findings of mco"}},
		{name: "findings cut", plan: cut, want: []string{
			"the findings are not all accepted: Accepted=False (FindingsCut) The plan could not hold every finding, so not all can be accepted: 3 of mco's"}},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Blockers(tc.plan, now)); diff != "" {
				t.Errorf("Blockers (-want +got):\n%s", diff)
			}
		})
	}
}
