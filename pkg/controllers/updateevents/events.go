package updateevents

import (
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// Reasons of the Events on a ClusterVersionProgressInsight.
const (
	ReasonUpdateStarted      = "UpdateStarted"
	ReasonUpdateCompleted    = "UpdateCompleted"
	ReasonErrorHealthInsight = "ErrorHealthInsight"
)

// observation is what the controller remembers of one ClusterVersion insight
// between syncs.
type observation struct {
	// startedAt and completedAt are zero while unset.
	startedAt, completedAt time.Time
	// failing says whether some health insight was at Error level or worse.
	failing bool
}

// event is one Kubernetes Event to record on the insight.
type event struct {
	eventType, reason, message string
}

// compare returns the events that tell what changed since before, and what
// to remember for the next comparison. failing are the health insights at
// Error level or worse, sorted by name.
func compare(before observation, status *insightsv1alpha1.ClusterVersionProgressInsightStatus,
	failing []*insightsv1alpha1.UpdateHealthInsight) ([]event, observation) {
	after := observation{
		startedAt:   timeOf(status.StartedAt),
		completedAt: timeOf(status.CompletedAt),
		failing:     len(failing) > 0,
	}
	var events []event
	if !after.startedAt.IsZero() && !after.startedAt.Equal(before.startedAt) {
		events = append(events, event{corev1.EventTypeNormal, ReasonUpdateStarted, startedMessage(status.Versions)})
	}
	if !after.completedAt.IsZero() && !after.completedAt.Equal(before.completedAt) {
		events = append(events, event{corev1.EventTypeNormal, ReasonUpdateCompleted, completedMessage(status.Versions, after.startedAt, after.completedAt)})
	}
	// Only the first problem is news: while one is already reported, more
	// would repeat the same warning.
	if after.failing && !before.failing {
		events = append(events, event{corev1.EventTypeWarning, ReasonErrorHealthInsight, failingMessage(failing)})
	}
	return events, after
}

// isFailing says whether a health insight is at Error level or worse.
func isFailing(insight *insightsv1alpha1.UpdateHealthInsight) bool {
	level := insight.Status.Impact.Level
	return level == insightsv1alpha1.ErrorImpactLevel || level == insightsv1alpha1.CriticalImpactLevel
}

// failingInsights returns the health insights at Error level or worse, sorted
// by name so that the one an event names does not depend on cache order.
func failingInsights(all []*insightsv1alpha1.UpdateHealthInsight) []*insightsv1alpha1.UpdateHealthInsight {
	var failing []*insightsv1alpha1.UpdateHealthInsight
	for _, insight := range all {
		if isFailing(insight) {
			failing = append(failing, insight)
		}
	}
	slices.SortFunc(failing, func(a, b *insightsv1alpha1.UpdateHealthInsight) int { return strings.Compare(a.Name, b.Name) })
	return failing
}

func timeOf(t *metav1.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.Time
}

// installation says whether the versions are those of the installation: the
// target then carries the Installation metadata (and there is no previous
// version).
func installation(v insightsv1alpha1.ControlPlaneUpdateVersions) bool {
	return slices.ContainsFunc(v.Target.Metadata, func(m insightsv1alpha1.VersionMetadata) bool {
		return m.Key == insightsv1alpha1.InstallationMetadata
	})
}

func startedMessage(v insightsv1alpha1.ControlPlaneUpdateVersions) string {
	switch {
	case installation(v):
		return "Started installing " + describe(v.Target)
	case v.Previous == nil:
		// Not seen in practice: a start time comes from update history,
		// which names the previous version of anything but an installation.
		return "Started updating the control plane to " + describe(v.Target)
	default:
		return fmt.Sprintf("Started updating the control plane from %s to %s", describe(*v.Previous), describe(v.Target))
	}
}

func completedMessage(v insightsv1alpha1.ControlPlaneUpdateVersions, startedAt, completedAt time.Time) string {
	message := "Completed the control plane update to " + describe(v.Target)
	if installation(v) {
		message = "Completed installing " + describe(v.Target)
	}
	// A start after the completion would be clock skew or a mixed-up
	// history: better no duration than a negative one.
	if !startedAt.IsZero() && !completedAt.Before(startedAt) {
		message += " in " + roughDuration(completedAt.Sub(startedAt))
	}
	return message
}

func failingMessage(failing []*insightsv1alpha1.UpdateHealthInsight) string {
	first := failing[0]
	message := fmt.Sprintf("Health insight %s is %s: %s", first.Name, first.Status.Impact.Level, first.Status.Impact.Summary)
	if more := len(failing) - 1; more > 0 {
		message += fmt.Sprintf(" (and %d more at Error level or worse)", more)
	}
	return message
}

// describe names a version with what its metadata says about it, since "from
// 4.14.1" would misstate a previous update that never completed.
func describe(v insightsv1alpha1.Version) string {
	s := v.Version
	if s == "" {
		s = "an unknown version"
	}
	for _, m := range v.Metadata {
		switch m.Key {
		case insightsv1alpha1.PartialMetadata:
			s += " (partially applied)"
		case insightsv1alpha1.ArchitectureMetadata:
			s += fmt.Sprintf(" (%s architecture)", m.Value)
		}
	}
	return s
}

// roughDuration rounds an update's duration to the minute, which is as
// precise as anyone reading about an update cares; only an update shorter
// than a minute is told in seconds.
func roughDuration(d time.Duration) string {
	if d.Round(time.Second) < time.Minute {
		return d.Round(time.Second).String()
	}
	// "1h12m0s" reads better as "1h12m".
	return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
}
