package hostedclusters

import (
	"regexp"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/eta"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// manifestCount is the cluster-version operator's count of the release's
// manifests: done of total applied.
type manifestCount struct {
	version     string
	done, total int64
}

// workingTowards matches the cluster-version operator's Progressing message
// while it applies a release (openshift/cluster-version-operator
// pkg/cvo/status.go syncReconcilingStatus... the update branch):
// "Working towards %s: %d of %d done (%.0f%% complete)", optionally followed
// by ", <what it waits for>". The version is the release's version, or its
// image while the version is not known. The percentage is truncated from a
// float32; the count is exact, so it is what completion is computed from.
// A release has a thousand manifests or so: a count of more than nine
// digits is no count.
var workingTowards = regexp.MustCompile(`^Working towards (.+): (\d{1,9}) of (\d{1,9}) done \(\d+% complete\)`)

// parseCount reads the count from a Progressing message, when it has one
// that makes sense (a total, and no more done than it).
func parseCount(message string) *manifestCount {
	m := workingTowards.FindStringSubmatch(message)
	if m == nil {
		return nil
	}
	done, err1 := strconv.ParseInt(m[2], 10, 64)
	total, err2 := strconv.ParseInt(m[3], 10, 64)
	if err1 != nil || err2 != nil || total <= 0 || done > total {
		return nil
	}
	return &manifestCount{version: m[1], done: done, total: total}
}

// stalledAfter is how far past its estimate an update is Stalled, as for a
// standalone cluster (pkg/assessment/controlplane/clusterversion.go pace,
// after `oc adm upgrade status`).
const stalledAfter = 10 * time.Minute

// progress sets the completion, the last observed progress and the estimate
// of an update that has not completed.
func (a *assessor) progress(status *insightsv1alpha1.HostedClusterProgressInsightStatus) {
	v := a.hc.Status.Version
	last := &v.History[0]
	sameUpdate := a.prev.Versions.Target.Version == status.Versions.Target.Version && sameTime(a.prev.StartedAt, status.StartedAt)

	var count *manifestCount
	if c := meta.FindStatusCondition(a.hc.Status.Conditions, hypershift.ClusterVersionProgressing); c != nil {
		// A count for another release (the message not yet rewritten
		// after the update started) says nothing of this one.
		if n := parseCount(c.Message); n != nil && (n.version == last.Version || n.version == v.Desired.Version || n.version == v.Desired.Image) {
			count = n
		}
	}
	switch {
	case count != nil:
		status.CompletionPercent = int32(count.done * 100 / count.total)
	case sameUpdate && a.prev.Assessment != insightsv1alpha1.HostedClusterAssessmentCompleted && a.prev.CompletionPercent >= 0 && a.prev.CompletionPercent <= 100:
		status.CompletionPercent = a.prev.CompletionPercent
	}

	// The last progress is kept while completion does not grow; without a
	// previous one for this update it is when the update was first seen.
	lastProgress := a.now
	if lop := a.prev.LastObservedProgress; sameUpdate && lop != nil && status.CompletionPercent <= a.prev.CompletionPercent {
		lastProgress = lop.Time
	}
	if status.StartedAt != nil && lastProgress.Before(status.StartedAt.Time) {
		lastProgress = status.StartedAt.Time
	}
	status.LastObservedProgress = timePtr(lastProgress)

	// Only a running update with a known start has an estimate; a blocked
	// one is not running.
	if a.blocking || status.StartedAt == nil {
		return
	}
	in := eta.Input{
		StartedAt:            status.StartedAt.Time,
		LastObservedProgress: lastProgress,
		Now:                  a.now,
		Baseline:             eta.Baseline(v.History),
	}
	if status.CompletionPercent > 0 {
		in.Updated, in.Total = int(status.CompletionPercent), 100
	}
	remaining := eta.Remaining(in)
	a.remaining = &remaining
	status.EstimatedCompletedAt = timePtr(a.now.Add(remaining))
	a.hasCount = status.CompletionPercent > 0
}

// stalled says the update is more than stalledAfter past its estimate. Only
// a count the operator has reported can show that nothing moves: without
// one, an estimate from the baseline alone running out is no evidence.
func (a *assessor) stalled() bool {
	return a.hasCount && a.remaining != nil && *a.remaining < -stalledAfter
}

// sameTime compares times to the second, as the API server stores them.
func sameTime(a, b *metav1.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Truncate(time.Second).Equal(b.Truncate(time.Second))
}
