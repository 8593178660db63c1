package updateinformers

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

// The API's bounds on an insight that cutting a string cannot meet: an
// insight beyond them would make the API server refuse the whole
// UpdateStatus, so it is skipped, and counted. Summaries and descriptions
// are cut later, by the pure package.
const (
	maxUIDLength        = insightsv1alpha1.InsightUIDMaxLength
	maxResources        = insightsv1alpha1.InsightResourcesMaxItems
	maxWorkerPool       = insightsv1alpha1.InsightWorkerPoolMaxItems
	maxKindLength       = insightsv1alpha1.ResourceKindMaxLength
	maxNamespaceLength  = insightsv1alpha1.ResourceNamespaceMaxLength
	maxNameLength       = insightsv1alpha1.ResourceNameMaxLength
	maxReferenceLength  = insightsv1alpha1.RemediationReferenceMaxLength
	maxSkippedInMessage = 3
)

var referencePattern = regexp.MustCompile(`^https?://[^\s]+$`)

// converted is an answer's insights in the API's shape.
type converted struct {
	insights []insightsv1alpha1.UpdateInsight
	// identities are the insights' protocol identities, in order.
	identities []string
	// skipped says why insights the API would refuse were left out.
	skipped []string
}

// convert turns an informer's insights into the API's, leaving out those
// the API would refuse.
func convert(informer string, in []protocol.Insight) converted {
	var out converted
	for _, insight := range in {
		if why := unfit(insight); why != "" {
			out.skipped = append(out.skipped, fmt.Sprintf("insight %.64q: %s", insight.UID, why))
			continue
		}
		out.insights = append(out.insights, toAPI(insight))
		out.identities = append(out.identities, protocol.Identity(informer, insight))
	}
	return out
}

// problem says in one line what was skipped, or nothing.
func (c converted) problem() string {
	if len(c.skipped) == 0 {
		return ""
	}
	shown := c.skipped[:min(len(c.skipped), maxSkippedInMessage)]
	msg := fmt.Sprintf("%d insights left out, which the API would refuse: %s", len(c.skipped), strings.Join(shown, "; "))
	if more := len(c.skipped) - len(shown); more > 0 {
		msg += fmt.Sprintf(" (and %d more)", more)
	}
	return msg
}

// unfit says why the API would refuse an insight (that the protocol's
// validation accepted), or nothing. Lengths are in characters, as the
// API's maxLength counts them.
func unfit(insight protocol.Insight) string {
	length := utf8.RuneCountInString
	switch {
	case length(insight.UID) > maxUIDLength:
		return fmt.Sprintf("uid longer than %d characters", maxUIDLength)
	case len(insight.Scope.Resources) > maxResources:
		return fmt.Sprintf("more than %d resources", maxResources)
	case len(insight.Scope.WorkerPool) > maxWorkerPool:
		return fmt.Sprintf("more than %d workerPool resources", maxWorkerPool)
	case length(insight.Remediation.Reference) > maxReferenceLength:
		return fmt.Sprintf("remediation reference longer than %d characters", maxReferenceLength)
	case insight.Remediation.Reference != "" && !referencePattern.MatchString(insight.Remediation.Reference):
		return "remediation reference is not an http(s) URL"
	}
	for _, r := range slices.Concat(insight.Scope.Resources, insight.Scope.WorkerPool) {
		if length(r.Group) > maxNameLength || length(r.Kind) > maxKindLength || length(r.Namespace) > maxNamespaceLength || length(r.Name) > maxNameLength {
			return fmt.Sprintf("resource %.64q has a field longer than the API allows", protocol.ResourceString(r))
		}
	}
	return ""
}

// toAPI maps a valid protocol insight to the API's: the levels and types
// are the same words, and the estimated finish becomes a time.
func toAPI(in protocol.Insight) insightsv1alpha1.UpdateInsight {
	out := insightsv1alpha1.UpdateInsight{
		UID:             in.UID,
		AcquisitionTime: in.AcquisitionTime.DeepCopy(),
		Scope: insightsv1alpha1.UpdateInsightScope{
			Type:       insightsv1alpha1.ScopeType(in.Scope.Type),
			WorkerPool: resources(in.Scope.WorkerPool),
			Resources:  resources(in.Scope.Resources),
		},
		Impact: insightsv1alpha1.UpdateInsightImpact{
			Level:       insightsv1alpha1.UpdateInsightLevel(in.Impact.Level),
			Type:        insightsv1alpha1.UpdateInsightImpactType(in.Impact.Type),
			Summary:     in.Impact.Summary,
			Description: in.Impact.Description,
		},
		Remediation: insightsv1alpha1.UpdateInsightRemediation{Reference: in.Remediation.Reference},
	}
	if in.Remediation.Resolved != nil {
		resolved := *in.Remediation.Resolved
		out.Remediation.Resolved = &resolved
	}
	// Validation has checked it parses.
	if finish, ok, err := protocol.EstimatedFinish(in); ok && err == nil {
		t := metav1.NewTime(finish)
		out.Remediation.EstimatedFinish = &t
	}
	return out
}

func resources(in []protocol.Resource) []insightsv1alpha1.InsightResource {
	if len(in) == 0 {
		return nil
	}
	out := make([]insightsv1alpha1.InsightResource, 0, len(in))
	for _, r := range in {
		out = append(out, insightsv1alpha1.InsightResource{Group: r.Group, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name})
	}
	return out
}

// unresolved are the insights an informer marked resolved: false, by
// identity: they stay, as last reported, after the informer stops
// reporting them, until it reports them again without resolved: false,
// the update ends, or the informer is disabled or deleted.
type unresolved map[string]insightsv1alpha1.UpdateInsight

// withKept records what answer says of its insights and returns its
// insights with those it marked unresolved before and left out now.
func (u unresolved) withKept(answer converted) []insightsv1alpha1.UpdateInsight {
	reported := map[string]bool{}
	for i, insight := range answer.insights {
		id := answer.identities[i]
		reported[id] = true
		if r := insight.Remediation.Resolved; r != nil && !*r {
			u[id] = insight
		} else {
			delete(u, id)
		}
	}
	out := slices.Clone(answer.insights)
	var kept []string
	for id := range u {
		if !reported[id] {
			kept = append(kept, id)
		}
	}
	slices.Sort(kept)
	for _, id := range kept {
		out = append(out, u[id])
	}
	return out
}

// remember records an insight marked resolved: false found in the
// UpdateStatus at start, so that a restart does not resolve it.
func (u unresolved) remember(informer string, insights []insightsv1alpha1.UpdateInsight) {
	for _, insight := range insights {
		if r := insight.Remediation.Resolved; r != nil && !*r {
			u[updateplan.Identity(informer, insight)] = insight
		}
	}
}
