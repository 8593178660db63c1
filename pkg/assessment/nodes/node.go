package nodes

import (
	"fmt"
	"strings"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// What the machine-config daemon and controller say on a node, and on the
// rendered MachineConfigs the node's configurations name.
const (
	AnnotationPrefix              = "machineconfiguration.openshift.io/"
	CurrentConfigAnnotation       = AnnotationPrefix + "currentConfig"
	DesiredConfigAnnotation       = AnnotationPrefix + "desiredConfig"
	StateAnnotation               = AnnotationPrefix + "state"
	ReasonAnnotation              = AnnotationPrefix + "reason"
	DesiredDrainAnnotation        = AnnotationPrefix + "desiredDrain"
	LastAppliedDrainAnnotation    = AnnotationPrefix + "lastAppliedDrain"
	CurrentImageAnnotation        = AnnotationPrefix + "currentImage"
	DesiredImageAnnotation        = AnnotationPrefix + "desiredImage"
	ReleaseImageVersionAnnotation = AnnotationPrefix + "release-image-version"

	stateDone           = "Done"
	stateWorking        = "Working"
	stateRebooting      = "Rebooting"
	stateDegraded       = "Degraded"
	stateUnreconcilable = "Unreconcilable"

	// drainVerb starts the desiredDrain of a node the controller wants
	// drained ("drain-<config>"), as opposed to "uncordon-<config>".
	drainVerb = "drain"
)

var degradedReasons = map[string]string{
	stateDegraded:       insightsv1alpha1.NodeMachineConfigDaemonDegraded,
	stateUnreconcilable: insightsv1alpha1.NodeMachineConfigDaemonUnreconcilable,
}

const (
	// What the insight API accepts.
	maxMessageLength          = insightsv1alpha1.NodeMessageMaxLength
	maxConditionMessageLength = 4096

	// DefaultPerNodeTime is how long a node's update is expected to take
	// before any node of its pool has been seen to finish: the figure
	// `oc adm upgrade status` gives a draining node.
	DefaultPerNodeTime = 10 * time.Minute
)

// Versions tells the OpenShift version a rendered MachineConfig belongs to.
type Versions interface {
	// Of returns the version of the named MachineConfig, and whether it
	// is known.
	Of(config string) (string, bool)
}

// VersionMap is Versions held in a map from MachineConfig name to version.
type VersionMap map[string]string

// Of returns the version of the named MachineConfig.
func (m VersionMap) Of(config string) (string, bool) {
	v, ok := m[config]
	return v, ok
}

// VersionOf reads the version of a rendered MachineConfig from its
// release-image-version annotation.
func VersionOf(mc *machineconfigurationv1.MachineConfig) (string, bool) {
	v := mc.Annotations[ReleaseImageVersionAnnotation]
	return v, v != ""
}

// VersionsOf reads the versions of MachineConfigs.
func VersionsOf(configs []*machineconfigurationv1.MachineConfig) VersionMap {
	versions := make(VersionMap, len(configs))
	for _, mc := range configs {
		if v, ok := VersionOf(mc); ok {
			versions[mc.Name] = v
		}
	}
	return versions
}

// Input is what a node's assessment depends on.
type Input struct {
	Node *corev1.Node
	Pool *machineconfigurationv1.MachineConfigPool
	// Versions of the rendered MachineConfigs.
	Versions Versions
	// Target is the version the ClusterVersion desires; empty when there is
	// no ClusterVersion.
	Target string
	// Migrating says the cluster is migrating to another architecture at
	// the same version (see controlplane.IsArchitectureMigrationInProgress):
	// versions cannot tell which nodes have been migrated, their rendered
	// configurations do. Outside a migration in progress the version alone
	// decides, so that a pool rolling out a MachineConfig change is never
	// taken for an update.
	Migrating bool
	// Previous is the node's insight as last written, nil if there is none:
	// it keeps the conditions' transition times.
	Previous *insightsv1alpha1.NodeProgressInsightStatus
	// PerNode is how long one node of the pool takes to update.
	PerNode time.Duration
	// MachineConfigNode is the node's MachineConfigNode, nil where the
	// cluster serves none or the machine-config daemon has not written it.
	MachineConfigNode *machineconfigurationv1.MachineConfigNode
	// Image is the image-mode state of the node's pool, nil for a pool
	// without a MachineOSConfig (or a cluster that serves none).
	Image *imagemode.Pool
	// Drain is what the node's pods are judged from while the
	// machine-config controller drains it; nil while they are not read (no
	// drain is asked of the node, or its pods are not cached yet).
	Drain *DrainObjects
	Now   time.Time
}

// Assessment is a node's desired insight status and what the pool and the
// health insights need to know about it.
type Assessment struct {
	Status insightsv1alpha1.NodeProgressInsightStatus
	health.NodeState
	// Finished is how long the node took to update when this assessment is
	// the one that sees it finish; zero otherwise.
	Finished time.Duration
	// AtPoolConfiguration says the node runs the configuration its pool
	// targets and the machine-config daemon is done with it: what the
	// machine-config controller counts as an updated machine
	// (getUpdatedMachines in its node controller). The pool tells from it a
	// configuration rollout that is not an update.
	AtPoolConfiguration bool
}

// NodeProgress computes a node's insight status and what its pool and
// health insights need to know about it.
func NodeProgress(in Input) Assessment {
	node := in.Node
	annotations := node.Annotations
	state := annotations[StateAnnotation]
	currentVersion, foundCurrent := in.Versions.Of(annotations[CurrentConfigAnnotation])
	desiredVersion, foundDesired := in.Versions.Of(annotations[DesiredConfigAnnotation])

	current, desired := annotations[CurrentConfigAnnotation], annotations[DesiredConfigAnnotation]
	poolTarget := in.Pool.Spec.Configuration.Name
	a := Assessment{AtPoolConfiguration: current != "" && current == desired && desired == poolTarget && state == stateDone &&
		runsPoolImage(annotations, in.Image)}
	// A node of an image-mode pool is updated only once it runs its new
	// image as well as its configuration, and the version says so: the
	// node controller gives it the build's configuration and the
	// MachineOSConfig's image together (SetDesiredStateFromMachineOSConfig
	// in pkg/controller/common/layered_node_state.go), and the daemon
	// writes its current configuration and image together as it finishes
	// (pkg/daemon/writer.go, SetDone). A new image of a configuration the
	// node already runs is a rollout after the update, not the update, as
	// a new configuration of the same version is: runsPoolImage keeps the
	// node off its pool's configuration meanwhile.
	updated := foundCurrent && in.Target != "" && currentVersion == in.Target
	a.Updating = !updated && foundCurrent && foundDesired && in.Target != "" && desiredVersion == in.Target
	if in.Migrating {
		// Every configuration has the target version: a node is updated
		// once it runs the configuration it was told to use and that is its
		// pool's, and updating while it is told to use the pool's and does
		// not run it yet.
		updated = updated && current == desired && desired == poolTarget
		a.Updating = !updated && foundCurrent && foundDesired && in.Target != "" && desiredVersion == in.Target &&
			current != desired && desired == poolTarget
	}
	// The node's MachineConfigNode, where it speaks of the update the
	// annotations are at, gives the update's phase and times: the daemon and
	// the drain controller write it as they reach each step, the
	// annotations only at some of them. The versions, from the
	// annotations, still say whether the node is updated or updating.
	mcn := ReadMachineConfigNode(in.MachineConfigNode, node)
	var m *MachineConfigNodeProgress
	if mcn.Usable {
		m = &mcn
	}
	a.PinnedImageSetsDegraded = mcn.PinnedImageSets
	// A node degraded on its annotations stays degraded whatever its
	// MachineConfigNode says: after a retry succeeds the MachineConfigNode
	// is ahead (NodeDegraded False, "upgrade succeeded"), but the daemon
	// itself keeps the state Degraded until it writes the node Done
	// (pkg/daemon/update.go, update: no SetWorking over Degraded;
	// pkg/daemon/daemon.go, updateConfigAndState: SetDone clears it).
	if state == stateDegraded || state == stateUnreconcilable {
		a.DegradedReason = annotations[ReasonAnnotation]
		if a.DegradedReason == "" && mcn.Degraded != "" {
			a.DegradedReason, a.DegradedOnMachineConfigNode = mcn.Degraded, true
		}
		if a.DegradedReason == "" {
			a.DegradedReason = "The machine-config daemon reports the node " + state + " without a reason"
		}
	} else if mcn.Degraded != "" {
		// The daemon writes NodeDegraded True as an update attempt fails
		// (pkg/daemon/update.go, update's deferred
		// reportMachineNodeDegradeStatus), before its sync writes the state
		// annotation, and the machine-config controller counts the node
		// degraded on NodeDegraded True with its message
		// (pkg/controller/node/status.go, calculateStatus).
		a.DegradedReason, a.DegradedOnMachineConfigNode = mcn.Degraded, true
	}
	a.Unavailable = unavailability(node, state)

	c := conditions{previous: in.Previous, now: in.Now}
	updating := c.updating(in, a.Updating, updated, foundCurrent, currentVersion, m)
	previousUpdating := previousCondition(in.Previous, insightsv1alpha1.NodeProgressInsightUpdating)
	wasUpdating := previousUpdating != nil && previousUpdating.Status == metav1.ConditionTrue
	// completed is when the node finished per its MachineConfigNode, when
	// that is after the update's start as the insight recorded it.
	var completed time.Time
	if done := m.completion(); updated && wasUpdating && !done.IsZero() && !done.Before(previousUpdating.LastTransitionTime.Time) && !done.After(in.Now) {
		completed = done
	}
	// since is when the Updating condition turned, where the
	// MachineConfigNode says: the update's start on the node while it
	// updates, its completion as the node is seen to finish.
	var since time.Time
	switch {
	case m != nil && updating.Status == metav1.ConditionTrue:
		since = m.Began
	case updating.Status == metav1.ConditionFalse && updated:
		since = completed
	}
	if updating.Reason == insightsv1alpha1.NodeDraining {
		// The machine-config daemon asks the drain as the node's update
		// begins, so the drain counts from when the node began updating
		// (the machine-config operator keeps its own start in memory),
		// or from that start itself: the drain controller writes Cordoned
		// True on the MachineConfigNode as it takes it
		// (pkg/controller/drain/drain_controller.go, drainNode:
		// ongoingDrains).
		started := c.transition(updating, since).Time
		if m != nil && !m.DrainStarted.IsZero() && !m.DrainStarted.After(in.Now) {
			started = m.DrainStarted
		}
		a.DrainBlocks = drainBlocks(in, started)
		updating.Message = text.Truncate(updating.Message+DrainHeld(Lasting(a.DrainBlocks, drain.MCO, in.Now)), maxConditionMessageLength)
	}
	c.setSince(updating, since)
	if a.DegradedReason != "" {
		reason := degradedReasons[state]
		if reason == "" {
			// Degraded on its MachineConfigNode alone.
			reason = insightsv1alpha1.NodeMachineConfigDaemonDegraded
		}
		c.set(metav1.Condition{Type: insightsv1alpha1.NodeProgressInsightDegraded, Status: metav1.ConditionTrue,
			Reason: reason, Message: text.Truncate(a.DegradedReason, maxConditionMessageLength)})
	} else {
		c.set(metav1.Condition{Type: insightsv1alpha1.NodeProgressInsightDegraded, Status: metav1.ConditionFalse,
			Reason: insightsv1alpha1.NodeAsExpected, Message: "The machine-config daemon reports no problem"})
	}
	if u := a.Unavailable; u != nil {
		c.setSince(metav1.Condition{Type: insightsv1alpha1.NodeProgressInsightAvailable, Status: metav1.ConditionFalse,
			Reason: u.Reason, Message: text.Truncate(u.Message, maxConditionMessageLength)}, u.Since)
	} else {
		c.set(metav1.Condition{Type: insightsv1alpha1.NodeProgressInsightAvailable, Status: metav1.ConditionTrue,
			Reason: insightsv1alpha1.NodeAsExpected, Message: "The node is ready and schedulable"})
	}

	a.Status = insightsv1alpha1.NodeProgressInsightStatus{
		Conditions:   c.list,
		Name:         node.Name,
		PoolResource: health.PoolResource(in.Pool.Name),
		ScopeType:    ScopeType(in.Pool.Name),
		Message:      message(&a, node.Name, in.Now),
	}
	if foundCurrent {
		a.Status.Version = text.Truncate(currentVersion, 256)
	}

	started := c.get(insightsv1alpha1.NodeProgressInsightUpdating).LastTransitionTime.Time
	if a.Updating && a.DegradedReason == "" {
		left := remaining(in.PerNode, in.Now.Sub(started))
		if reason := c.get(insightsv1alpha1.NodeProgressInsightUpdating).Reason; reason != insightsv1alpha1.NodeDraining {
			left = min(left, afterDrain(in.PerNode))
		}
		a.Status.EstimatedToComplete = &metav1.Duration{Duration: left}
	}
	if updated && wasUpdating {
		// How long the node took, from the start the insight recorded
		// (the MachineConfigNode's, while it had one) to its completion:
		// the MachineConfigNode's, else now, as the node is seen to finish.
		a.Finished = in.Now.Sub(previousUpdating.LastTransitionTime.Time)
		if !completed.IsZero() {
			a.Finished = completed.Sub(previousUpdating.LastTransitionTime.Time)
		}
	}
	return a
}

// isDraining is the machine-config controller asking for a drain the daemon
// has not yet done, or an updating node whose daemon has not yet begun:
// `oc adm upgrade status` reports the latter as draining too, rather than
// as done.
func isDraining(annotations map[string]string, updating bool) bool {
	desired, applied := annotations[DesiredDrainAnnotation], annotations[LastAppliedDrainAnnotation]
	if desired == "" || applied == "" {
		return false
	}
	if desired != applied && strings.SplitN(desired, "-", 2)[0] == drainVerb {
		return true
	}
	return updating && annotations[StateAnnotation] == stateDone
}

// unavailability follows the machine-config controller's notion of an
// unavailable node: not ready, under disk pressure, without network,
// cordoned, or being worked on by its daemon. A daemon that gave up
// (Degraded, Unreconcilable) does not make the node unavailable. Every
// cause is kept, in the order `oc adm upgrade status` finds them
// (pkg/cli/admin/upgrade/status/mco/layered_node_state.go, checkNodeReady
// and isNodeUnavailable): the node's conditions in the order the kubelet
// lists them, then the cordon; the daemon's work only when nothing else is
// wrong.
func unavailability(node *corev1.Node, state string) *health.Unavailability {
	var causes []health.Unavailability
	readiness := false
	for i := range node.Status.Conditions {
		cond := &node.Status.Conditions[i]
		since := cond.LastTransitionTime.Time
		switch {
		case cond.Type == corev1.NodeReady:
			readiness = true
			if cond.Status != corev1.ConditionTrue {
				causes = append(causes, health.Unavailability{Reason: insightsv1alpha1.NodeNotReady, Message: "Not ready", Condition: cond, Since: since})
			}
		case cond.Type == corev1.NodeDiskPressure && cond.Status != corev1.ConditionFalse:
			causes = append(causes, health.Unavailability{Reason: insightsv1alpha1.NodeDiskPressure, Message: "Disk pressure", Condition: cond, Since: since})
		case cond.Type == corev1.NodeNetworkUnavailable && cond.Status != corev1.ConditionFalse:
			causes = append(causes, health.Unavailability{Reason: insightsv1alpha1.NodeNetworkUnavailable, Message: "Network unavailable", Condition: cond, Since: since})
		}
	}
	if !readiness {
		// A node whose kubelet never reported readiness is not ready.
		causes = append(causes, health.Unavailability{Reason: insightsv1alpha1.NodeNotReady, Message: "Not ready"})
	}
	if node.Spec.Unschedulable {
		causes = append(causes, health.Unavailability{Reason: insightsv1alpha1.NodeUnschedulable, Message: "Node is marked unschedulable"})
	}
	if len(causes) > 0 {
		return health.Unavailable(causes...)
	}
	if state == stateDegraded || state == stateUnreconcilable {
		return nil
	}
	a := node.Annotations
	done := a[CurrentConfigAnnotation] != "" && a[CurrentConfigAnnotation] == a[DesiredConfigAnnotation] &&
		a[CurrentImageAnnotation] == a[DesiredImageAnnotation] && state == stateDone
	if !done {
		return &health.Unavailability{Reason: insightsv1alpha1.NodeMachineConfigDaemonProcessing, Message: "Machine Config Daemon is processing the node"}
	}
	return nil
}

// message is the one-line note on the node: what is wrong with it, if
// anything, or which pod holds its drain. The daemon's reasons name the
// node, which the insight already is; like `oc adm upgrade status` the name
// gives way to "<node>" so the reason fits.
func message(a *Assessment, nodeName string, now time.Time) string {
	switch {
	case a.DegradedReason != "":
		return text.OneLineCut(replaceName(a.DegradedReason, nodeName, "<node>"), maxMessageLength, health.DegradedWhere(nodeName, a.DegradedOnMachineConfigNode))
	case a.Unavailable != nil && !a.Updating:
		return text.OneLineCut(a.Unavailable.Message, maxMessageLength, "Node/"+nodeName)
	}
	return DrainNote(Lasting(a.DrainBlocks, drain.MCO, now))
}

// replaceName replaces name where it stands as a whole node name, not
// where it is part of a longer word or name.
func replaceName(s, name, with string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, name)
		if i < 0 || name == "" {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(name)
		// A dot after the name may end a sentence rather than continue a name.
		continues := end < len(s) && isNameByte(s[end]) && (s[end] != '.' || end+1 < len(s) && isNameByte(s[end+1]))
		if (i > 0 && isNameByte(s[i-1])) || continues {
			b.WriteString(s[:end])
		} else {
			b.WriteString(s[:i] + with)
		}
		s = s[end:]
	}
}

// isNameByte says whether b can be part of a node name (a DNS subdomain).
func isNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '.'
}

// remaining is what is left of a node's expected update time, in whole
// minutes so the estimate does not churn, and never less than a minute: a
// node past its expected time is expected to finish any moment.
func remaining(perNode, elapsed time.Duration) time.Duration {
	if perNode <= 0 {
		perNode = DefaultPerNodeTime
	}
	left := perNode - elapsed
	if left < time.Minute {
		return time.Minute
	}
	return ((left + time.Minute - 1) / time.Minute) * time.Minute
}

// afterDrain is the most a drained node (updating or rebooting) has left of
// its update: half its expected time, in whole minutes. The drain is the
// half that waits on workloads; `oc adm upgrade status` gives a draining node
// 10 minutes and an updating or rebooting one 5
// (pkg/cli/admin/upgrade/status/workerpool.go, assessNodesStatus), which
// this is of the default per-node time.
func afterDrain(perNode time.Duration) time.Duration {
	if perNode <= 0 {
		perNode = DefaultPerNodeTime
	}
	return remaining(perNode/2, 0)
}

// conditions builds a status's conditions, keeping a condition's transition
// time while its status does not change.
type conditions struct {
	previous *insightsv1alpha1.NodeProgressInsightStatus
	now      time.Time
	list     []metav1.Condition
}

func (c *conditions) set(cond metav1.Condition) {
	c.setSince(cond, time.Time{})
}

// setSince sets a condition that turned to its status at since, when the
// cluster says; otherwise at its previous transition or now.
func (c *conditions) setSince(cond metav1.Condition, since time.Time) {
	cond.LastTransitionTime = c.transition(cond, since)
	c.list = append(c.list, cond)
}

// transition is when cond, set since, turned to its status.
func (c *conditions) transition(cond metav1.Condition, since time.Time) metav1.Time {
	if !since.IsZero() && !since.After(c.now) {
		return metav1.NewTime(since)
	}
	if previous := previousCondition(c.previous, cond.Type); previous != nil && previous.Status == cond.Status {
		return previous.LastTransitionTime
	}
	return metav1.NewTime(c.now)
}

// since is when cond, once set, turned to its status: at its previous
// transition while its status does not change, else now.
func (c *conditions) since(cond metav1.Condition) time.Time {
	if previous := previousCondition(c.previous, cond.Type); previous != nil && previous.Status == cond.Status {
		return previous.LastTransitionTime.Time
	}
	return c.now
}

func (c *conditions) get(conditionType string) *metav1.Condition {
	return meta.FindStatusCondition(c.list, conditionType)
}

func previousCondition(previous *insightsv1alpha1.NodeProgressInsightStatus, conditionType string) *metav1.Condition {
	if previous == nil {
		return nil
	}
	return meta.FindStatusCondition(previous.Conditions, conditionType)
}

// updating is the Updating condition: the node's phase in the update, from
// its MachineConfigNode m where it places the node (nil where it does not
// speak of the update), else from the annotations.
func (c *conditions) updating(in Input, updating, updated, foundCurrent bool, currentVersion string, m *MachineConfigNodeProgress) metav1.Condition {
	cond := metav1.Condition{Type: insightsv1alpha1.NodeProgressInsightUpdating}
	annotations := in.Node.Annotations
	// What the node is updated to: during a migration the version alone
	// would read as no change at all.
	goal := in.Target
	switch {
	case in.Migrating:
		goal = fmt.Sprintf("%s (its pool's configuration %s)", in.Target, in.Pool.Spec.Configuration.Name)
	case updateImage(in) && in.Image.Ready() && !updated:
		goal = fmt.Sprintf("%s (its pool's OS image %s)", in.Target, in.Image.Image())
	}
	switch {
	case in.Target == "":
		cond.Status, cond.Reason = metav1.ConditionUnknown, insightsv1alpha1.NodeCannotDetermine
		cond.Message = "There is no ClusterVersion target version to compare the node with"
	case !foundCurrent:
		cond.Status, cond.Reason = metav1.ConditionUnknown, insightsv1alpha1.NodeCannotDetermine
		cond.Message = currentUnknown(annotations[CurrentConfigAnnotation])
	case updated:
		cond.Status, cond.Reason = metav1.ConditionFalse, insightsv1alpha1.NodeCompleted
		cond.Message = "The node is at version " + goal
	case updating && m.inProgress():
		// Where they disagree, the MachineConfigNode is ahead: the drain
		// controller writes Drained True before lastAppliedDrain
		// (pkg/controller/drain/drain_controller.go, drainNode, then
		// syncNode), so a drained node is updating a moment before the
		// annotations say; the daemon writes RebootedNode Unknown as it asks
		// the reboot, which the state annotation never says (it stays
		// Working until Done: pkg/daemon/update.go, reboot, writes the
		// post-config-action annotation instead); and UpdatePrepared
		// precedes the desiredDrain the daemon then asks (update, then
		// performDrain in pkg/daemon/drain.go). Only the node's Done comes
		// first on the annotations (pkg/daemon/daemon.go,
		// updateConfigAndState: SetDone, before syncNode writes Updated
		// True), and that the versions tell.
		cond.Status, cond.Reason = metav1.ConditionTrue, m.Phase
		cond.Message = phaseMessage(m.Phase, goal) + m.note()
	case updating && isDraining(annotations, updating):
		cond.Status, cond.Reason = metav1.ConditionTrue, insightsv1alpha1.NodeDraining
		cond.Message = phaseMessage(cond.Reason, goal)
	case updating && annotations[StateAnnotation] == stateRebooting:
		cond.Status, cond.Reason = metav1.ConditionTrue, insightsv1alpha1.NodeRebooting
		cond.Message = phaseMessage(cond.Reason, goal)
	case updating:
		cond.Status, cond.Reason = metav1.ConditionTrue, insightsv1alpha1.NodeUpdating
		cond.Message = phaseMessage(cond.Reason, goal)
	case in.Pool.Spec.Paused:
		cond.Status, cond.Reason = metav1.ConditionFalse, insightsv1alpha1.NodePaused
		cond.Message = fmt.Sprintf("The node is at version %s; its pool %s is paused, so it will not be updated to %s", currentVersion, in.Pool.Name, goal)
	case updateImage(in) && !in.Image.Ready() && !updated:
		cond.Status, cond.Reason = metav1.ConditionFalse, insightsv1alpha1.NodePending
		cond.Message = fmt.Sprintf("The node is at version %s and waits for its pool's OS image %s before it is updated to %s", currentVersion, awaitedBuild(in.Image), goal)
	default:
		cond.Status, cond.Reason = metav1.ConditionFalse, insightsv1alpha1.NodePending
		cond.Message = fmt.Sprintf("The node is at version %s and waits to be updated to %s", currentVersion, goal)
	}
	cond.Message = text.Truncate(cond.Message, maxConditionMessageLength)
	return cond
}

// phaseMessage is the Updating condition's message of a node in a phase of
// its update to goal.
func phaseMessage(phase, goal string) string {
	switch phase {
	case insightsv1alpha1.NodeDraining:
		return "The node is being drained before its update to " + goal
	case insightsv1alpha1.NodeRebooting:
		return "The node is rebooting into version " + goal
	default:
		return "The node is updating to " + goal
	}
}

func currentUnknown(config string) string {
	if config == "" {
		return "The machine-config daemon has not reported the node's current configuration"
	}
	return fmt.Sprintf("The node's current configuration %s has no known OpenShift version", config)
}

// runsPoolImage says a node of an image-mode pool was told to run its
// pool's image and runs it, as the machine-config controller requires of an
// updated node of a layered pool (IsDone and isNodeImageDone in
// pkg/controller/common/layered_node_state.go). Any node of another pool
// does.
func runsPoolImage(annotations map[string]string, image *imagemode.Pool) bool {
	if image == nil {
		return true
	}
	img := image.Image()
	return img != "" && annotations[DesiredImageAnnotation] == img && annotations[CurrentImageAnnotation] == img
}

// updateImage says the node's pool is image-mode and its build is the
// update's: the pool targets a configuration of the target version. Before
// the machine-config operator renders it, the pool's build is of the
// configuration its nodes run.
func updateImage(in Input) bool {
	if in.Image == nil || in.Target == "" {
		return false
	}
	v, ok := in.Versions.Of(in.Pool.Spec.Configuration.Name)
	return ok && v == in.Target
}

// awaitedBuild names the build a node of an image-mode pool waits on, and
// where it stands.
func awaitedBuild(p *imagemode.Pool) string {
	if p.Build == nil {
		return "(no MachineOSBuild yet for its configuration)"
	}
	switch s := p.State(); s {
	case imagemode.Failed, imagemode.Interrupted:
		return fmt.Sprintf("(MachineOSBuild %s, whose build %s)", p.Build.Name, map[imagemode.State]string{imagemode.Failed: "failed", imagemode.Interrupted: "was interrupted"}[s])
	default:
		return fmt.Sprintf("(MachineOSBuild %s, %s)", p.Build.Name, s)
	}
}
