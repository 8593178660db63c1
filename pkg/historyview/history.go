// Package historyview tells the cluster's past updates from their
// UpdateRecords: a list of them, and the postmortem of one. It is pure:
// records and a clock reading in, what to print out.
package historyview

import (
	"fmt"
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

// History is the cluster's recorded updates, the newest first.
type History struct {
	Updates []Update `json:"updates"`
}

// Update is one line of the history.
type Update struct {
	// Record is the UpdateRecord's name.
	Record string                             `json:"record"`
	From   string                             `json:"from,omitempty"`
	To     string                             `json:"to"`
	State  insightsv1alpha1.UpdateRecordState `json:"state"`
	// StartedAt is the update's start.
	StartedAt time.Time `json:"startedAt"`
	// Duration is how long the update took, its pools with its control
	// plane, or has taken so far; ControlPlane how long the control plane
	// did.
	Duration     metav1.Duration `json:"duration"`
	ControlPlane metav1.Duration `json:"controlPlane"`
	// Stalls counts the stalls, StallTime adds up their durations.
	Stalls    int             `json:"stalls"`
	StallTime metav1.Duration `json:"stallTime"`
	// EstimateError is the error of the estimate taken at the middle of
	// the control plane; nil when none can be told.
	EstimateError *EstimateError `json:"estimateError,omitempty"`
	// NotObserved says that part of the update was not seen.
	NotObserved bool `json:"notObserved,omitempty"`
}

// EstimateError is how far an estimate of the control plane's completion
// was from its completion.
type EstimateError struct {
	// Percent is the completion the estimate was taken at.
	Percent int32 `json:"percent"`
	// Late is how much later the control plane completed than estimated:
	// negative when it completed earlier.
	Late metav1.Duration `json:"late"`
}

// List is the history of the records, the newest first.
func List(records []insightsv1alpha1.UpdateRecord, now time.Time) History {
	h := History{Updates: []Update{}}
	for i := range records {
		h.Updates = append(h.Updates, line(&records[i], now))
	}
	sort.SliceStable(h.Updates, func(i, j int) bool {
		if !h.Updates[i].StartedAt.Equal(h.Updates[j].StartedAt) {
			return h.Updates[i].StartedAt.After(h.Updates[j].StartedAt)
		}
		return h.Updates[i].Record < h.Updates[j].Record
	})
	return h
}

func line(r *insightsv1alpha1.UpdateRecord, now time.Time) Update {
	s := &r.Status
	u := Update{Record: r.Name, To: s.To.Version, State: s.State, StartedAt: s.StartedAt.Time,
		Stalls: len(s.Stalls) + int(s.StallsOmitted), NotObserved: len(s.NotObserved) > 0 || s.NotObservedOmitted > 0}
	if s.From != nil {
		u.From = s.From.Version
	}
	if d := s.Durations.ControlPlane; d != nil {
		u.ControlPlane = *d
	}
	u.Duration = u.ControlPlane
	if d := s.Durations.Total; d != nil {
		u.Duration = *d
	}
	until := end(s, now)
	for i := range s.Stalls {
		u.StallTime.Duration += updaterecord.StallDuration(&s.Stalls[i], until)
	}
	for _, e := range estimateErrors(s) {
		if e.Late != nil && (u.EstimateError == nil || e.Percent == 50) {
			u.EstimateError = &EstimateError{Percent: e.Percent, Late: *e.Late}
		}
	}
	return u
}

// end is when the record's update ended, or until when it was seen.
func end(s *insightsv1alpha1.UpdateRecordStatus, now time.Time) time.Time {
	switch {
	case s.CompletedAt != nil:
		return s.CompletedAt.Time
	case s.AbandonedAt != nil:
		return s.AbandonedAt.Time
	case s.State == insightsv1alpha1.UpdateRecordProgressing:
		// Its pools may update on after its control plane completed.
		return now
	case s.ControlPlaneCompletedAt != nil:
		return s.ControlPlaneCompletedAt.Time
	}
	return s.ObservedUntil.Time
}

// Find is the record `history VERSION` means: the one named so, else the
// newest update to that version.
func Find(records []insightsv1alpha1.UpdateRecord, arg string) (*insightsv1alpha1.UpdateRecord, error) {
	var found *insightsv1alpha1.UpdateRecord
	for i := range records {
		r := &records[i]
		if r.Name == arg {
			return r, nil
		}
		if r.Status.To.Version == arg && (found == nil || r.Status.StartedAt.After(found.Status.StartedAt.Time)) {
			found = r
		}
	}
	if found == nil {
		return nil, fmt.Errorf("no recorded update to %s: `history` lists the recorded ones", arg)
	}
	return found, nil
}
