package updateplan

import (
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// UnansweredUIDPrefix starts the uid of the operator's finding about an
// informer that did not answer, which ends with the informer's name; the
// finding is about the UpdateInformer. It is the UpdateStatus' uid of an
// offline informer (updatestatus.OfflineUIDPrefix), so that both name it
// alike.
const UnansweredUIDPrefix = updatestatus.OfflineUIDPrefix

// maxUIDLength is what the API accepts of a finding's uid.
const maxUIDLength = insightsv1alpha1.InsightUIDMaxLength

// withUnanswered adds to the operator's own findings one for each informer
// that could not be heard once the plan stopped waiting for it: its checks
// did not run, or not for this evaluation, and an update must not start on
// them as if they passed. `oc adm upgrade recommend` makes a check it could
// not complete an issue to accept (FailedToCompletePrecheck, and
// AlertNoTestData without alerts, in pkg/cli/admin/upgrade/recommend of
// github.com/openshift/oc); so is this. An informer still awaited
// (WaitingForInformers) has no such finding: it may yet answer.
func withUnanswered(in Input) []updatestatus.Answer {
	var unanswered []insightsv1alpha1.UpdateInsight
	for _, a := range in.Answers {
		if a.Offline == "" || a.Informer == updatestatus.BuiltinInformer {
			continue
		}
		unanswered = append(unanswered, unansweredFinding(a, in.Plan, in.Now))
	}
	if len(unanswered) == 0 {
		return in.Answers
	}
	slices.SortFunc(unanswered, func(a, b insightsv1alpha1.UpdateInsight) int { return strings.Compare(a.UID, b.UID) })
	answers := slices.Clone(in.Answers)
	for i := range answers {
		if answers[i].Informer == updatestatus.BuiltinInformer {
			answers[i].Insights = append(slices.Clone(answers[i].Insights), unanswered...)
			return answers
		}
	}
	return append(answers, updatestatus.Answer{Informer: updatestatus.BuiltinInformer, Insights: unanswered})
}

func unansweredFinding(a updatestatus.Answer, plan *insightsv1alpha1.UpdatePlan, now time.Time) insightsv1alpha1.UpdateInsight {
	target := "the target"
	if plan != nil {
		target = plan.Spec.TargetRelease
	}
	summary := fmt.Sprintf("Update informer %s did not answer (%s): its checks of the update to %s did not run", a.Informer, a.Offline, target)
	if a.Stale {
		summary = fmt.Sprintf("Update informer %s did not answer (%s): its findings are from its last answer, not of the cluster as it is now", a.Informer, a.Offline)
	}
	description := fmt.Sprintf("What it checks, and why it could not be heard (its Online condition):\n"+
		"oc get updateinformer %s -o yaml\n"+
		"Check by hand what it checks, or, once it can be heard, ask for a new evaluation: pre-checks --to %s", a.Informer, target)
	if a.Problem != "" {
		description = a.Problem + "\n" + description
	}
	acquired := metav1.NewTime(now.Truncate(time.Second))
	return insightsv1alpha1.UpdateInsight{
		UID:             text.Bounded(UnansweredUIDPrefix+a.Informer, maxUIDLength),
		AcquisitionTime: &acquired,
		Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane,
			Resources: []insightsv1alpha1.InsightResource{{Group: insightsv1alpha1.GroupName, Kind: "UpdateInformer", Name: a.Informer}}},
		Impact: insightsv1alpha1.UpdateInsightImpact{
			Level: insightsv1alpha1.WarningInsightLevel, Type: insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.UnknownImpactType),
			Summary: text.OneLine(summary, 256), Description: text.Truncate(description, 4096),
		},
	}
}

// UnansweredInformers are the informers a plan's status says did not
// answer, by the operator's findings about them: the round a restarted
// operator resumes from the status knows them as not heard.
func UnansweredInformers(status *insightsv1alpha1.UpdatePlanStatus) []string {
	var out []string
	for _, informer := range Informers(status) {
		if informer.Name != updatestatus.BuiltinInformer {
			continue
		}
		for _, i := range informer.Insights {
			if !strings.HasPrefix(i.UID, UnansweredUIDPrefix) || len(i.Scope.Resources) != 1 || i.Scope.Resources[0].Kind != "UpdateInformer" {
				continue
			}
			out = append(out, i.Scope.Resources[0].Name)
		}
	}
	return out
}
