package updaterecord

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

var (
	now     = time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	started = now.Add(-30 * time.Minute)
)

func at(t time.Time) metav1.Time   { return metav1.NewTime(t) }
func atp(t time.Time) *metav1.Time { v := at(t); return &v }

// updating is the ClusterVersion insight of an update from 4.15.30 to
// 4.16.12 started at started, in progress; completed, the same completed
// at.
func updating() *insightsv1alpha1.ClusterVersionProgressInsightStatus {
	return &insightsv1alpha1.ClusterVersionProgressInsightStatus{
		Name:       "version",
		Assessment: insightsv1alpha1.ClusterVersionAssessmentProgressing,
		Versions: insightsv1alpha1.ControlPlaneUpdateVersions{
			Target:   insightsv1alpha1.Version{Version: "4.16.12"},
			Previous: &insightsv1alpha1.Version{Version: "4.15.30"},
		},
		StartedAt: atp(started),
	}
}

func completed(when time.Time) *insightsv1alpha1.ClusterVersionProgressInsightStatus {
	cv := updating()
	cv.Assessment, cv.CompletedAt = insightsv1alpha1.ClusterVersionAssessmentCompleted, atp(when)
	return cv
}

// operator is a ClusterOperator insight whose Updating condition has that
// status and reason since the time given, as the ClusterOperator
// controller writes it.
func operator(name string, status metav1.ConditionStatus, reason string, since time.Time) insightsv1alpha1.ClusterOperatorProgressInsightStatus {
	return insightsv1alpha1.ClusterOperatorProgressInsightStatus{Name: name, Conditions: []metav1.Condition{{
		Type: insightsv1alpha1.ClusterOperatorProgressInsightUpdating, Status: status, Reason: reason, LastTransitionTime: at(since),
	}}}
}

func progressing(name string, since time.Time) insightsv1alpha1.ClusterOperatorProgressInsightStatus {
	return operator(name, metav1.ConditionTrue, insightsv1alpha1.ClusterOperatorProgressing, since)
}

func pending(name string, since time.Time) insightsv1alpha1.ClusterOperatorProgressInsightStatus {
	return operator(name, metav1.ConditionFalse, insightsv1alpha1.ClusterOperatorPending, since)
}

func updated(name string, since time.Time) insightsv1alpha1.ClusterOperatorProgressInsightStatus {
	return operator(name, metav1.ConditionFalse, insightsv1alpha1.ClusterOperatorUpdated, since)
}

// controlPlaneOnly are the durations of an update of a cluster without
// pools: its total is its control plane's.
func controlPlaneOnly(d time.Duration) insightsv1alpha1.UpdateRecordDurations {
	return insightsv1alpha1.UpdateRecordDurations{ControlPlane: &metav1.Duration{Duration: d}, Total: &metav1.Duration{Duration: d}}
}

// record is a record of the update in progress, observed until then.
func record(observedUntil time.Time, ops ...insightsv1alpha1.OperatorUpdateRecord) *insightsv1alpha1.UpdateRecordStatus {
	return &insightsv1alpha1.UpdateRecordStatus{
		From:             &insightsv1alpha1.Version{Version: "4.15.30"},
		To:               insightsv1alpha1.Version{Version: "4.16.12"},
		State:            insightsv1alpha1.UpdateRecordProgressing,
		StartedAt:        at(started),
		ObservedUntil:    at(observedUntil),
		Durations:        controlPlaneOnly(observedUntil.Sub(started)),
		ClusterOperators: ops,
	}
}

func op(name string, startedAt, completedAt *metav1.Time, isUpdated bool) insightsv1alpha1.OperatorUpdateRecord {
	return insightsv1alpha1.OperatorUpdateRecord{Name: name, StartedAt: startedAt, CompletedAt: completedAt, Updated: isUpdated}
}

func TestNext(t *testing.T) {
	m := time.Minute
	tests := []struct {
		name string
		in   Input
		want *insightsv1alpha1.UpdateRecordStatus
	}{{
		name: "first seen at its start: every operator pending, nothing unobserved",
		in: Input{ClusterVersion: func() *insightsv1alpha1.ClusterVersionProgressInsightStatus {
			cv := updating()
			cv.StartedAt = atp(now.Add(-m))
			return cv
		}(), Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{pending("etcd", now.Add(-m))}, Now: now},
		want: func() *insightsv1alpha1.UpdateRecordStatus {
			r := record(now, op("etcd", nil, nil, false))
			r.StartedAt, r.Durations = at(now.Add(-m)), controlPlaneOnly(m)
			return r
		}(),
	}, {
		name: "first seen 30 minutes in: the time before is not observed; an operator updating dates from its turn, one updated while unobserved is undated",
		in: Input{ClusterVersion: updating(), Now: now, Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{
			progressing("kube-apiserver", now.Add(-10*m)),
			// Pending, then Updated without being seen updating: the
			// condition stayed False, dated by the previous update.
			updated("dns", now.Add(-30*24*time.Hour)),
			updated("etcd", now.Add(-20*m)),
		}},
		want: func() *insightsv1alpha1.UpdateRecordStatus {
			r := record(now, op("dns", nil, nil, true), op("etcd", nil, nil, true), op("kube-apiserver", atp(now.Add(-10*m)), nil, false))
			r.NotObserved = []insightsv1alpha1.TimeSpan{{From: at(started), To: at(now)}}
			return r
		}(),
	}, {
		name: "an operator's insight created but not yet written is left out",
		in: Input{ClusterVersion: updating(), Now: now, Previous: record(now.Add(-m), op("dns", nil, nil, false)),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{{}, pending("dns", now.Add(-time.Hour))}},
		want: record(now.Add(-m), op("dns", nil, nil, false)),
	}, {
		name: "first seen a day after it completed: not observed from its start to its end",
		in: Input{ClusterVersion: completed(started.Add(40 * m)), Now: now.Add(24 * time.Hour),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{updated("etcd", started.Add(20*m))}},
		want: func() *insightsv1alpha1.UpdateRecordStatus {
			r := record(now.Add(24*time.Hour), op("etcd", nil, nil, true))
			r.State, r.ControlPlaneCompletedAt, r.CompletedAt = insightsv1alpha1.UpdateRecordCompleted, atp(started.Add(40*m)), atp(started.Add(40*m))
			r.NotObserved = []insightsv1alpha1.TimeSpan{{From: at(started), To: at(started.Add(40 * m))}}
			r.Durations = controlPlaneOnly(40 * m)
			return r
		}(),
	}, {
		name: "watched: an operator seen pending and now updated completed when first seen so",
		in: Input{ClusterVersion: updating(), Now: now, Previous: record(now.Add(-m), op("dns", nil, nil, false)),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{updated("dns", now.Add(-30*24*time.Hour))}},
		want: record(now, op("dns", nil, atp(now), true)),
	}, {
		name: "watched: an operator seen updating completed at its condition's turn",
		in: Input{ClusterVersion: updating(), Now: now, Previous: record(now.Add(-m), op("etcd", atp(now.Add(-9*m)), nil, false)),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{updated("etcd", now.Add(-30*time.Second))}},
		want: record(now, op("etcd", atp(now.Add(-9*m)), atp(now.Add(-30*time.Second)), true)),
	}, {
		name: "resumed after 20 minutes without an operator: the span is not observed, and what completed in it undated",
		in: Input{ClusterVersion: updating(), Now: now, Resumed: true, Previous: record(now.Add(-20*m), op("dns", nil, nil, false), op("etcd", atp(now.Add(-25*m)), nil, false)),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{updated("dns", now.Add(-30*24*time.Hour)), updated("etcd", now.Add(-15*m))}},
		want: func() *insightsv1alpha1.UpdateRecordStatus {
			r := record(now, op("dns", nil, nil, true), op("etcd", atp(now.Add(-25*m)), atp(now.Add(-15*m)), true))
			r.NotObserved = []insightsv1alpha1.TimeSpan{{From: at(now.Add(-20 * m)), To: at(now)}}
			return r
		}(),
	}, {
		name: "resumed within a heartbeat: nothing is missing",
		in: Input{ClusterVersion: updating(), Now: now, Resumed: true, Previous: record(now.Add(-4*m), op("dns", nil, nil, false)),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{updated("dns", now.Add(-30*24*time.Hour))}},
		want: record(now, op("dns", nil, atp(now), true)),
	}, {
		name: "nothing changed within a heartbeat: observedUntil stays, nothing to write",
		in: Input{ClusterVersion: updating(), Now: now, Previous: record(now.Add(-2*m), op("etcd", atp(now.Add(-9*m)), nil, false)),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{progressing("etcd", now.Add(-9*m))}},
		want: record(now.Add(-2*m), op("etcd", atp(now.Add(-9*m)), nil, false)),
	}, {
		name: "nothing changed for a heartbeat: observedUntil moves on",
		in: Input{ClusterVersion: updating(), Now: now, Previous: record(now.Add(-5*m), op("etcd", atp(now.Add(-9*m)), nil, false)),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{progressing("etcd", now.Add(-9*m))}},
		want: record(now, op("etcd", atp(now.Add(-9*m)), nil, false)),
	}, {
		name: "the control plane completes: its duration is to the completion",
		in: Input{ClusterVersion: completed(now.Add(-m)), Now: now, Previous: record(now.Add(-2*m), op("machine-config", atp(now.Add(-10*m)), nil, false)),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{updated("machine-config", now.Add(-m))}},
		want: func() *insightsv1alpha1.UpdateRecordStatus {
			r := record(now, op("machine-config", atp(now.Add(-10*m)), atp(now.Add(-m)), true))
			r.State, r.ControlPlaneCompletedAt, r.CompletedAt = insightsv1alpha1.UpdateRecordCompleted, atp(now.Add(-m)), atp(now.Add(-m))
			r.Durations = controlPlaneOnly(29 * m)
			return r
		}(),
	}, {
		name: "a completed record is kept as it was, whatever the insights say next",
		in: Input{ClusterVersion: func() *insightsv1alpha1.ClusterVersionProgressInsightStatus {
			cv := updating()
			cv.Assessment = insightsv1alpha1.ClusterVersionAssessmentUnknown
			return cv
		}(), Now: now, Resumed: true,
			Previous: func() *insightsv1alpha1.UpdateRecordStatus {
				r := record(now.Add(-m), op("dns", nil, atp(now.Add(-m)), true))
				r.State, r.ControlPlaneCompletedAt, r.CompletedAt = insightsv1alpha1.UpdateRecordCompleted, atp(now.Add(-m)), atp(now.Add(-m))
				return r
			}(),
			Operators: []insightsv1alpha1.ClusterOperatorProgressInsightStatus{progressing("dns", now.Add(-m))}},
		want: func() *insightsv1alpha1.UpdateRecordStatus {
			r := record(now.Add(-m), op("dns", nil, atp(now.Add(-m)), true))
			r.State, r.ControlPlaneCompletedAt, r.CompletedAt = insightsv1alpha1.UpdateRecordCompleted, atp(now.Add(-m)), atp(now.Add(-m))
			r.Durations = controlPlaneOnly(29 * m)
			return r
		}(),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Next(tt.in)
			if diff := cmp.Diff(tt.want, &got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNextBoundsTheRecord(t *testing.T) {
	var ops []insightsv1alpha1.ClusterOperatorProgressInsightStatus
	for i := 0; i < insightsv1alpha1.UpdateRecordMaxOperators+3; i++ {
		ops = append(ops, pending(fmt.Sprintf("operator-%03d", i), now))
	}
	previous := record(now.Add(-time.Hour))
	for i := 0; i < insightsv1alpha1.UpdateRecordMaxNotObserved; i++ {
		previous.NotObserved = append(previous.NotObserved, insightsv1alpha1.TimeSpan{From: at(started), To: at(started)})
	}
	got := Next(Input{ClusterVersion: updating(), Operators: ops, Previous: previous, Resumed: true, Now: now})
	if n, omitted := len(got.ClusterOperators), got.ClusterOperatorsOmitted; n != insightsv1alpha1.UpdateRecordMaxOperators || omitted != 3 {
		t.Errorf("%d operators, %d omitted; want %d and 3", n, omitted, insightsv1alpha1.UpdateRecordMaxOperators)
	}
	if n, omitted := len(got.NotObserved), got.NotObservedOmitted; n != insightsv1alpha1.UpdateRecordMaxNotObserved || omitted != 1 {
		t.Errorf("%d spans, %d omitted; want %d and 1", n, omitted, insightsv1alpha1.UpdateRecordMaxNotObserved)
	}
	if last := got.NotObserved[len(got.NotObserved)-1]; !last.From.Equal(&previous.ObservedUntil) {
		t.Errorf("the newest span %v is not the one just missed, from %v", last, previous.ObservedUntil)
	}
}

func TestAbandon(t *testing.T) {
	replaced := now.Add(-5 * time.Minute)
	got := Abandon(record(now.Add(-6*time.Minute)), replaced)
	want := record(now.Add(-6 * time.Minute))
	want.State, want.AbandonedAt = insightsv1alpha1.UpdateRecordAbandoned, atp(replaced)
	want.Durations = controlPlaneOnly(25 * time.Minute)
	if diff := cmp.Diff(want, &got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	again := Abandon(&got, now)
	if diff := cmp.Diff(got, again); diff != "" {
		t.Errorf("abandoned twice (-first +second):\n%s", diff)
	}
}

func TestName(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 15, 0, 0, time.FixedZone("CET", 3600))
	tests := []struct{ version, want string }{
		{"4.16.12", "4.16.12-20261203-091500"},
		{"4.16.0-ec.2", "4.16.0-ec.2-20261203-091500"},
		{"4.16.0+Build_7", "4.16.0-build-7-20261203-091500"},
		{"", "unknown-20261203-091500"},
		{"4.16.0+.x", "version-" + digest("4.16.0+.x") + "-20261203-091500"},
		{"4..16", "version-" + digest("4..16") + "-20261203-091500"},
		{strings.Repeat("4.16.0-garbage", 30) + "…", strings.Repeat("4.16.0-garbage", 17)[:237] + "-20261203-091500"},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			got := Name(tt.version, at)
			if got != tt.want {
				t.Errorf("Name(%q) = %q, want %q", tt.version, got, tt.want)
			}
			if errs := validation.IsDNS1123Subdomain(got); len(errs) > 0 {
				t.Errorf("Name(%q) = %q, not a valid name: %v", tt.version, got, errs)
			}
		})
	}
}

func digest(s string) string {
	d := sha256.Sum256([]byte(s))
	return hex.EncodeToString(d[:8])
}

func TestRecordable(t *testing.T) {
	installation := updating()
	installation.Versions.Previous = nil
	installation.Versions.Target.Metadata = []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.InstallationMetadata}}
	notStarted := updating()
	notStarted.StartedAt = nil
	for name, tt := range map[string]struct {
		cv   *insightsv1alpha1.ClusterVersionProgressInsightStatus
		want bool
	}{
		"an update":         {updating(), true},
		"the installation":  {installation, false},
		"nothing started":   {notStarted, false},
		"no insight at all": {nil, false},
	} {
		t.Run(name, func(t *testing.T) {
			if got := Recordable(tt.cv); got != tt.want {
				t.Errorf("Recordable = %t, want %t", got, tt.want)
			}
		})
	}
}
