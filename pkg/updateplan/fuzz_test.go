package updateplan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// FuzzCompute computes a plan's status from an arbitrary plan (as JSON)
// and arbitrary findings whose insights fit UpdateStatus one by one (the
// informers controller leaves out the others): the API server's schema
// accepts the status, a plan said to be accepted accepts every finding it
// shows, and the status is the same computed again from it.
func FuzzCompute(f *testing.F) {
	node := insightsv1alpha1.InsightResource{Kind: "Node", Name: "worker-0"}
	answers := []updatestatus.Answer{
		{Informer: updatestatus.BuiltinInformer, Insights: []insightsv1alpha1.UpdateInsight{finding("a", insightsv1alpha1.WarningInsightLevel), finding("b", insightsv1alpha1.InfoInsightLevel, node)}},
		{Informer: "olm", Insights: []insightsv1alpha1.UpdateInsight{finding("c", insightsv1alpha1.ErrorInsightLevel)}},
		{Informer: "late", Offline: insightsv1alpha1.InformerUnreachable, Problem: "no answer within 10s"},
	}
	accepted := plan(accept(updatestatus.BuiltinInformer, Identity(updatestatus.BuiltinInformer, finding("a", insightsv1alpha1.WarningInsightLevel)), true))
	f.Add(apivalidation.JSON(f, accepted), apivalidation.JSON(f, answers), "olm,late")
	f.Add(apivalidation.JSON(f, plan()), apivalidation.JSON(f, answers[:1]), "")

	schema := apivalidation.Status("UpdatePlan")
	fits := apivalidation.Status("UpdateStatus")
	f.Fuzz(func(t *testing.T, planJSON, answersJSON []byte, expected string) {
		var p insightsv1alpha1.UpdatePlan
		var answers []updatestatus.Answer
		if json.Unmarshal(planJSON, &p) != nil || json.Unmarshal(answersJSON, &answers) != nil {
			return
		}
		for _, a := range answers {
			one := insightsv1alpha1.UpdateStatusStatus{WorkerPools: []insightsv1alpha1.WorkerPoolUpdateStatus{{
				Resource:  insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
				Informers: []insightsv1alpha1.InformerInsights{{Name: a.Informer, Insights: a.Insights}},
			}}}
			if len(a.Problem) > 1024 || len(fits.Validate(one)) > 0 {
				return
			}
		}
		// The plan's status as the API server holds it.
		if len(schema.Validate(p.Status)) > 0 {
			return
		}
		in := Input{Plan: &p, Answers: answers, Expected: strings.FieldsFunc(expected, func(r rune) bool { return r == ',' }), Pools: []string{"worker"}, NodePools: map[string]string{"worker-0": "worker"},
			EvaluatedAt: now, Observed: "1", Now: now}
		status := Compute(in)
		if errs := schema.Validate(status); len(errs) > 0 {
			t.Fatalf("the API would refuse the status: %v", errs.ToAggregate())
		}
		if c := meta.FindStatusCondition(status.Conditions, ConditionAccepted); c != nil && c.Status == metav1.ConditionTrue {
			all := [][]insightsv1alpha1.InformerPlanInsights{status.ControlPlane.Informers}
			for _, pool := range status.WorkerPools {
				all = append(all, pool.Informers)
			}
			for _, informers := range all {
				for _, i := range informers {
					for _, finding := range i.Insights {
						if NeedsAcceptance(finding.Impact.Level) && !finding.Accepted {
							t.Errorf("the plan is accepted, but not finding %s", finding.Identity)
						}
					}
				}
			}
		}
		p.Status = status
		if again := Compute(in); !cmp.Equal(status, again) {
			t.Errorf("computed again (-first +second):\n%s", cmp.Diff(status, again))
		}
	})
}
