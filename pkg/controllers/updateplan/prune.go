package updateplan

import (
	"fmt"
	"time"

	"github.com/blang/semver/v4"
	configv1 "github.com/openshift/api/config/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// pruneReason says why a plan is done with, or nothing: the cluster
// completed an update to its target or past it, or no one touched it for
// ttl.
func pruneReason(plan *insightsv1alpha1.UpdatePlan, cv *configv1.ClusterVersion, now time.Time, ttl time.Duration) string {
	if running, ok := runningVersion(cv); ok {
		if target, err := semver.Parse(plan.Spec.TargetRelease); err == nil && target.LTE(running) {
			return fmt.Sprintf("the cluster runs %s, at or past the plan's target", running)
		}
	}
	if since := untouchedSince(plan); now.Sub(since) >= ttl {
		return fmt.Sprintf("no one touched it since %s, over %s ago", since.UTC().Format(time.RFC3339), ttl)
	}
	return ""
}

// runningVersion is the version of the newest completed update, when it is
// a version.
func runningVersion(cv *configv1.ClusterVersion) (semver.Version, bool) {
	if cv == nil {
		return semver.Version{}, false
	}
	for _, h := range cv.Status.History {
		if h.State != configv1.CompletedUpdate {
			continue
		}
		v, err := semver.Parse(h.Version)
		return v, err == nil
	}
	return semver.Version{}, false
}

// untouchedSince is when someone last wrote the plan's spec or metadata:
// its creation, or the newest of its managed fields' times outside the
// status subresource, which the controller's own writes are.
func untouchedSince(plan *insightsv1alpha1.UpdatePlan) time.Time {
	since := plan.CreationTimestamp.Time
	for _, f := range plan.ManagedFields {
		if f.Subresource == "" && f.Time != nil && f.Time.After(since) {
			since = f.Time.Time
		}
	}
	return since
}
