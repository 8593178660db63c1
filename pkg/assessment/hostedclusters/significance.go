package hostedclusters

import (
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// timeTolerance is how far a time may drift before the drift alone is worth
// a write: the estimate moves every sync (as in
// pkg/assessment/controlplane/significance.go).
const timeTolerance = 30 * time.Second

// Changed says whether desired differs from current in a way worth a write:
// any change of a value a person reads, or a time that moved by 30 seconds
// or more, appeared or went away.
func Changed(current, desired *insightsv1alpha1.HostedClusterProgressInsightStatus) bool {
	return current.Assessment != desired.Assessment ||
		current.CompletionPercent != desired.CompletionPercent ||
		current.NodePools != desired.NodePools ||
		!versionsEqual(&current.Versions, &desired.Versions) ||
		conditionsChanged(current.Conditions, desired.Conditions) ||
		problemsChanged(current.Problems, desired.Problems) ||
		timeChanged(current.StartedAt, desired.StartedAt) ||
		timeChanged(current.CompletedAt, desired.CompletedAt) ||
		timeChanged(current.EstimatedCompletedAt, desired.EstimatedCompletedAt) ||
		timeChanged(current.LastObservedProgress, desired.LastObservedProgress)
}

// conditionsChanged compares conditions by type, not by position.
func conditionsChanged(current, desired []metav1.Condition) bool {
	if len(current) != len(desired) {
		return true
	}
	for i := range desired {
		d := &desired[i]
		c := meta.FindStatusCondition(current, d.Type)
		if c == nil || c.Status != d.Status || c.Reason != d.Reason || c.Message != d.Message ||
			timeChanged(&c.LastTransitionTime, &d.LastTransitionTime) {
			return true
		}
	}
	return false
}

// problemsChanged compares problems in order: the order is the ranking.
func problemsChanged(current, desired []insightsv1alpha1.HostedProblem) bool {
	if len(current) != len(desired) {
		return true
	}
	for i := range desired {
		c, d := &current[i], &desired[i]
		if c.Level != d.Level || c.Reason != d.Reason || c.Message != d.Message ||
			(c.Resource == nil) != (d.Resource == nil) || (c.Resource != nil && *c.Resource != *d.Resource) ||
			timeChanged(c.Since, d.Since) {
			return true
		}
	}
	return false
}

func timeChanged(a, b *metav1.Time) bool {
	if a == nil || b == nil {
		return (a == nil) != (b == nil)
	}
	d := a.Sub(b.Time)
	return d >= timeTolerance || d <= -timeTolerance
}

func versionsEqual(a, b *insightsv1alpha1.ControlPlaneUpdateVersions) bool {
	if !versionEqual(&a.Target, &b.Target) || (a.Previous == nil) != (b.Previous == nil) {
		return false
	}
	return a.Previous == nil || versionEqual(a.Previous, b.Previous)
}

func versionEqual(a, b *insightsv1alpha1.Version) bool {
	if a.Version != b.Version || len(a.Metadata) != len(b.Metadata) {
		return false
	}
	for i := range a.Metadata {
		if a.Metadata[i] != b.Metadata[i] {
			return false
		}
	}
	return true
}
