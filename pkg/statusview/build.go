package statusview

import (
	"errors"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// ErrNoClusterVersion says there is nothing to build a Status from.
var ErrNoClusterVersion = errors.New("no ClusterVersionProgressInsight found: is update-insights-operator installed and running?")

// Build returns the Status the insights tell as of now. Partial insights give
// a partial Status; only a missing ClusterVersion insight is an error.
func Build(in *Insights, now time.Time) (*Status, error) {
	cv := in.clusterVersion()
	if cv == nil {
		return nil, ErrNoClusterVersion
	}
	s := &Status{
		Liveness:     liveness(in.Lease, now),
		Now:          metav1.NewTime(now),
		ControlPlane: controlPlane(&cv.Status, in.ClusterOperators, now),
		Health:       health(in.Health, in.UpdateStatus),
		Warnings:     append(ownOperatorWarnings(in.Operator), informerWarnings(in.UpdateStatus)...),
	}
	if !s.Liveness.Current() {
		s.Warnings = append([]string{s.Liveness.Message}, s.Warnings...)
	}
	s.ControlPlaneNodes, s.WorkerPools = pools(in.MachineConfigPools, in.Nodes)
	// A pool without nodes has no section, and its informers' progress no
	// place: there is nothing of it to update.
	var poolProgress map[string][]Progress
	s.ControlPlane.Informers, poolProgress = informerProgress(in.UpdateStatus)
	for i := range s.WorkerPools {
		s.WorkerPools[i].Informers = poolProgress[s.WorkerPools[i].Name]
	}
	s.Updating = s.ControlPlane.Assessment != insightsv1alpha1.ClusterVersionAssessmentCompleted ||
		(s.ControlPlaneNodes != nil && !s.ControlPlaneNodes.completed())
	for i := range s.WorkerPools {
		s.Updating = s.Updating || !s.WorkerPools[i].completed()
	}
	if !s.Updating {
		s.Upcoming, _ = upcoming(s.ControlPlane.Informers, now)
	}
	return s, nil
}

func controlPlane(cv *insightsv1alpha1.ClusterVersionProgressInsightStatus, operators []*insightsv1alpha1.ClusterOperatorProgressInsight, now time.Time) ControlPlane {
	cp := ControlPlane{
		Assessment:           cv.Assessment,
		Target:               cv.Versions.Target,
		Previous:             cv.Versions.Previous,
		Updating:             []Operator{},
		Completion:           Completion{Percent: cv.CompletionPercent},
		StartedAt:            cv.StartedAt,
		CompletedAt:          cv.CompletedAt,
		EstimatedCompletedAt: cv.EstimatedCompletedAt,
	}
	if cv.StartedAt != nil {
		end := now
		if cv.CompletedAt != nil {
			end = cv.CompletedAt.Time
		}
		cp.Duration = &metav1.Duration{Duration: end.Sub(cv.StartedAt.Time).Round(time.Second)}
	}
	if cv.EstimatedCompletedAt != nil && cv.CompletedAt == nil {
		cp.EstimatedTimeRemaining = &metav1.Duration{Duration: cv.EstimatedCompletedAt.Sub(now).Round(time.Second)}
	}
	for _, o := range sortedOperators(operators) {
		countProgress(&cp, o)
		countHealth(&cp.OperatorHealth, o.Status.Conditions)
	}
	return cp
}

func sortedOperators(operators []*insightsv1alpha1.ClusterOperatorProgressInsight) []*insightsv1alpha1.ClusterOperatorProgressInsight {
	sorted := slices.Clone(operators)
	slices.SortFunc(sorted, func(a, b *insightsv1alpha1.ClusterOperatorProgressInsight) int {
		return strings.Compare(operatorName(a), operatorName(b))
	})
	return sorted
}

func operatorName(o *insightsv1alpha1.ClusterOperatorProgressInsight) string {
	if o.Status.Name != "" {
		return o.Status.Name
	}
	return o.Name
}

func countProgress(cp *ControlPlane, o *insightsv1alpha1.ClusterOperatorProgressInsight) {
	updating := meta.FindStatusCondition(o.Status.Conditions, insightsv1alpha1.ClusterOperatorProgressInsightUpdating)
	switch {
	case updating != nil && updating.Status == metav1.ConditionTrue:
		cp.Completion.Updating++
		operator := Operator{Name: operatorName(o), Reason: o.Status.ProgressingReason, Message: updating.Message}
		if !updating.LastTransitionTime.IsZero() {
			operator.Since = updating.LastTransitionTime.DeepCopy()
		}
		cp.Updating = append(cp.Updating, operator)
	case updating != nil && updating.Reason == insightsv1alpha1.ClusterOperatorUpdated:
		cp.Completion.Updated++
	default:
		// Pending, or not known: either way not there yet.
		cp.Completion.Waiting++
	}
}

func countHealth(h *OperatorHealth, conditions []metav1.Condition) {
	healthy := meta.FindStatusCondition(conditions, insightsv1alpha1.ClusterOperatorProgressInsightHealthy)
	switch {
	case healthy == nil:
		h.Unknown++
	case healthy.Status == metav1.ConditionTrue:
		h.Healthy++
	case healthy.Reason == insightsv1alpha1.ClusterOperatorUnavailable:
		h.Unavailable++
	case healthy.Reason == insightsv1alpha1.ClusterOperatorDegraded:
		h.Degraded++
	default:
		h.Unknown++
	}
}

// health returns the health insights, the operator's and the informers',
// by level, then the most recent first, then by summary, as the reference
// orders them.
func health(insights []*insightsv1alpha1.UpdateHealthInsight, updateStatus *insightsv1alpha1.UpdateStatus) []Health {
	out := append([]Health{}, informerHealth(updateStatus)...)
	for _, h := range insights {
		s := &h.Status
		entry := Health{
			Name:        h.Name,
			Level:       s.Impact.Level,
			Impact:      s.Impact.Type,
			Scope:       s.Scope.Type,
			Summary:     s.Impact.Summary,
			Description: s.Impact.Description,
			Reference:   s.Remediation.Reference,
			Resources:   s.Scope.Resources,
		}
		if !s.StartedAt.IsZero() {
			entry.StartedAt = s.StartedAt.DeepCopy()
		}
		out = append(out, entry)
	}
	slices.SortFunc(out, func(a, b Health) int {
		if ra, rb := insightsv1alpha1.ImpactLevelRank(a.Level), insightsv1alpha1.ImpactLevelRank(b.Level); ra != rb {
			return ra - rb
		}
		if c := startedAt(b).Compare(startedAt(a)); c != 0 {
			return c
		}
		if c := strings.Compare(a.Summary, b.Summary); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// startedAt is the zero time, older than any, when the start is unknown.
func startedAt(h Health) time.Time {
	if h.StartedAt == nil {
		return time.Time{}
	}
	return h.StartedAt.Time
}
