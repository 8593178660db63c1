package planview

import (
	"fmt"
	"slices"
	"strings"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// Acceptance is what accepting findings writes in a plan's spec.
type Acceptance struct {
	// AcceptedInsights are the spec's, with the findings accepted.
	AcceptedInsights []insightsv1alpha1.AcceptedInsight
	// Identities are the findings accepted, which the plan's status shows
	// accepted once the controller has caught up.
	Identities []string
	// Changed says whether AcceptedInsights differ from the spec's.
	Changed bool
}

// Accept returns the plan's acceptedInsights with the findings named, and
// every finding of the given informers that needs accepting, accepted.
// Each of named lists findings by short name or identity, comma-separated.
// A name that is none of the plan's current findings', or an informer none
// of them is from, is an error that names them all: it is a typo or a
// finding that went away, and accepting it would accept nothing the
// administrator saw. So is a name that no longer tells one finding, which
// the error lists by their names now.
func Accept(plan *insightsv1alpha1.UpdatePlan, named, informers []string) (Acceptance, error) {
	findings := Findings(plan)
	byName := map[string]Finding{}
	known := map[string]bool{}
	for _, f := range findings {
		byName[f.Identity] = f
		if f.Name != "" {
			byName[f.Name] = f
		}
		known[f.Informer] = true
	}
	var unknown, several []string
	var accept []Finding
	for _, name := range splitNames(named, func(s string) bool { _, ok := byName[s]; return ok }) {
		f, ok := byName[name]
		if !ok {
			if shared := ambiguous(findings, name); len(shared) > 0 {
				several = append(several, fmt.Sprintf("%s (now %s)", name, strings.Join(names(shared), ", ")))
				continue
			}
			unknown = append(unknown, name)
			continue
		}
		accept = append(accept, f)
	}
	var unknownInformers []string
	for _, name := range informers {
		if !known[name] {
			unknownInformers = append(unknownInformers, name)
			continue
		}
		for _, f := range findings {
			if f.Informer == name && f.NeedsAcceptance {
				accept = append(accept, f)
			}
		}
	}
	var problems []string
	if len(unknown) > 0 {
		problems = append(problems, "not among the plan's findings: "+strings.Join(unknown, ", "))
	}
	if len(several) > 0 {
		problems = append(problems, "naming several findings: "+strings.Join(several, ", "))
	}
	if len(unknownInformers) > 0 {
		problems = append(problems, "no finding in the plan is from "+strings.Join(unknownInformers, ", "))
	}
	if len(problems) > 0 {
		return Acceptance{}, fmt.Errorf("nothing accepted in UpdatePlan %s: %s", plan.Name, strings.Join(problems, "; "))
	}

	a := Acceptance{AcceptedInsights: slices.Clone(plan.Spec.AcceptedInsights)}
	for _, f := range accept {
		if slices.Contains(a.Identities, f.Identity) {
			continue
		}
		a.Identities = append(a.Identities, f.Identity)
		i := slices.IndexFunc(a.AcceptedInsights, func(ai insightsv1alpha1.AcceptedInsight) bool {
			return ai.UpdateInformer == f.Informer && ai.UID == f.Identity
		})
		switch {
		case i < 0:
			a.AcceptedInsights = append(a.AcceptedInsights, insightsv1alpha1.AcceptedInsight{UpdateInformer: f.Informer, UID: f.Identity, Accepted: true})
			a.Changed = true
		case !a.AcceptedInsights[i].Accepted:
			a.AcceptedInsights[i].Accepted = true
			a.Changed = true
		}
	}
	return a, nil
}

// Reflects says whether the plan's findings show the given identities
// accepted: the controller has caught up with an acceptance. A finding that
// is gone no longer needs it.
func Reflects(plan *insightsv1alpha1.UpdatePlan, identities []string) bool {
	for _, f := range Findings(plan) {
		if !f.Accepted && slices.Contains(identities, f.Identity) {
			return false
		}
	}
	return true
}
