package planview

import (
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

var now = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

const (
	riskID     = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/OVNHang"
	durationID = "update-insights-operator/ControlPlane//duration"
	rebootID   = "mco/WorkerPool/Node/worker-0/slow-reboot"
)

func insight(uid string, level insightsv1alpha1.UpdateInsightLevel, summary string, resources ...insightsv1alpha1.InsightResource) insightsv1alpha1.UpdateInsight {
	scope := insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane, Resources: resources}
	return insightsv1alpha1.UpdateInsight{UID: uid, Scope: scope, Impact: insightsv1alpha1.UpdateInsightImpact{Level: level, Summary: summary}}
}

// plan is a plan to 4.17.3 evaluated a minute ago with the operator's
// duration estimate and a risk, and an informer's finding about a pool;
// accepted are the identities the plan shows accepted.
func plan(accepted ...string) *insightsv1alpha1.UpdatePlan {
	isAccepted := func(id string) bool { return slices.Contains(accepted, id) }
	risk := insight("risk/OVNHang", insightsv1alpha1.ErrorInsightLevel, "Conditional update risk OVNHang applies to the update to 4.17.3: OVN may hang.",
		insightsv1alpha1.InsightResource{Group: "config.openshift.io", Kind: "ClusterVersion", Name: "version"})
	risk.Impact.Type = insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.UnknownImpactType)
	risk.Impact.Description = "OVN may hang\non nodes with many pods."
	risk.Remediation.Reference = "https://example.com/ovn"
	duration := insight("duration", insightsv1alpha1.StatusInsightLevel, "The update to 4.17.3 should take about 1h40m")
	reboot := insight("slow-reboot", insightsv1alpha1.WarningInsightLevel, "Node worker-0 reboots slowly", insightsv1alpha1.InsightResource{Kind: "Node", Name: "worker-0"})
	reboot.Scope.Type = insightsv1alpha1.ScopeTypeWorkerPool
	evaluated := metav1.NewTime(now.Add(-time.Minute))
	unaccepted := 0
	for _, id := range []string{riskID, rebootID} {
		if !isAccepted(id) {
			unaccepted++
		}
	}
	acceptedCondition := metav1.Condition{Type: updateplan.ConditionAccepted, Status: metav1.ConditionTrue, Reason: updateplan.ReasonAllAccepted, Message: "All 2 findings are accepted."}
	if unaccepted > 0 {
		acceptedCondition = metav1.Condition{Type: updateplan.ConditionAccepted, Status: metav1.ConditionFalse, Reason: updateplan.ReasonNotAccepted, Message: "Some findings are not accepted."}
	}
	return &insightsv1alpha1.UpdatePlan{
		ObjectMeta: metav1.ObjectMeta{Name: "4.17.3"},
		Spec:       insightsv1alpha1.UpdatePlanSpec{TargetRelease: "4.17.3", EvaluationRequest: "r1"},
		Status: insightsv1alpha1.UpdatePlanStatus{
			ObservedEvaluationRequest: "r1",
			EvaluatedAt:               &evaluated,
			Conditions: []metav1.Condition{
				{Type: updateplan.ConditionAnswered, Status: metav1.ConditionTrue, Reason: updateplan.ReasonAllAnswered, Message: "The operator's pre-checks and every informer that handles plans (1) answered."},
				acceptedCondition,
			},
			ControlPlane: insightsv1alpha1.ControlPlanePlan{Informers: []insightsv1alpha1.InformerPlanInsights{{
				Name: "update-insights-operator",
				Insights: []insightsv1alpha1.UpdatePlanInsight{
					{UpdateInsight: duration, Identity: durationID},
					{UpdateInsight: risk, Identity: riskID, Accepted: isAccepted(riskID)},
				},
			}}},
			WorkerPools: []insightsv1alpha1.WorkerPoolPlan{{
				Resource: insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
				Informers: []insightsv1alpha1.InformerPlanInsights{{
					Name:     "mco",
					Insights: []insightsv1alpha1.UpdatePlanInsight{{UpdateInsight: reboot, Identity: rebootID, Accepted: isAccepted(rebootID)}},
				}},
			}},
		},
	}
}
