// Package updaterecord keeps the record of an update while it runs: when it
// started and completed, when each ClusterOperator began and finished
// updating, the health insights active meanwhile, the control plane's
// estimates, and the spans the operator did not see. It is pure: the
// insights, the record as last written and a clock reading in, the record's
// status out.
package updaterecord

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// Heartbeat is how often a record in progress is written when nothing else
// in it changed. observedUntil is never older than this while an operator
// runs, so a later operator finding it older knows none ran since, to
// within a Heartbeat.
const Heartbeat = 5 * time.Minute

// unobservedAfter is how old observedUntil must be for the time since to be
// a span not observed: a Heartbeat, and a minute for a write on a loaded
// API server.
const unobservedAfter = Heartbeat + time.Minute

// Input is what a record is kept from.
type Input struct {
	// ClusterVersion is the ClusterVersion insight's status: the update.
	ClusterVersion *insightsv1alpha1.ClusterVersionProgressInsightStatus
	// Operators are the ClusterOperator insights' statuses.
	Operators []insightsv1alpha1.ClusterOperatorProgressInsightStatus
	// Health are the health insights.
	Health []insightsv1alpha1.UpdateHealthInsight
	// Nodes are the Node insights' statuses.
	Nodes []insightsv1alpha1.NodeProgressInsightStatus
	// Pools are the MachineConfigPool insights' statuses: a pool excluded
	// from the update (paused) does not hold its completion.
	Pools []insightsv1alpha1.MachineConfigPoolProgressInsightStatus
	// Previous is the update's record as last written; nil for none yet.
	Previous *insightsv1alpha1.UpdateRecordStatus
	// Resumed says this process writes the record for the first time: the
	// time since Previous.observedUntil was seen by no operator if it is
	// longer than a Heartbeat allows.
	Resumed bool
	// Now is the clock reading.
	Now time.Time
}

// Recordable says whether the ClusterVersion insight is of an update that
// is recorded: one that started, from a previous version (an
// installation is not an update).
func Recordable(cv *insightsv1alpha1.ClusterVersionProgressInsightStatus) bool {
	return cv != nil && cv.StartedAt != nil && cv.Versions.Previous != nil &&
		!hasMetadata(cv.Versions.Target, insightsv1alpha1.InstallationMetadata)
}

// nameUnsafe are the characters a version may hold that an object's name
// may not.
var nameUnsafe = regexp.MustCompile(`[^a-z0-9.-]+`)

// Name is the name of the record of the update to version started at
// started: the version, made a valid name, and the start to the second, so
// that an update retried to the same version is a record of its own. A
// version that cannot be made one (a dot beside a dash, whatever the
// ClusterVersion says) is named by its digest instead, so that every
// update's record can be written.
func Name(version string, started time.Time) string {
	suffix := started.UTC().Format("-20060102-150405")
	v := strings.Trim(nameUnsafe.ReplaceAllString(strings.ToLower(version), "-"), "-.")
	if max := validation.DNS1123SubdomainMaxLength - len(suffix); len(v) > max {
		v = strings.TrimRight(v[:max], "-.")
	}
	switch {
	case v == "":
		v = "unknown"
	case len(validation.IsDNS1123Subdomain(v+suffix)) > 0:
		digest := sha256.Sum256([]byte(version))
		v = "version-" + hex.EncodeToString(digest[:8])
	}
	return v + suffix
}

// Next is the record's status at in.Now.
func Next(in Input) insightsv1alpha1.UpdateRecordStatus {
	cv := in.ClusterVersion
	var out insightsv1alpha1.UpdateRecordStatus
	if in.Previous != nil {
		in.Previous.DeepCopyInto(&out)
	}
	now := metav1.NewTime(in.Now.Truncate(time.Second))
	started := cv.StartedAt.Rfc3339Copy()
	out.To = *cv.Versions.Target.DeepCopy()
	out.From = cv.Versions.Previous.DeepCopy()
	out.StartedAt = started

	// gap says the time before now was not watched: the update is seen
	// for the first time, or again after no operator ran for a while.
	gap := false
	switch {
	case in.Previous == nil:
		out.ObservedUntil, gap = now, true
		// An update first seen after it completed was not seen from its
		// start to its end.
		seen := now
		if cv.CompletedAt != nil && cv.CompletedAt.Before(&now) && !cv.CompletedAt.Before(&started) {
			seen = cv.CompletedAt.Rfc3339Copy()
		}
		if seen.Sub(started.Time) > unobservedAfter {
			out.NotObserved = append(out.NotObserved, insightsv1alpha1.TimeSpan{From: started, To: seen})
		}
	case in.Resumed && out.State == insightsv1alpha1.UpdateRecordProgressing && now.Sub(out.ObservedUntil.Time) > unobservedAfter:
		out.NotObserved, gap = append(out.NotObserved, insightsv1alpha1.TimeSpan{From: out.ObservedUntil, To: now}), true
	}
	if n := len(out.NotObserved) - insightsv1alpha1.UpdateRecordMaxNotObserved; n > 0 {
		out.NotObserved = out.NotObserved[n:]
		out.NotObservedOmitted += int32(n)
	}

	// A record that ended is kept as it ended, whatever the insights say
	// next (an insight that cannot tell its assessment for a while, say).
	wasProgressing := in.Previous == nil || in.Previous.State == insightsv1alpha1.UpdateRecordProgressing
	if wasProgressing {
		out.State = insightsv1alpha1.UpdateRecordProgressing
		out.ControlPlaneCompletedAt = nil
		if cv.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted && cv.CompletedAt != nil {
			out.ControlPlaneCompletedAt = ptr(cv.CompletedAt.Rfc3339Copy())
		}
		out.ClusterOperators, out.ClusterOperatorsOmitted = operators(in, out.StartedAt, now, gap)
		out.Stalls, out.StallsOmitted = stalls(in, now, gap)
		out.Estimates = estimates(in, now)
		out.Pools, out.PoolsOmitted = pools(in, out.StartedAt, now)
		if at, done := completion(&out); done {
			out.State, out.CompletedAt = insightsv1alpha1.UpdateRecordCompleted, at
		}
	}

	changed := in.Previous == nil || !equalIgnoringObserved(in.Previous, &out)
	if wasProgressing && (changed || now.Sub(out.ObservedUntil.Time) >= Heartbeat) {
		out.ObservedUntil = now
	}
	out.Durations = durations(&out, out.ObservedUntil)
	return out
}

// completion says whether the update completed, and when: the control plane
// completed, and every pool with nodes not excluded from the update (a
// paused MachineConfigPool) has them all at the target.
func completion(r *insightsv1alpha1.UpdateRecordStatus) (*metav1.Time, bool) {
	if r.ControlPlaneCompletedAt == nil {
		return nil, false
	}
	at := *r.ControlPlaneCompletedAt
	for i := range r.Pools {
		p := &r.Pools[i]
		switch {
		case p.Nodes == 0 || p.Assessment == insightsv1alpha1.PoolExcluded:
		case p.CompletedAt == nil:
			return nil, false
		case at.Before(p.CompletedAt):
			at = *p.CompletedAt
		}
	}
	return &at, true
}

// durations are the update's and its parts' durations, each to its
// completion or, while it runs, to until.
func durations(r *insightsv1alpha1.UpdateRecordStatus, until metav1.Time) insightsv1alpha1.UpdateRecordDurations {
	end := func(at *metav1.Time) time.Time {
		if at != nil {
			return at.Time
		}
		return until.Time
	}
	d := insightsv1alpha1.UpdateRecordDurations{
		ControlPlane: duration(r.StartedAt.Time, end(r.ControlPlaneCompletedAt)),
		Total:        duration(r.StartedAt.Time, end(r.CompletedAt)),
	}
	var workers *metav1.Time
	running := false
	for i := range r.Pools {
		p := &r.Pools[i]
		if p.ScopeType != insightsv1alpha1.ScopeTypeWorkerPool || p.Nodes == 0 || p.Assessment == insightsv1alpha1.PoolExcluded {
			continue
		}
		switch {
		case p.CompletedAt == nil:
			running = true
		case workers == nil || workers.Before(p.CompletedAt):
			workers = p.CompletedAt
		}
	}
	switch {
	case running:
		d.Workers = duration(r.StartedAt.Time, until.Time)
	case workers != nil:
		d.Workers = duration(r.StartedAt.Time, workers.Time)
	}
	return d
}

// Abandon is the record of an update abandoned for another, started at.
func Abandon(previous *insightsv1alpha1.UpdateRecordStatus, at time.Time) insightsv1alpha1.UpdateRecordStatus {
	out := *previous.DeepCopy()
	if out.State != insightsv1alpha1.UpdateRecordProgressing {
		return out
	}
	abandoned := metav1.NewTime(at.Truncate(time.Second))
	out.State = insightsv1alpha1.UpdateRecordAbandoned
	out.AbandonedAt = &abandoned
	out.Durations = durations(&out, abandoned)
	return out
}

// operators are the ClusterOperators' records. A start is the Updating
// condition's turn to True, which the ClusterOperator insight dates; a
// completion its turn to False, reason Updated, after a start was seen,
// else the first sight of it while the operator watched. What happened in
// a span not observed without a dated turn is left unknown.
func operators(in Input, updateStarted, now metav1.Time, gap bool) ([]insightsv1alpha1.OperatorUpdateRecord, int32) {
	byName := map[string]insightsv1alpha1.OperatorUpdateRecord{}
	if in.Previous != nil {
		for _, o := range in.Previous.ClusterOperators {
			byName[o.Name] = *o.DeepCopy()
		}
	}
	inUpdate := func(t metav1.Time) bool { return !t.Before(&updateStarted) && !now.Before(&t) }
	for i := range in.Operators {
		op := &in.Operators[i]
		if op.Name == "" {
			// An insight is created empty, its status written next.
			continue
		}
		r, seen := byName[op.Name]
		r.Name = op.Name
		c := meta.FindStatusCondition(op.Conditions, insightsv1alpha1.ClusterOperatorProgressInsightUpdating)
		switch {
		case c == nil:
		case c.Status == metav1.ConditionTrue:
			r.Updated = false
			if r.StartedAt == nil {
				at := now
				if t := c.LastTransitionTime.Rfc3339Copy(); inUpdate(t) {
					at = t
				}
				r.StartedAt = &at
			}
		case c.Status == metav1.ConditionFalse && c.Reason == insightsv1alpha1.ClusterOperatorUpdated:
			if r.Updated {
				break
			}
			r.Updated = true
			t := c.LastTransitionTime.Rfc3339Copy()
			switch {
			case r.CompletedAt != nil:
			case r.StartedAt != nil && !t.Before(r.StartedAt) && inUpdate(t):
				r.CompletedAt = &t
			case seen && !gap:
				r.CompletedAt = ptr(now)
			}
		default:
			r.Updated = false
		}
		byName[op.Name] = r
	}
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	sort.Strings(names)
	var omitted int32
	if n := len(names) - insightsv1alpha1.UpdateRecordMaxOperators; n > 0 {
		names, omitted = names[:insightsv1alpha1.UpdateRecordMaxOperators], int32(n)
	}
	out := make([]insightsv1alpha1.OperatorUpdateRecord, 0, len(names))
	for _, name := range names {
		out = append(out, byName[name])
	}
	return out, omitted
}

// equalIgnoringObserved compares two records but for observedUntil and the
// durations that follow it.
func equalIgnoringObserved(a, b *insightsv1alpha1.UpdateRecordStatus) bool {
	x, y := a.DeepCopy(), b.DeepCopy()
	x.ObservedUntil, y.ObservedUntil = metav1.Time{}, metav1.Time{}
	x.Durations, y.Durations = insightsv1alpha1.UpdateRecordDurations{}, insightsv1alpha1.UpdateRecordDurations{}
	return equality.Semantic.DeepEqual(x, y)
}

func duration(from, to time.Time) *metav1.Duration {
	return &metav1.Duration{Duration: max(0, to.Sub(from))}
}

func hasMetadata(v insightsv1alpha1.Version, key insightsv1alpha1.VersionMetadataKey) bool {
	for _, m := range v.Metadata {
		if m.Key == key {
			return true
		}
	}
	return false
}

func ptr[T any](v T) *T { return &v }
