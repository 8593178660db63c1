package tracker

import (
	"fmt"
	"time"
)

// Kind is what kind of problem a controller has.
type Kind string

const (
	// CacheNotSynced: an informer the controller needs has not listed its
	// objects yet, so the controller has not started. Right after start this
	// is the operator coming up; if it lasts, the controller does nothing at
	// all (not Available, Degraded).
	CacheNotSynced Kind = "CacheNotSynced"

	// SyncFailing: syncs keep failing, for a reason the API server did not
	// give as a rejection (it is unreachable or slow, for example).
	SyncFailing Kind = "SyncFailing"

	// WriteRejected: the API server refuses what the controller writes
	// (invalid, forbidden, too large). Retrying will not help: it needs a fix
	// in the operator or in the cluster's policy.
	WriteRejected Kind = "WriteRejected"

	// SourceUnreachable: an input the controller reads from outside the API
	// server (the cluster's alerts, from its monitoring stack) cannot be
	// read. It is said in Available's message once it has lasted the grace
	// period, but it does not make the operator Degraded: nothing in this
	// operator is broken, and a Degraded component holds up the cluster's
	// update, which monitoring's trouble must not do.
	SourceUnreachable Kind = "SourceUnreachable"
)

// Problem is one kind of problem of one controller.
type Problem struct {
	// Controller names the controller, e.g. "Node".
	Controller string
	Kind       Kind
	// Since is when the problem began: the first failure of the oldest key
	// still failing (or, carried over a restart, of the failure the
	// ClusterOperator reported before it), or the operator's start for
	// caches not synced.
	Since time.Time
	// Key is the oldest failing queue key; Keys how many are failing, zero
	// for a failure inherited from before a restart and not retried yet.
	Key  string
	Keys int
	// Detail is what the controller saw: the key's last error, or the
	// resources whose informers have not synced.
	Detail string
}

// Reason is the condition reason the problem gives: <Controller><Problem>.
func (p Problem) Reason() string {
	return p.Controller + string(p.Kind)
}

// Message says which controller saw what, since when.
func (p Problem) Message() string {
	since := p.Since.UTC().Format(time.RFC3339)
	switch {
	case p.Kind == CacheNotSynced:
		return fmt.Sprintf("%s controller: waiting since %s for its caches to sync: %s", p.Controller, since, p.Detail)
	case p.Keys == 0:
		// Inherited from before a restart: the controller has not retried yet.
		return fmt.Sprintf("%s controller: %s since %s, before the operator restarted", p.Controller, p.Kind.failed(), since)
	default:
		return fmt.Sprintf("%s controller: %s since %s (%s): %s", p.Controller, p.Kind.failed(), since, p.keys(), p.Detail)
	}
}

func (k Kind) failed() string {
	switch k {
	case WriteRejected:
		return "the API server has rejected its writes"
	case SourceUnreachable:
		return "its source has been unreachable"
	default:
		return "syncing has failed"
	}
}

func (p Problem) keys() string {
	if p.Keys > 1 {
		return fmt.Sprintf("%q and %d more", p.Key, p.Keys-1)
	}
	return fmt.Sprintf("%q", p.Key)
}

// Off is a controller switched off because the cluster does not serve an
// input it needs (a hosted control plane has no MachineConfigPools, for
// example). It is no problem: there is nothing for it to report.
type Off struct {
	Controller string
	// Why says what the cluster does not serve.
	Why string
}
