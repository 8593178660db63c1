package statusview

import (
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/names"
)

const (
	// ClockSkew is how far status lets its clock run ahead of the operator's,
	// which wrote the Lease's renewTime, before it calls a Lease expired:
	// the 30 seconds library-go's leader election allows for clock skew
	// (LeaseDuration 137s - RenewDeadline 107s,
	// library-go pkg/config/leaderelection/leaderelection.go).
	ClockSkew = 30 * time.Second

	// ReleasedGrace is how long a released Lease may stay untaken before
	// status says no instance runs: an operator that stops releases its
	// Lease (library-go sets ReleaseOnCancel), and a standby, such as the
	// new pod of a rolling update, takes it at its next try. client-go tries
	// every RetryPeriod stretched by up to JitterFactor 1.2
	// (client-go tools/leaderelection/leaderelection.go acquire), so within
	// 2.2 retry periods: 132s at library-go's longest default RetryPeriod,
	// 60s on a single-node cluster.
	ReleasedGrace = 132 * time.Second
)

// OperatorState says whether the operator that writes the insights runs,
// as its leader Lease tells.
type OperatorState string

const (
	// OperatorRunning: an instance renewed the Lease within its duration,
	// or released it so recently that a standby may yet take it.
	OperatorRunning OperatorState = "Running"
	// OperatorNotRunning: the Lease has not been renewed within its
	// duration (the operator is stopped or hung), or was released and no
	// instance took it.
	OperatorNotRunning OperatorState = "NotRunning"
	// OperatorNoLease: there is no Lease, which a running operator always
	// holds.
	OperatorNoLease OperatorState = "NoLease"
	// OperatorUnknown: the Lease could not be read or judged.
	OperatorUnknown OperatorState = "Unknown"
)

// LeaseReading is what reading the operator's leader Lease gave.
type LeaseReading struct {
	// Lease is the Lease; nil when there is none or it could not be read.
	Lease *coordinationv1.Lease
	// Err says why it could not be read, such as a user's lack of RBAC;
	// empty when it was read or is not there.
	Err string
}

// Liveness is whether the operator that writes the insights runs. The
// insights are written only when they change, so their age says nothing
// of it; the leader Lease, which a running operator renews every few
// seconds, does.
type Liveness struct {
	State OperatorState `json:"state"`
	// Lease is the Lease read, as namespace/name.
	Lease string `json:"lease"`
	// Holder is the instance that holds the Lease; empty once released.
	Holder string `json:"holder,omitempty"`
	// RenewTime is when the Lease was last renewed, or released.
	RenewTime *metav1.Time `json:"renewTime,omitempty"`
	// LeaseDuration is how long the Lease holds after a renewal.
	LeaseDuration *metav1.Duration `json:"leaseDuration,omitempty"`
	// StaleSince is, when the operator does not run, the last time it was
	// known to: what status shows may be stale since then.
	StaleSince *metav1.Time `json:"staleSince,omitempty"`
	// Message says it in a sentence; unless the operator runs, it is also
	// the first of the warnings.
	Message string `json:"message,omitempty"`
}

// Current says whether the operator is known to run.
func (l *Liveness) Current() bool {
	return l == nil || l.State == OperatorRunning
}

// OwnLeaseName is the operator's Lease as namespace/name.
func OwnLeaseName() string {
	return names.OwnNamespace + "/" + names.OwnLease
}

// liveness judges the operator's Lease as of now; nil when it was not read
// (insights from a file that holds no Lease).
func liveness(r *LeaseReading, now time.Time) *Liveness {
	if r == nil {
		return nil
	}
	l := &Liveness{Lease: OwnLeaseName()}
	lease := r.Lease
	switch {
	case r.Err != "":
		l.State = OperatorUnknown
		l.Message = fmt.Sprintf("Could not tell whether the %s operator is running, so what follows may be stale: reading its leader Lease %s: %s.",
			names.OwnClusterOperator, l.Lease, r.Err)
		return l
	case lease == nil:
		l.State = OperatorNoLease
		l.Message = fmt.Sprintf("What follows may be stale: the %s operator is not running, as it always holds its leader Lease %s and there is none (it never ran in this cluster, or was removed).",
			names.OwnClusterOperator, l.Lease)
		return l
	}
	if lease.Spec.HolderIdentity != nil {
		l.Holder = *lease.Spec.HolderIdentity
	}
	if lease.Spec.RenewTime == nil || lease.Spec.LeaseDurationSeconds == nil {
		l.State = OperatorUnknown
		l.Message = fmt.Sprintf("Could not tell whether the %s operator is running, so what follows may be stale: its leader Lease %s has no renewTime or leaseDurationSeconds, which leader election always writes.",
			names.OwnClusterOperator, l.Lease)
		return l
	}
	renewed := metav1.NewTime(lease.Spec.RenewTime.Time)
	duration := time.Duration(*lease.Spec.LeaseDurationSeconds) * time.Second
	l.RenewTime, l.LeaseDuration = &renewed, &metav1.Duration{Duration: duration}
	age := now.Sub(renewed.Time)
	if l.Holder == "" {
		// client-go releases a Lease by writing no holder, a renewTime of
		// the release and a duration of one second (leaderelection.go
		// release).
		if age <= ReleasedGrace+ClockSkew {
			l.State = OperatorRunning
			return l
		}
		l.State, l.StaleSince = OperatorNotRunning, &renewed
		l.Message = fmt.Sprintf("What follows may be stale since %s (%s ago): the %s operator released its leader Lease %s then, as it does when it stops, and no instance has taken it since, so none is running.",
			renewed.UTC().Format(time.RFC3339), roughDuration(age), names.OwnClusterOperator, l.Lease)
		return l
	}
	if age <= duration+ClockSkew {
		l.State = OperatorRunning
		return l
	}
	l.State, l.StaleSince = OperatorNotRunning, &renewed
	l.Message = fmt.Sprintf("What follows may be stale since %s (%s ago): the %s operator last renewed its leader Lease %s then, and a running operator renews it within %s, so it is stopped or hung.",
		renewed.UTC().Format(time.RFC3339), roughDuration(age), names.OwnClusterOperator, l.Lease, roughDuration(duration))
	return l
}
