// Package operatorhealth decides the conditions of the operator's own
// ClusterOperator from the problems its controllers report.
//
// It follows the HyperConverged operator's consolidation: components report
// only what is wrong, and no problem anywhere means Available=True,
// Progressing=False, Degraded=False and Upgradeable=True. Each problem turns
// the conditions it implies negative, with the reason <Controller><Problem>
// and a message saying which controller saw what. A problem must last a grace
// period before it degrades the operator: a conflict, or an API server that
// is briefly away, is retried and forgotten, not reported.
package operatorhealth

import (
	"fmt"
	"sort"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/update-insights/update-insights-operator/pkg/text"
)

// Kind is what kind of problem a controller has.
type Kind string

const (
	// CacheNotSynced: an informer the controller needs has not listed its
	// objects yet, so the controller has not started. Right after start this
	// is the operator coming up (Progressing); if it lasts, the controller
	// does nothing at all (not Available, Degraded).
	CacheNotSynced Kind = "CacheNotSynced"

	// SyncFailing: syncs keep failing, for a reason the API server did not
	// give as a rejection (it is unreachable, slow, or the object raced).
	SyncFailing Kind = "SyncFailing"

	// WriteRejected: the API server refuses what the controller writes
	// (invalid, forbidden, too large). Retrying will not help: it needs a fix
	// in the operator or in the cluster's policy.
	WriteRejected Kind = "WriteRejected"
)

// Problem is one kind of problem of one controller.
type Problem struct {
	// Controller names the controller, e.g. "Node".
	Controller string
	Kind       Kind
	// Since is when the problem began: the first failure of the oldest key
	// still failing, or the operator's start for caches not synced.
	Since time.Time
	// Key is the oldest failing queue key; Keys how many are failing.
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
	switch p.Kind {
	case CacheNotSynced:
		return fmt.Sprintf("%s controller: waiting since %s for its caches to sync: %s", p.Controller, since, p.Detail)
	case WriteRejected:
		return fmt.Sprintf("%s controller: the API server has rejected its writes since %s (%s): %s", p.Controller, since, p.keys(), p.Detail)
	default:
		return fmt.Sprintf("%s controller: syncing has failed since %s (%s): %s", p.Controller, since, p.keys(), p.Detail)
	}
}

func (p Problem) keys() string {
	if p.Keys > 1 {
		return fmt.Sprintf("%q and %d more", p.Key, p.Keys-1)
	}
	return fmt.Sprintf("%q", p.Key)
}

// Reasons of the conditions when nothing is wrong.
const ReasonAsExpected = "AsExpected"

// maxMessageLength bounds a condition's message: every problem's error text
// is the API server's or the network's, of any length.
const maxMessageLength = 4096

// maxDetailLength bounds one problem's share of a message.
const maxDetailLength = 512

// Status is the consolidated status of the operator.
type Status struct {
	// Conditions are Available, Progressing, Degraded and Upgradeable, in
	// that order, without transition times (those depend on what was set
	// before).
	Conditions []configv1.ClusterOperatorStatusCondition

	// Running says whether every controller has started: the operator then
	// runs at its version and may say so.
	Running bool

	// Recheck is when the conditions will change with time alone (a problem
	// outlasting its grace period); zero if they will not.
	Recheck time.Duration
}

// Consolidate returns the operator's status given its controllers' problems,
// the version it runs, the current time and the grace period problems have
// before they count as lasting.
func Consolidate(problems []Problem, version string, now time.Time, grace time.Duration) Status {
	problems = sorted(problems)
	var unavailable, progressing, degraded []Problem
	status := Status{Running: true}
	for _, p := range problems {
		lasting := now.Sub(p.Since) >= grace
		if !lasting {
			status.Recheck = earliest(status.Recheck, p.Since.Add(grace).Sub(now))
		}
		if p.Kind == CacheNotSynced {
			status.Running = false
			progressing = append(progressing, p)
			if lasting {
				unavailable = append(unavailable, p)
			}
		}
		if lasting {
			degraded = append(degraded, p)
		}
	}

	status.Conditions = []configv1.ClusterOperatorStatusCondition{
		condition(configv1.OperatorAvailable, configv1.ConditionFalse, unavailable, "",
			configv1.ConditionTrue, "Every controller is working."),
		condition(configv1.OperatorProgressing, configv1.ConditionTrue, progressing, fmt.Sprintf("Working towards %s: ", version),
			configv1.ConditionFalse, fmt.Sprintf("Running %s.", version)),
		condition(configv1.OperatorDegraded, configv1.ConditionTrue, degraded, "",
			configv1.ConditionFalse, "No controller has a lasting problem."),
		// An operator still coming up is not ready for the cluster to move to
		// another minor version, as the HyperConverged operator reasons.
		condition(configv1.OperatorUpgradeable, configv1.ConditionFalse, progressing, "",
			configv1.ConditionTrue, "The operator does not block cluster updates."),
	}
	return status
}

// condition is the negative condition when problems imply it, with the
// oldest problem's reason and every problem's message, else the positive one.
func condition(conditionType configv1.ClusterStatusConditionType,
	negative configv1.ConditionStatus, problems []Problem, prefix string,
	positive configv1.ConditionStatus, fine string) configv1.ClusterOperatorStatusCondition {
	if len(problems) == 0 {
		return configv1.ClusterOperatorStatusCondition{Type: conditionType, Status: positive, Reason: ReasonAsExpected, Message: fine}
	}
	messages := make([]string, 0, len(problems))
	for _, p := range problems {
		messages = append(messages, text.OneLine(p.Message(), maxDetailLength))
	}
	return configv1.ClusterOperatorStatusCondition{
		Type:    conditionType,
		Status:  negative,
		Reason:  problems[0].Reason(),
		Message: text.Truncate(prefix+strings.Join(messages, "\n"), maxMessageLength),
	}
}

// sorted orders problems oldest first, so that the reason of a condition is
// its longest-lasting problem and messages do not reorder between syncs.
func sorted(problems []Problem) []Problem {
	problems = append([]Problem(nil), problems...)
	sort.SliceStable(problems, func(i, j int) bool {
		a, b := problems[i], problems[j]
		if !a.Since.Equal(b.Since) {
			return a.Since.Before(b.Since)
		}
		if a.Controller != b.Controller {
			return a.Controller < b.Controller
		}
		return a.Kind < b.Kind
	})
	return problems
}

func earliest(current, d time.Duration) time.Duration {
	if current == 0 || d < current {
		return d
	}
	return current
}
