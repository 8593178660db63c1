// Package operatorhealth decides the conditions of the operator's own
// ClusterOperator from the problems its controllers report, following the
// cluster-version operator's conventions for them:
//
//   - Available=False only when a controller cannot work at all (its caches
//     never synced) for longer than a grace period;
//   - Progressing=True only while the operator moves to a new version, from
//     the one its ClusterOperator reports to the one it runs, not at every
//     restart or leader change;
//   - Degraded=True when a problem has lasted the grace period, so that a
//     retried conflict or an API server that is briefly away goes unreported;
//   - Upgradeable=True always: nothing this operator can get wrong needs an
//     administrator's fix before a minor update (its insights would only be
//     late or missing), and a component that says otherwise blocks the
//     cluster's updates.
//
// Components report only what is wrong: no problem anywhere means Available,
// not Progressing, not Degraded. A negative condition's reason is
// <Controller><Problem> of its longest-lasting problem. Each controller with a
// failing sync also gets a condition <Controller>ControllerDegraded whose
// lastTransitionTime is when the problem began, as library-go operators keep
// them: a restarted (or crash-looping) operator reads it back, so that the
// grace period runs from the problem's start, not from the restart.
package operatorhealth

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/text"
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

// ReasonAsExpected is the reason of the conditions when nothing is wrong.
const ReasonAsExpected = "AsExpected"

// Reasons of Progressing=True.
const (
	ReasonInstalling = "Installing"
	ReasonUpdating   = "Updating"
)

// controllerConditionSuffix ends the type of a controller's own condition.
const controllerConditionSuffix = "ControllerDegraded"

// maxMessageLength bounds a condition's message: every problem's error text
// is the API server's or the network's, of any length.
const maxMessageLength = 4096

// maxDetailLength bounds one problem's share of a message.
const maxDetailLength = 512

// Input is what the status is decided from.
type Input struct {
	Problems []Problem
	Off      []Off
	// Version is the version the operator runs; Reported is the one its
	// ClusterOperator reports, empty before it ever reported one.
	Version, Reported string
	Now               time.Time
	// Grace is how long a problem lasts before it counts.
	Grace time.Duration
}

// Status is the consolidated status of the operator.
type Status struct {
	// Conditions are Available, Progressing, Degraded and Upgradeable, in
	// that order, without transition times (those depend on what was set
	// before).
	Conditions []configv1.ClusterOperatorStatusCondition

	// ControllerConditions are the <Controller>ControllerDegraded conditions
	// of the controllers whose syncs fail, by type, each with its problem's
	// start as its transition time.
	ControllerConditions []configv1.ClusterOperatorStatusCondition

	// Running says whether every controller has started: the operator then
	// runs at its version and may say so.
	Running bool

	// Recheck is when the conditions will change with time alone (a problem
	// outlasting its grace period); zero if they will not.
	Recheck time.Duration
}

// Consolidate returns the operator's status.
func Consolidate(in Input) Status {
	problems := sorted(in.Problems)
	var unavailable, starting, degraded, unreachable []Problem
	status := Status{Running: true}
	for _, p := range problems {
		lasting := in.Now.Sub(p.Since) >= in.Grace
		if !lasting {
			status.Recheck = earliest(status.Recheck, p.Since.Add(in.Grace).Sub(in.Now))
		}
		if p.Kind == CacheNotSynced {
			status.Running = false
			starting = append(starting, p)
			if lasting {
				unavailable = append(unavailable, p)
			}
		}
		switch {
		case lasting && p.Kind == SourceUnreachable:
			unreachable = append(unreachable, p)
		case lasting:
			degraded = append(degraded, p)
		}
	}

	progressing := condition(configv1.OperatorProgressing, configv1.ConditionFalse, ReasonAsExpected, fmt.Sprintf("Running %s.", in.Version))
	if !status.Running && in.Reported != in.Version {
		progressing = negative(configv1.OperatorProgressing, configv1.ConditionTrue, starting, movingTo(in.Reported, in.Version))
		if in.Reported == "" {
			progressing.Reason = ReasonInstalling
		} else {
			progressing.Reason = ReasonUpdating
		}
	}
	status.Conditions = []configv1.ClusterOperatorStatusCondition{
		positiveUnless(configv1.OperatorAvailable, configv1.ConditionFalse, unavailable, configv1.ConditionTrue, working(in.Off, unreachable)),
		progressing,
		positiveUnless(configv1.OperatorDegraded, configv1.ConditionTrue, degraded, configv1.ConditionFalse, "No controller has a lasting problem."),
		condition(configv1.OperatorUpgradeable, configv1.ConditionTrue, ReasonAsExpected,
			"Nothing this operator reports blocks a cluster update."),
	}
	// Available stays True, but with a reason a client can tell: the
	// insights from that source may be out of date.
	if available := &status.Conditions[0]; available.Status == configv1.ConditionTrue && len(unreachable) > 0 {
		available.Reason = unreachable[0].Reason()
	}
	status.ControllerConditions = controllerConditions(problems)
	return status
}

func movingTo(from, to string) string {
	if from == "" {
		return fmt.Sprintf("Installing %s: ", to)
	}
	return fmt.Sprintf("Moving from %s to %s: ", from, to)
}

// working is Available's message: every controller works, but those off
// and those whose source outside the cluster's API is unreachable.
func working(off []Off, unreachable []Problem) string {
	if len(off) == 0 && len(unreachable) == 0 {
		return "Every controller is working."
	}
	var lines []string
	if len(off) > 0 {
		off = slices.Clone(off)
		slices.SortFunc(off, func(a, b Off) int { return strings.Compare(a.Controller, b.Controller) })
		lines = append(lines, "Every controller is working, but for those the cluster has nothing for:")
		for _, o := range off {
			lines = append(lines, text.OneLine(fmt.Sprintf("%s controller: off, %s", o.Controller, o.Why), maxDetailLength))
		}
	}
	if len(unreachable) > 0 {
		lines = append(lines, "Every controller is working, but for those that cannot read their source:")
		for _, p := range unreachable {
			lines = append(lines, text.OneLine(p.Message(), maxDetailLength))
		}
	}
	return text.Truncate(strings.Join(lines, "\n"), maxMessageLength)
}

// controllerConditions returns a <Controller>ControllerDegraded condition for
// each controller whose syncs fail, dated by its oldest failure.
func controllerConditions(sortedProblems []Problem) []configv1.ClusterOperatorStatusCondition {
	byController := map[string][]Problem{}
	var controllers []string
	for _, p := range sortedProblems {
		// A source that is unreachable is no fault of the controller.
		if p.Kind == CacheNotSynced || p.Kind == SourceUnreachable {
			continue
		}
		if _, seen := byController[p.Controller]; !seen {
			controllers = append(controllers, p.Controller)
		}
		byController[p.Controller] = append(byController[p.Controller], p)
	}
	sort.Strings(controllers)
	conditions := make([]configv1.ClusterOperatorStatusCondition, 0, len(controllers))
	for _, controller := range controllers {
		problems := byController[controller]
		c := negative(ControllerConditionType(controller), configv1.ConditionTrue, problems, "")
		// The API keeps whole seconds: a finer start would differ from what
		// was read back and be written again at every sync.
		c.LastTransitionTime = metav1.NewTime(problems[0].Since.Truncate(time.Second))
		conditions = append(conditions, c)
	}
	return conditions
}

// ControllerConditionType is the type of a controller's own condition.
func ControllerConditionType(controller string) configv1.ClusterStatusConditionType {
	return configv1.ClusterStatusConditionType(controller + controllerConditionSuffix)
}

// IsControllerCondition says whether a condition type is a controller's own.
func IsControllerCondition(conditionType configv1.ClusterStatusConditionType) bool {
	return strings.HasSuffix(string(conditionType), controllerConditionSuffix)
}

// Inherited returns the failures that controller conditions written before a
// restart report, dated by their transition times. Their keys are unknown.
func Inherited(conditions []configv1.ClusterOperatorStatusCondition) []Problem {
	var problems []Problem
	for _, c := range conditions {
		if !IsControllerCondition(c.Type) || c.Status != configv1.ConditionTrue {
			continue
		}
		controller := strings.TrimSuffix(string(c.Type), controllerConditionSuffix)
		for _, kind := range []Kind{SyncFailing, WriteRejected} {
			if c.Reason == controller+string(kind) {
				problems = append(problems, Problem{Controller: controller, Kind: kind, Since: c.LastTransitionTime.Time})
			}
		}
	}
	return problems
}

func condition(conditionType configv1.ClusterStatusConditionType, status configv1.ConditionStatus, reason, message string) configv1.ClusterOperatorStatusCondition {
	return configv1.ClusterOperatorStatusCondition{Type: conditionType, Status: status, Reason: reason, Message: message}
}

// positiveUnless is the negative condition when problems imply it, else the
// positive one.
func positiveUnless(conditionType configv1.ClusterStatusConditionType,
	negativeStatus configv1.ConditionStatus, problems []Problem,
	positiveStatus configv1.ConditionStatus, fine string) configv1.ClusterOperatorStatusCondition {
	if len(problems) == 0 {
		return condition(conditionType, positiveStatus, ReasonAsExpected, fine)
	}
	return negative(conditionType, negativeStatus, problems, "")
}

// negative is a condition with the oldest problem's reason and every
// problem's message, one line each.
func negative(conditionType configv1.ClusterStatusConditionType, status configv1.ConditionStatus, problems []Problem, prefix string) configv1.ClusterOperatorStatusCondition {
	messages := make([]string, 0, len(problems))
	for _, p := range problems {
		messages = append(messages, text.OneLine(p.Message(), maxDetailLength))
	}
	return condition(conditionType, status, problems[0].Reason(), text.Truncate(prefix+strings.Join(messages, "\n"), maxMessageLength))
}

// sorted orders problems oldest first, so that the reason of a condition is
// its longest-lasting problem and messages do not reorder between syncs.
func sorted(problems []Problem) []Problem {
	problems = slices.Clone(problems)
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
