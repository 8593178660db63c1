// Package health computes the health insights an update deserves from the
// cluster objects. It is pure: objects in, desired insights out.
package health

import (
	"crypto/sha256"
	"encoding/hex"
	"io"

	configv1 "github.com/openshift/api/config/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// ForceInsightAnnotation on a ClusterVersion makes the operator report an Info
// health insight about it: a way to exercise the health insight pipeline end
// to end.
const ForceInsightAnnotation = "oue.openshift.muller.dev/force-health-insight"

// Insight is a desired UpdateHealthInsight.
type Insight struct {
	Name string
	// Problem names the kind of problem in CamelCase, e.g.
	// ClusterOperatorDegraded: the reason a summary condition gives when
	// this insight is the worst.
	Problem string
	Status  insightsv1alpha1.UpdateHealthInsightStatus
	// Undated says that nothing in the cluster dates the problem: its
	// startedAt stays empty rather than take the time it was first
	// reported, as `oc adm upgrade status` leaves it (its health insights
	// of degraded nodes and paused pools have no startedAt,
	// pkg/cli/admin/upgrade/status/workerpool.go).
	Undated bool
}

// Forced returns the Info insight that ForceInsightAnnotation on the
// ClusterVersion asks for, or none. It exercises the pipeline and says
// nothing of the ClusterVersion's health, which ForControlPlane reports. Its
// StartedAt is zero, since the cluster does not record when the annotation
// was added: it keeps the time it was first reported.
func Forced(cv *configv1.ClusterVersion) []Insight {
	var insights []Insight
	if _, forced := cv.Annotations[ForceInsightAnnotation]; forced {
		status := forcedInsight(cv)
		insights = append(insights, Insight{Name: Name("cv-", &status), Problem: "ForcedHealthInsight", Status: status})
	}
	return insights
}

func forcedInsight(cv *configv1.ClusterVersion) insightsv1alpha1.UpdateHealthInsightStatus {
	return insightsv1alpha1.UpdateHealthInsightStatus{
		Scope: insightsv1alpha1.InsightScope{
			Type:      insightsv1alpha1.ScopeTypeControlPlane,
			Resources: []insightsv1alpha1.ResourceRef{clusterVersionResource.ref(cv.Name)},
		},
		Impact: insightsv1alpha1.InsightImpact{
			Level:   insightsv1alpha1.InfoImpactLevel,
			Type:    insightsv1alpha1.NoneImpactType,
			Summary: "Forced health insight for ClusterVersion " + cv.Name,
			Description: "The ClusterVersion carries the annotation " + ForceInsightAnnotation +
				", which makes the operator report this insight to exercise health reporting. Remove the annotation to remove the insight.",
		},
		Remediation: insightsv1alpha1.InsightRemediation{
			Reference: "https://github.com/update-insights/update-insights-operator/blob/main/docs/insights.md#health-insights",
		},
	}
}

// Name derives an insight's object name from its scope's objects and its
// summary, as the ClusterVersion insight specification names them. The
// result is a valid object name of fixed length.
func Name(prefix string, status *insightsv1alpha1.UpdateHealthInsightStatus) string {
	return hashName(prefix, status.Scope.Resources, status.Impact.Summary)
}

// problemName derives an insight's object name from its scope's objects and
// the kind of problem, not the summary: a summary may change (a new reason,
// a worse level) while the problem stays the same object for its whole life.
func problemName(prefix, problem string, resources []insightsv1alpha1.ResourceRef) string {
	return hashName(prefix, resources, problem)
}

func hashName(prefix string, resources []insightsv1alpha1.ResourceRef, identity string) string {
	h := sha256.New()
	for _, r := range resources {
		// Separators that cannot occur in names keep the fields apart.
		_, _ = io.WriteString(h, r.Group+"\x00"+r.Resource+"\x00"+r.Namespace+"\x00"+r.Name+"\x01")
	}
	_, _ = io.WriteString(h, "\x02"+identity)
	return prefix + hex.EncodeToString(h.Sum(nil))[:32]
}
