package operatorstatus

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/text"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

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
	Problems []tracker.Problem
	Off      []tracker.Off
	// Modes say what the operator follows beyond the cluster's own update
	// (tracker.Mode).
	Modes []string
	// Version is the version the operator runs; Reported is the one its
	// ClusterOperator reports, empty before it ever reported one.
	Version, Reported string
	Now               time.Time
	// Topology is how the cluster's control plane runs: on a hosted one,
	// Available's message says so first, as what the operator follows
	// differs.
	Topology hosted.Topology
	// Grace is how long a problem lasts before it counts.
	Grace time.Duration
}

// Consolidated is the operator's status as Consolidate decides it.
type Consolidated struct {
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

// Consolidate decides the conditions of the operator's own
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
func Consolidate(in Input) Consolidated {
	problems := sorted(in.Problems)
	var unavailable, starting, degraded, unreachable []tracker.Problem
	status := Consolidated{Running: true}
	for _, p := range problems {
		lasting := in.Now.Sub(p.Since) >= in.Grace
		if !lasting {
			status.Recheck = earliest(status.Recheck, p.Since.Add(in.Grace).Sub(in.Now))
		}
		if p.Kind == tracker.CacheNotSynced {
			status.Running = false
			starting = append(starting, p)
			if lasting {
				unavailable = append(unavailable, p)
			}
		}
		switch {
		case lasting && p.Kind == tracker.SourceUnreachable:
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
		positiveUnless(configv1.OperatorAvailable, configv1.ConditionFalse, unavailable, configv1.ConditionTrue, working(in.Topology, in.Modes, in.Off, unreachable)),
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

// HostedMode is the first line of Available's message on a cluster whose
// control plane is hosted.
const HostedMode = "Following a hosted control plane (HyperShift): nodes by NodePool, no MachineConfigPools; " +
	"the control plane and each NodePool are updated from the management cluster."

// working is Available's message: the mode on a hosted control plane, and
// what else the operator follows, then that every controller works, but
// those off and those whose source outside the cluster's API is
// unreachable.
func working(topology hosted.Topology, modes []string, off []tracker.Off, unreachable []tracker.Problem) string {
	var lines []string
	if topology == hosted.Hosted {
		lines = append(lines, HostedMode)
	}
	lines = append(lines, modes...)
	if len(off) == 0 && len(unreachable) == 0 {
		return strings.Join(append(lines, "Every controller is working."), "\n")
	}
	if len(off) > 0 {
		off = slices.Clone(off)
		slices.SortFunc(off, func(a, b tracker.Off) int { return strings.Compare(a.Controller, b.Controller) })
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
func controllerConditions(sortedProblems []tracker.Problem) []configv1.ClusterOperatorStatusCondition {
	byController := map[string][]tracker.Problem{}
	var controllers []string
	for _, p := range sortedProblems {
		// A source that is unreachable is no fault of the controller.
		if p.Kind == tracker.CacheNotSynced || p.Kind == tracker.SourceUnreachable {
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
func Inherited(conditions []configv1.ClusterOperatorStatusCondition) []tracker.Problem {
	var problems []tracker.Problem
	for _, c := range conditions {
		if !IsControllerCondition(c.Type) || c.Status != configv1.ConditionTrue {
			continue
		}
		controller := strings.TrimSuffix(string(c.Type), controllerConditionSuffix)
		for _, kind := range []tracker.Kind{tracker.SyncFailing, tracker.WriteRejected} {
			if c.Reason == controller+string(kind) {
				problems = append(problems, tracker.Problem{Controller: controller, Kind: kind, Since: c.LastTransitionTime.Time})
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
	negativeStatus configv1.ConditionStatus, problems []tracker.Problem,
	positiveStatus configv1.ConditionStatus, fine string) configv1.ClusterOperatorStatusCondition {
	if len(problems) == 0 {
		return condition(conditionType, positiveStatus, ReasonAsExpected, fine)
	}
	return negative(conditionType, negativeStatus, problems, "")
}

// negative is a condition with the oldest problem's reason and every
// problem's message, one line each.
func negative(conditionType configv1.ClusterStatusConditionType, status configv1.ConditionStatus, problems []tracker.Problem, prefix string) configv1.ClusterOperatorStatusCondition {
	messages := make([]string, 0, len(problems))
	for _, p := range problems {
		messages = append(messages, text.OneLine(p.Message(), maxDetailLength))
	}
	return condition(conditionType, status, problems[0].Reason(), text.Truncate(prefix+strings.Join(messages, "\n"), maxMessageLength))
}

// sorted orders problems oldest first, so that the reason of a condition is
// its longest-lasting problem and messages do not reorder between syncs.
func sorted(problems []tracker.Problem) []tracker.Problem {
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
