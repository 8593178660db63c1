package client

import "errors"

// Reason is why a call failed, in the terms of the reason of an
// UpdateInformer's Online=False condition.
type Reason string

const (
	// ReasonUnreachable: no answer, for want of a connection, a trusted
	// certificate or time, whichever the call (discovery too); the
	// informer may never have seen the request.
	ReasonUnreachable Reason = "Unreachable"
	// ReasonFailure: the informer answered Failure, or with something
	// that is no answer of the protocol (an error status, more than
	// MaxResponseBytes, undecodable or invalid JSON).
	ReasonFailure Reason = "Failure"
	// ReasonWaiting: the informer answered Wait more than MaxWaits times
	// in a row. The contract treats that as a Failure; the reason tells
	// people the informer is busy rather than broken.
	ReasonWaiting Reason = "Waiting"
	// ReasonDiscoveryFailed: discovery was answered, but not with a valid
	// discovery answer (an error status, more than MaxResponseBytes,
	// undecodable or invalid JSON).
	ReasonDiscoveryFailed Reason = "DiscoveryFailed"
)

// Error is a failed call.
type Error struct {
	Reason Reason
	// Call is the call that failed: discovery, updateInsights or
	// updatePlanInsights.
	Call string
	Err  error
}

func (e *Error) Error() string { return e.Call + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// ReasonOf is the reason of a failed call's error, and empty for nil or
// any other error.
func ReasonOf(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// statusError is an answer with an error status. Its message says the
// status only: an informer's URL may lead to another server (the API
// server, say), whose answer must not reach the UpdateInformer's
// conditions, which everyone who may read UpdateInformers sees. The start
// of the body is kept for the operator's log.
type statusError struct {
	status string
	body   string
}

func (e *statusError) Error() string { return "answered " + e.status }

// AnsweredBody is the start of the body of an answer with an error status,
// for the operator's log only; empty for any other error.
func AnsweredBody(err error) string {
	var e *statusError
	if errors.As(err, &e) {
		return e.body
	}
	return ""
}
