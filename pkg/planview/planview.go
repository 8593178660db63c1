// Package planview is what the pre-checks and upgrade commands decide and
// print about an UpdatePlan: its findings as a reader sees them, whether the
// plan allows an update and why not, what accepting findings writes, and
// the ClusterVersion's desiredUpdate an update sets. It is pure: objects
// and a clock reading in, decisions and text out.
package planview

import (
	"cmp"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

// View is a plan as the commands print it, and as -o json|yaml holds it.
type View struct {
	TargetRelease string `json:"targetRelease"`
	// NotOffered says that the cluster is not offered the target release,
	// and what it is offered; empty when it is offered, or when that could
	// not be read.
	NotOffered                string             `json:"notOffered,omitempty"`
	EvaluationRequest         string             `json:"evaluationRequest,omitempty"`
	ObservedEvaluationRequest string             `json:"observedEvaluationRequest,omitempty"`
	EvaluatedAt               *metav1.Time       `json:"evaluatedAt,omitempty"`
	Findings                  []Finding          `json:"findings"`
	Conditions                []metav1.Condition `json:"conditions"`
}

// Finding is one informer's finding, where it was placed, and whether it is
// accepted.
type Finding struct {
	Informer string `json:"informer"`
	// Stale says the informer did not answer the last evaluation.
	Stale bool `json:"stale,omitempty"`
	// Pool is the worker pool the finding is about; empty for the control
	// plane.
	Pool string `json:"pool,omitempty"`
	// Name is the short name an administrator accepts the finding by,
	// unique within the plan; empty for a finding that needs no
	// accepting. Identity is what the plan's spec stores, and what
	// scripts use: it does not change while the finding lasts.
	Name     string `json:"name,omitempty"`
	Identity string `json:"identity"`
	// NeedsAcceptance is false for status-level findings, which say how
	// the update would go rather than what might go wrong.
	NeedsAcceptance bool                                     `json:"needsAcceptance"`
	Accepted        bool                                     `json:"accepted"`
	UID             string                                   `json:"uid"`
	Level           insightsv1alpha1.UpdateInsightLevel      `json:"level"`
	Impact          insightsv1alpha1.UpdateInsightImpactType `json:"impact,omitempty"`
	Summary         string                                   `json:"summary"`
	Description     string                                   `json:"description,omitempty"`
	Reference       string                                   `json:"reference,omitempty"`
	Scope           insightsv1alpha1.UpdateInsightScope      `json:"scope"`
}

// Build returns the plan's view: its findings, the most serious first, and
// otherwise in the plan's order (the control plane's, then each pool's).
func Build(plan *insightsv1alpha1.UpdatePlan) View {
	v := View{
		TargetRelease:             plan.Spec.TargetRelease,
		EvaluationRequest:         plan.Spec.EvaluationRequest,
		ObservedEvaluationRequest: plan.Status.ObservedEvaluationRequest,
		EvaluatedAt:               plan.Status.EvaluatedAt,
		Findings:                  Findings(plan),
		Conditions:                plan.Status.Conditions,
	}
	if v.Conditions == nil {
		v.Conditions = []metav1.Condition{}
	}
	return v
}

// Findings are the plan's findings, the most serious first, each with its
// short name.
func Findings(plan *insightsv1alpha1.UpdatePlan) []Finding {
	out := []Finding{}
	for pool, informer := range updateplan.Informers(&plan.Status) {
		for _, i := range informer.Insights {
			out = append(out, Finding{
				Informer: informer.Name, Stale: informer.Stale, Pool: pool,
				Identity: i.Identity, NeedsAcceptance: updateplan.NeedsAcceptance(i.Impact.Level), Accepted: i.Accepted,
				UID: i.UID, Level: i.Impact.Level, Impact: i.Impact.Type, Summary: i.Impact.Summary,
				Description: i.Impact.Description, Reference: i.Remediation.Reference, Scope: i.Scope,
			})
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Compare(insightsv1alpha1.UpdateInsightLevelRank(a.Level), insightsv1alpha1.UpdateInsightLevelRank(b.Level))
	})
	names := shortNames(out)
	for i := range out {
		out[i].Name = names[out[i].Identity]
	}
	return out
}
