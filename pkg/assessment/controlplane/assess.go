package controlplane

import (
	"time"

	configv1 "github.com/openshift/api/config/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/eta"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// Assess assesses the control plane's update: the desired status of
// the ClusterVersion's insight, the health insights the ClusterVersion
// controller owns, and when either would next change by the passage of time
// alone (a threshold expiring; zero for never). mcoImage is the image the
// machine-config-operator Deployment runs, empty when unknown; current is the
// insight's status as last written, or nil; past is what the cluster's
// recorded updates say of its control plane (updaterecord.Learn), nil for
// nothing, when the estimate follows the ClusterVersion's history alone.
// Of operators, the payload
// ClusterOperators, only those that count on a cluster of this topology
// (Counts) are weighed, in the completion, its estimate and the health
// insights alike.
func Assess(cv *configv1.ClusterVersion, operators []*configv1.ClusterOperator, topology hosted.Topology, mcoImage string, past *eta.Past,
	current *insightsv1alpha1.ClusterVersionProgressInsightStatus, now time.Time) (insightsv1alpha1.ClusterVersionProgressInsightStatus, []health.Insight, time.Time) {
	operators = CountedOperators(topology, operators)
	status, paceChanges := clusterVersionProgress(cv, operators, mcoImage, past, current, now)
	insights, next := health.ForControlPlane(cv, operators, &status, now)
	insights = append(health.Forced(cv), insights...)
	setHealthy(&status, insights, current, now)
	if !paceChanges.IsZero() && (next.IsZero() || paceChanges.Before(next)) {
		next = paceChanges
	}
	return status, insights, next
}
