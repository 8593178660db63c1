package controlplane

import (
	"fmt"
	"math"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/eta"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

const (
	// maxVersionLength is what the insight API accepts for a version string;
	// a longer (garbage) version in the ClusterVersion is cut to fit.
	maxVersionLength = insightsv1alpha1.VersionMaxLength
	// maxQuotedMessageLength bounds how much of the ClusterVersion's own
	// Progressing message the Updating condition quotes.
	maxQuotedMessageLength = 4096
)

// ClusterVersionProgress returns the desired status of the
// ClusterVersionProgressInsight of cv. operators are the payload
// ClusterOperators (see IsPayloadOperator); mcoImage is the image the
// machine-config-operator Deployment runs (empty when unknown), which
// machine-config must report to count as updated, as in its
// ClusterOperatorProgressInsight; current is the insight's status as last
// written, or nil; now is the clock reading.
func ClusterVersionProgress(cv *configv1.ClusterVersion, operators []*configv1.ClusterOperator, mcoImage string, current *insightsv1alpha1.ClusterVersionProgressInsightStatus, now time.Time) insightsv1alpha1.ClusterVersionProgressInsightStatus {
	status, _ := clusterVersionProgress(cv, operators, mcoImage, nil, current, now)
	return status
}

// clusterVersionProgress is ClusterVersionProgress, and when the assessment
// would next change by the passage of time alone (the estimate passing, or
// passing by 10 minutes), or the zero time. past is what the cluster's
// recorded updates say, nil for nothing.
func clusterVersionProgress(cv *configv1.ClusterVersion, operators []*configv1.ClusterOperator, mcoImage string, past *eta.Past,
	current *insightsv1alpha1.ClusterVersionProgressInsightStatus, now time.Time) (insightsv1alpha1.ClusterVersionProgressInsightStatus, time.Time) {
	if current == nil {
		current = &insightsv1alpha1.ClusterVersionProgressInsightStatus{}
	}
	var last *configv1.UpdateHistory
	if len(cv.Status.History) > 0 {
		last = &cv.Status.History[0]
	}

	updating := updatingCondition(v1helpers.FindStatusCondition(cv.Status.Conditions, configv1.OperatorProgressing), last)
	status := insightsv1alpha1.ClusterVersionProgressInsightStatus{
		Conditions: []metav1.Condition{withTransitionTime(updating, current.Conditions, now)},
		Name:       cv.Name,
		Assessment: assessmentOf(updating.Status),
		Versions:   versions(cv),
	}

	updated := countUpdated(operators, cv.Status.Desired.Version, mcoImage)
	switch {
	case status.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted:
		// The ClusterVersion says it is done even if some operator has not
		// caught up yet: an inconsistent but valid transient state.
		status.CompletionPercent = 100
	case len(operators) > 0:
		status.CompletionPercent = completionPercent(updated, len(operators))
	}

	if last != nil && !last.StartedTime.IsZero() {
		status.StartedAt = timePtr(last.StartedTime.Time)
	}
	if status.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted {
		status.CompletedAt = timePtr(last.CompletionTime.Time)
	}
	// The API stores times to the second. Estimating from the unrounded time
	// would give the next sync, which reads it back rounded, an estimate up
	// to a few seconds off: enough, now and then, to cross the minute the
	// estimate is rounded to, and write the status again for nothing.
	lastProgress := lastObservedProgress(current, status.CompletionPercent, status.StartedAt, operators, cv.Status.Desired.Version, mcoImage, now).Truncate(time.Second)
	status.LastObservedProgress = timePtr(lastProgress)

	// Only a running update has an estimate, and only one with a known start.
	// A migration to another architecture has none: the curve is fitted on
	// updates, and a migration's operators keep their version, so the curve
	// would project one that has already passed (`oc adm upgrade status`
	// says "N/A for Multi-Architecture Migration").
	if status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing && status.StartedAt != nil && !IsArchitectureMigration(cv) {
		in := eta.Input{
			StartedAt:            status.StartedAt.Time,
			LastObservedProgress: lastProgress,
			Now:                  now,
			Updated:              updated,
			Total:                len(operators),
			Baseline:             eta.Baseline(cv.Status.History),
			Past:                 past,
		}
		remaining := eta.Remaining(in)
		status.EstimatedCompletedAt = timePtr(now.Add(remaining))
		status.Assessment = pace(remaining)
		return status, nextPace(status.Assessment, eta.Due(in))
	}
	return status, time.Time{}
}

// stalledAfter is how far past its estimate an update is Stalled rather
// than slow.
const stalledAfter = 10 * time.Minute

// pace assesses an update in progress by its estimate alone, as
// `oc adm upgrade status` does (pkg/cli/admin/upgrade/status/controlplane.go,
// once the estimate is computed): Stalled more than 10 minutes past it,
// ProgressingSlow past it, Progressing otherwise. Problems such as the
// ClusterVersion Failing do not change it; they are health insights.
func pace(remaining time.Duration) insightsv1alpha1.ClusterVersionAssessment {
	switch {
	case remaining < -stalledAfter:
		return insightsv1alpha1.ClusterVersionAssessmentStalled
	case remaining < 0:
		return insightsv1alpha1.ClusterVersionAssessmentProgressingSlow
	}
	return insightsv1alpha1.ClusterVersionAssessmentProgressing
}

// nextPace is when an update assessed so would next change its pace if
// nothing but time passed: as Remaining reaches -1s past due (the estimate
// passed), then -10m1s (Stalled), in Remaining's shrunk overdue time, and a
// millisecond more, so that float rounding in Remaining does not find the
// pace unchanged on waking.
func nextPace(assessment insightsv1alpha1.ClusterVersionAssessment, due time.Time) time.Time {
	if due.IsZero() {
		return time.Time{}
	}
	switch assessment {
	case insightsv1alpha1.ClusterVersionAssessmentProgressing:
		return due.Add(eta.Overdue(time.Second) + time.Millisecond)
	case insightsv1alpha1.ClusterVersionAssessmentProgressingSlow:
		return due.Add(eta.Overdue(stalledAfter+time.Second) + time.Millisecond)
	}
	return time.Time{}
}

// updatingCondition cross-checks the ClusterVersion's Progressing condition
// with its latest history entry; anything inconsistent is Unknown.
func updatingCondition(progressing *configv1.ClusterOperatorStatusCondition, last *configv1.UpdateHistory) metav1.Condition {
	c := metav1.Condition{
		Type:   insightsv1alpha1.ClusterVersionProgressInsightUpdating,
		Status: metav1.ConditionUnknown,
		Reason: insightsv1alpha1.ClusterVersionCannotDetermineUpdating,
	}
	if progressing == nil {
		c.Message = "ClusterVersion has no Progressing condition"
		return c
	}
	message := fmt.Sprintf("ClusterVersion has Progressing=%s(Reason=%s) | Message='%s'",
		progressing.Status, progressing.Reason, text.Truncate(progressing.Message, maxQuotedMessageLength))
	if last == nil {
		c.Message = message + " | ClusterVersion has no update history"
		return c
	}

	completed := last.CompletionTime != nil
	switch {
	case progressing.Status == configv1.ConditionTrue && last.State == configv1.PartialUpdate && !completed:
		c.Status, c.Reason, c.Message = metav1.ConditionTrue, insightsv1alpha1.ClusterVersionProgressing, message
	case progressing.Status == configv1.ConditionFalse && last.State == configv1.CompletedUpdate && completed:
		c.Status, c.Reason, c.Message = metav1.ConditionFalse, insightsv1alpha1.ClusterVersionNotProgressing, message
	default:
		completion := "no completion time"
		if completed {
			completion = "a completion time"
		}
		c.Message = fmt.Sprintf("%s | the latest update history entry has state %q and %s", message, last.State, completion)
	}
	return c
}

func assessmentOf(updating metav1.ConditionStatus) insightsv1alpha1.ClusterVersionAssessment {
	switch updating {
	case metav1.ConditionTrue:
		return insightsv1alpha1.ClusterVersionAssessmentProgressing
	case metav1.ConditionFalse:
		return insightsv1alpha1.ClusterVersionAssessmentCompleted
	default:
		return insightsv1alpha1.ClusterVersionAssessmentUnknown
	}
}

// versions reads the target and previous versions from the update history.
// Without history the target is the version the ClusterVersion desires.
func versions(cv *configv1.ClusterVersion) insightsv1alpha1.ControlPlaneUpdateVersions {
	history := cv.Status.History
	if len(history) == 0 {
		return insightsv1alpha1.ControlPlaneUpdateVersions{
			Target: insightsv1alpha1.Version{Version: text.Truncate(cv.Status.Desired.Version, maxVersionLength)},
		}
	}
	v := insightsv1alpha1.ControlPlaneUpdateVersions{
		Target: insightsv1alpha1.Version{Version: text.Truncate(history[0].Version, maxVersionLength)},
	}
	if len(history) == 1 {
		v.Target.Metadata = []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.InstallationMetadata}}
		return v
	}

	v.Previous = &insightsv1alpha1.Version{Version: text.Truncate(history[1].Version, maxVersionLength)}
	if history[1].State == configv1.PartialUpdate {
		v.Previous.Metadata = []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.PartialMetadata}}
	}
	if IsArchitectureMigration(cv) {
		v.Target.Metadata = []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.ArchitectureMetadata, Value: "multi"}}
	}
	return v
}

// IsArchitectureMigration says whether the ClusterVersion's latest update
// keeps the version of the one before: a migration of the payload to another
// architecture (today only ever to the multi-architecture payload), in which
// versions cannot tell what has been migrated.
func IsArchitectureMigration(cv *configv1.ClusterVersion) bool {
	history := cv.Status.History
	return len(history) > 1 && history[0].Version == history[1].Version &&
		(cv.Status.Desired.Architecture == configv1.ClusterVersionArchitectureMulti || history[0].Image != history[1].Image)
}

// IsArchitectureMigrationInProgress says whether a migration to another
// architecture is what the cluster is progressing towards now: only then
// are nodes judged by their rendered configurations. Once the migration is
// done, the history still shows it, but a pool rolling out a new
// configuration (any MachineConfig change) is no longer part of any update.
// `oc adm upgrade status` draws the same line on the ClusterVersion's
// Progressing condition.
func IsArchitectureMigrationInProgress(cv *configv1.ClusterVersion) bool {
	return IsArchitectureMigration(cv) && v1helpers.IsStatusConditionTrue(cv.Status.Conditions, configv1.OperatorProgressing)
}

// lastObservedProgress is kept while completion does not change and moves to
// now when it does. An insight that has none yet (new, recreated, or left
// over from an earlier update) takes it from evidence in the cluster, so that
// a restarted operator does not reset the estimate.
func lastObservedProgress(current *insightsv1alpha1.ClusterVersionProgressInsightStatus, completion int32, startedAt *metav1.Time,
	operators []*configv1.ClusterOperator, desiredVersion, mcoImage string, now time.Time) time.Time {
	if lop := current.LastObservedProgress; lop != nil && (startedAt == nil || !lop.Before(startedAt)) {
		if current.CompletionPercent == completion {
			return lop.Time
		}
		return now
	}
	return progressEvidence(operators, desiredVersion, mcoImage, startedAt, now)
}

// progressEvidence is when the cluster last showed progress: the latest
// Progressing transition among payload ClusterOperators, or machine-config's
// when it is the only operator left and is progressing (it rolls nodes for a
// long time after the others finish). It is now when that is not after the
// update's start.
func progressEvidence(operators []*configv1.ClusterOperator, desiredVersion, mcoImage string, startedAt *metav1.Time, now time.Time) time.Time {
	var latest time.Time
	var pending []*configv1.ClusterOperator
	for _, co := range operators {
		if c := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorProgressing); c != nil && c.LastTransitionTime.After(latest) {
			latest = c.LastTransitionTime.Time
		}
		if !operatorUpdated(co, desiredVersion, mcoImage) {
			pending = append(pending, co)
		}
	}
	if len(pending) == 1 && pending[0].Name == names.MachineConfigOperator {
		if c := v1helpers.FindStatusCondition(pending[0].Status.Conditions, configv1.OperatorProgressing); c != nil && c.Status == configv1.ConditionTrue {
			latest = c.LastTransitionTime.Time
		}
	}
	if startedAt == nil || !latest.After(startedAt.Time) {
		return now
	}
	return latest
}

// completionPercent is the share of updated operators as `oc adm upgrade
// status` prints it (pkg/cli/admin/upgrade/status/controlplane.go: the ratio
// times 100 as a float, printed with %.0f), rounded half to even: 32 of 33 is
// 97. Rounded, 199 of 200 is 100 while one operator still updates, so 100
// never says the update is done; the assessment does.
func completionPercent(updated, total int) int32 {
	return int32(math.RoundToEven(float64(updated) / float64(total) * 100))
}

func countUpdated(operators []*configv1.ClusterOperator, desiredVersion, mcoImage string) int {
	updated := 0
	for _, co := range operators {
		if operatorUpdated(co, desiredVersion, mcoImage) {
			updated++
		}
	}
	return updated
}

// isUpdated says whether the operator reports the desired version as its
// "operator" version. An operator without one has not updated.
func isUpdated(co *configv1.ClusterOperator, desiredVersion string) bool {
	v, ok := OperatorVersion(co)
	return ok && v == desiredVersion
}

// OperatorVersion returns the ClusterOperator's "operator" version.
func OperatorVersion(co *configv1.ClusterOperator) (string, bool) {
	for i := range co.Status.Versions {
		if co.Status.Versions[i].Name == names.OperatorVersion {
			return co.Status.Versions[i].Version, true
		}
	}
	return "", false
}

// IsPayloadOperator says whether the ClusterOperator belongs to the release
// payload: the CVO manages it, and marks it with an include or exclude
// annotation. Other ClusterOperators (add-ons) do not count toward an update.
func IsPayloadOperator(co *configv1.ClusterOperator) bool {
	for key := range co.Annotations {
		if strings.HasPrefix(key, "include.release.openshift.io/") || strings.HasPrefix(key, "exclude.release.openshift.io/") {
			return true
		}
	}
	return false
}

// PayloadOperators returns the payload ClusterOperators among operators.
func PayloadOperators(operators []*configv1.ClusterOperator) []*configv1.ClusterOperator {
	var payload []*configv1.ClusterOperator
	for _, co := range operators {
		if IsPayloadOperator(co) {
			payload = append(payload, co)
		}
	}
	return payload
}

// withTransitionTime keeps the transition time of the current condition of
// the same type when its status did not change, and sets now otherwise.
func withTransitionTime(c metav1.Condition, current []metav1.Condition, now time.Time) metav1.Condition {
	// A condition the cluster dates (c comes with its time) turned when the
	// cluster says, unless that is in the future; otherwise when first seen.
	if c.LastTransitionTime.IsZero() || c.LastTransitionTime.After(now) {
		c.LastTransitionTime = metav1.NewTime(now)
	}
	for i := range current {
		if current[i].Type == c.Type && current[i].Status == c.Status && !current[i].LastTransitionTime.IsZero() {
			c.LastTransitionTime = current[i].LastTransitionTime
		}
	}
	return c
}

func timePtr(t time.Time) *metav1.Time {
	mt := metav1.NewTime(t)
	return &mt
}
