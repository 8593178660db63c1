package nodes

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// The fixtures below are MachineConfigNodes as the machine-config operator
// writes them (openshift/machine-config-operator at 7ff337a): mcnSim
// replays pkg/upgrademonitor/upgrade_monitor.go,
// generateAndApplyMachineConfigNodes, and its methods are the daemon's and
// the drain controller's calls of it, with their conditions, reasons and
// messages, and what they write on the node's annotations meanwhile.

type mcnCondition struct {
	state           machineconfigurationv1.StateProgress
	reason, message string
}

// mcnConditionTypes are the types generateAndApplyMachineConfigNodes
// creates False as it creates a MachineConfigNode's conditions, without
// ImageModeStatusReporting, then its singletons.
var mcnConditionTypes = []machineconfigurationv1.StateProgress{
	machineconfigurationv1.MachineConfigNodeUpdatePrepared,
	machineconfigurationv1.MachineConfigNodeUpdateExecuted,
	machineconfigurationv1.MachineConfigNodeUpdatePostActionComplete,
	machineconfigurationv1.MachineConfigNodeUpdateComplete,
	machineconfigurationv1.MachineConfigNodeResumed,
	machineconfigurationv1.MachineConfigNodeUpdateDrained,
	machineconfigurationv1.MachineConfigNodeUpdateFilesAndOS,
	machineconfigurationv1.MachineConfigNodeUpdateCordoned,
	machineconfigurationv1.MachineConfigNodeUpdateRebooted,
	machineconfigurationv1.MachineConfigNodeUpdated,
	machineconfigurationv1.MachineConfigNodeUpdateUncordoned,
	machineconfigurationv1.MachineConfigNodeNodeDegraded,
	machineconfigurationv1.MachineConfigNodePinnedImageSetsDegraded,
	machineconfigurationv1.MachineConfigNodePinnedImageSetsProgressing,
}

func isSingleton(conditionType string) bool {
	return conditionType == string(machineconfigurationv1.MachineConfigNodePinnedImageSetsDegraded) ||
		conditionType == string(machineconfigurationv1.MachineConfigNodePinnedImageSetsProgressing)
}

// mcnSim is a node's MachineConfigNode and the annotations the daemon and
// the machine-config controller write on the node.
type mcnSim struct {
	mcn                                                         *machineconfigurationv1.MachineConfigNode
	name                                                        string
	current, desired, state, reason, desiredDrain, appliedDrain string
	unschedulable                                               bool
}

// newMCNSim is a node done with config before the daemon first writes its
// MachineConfigNode.
func newMCNSim(name, config string) *mcnSim {
	return &mcnSim{name: name, current: config, desired: config, state: stateDone,
		desiredDrain: "uncordon-" + config, appliedDrain: "uncordon-" + config}
}

func (s *mcnSim) annotations() map[string]string {
	return mcd(s.current, s.desired, s.state, s.desiredDrain, s.appliedDrain, s.reason)
}

func (s *mcnSim) node() *corev1.Node {
	return testNode(s.name, s.annotations(), healthy(), s.unschedulable)
}

// write is one call of generateAndApplyMachineConfigNodes (through
// GenerateAndApplyMachineConfigNodes, or UpdateMachineConfigNodeStatus
// with pinned, the pinned image sets' apply configuration).
func (s *mcnSim) write(at time.Time, parent mcnCondition, parentStatus metav1.ConditionStatus, child *mcnCondition, childStatus metav1.ConditionStatus,
	pinned []machineconfigurationv1.MachineConfigNodeStatusPinnedImageSet) *mcnSim {
	stamp := metav1.NewTime(at)
	newParent := metav1.Condition{Type: string(parent.state), Status: parentStatus, Reason: parent.reason, Message: parent.message, LastTransitionTime: stamp}
	var newChild *metav1.Condition
	if child != nil {
		newChild = &metav1.Condition{Type: string(child.state), Status: childStatus, Reason: child.reason, Message: child.message, LastTransitionTime: stamp}
	}
	reset := parent.state == machineconfigurationv1.MachineConfigNodeUpdated
	creating := s.mcn == nil
	mcn := s.mcn.DeepCopy()
	if creating {
		mcn = &machineconfigurationv1.MachineConfigNode{ObjectMeta: metav1.ObjectMeta{Name: s.name}}
	}
	if mcn.Status.Conditions == nil {
		mcn.Status.Conditions = []metav1.Condition{newParent}
		if newChild != nil {
			mcn.Status.Conditions = append(mcn.Status.Conditions, *newChild)
		}
		for _, t := range mcnConditionTypes {
			found := false
			for _, c := range mcn.Status.Conditions {
				found = found || c.Type == string(t)
			}
			if !found {
				mcn.Status.Conditions = append(mcn.Status.Conditions, metav1.Condition{Type: string(t), Status: metav1.ConditionFalse,
					Reason: "NotYetOccurred", Message: fmt.Sprintf("This node has not yet entered the %s phase", t), LastTransitionTime: stamp})
			}
		}
	} else {
		foundChild, foundParent := false, false
		for i, condition := range mcn.Status.Conditions {
			switch {
			case condition.Type == string(machineconfigurationv1.MachineConfigNodeUpdated) && condition.Status == metav1.ConditionTrue && condition.Type != newParent.Type:
				// The upgrade monitor writes Updated False here ("sensed
				// disruption via a manual update") and then the unchanged
				// condition over it: nothing changes.
			case newChild != nil && condition.Type == newChild.Type:
				foundChild = true
				condition = *newChild
			case condition.Type == newParent.Type:
				foundParent = true
				if condition.Status == newParent.Status && condition.Message == newParent.Message && !isSingleton(condition.Type) {
					return s
				}
				condition = newParent
			case condition.Status != metav1.ConditionFalse && reset:
				condition.Status = metav1.ConditionFalse
				condition.LastTransitionTime = stamp
				condition.Message = fmt.Sprintf("Action during update to %s: %s", mcn.Spec.ConfigVersion.Desired, condition.Message)
			}
			mcn.Status.Conditions[i] = condition
		}
		if !foundChild && newChild != nil {
			mcn.Status.Conditions = append(mcn.Status.Conditions, *newChild)
		}
		if !foundParent {
			mcn.Status.Conditions = append(mcn.Status.Conditions, newParent)
		}
	}
	desired := mcnNotYetSet
	if parent.state == machineconfigurationv1.MachineConfigNodeUpdatePrepared && parentStatus == metav1.ConditionTrue ||
		parent.state != machineconfigurationv1.MachineConfigNodeUpdatePrepared && s.desired != "" {
		desired = s.desired
	}
	mcn.Status.ConfigVersion = &machineconfigurationv1.MachineConfigNodeStatusMachineConfigVersion{Desired: desired, Current: s.current}
	if pinned != nil {
		mcn.Status.PinnedImageSets = pinned
	}
	if creating {
		mcn.Spec = machineconfigurationv1.MachineConfigNodeSpec{Node: machineconfigurationv1.MCOObjectReference{Name: s.name},
			Pool: machineconfigurationv1.MCOObjectReference{Name: "worker"}, ConfigVersion: machineconfigurationv1.MachineConfigNodeSpecMachineConfigVersion{Desired: s.desired}}
	}
	s.mcn = mcn
	return s
}

// updated is the daemon finding its node needs no update (pkg/daemon/
// daemon.go, syncNode).
func (s *mcnSim) updated(at time.Time) *mcnSim {
	return s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeUpdated, "Updated", fmt.Sprintf("Node %s Updated", s.name)},
		metav1.ConditionTrue, nil, metav1.ConditionFalse, nil)
}

// target is the machine-config controller giving the node a desired
// configuration (pkg/controller/node/node_controller.go,
// setDesiredMachineConfigAnnotation, with
// UpdateMachineConfigNodeSpecDesiredAnnotations).
func (s *mcnSim) target(config string) *mcnSim {
	s.desired = config
	if s.mcn != nil {
		s.mcn = s.mcn.DeepCopy()
		s.mcn.Spec.ConfigVersion.Desired = config
	}
	return s
}

// needsUpdate is syncNode finding the node needs an update.
func (s *mcnSim) needsUpdate(at time.Time) *mcnSim {
	return s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeUpdated, "Updated", fmt.Sprintf("Node %s needs an update", s.name)},
		metav1.ConditionFalse, nil, metav1.ConditionFalse, nil)
}

// prepared is update() setting the node Working and finding the update
// compatible (pkg/daemon/update.go), then GenerateAndApplyMachineConfigNodeSpec.
func (s *mcnSim) prepared(at time.Time, drain bool) *mcnSim {
	s.state = stateWorking
	s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeUpdatePrepared, "UpdatePrepared", fmt.Sprintf("Update Compatible. Post Cfg Actions: %v Drain Required: %t", []string(nil), drain)},
		metav1.ConditionTrue, nil, metav1.ConditionFalse, nil)
	s.mcn.Spec.ConfigVersion.Desired = s.desired
	return s
}

var (
	executed = func(reason machineconfigurationv1.StateProgress, message string) mcnCondition {
		return mcnCondition{machineconfigurationv1.MachineConfigNodeUpdateExecuted, string(reason), message}
	}
	executedChild = func(state machineconfigurationv1.StateProgress, message string) *mcnCondition {
		return &mcnCondition{state, "UpdateExecuted" + string(state), message}
	}
)

// noDrain is update() skipping the drain.
func (s *mcnSim) noDrain(at time.Time) *mcnSim {
	return s.write(at, executed(machineconfigurationv1.MachineConfigNodeUpdateDrained, "Node Drain Not required for this update."), metav1.ConditionUnknown,
		executedChild(machineconfigurationv1.MachineConfigNodeUpdateDrained, "Node Drain Not required for this update."), metav1.ConditionFalse, nil)
}

// cordoned is performDrain asking the drain (pkg/daemon/drain.go), and the
// drain controller cordoning the node (pkg/controller/drain/
// drain_controller.go, drainNode: the node it prints is the one it read
// before the cordon).
func (s *mcnSim) cordoned(at time.Time) *mcnSim {
	s.desiredDrain = "drain-" + s.desired
	s.write(at, executed(machineconfigurationv1.MachineConfigNodeUpdateCordoned, "Cordoned Node as part of update executed phase"), metav1.ConditionUnknown,
		executedChild(machineconfigurationv1.MachineConfigNodeUpdateCordoned, fmt.Sprintf("Cordoned node. The node is reporting Unschedulable = %t", s.unschedulable)), metav1.ConditionTrue, nil)
	s.unschedulable = true
	return s
}

// draining is drainNode beginning an attempt.
func (s *mcnSim) draining(at time.Time) *mcnSim {
	return s.write(at, executed(machineconfigurationv1.MachineConfigNodeUpdateDrained, "Draining Node as part of update executed phase"), metav1.ConditionUnknown,
		executedChild(machineconfigurationv1.MachineConfigNodeUpdateDrained, fmt.Sprintf("Draining node. The drain will not be complete until desired drainer %s matches current drainer %s", s.desiredDrain, s.appliedDrain)),
		metav1.ConditionUnknown, nil)
}

// drainFailed is an attempt failing.
func (s *mcnSim) drainFailed(at time.Time, err string) *mcnSim {
	return s.write(at, executed(machineconfigurationv1.MachineConfigNodeUpdateDrained, "Node Drain has not succeeded"), metav1.ConditionUnknown,
		executedChild(machineconfigurationv1.MachineConfigNodeUpdateDrained, fmt.Sprintf("Error: Node Drain has not succeeded. Error is: %s The drain will not be complete until desired drainer %s matches current drainer %s", err, s.desiredDrain, s.appliedDrain)),
		metav1.ConditionUnknown, nil)
}

// drained is the drain succeeding, written before the drain controller
// writes lastAppliedDrain (drainApplied).
func (s *mcnSim) drained(at time.Time) *mcnSim {
	return s.write(at, executed(machineconfigurationv1.MachineConfigNodeUpdateDrained, "Drained Node as part of update executed phase"), metav1.ConditionUnknown,
		executedChild(machineconfigurationv1.MachineConfigNodeUpdateDrained, fmt.Sprintf("Drained node. The drain is complete as the desired drainer matches current drainer: %s", s.desiredDrain)),
		metav1.ConditionTrue, nil)
}

func (s *mcnSim) drainApplied() *mcnSim {
	s.appliedDrain = s.desiredDrain
	return s
}

// applying and applied are update() writing the files and the OS image,
// which changes ("OS will  need an update": the daemon's empty word).
func (s *mcnSim) applying(at time.Time) *mcnSim {
	return s.write(at, executed(machineconfigurationv1.MachineConfigNodeUpdateFilesAndOS, "Updating the Files and OS on disk as a part of the in progress phase"), metav1.ConditionUnknown,
		executedChild(machineconfigurationv1.MachineConfigNodeUpdateFilesAndOS, "Applying files and new OS config to node. OS will  need an update. SSH Keys will not need an update"), metav1.ConditionUnknown, nil)
}

func (s *mcnSim) applied(at time.Time) *mcnSim {
	return s.write(at, executed(machineconfigurationv1.MachineConfigNodeUpdateFilesAndOS, "Updated the Files and OS on disk as a part of the in progress phase"), metav1.ConditionTrue,
		executedChild(machineconfigurationv1.MachineConfigNodeUpdateFilesAndOS, "Applied files and new OS config to node. OS did  need an update. SSH Keys did not need an update"), metav1.ConditionTrue, nil)
}

// rebooting is the reboot the update needs (performPostConfigChangeAction,
// then reboot), and update() returning: its deferred
// reportMachineNodeDegradeStatus.
func (s *mcnSim) rebooting(at time.Time) *mcnSim {
	s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeUpdateRebooted, "RebootedNode", "Upgrade requires a reboot."}, metav1.ConditionUnknown, nil, metav1.ConditionFalse, nil)
	return s.succeeded(at)
}

func (s *mcnSim) succeeded(at time.Time) *mcnSim {
	return s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeNodeDegraded, "NodeDegraded", fmt.Sprintf("Node %s upgrade succeeded", s.name)},
		metav1.ConditionFalse, nil, metav1.ConditionFalse, nil)
}

// degraded is update() failing with err.
func (s *mcnSim) degraded(at time.Time, err string) *mcnSim {
	s.state, s.reason = stateDegraded, err
	return s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeNodeDegraded, "NodeDegraded", fmt.Sprintf("Node %s upgrade failure. %v", s.name, err)},
		metav1.ConditionTrue, nil, metav1.ConditionFalse, nil)
}

// rebooted is the daemon back after the reboot (syncNode).
func (s *mcnSim) rebooted(at time.Time) *mcnSim {
	return s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeUpdateRebooted, "RebootedNode", "Node has rebooted"}, metav1.ConditionTrue, nil, metav1.ConditionFalse, nil)
}

// resumedApplying, uncordoned and done are updateConfigAndState: Resumed,
// completeUpdate asking the uncordon, the drain controller uncordoning
// (pkg/controller/drain/drain_controller.go, syncNode: the node it prints
// is the one it read before), SetDone (pkg/daemon/writer.go).
func (s *mcnSim) resumedApplying(at time.Time) *mcnSim {
	return s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeResumed, "Resumed", fmt.Sprintf("In desired config %s. Resumed normal operations. Applying proper annotations.", s.desired)},
		metav1.ConditionTrue, nil, metav1.ConditionFalse, nil)
}

func (s *mcnSim) uncordoned(at time.Time) *mcnSim {
	s.desiredDrain = "uncordon-" + s.desired
	s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeUpdateComplete, "Uncordoned", "Uncordoned Node as part of completing upgrade phase"}, metav1.ConditionTrue,
		&mcnCondition{machineconfigurationv1.MachineConfigNodeUpdateUncordoned, "UpdateCompleteUncordoned", fmt.Sprintf("UnCordoned node. The node is reporting Unschedulable = %t", s.unschedulable)},
		metav1.ConditionTrue, nil)
	s.unschedulable = false
	s.appliedDrain = s.desiredDrain
	return s
}

func (s *mcnSim) done() *mcnSim {
	s.current, s.state, s.reason = s.desired, stateDone, ""
	return s
}

// resumed is syncNode after the daemon's first sync since it started
// (checkStateOnFirstRun); shown is the current configuration of the node
// it read at the start of that sync.
func (s *mcnSim) resumed(at time.Time, shown string) *mcnSim {
	return s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodeResumed, "Resumed", fmt.Sprintf("In desired config %s. Resumed normal operations.", shown)},
		metav1.ConditionTrue, nil, metav1.ConditionFalse, nil)
}

// pinFailed is the pinned image set manager's sync failing on set at
// generation 1 (pkg/daemon/pinned_image_set.go, sync:
// updateStatusProgressing, then updateStatusError).
func (s *mcnSim) pinFailed(at time.Time, set, err string) *mcnSim {
	progressing := []machineconfigurationv1.MachineConfigNodeStatusPinnedImageSet{{Name: set, DesiredGeneration: 1}}
	failed := []machineconfigurationv1.MachineConfigNodeStatusPinnedImageSet{{Name: set, DesiredGeneration: 1, LastFailedGeneration: 1, LastFailedGenerationError: err}}
	s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodePinnedImageSetsProgressing, "ImagePrefetch", fmt.Sprintf("node is prefetching images: %s", s.name)},
		metav1.ConditionTrue, nil, metav1.ConditionUnknown, progressing)
	return s.write(at, mcnCondition{machineconfigurationv1.MachineConfigNodePinnedImageSetsDegraded, "PrefetchFailed", "One or more PinnedImageSet is experiencing an error. See PinnedImageSet list for more details."},
		metav1.ConditionTrue, nil, metav1.ConditionUnknown, failed)
}

// Where an update of the fixtures stands.
type mcnStage int

const (
	stageDraining mcnStage = iota
	stageApplying
	stageRebooting
	stageFinishing
	stageDone
)

// When the update's steps happen, from its start.
const (
	atPrepared        = 2 * time.Second
	atCordoned        = 4 * time.Second
	atDraining        = 5 * time.Second
	atDrained         = 3 * time.Minute
	atApplying        = 3*time.Minute + 10*time.Second
	atApplied         = 4 * time.Minute
	atRebooting       = 4*time.Minute + 5*time.Second
	atRebooted        = 6 * time.Minute
	atResumedApplying = 6*time.Minute + 20*time.Second
	atUncordoned      = 6*time.Minute + 30*time.Second
	atResumed         = 6*time.Minute + 40*time.Second
	atUpdated         = 6*time.Minute + 41*time.Second
)

// settledAt is when the daemon first wrote the fixtures' MachineConfigNodes.
var settledAt = now.Add(-72 * time.Hour)

// updating is a node done with from, first seen by its daemon long ago,
// and updated to config from start until stage.
func updating(name, from, config string, start time.Time, until mcnStage) *mcnSim {
	s := newMCNSim(name, from).updated(settledAt).target(config)
	s.needsUpdate(start).prepared(start.Add(atPrepared), true).cordoned(start.Add(atCordoned)).draining(start.Add(atDraining))
	if until == stageDraining {
		return s
	}
	s.drained(start.Add(atDrained)).drainApplied().applying(start.Add(atApplying))
	if until == stageApplying {
		return s
	}
	s.applied(start.Add(atApplied)).rebooting(start.Add(atRebooting))
	if until == stageRebooting {
		return s
	}
	s.rebooted(start.Add(atRebooted)).resumedApplying(start.Add(atResumedApplying)).uncordoned(start.Add(atUncordoned))
	if until == stageFinishing {
		return s
	}
	// The daemon's sync ends (Resumed, with the node it read before Done),
	// and the next finds no update to make.
	return s.done().resumed(start.Add(atResumed), from).updated(start.Add(atUpdated))
}

// updateStart is when the fixtures' updates begin on their nodes.
var updateStart = now.Add(-10 * time.Minute)

func conditionOf(mcn *machineconfigurationv1.MachineConfigNode, t machineconfigurationv1.StateProgress) metav1.Condition {
	for _, c := range mcn.Status.Conditions {
		if c.Type == string(t) {
			return c
		}
	}
	return metav1.Condition{}
}

func TestReadMachineConfigNode(t *testing.T) {
	const name = "worker-1"
	drainErr := "error when evicting pods/\"web-7d9f8c6b5-x2x4q\" -n \"shop\": Cannot evict pod as it would violate the pod's disruption budget."
	degradedDrain := func() *mcnSim {
		s := updating(name, oldConfig, newConfig, updateStart, stageDraining).drainFailed(updateStart.Add(time.Minute), drainErr)
		return s.degraded(updateStart.Add(9*time.Minute), "failed to drain node: "+name+" after 1 hour. Please see machine-config-controller logs for more information")
	}
	restarted := func() *mcnSim {
		return updating(name, oldConfig, newConfig, updateStart, stageRebooting).resumed(updateStart.Add(atRebooting+time.Second), oldConfig)
	}
	pinned := func() *mcnSim {
		return updating(name, oldConfig, newConfig, updateStart, stageDraining).pinFailed(updateStart.Add(time.Minute), "release-4-16",
			"requeue: prefetching images incomplete after timeout: 2m0s")
	}
	noDrain := func() *mcnSim {
		s := newMCNSim(name, oldConfig).updated(settledAt).target(newConfig)
		return s.needsUpdate(updateStart).prepared(updateStart.Add(atPrepared), false).noDrain(updateStart.Add(atPrepared))
	}
	otherNode := func() *mcnSim {
		s := updating(name, oldConfig, newConfig, updateStart, stageDraining)
		s.mcn.Name = "worker-2"
		return s
	}
	testCases := []struct {
		name string
		sim  *mcnSim
		want MachineConfigNodeProgress
	}{
		{
			name: "mid-drain: the drain controller's attempt under way, its cordon the drain's start",
			sim:  updating(name, oldConfig, newConfig, updateStart, stageDraining),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeDraining, Condition: "Drained", Status: metav1.ConditionUnknown,
				Since: updateStart.Add(atDraining), Began: updateStart, DrainStarted: updateStart.Add(atCordoned)},
		},
		{
			name: "a failed attempt: still draining, since the latest attempt",
			sim:  updating(name, oldConfig, newConfig, updateStart, stageDraining).drainFailed(updateStart.Add(time.Minute), drainErr),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeDraining, Condition: "Drained", Status: metav1.ConditionUnknown,
				Since: updateStart.Add(time.Minute), Began: updateStart, DrainStarted: updateStart.Add(atCordoned)},
		},
		{
			name: "no drain needed: updating as soon as prepared",
			sim:  noDrain(),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeUpdating, Condition: "UpdateExecuted", Status: metav1.ConditionUnknown,
				Since: updateStart.Add(atPrepared), Began: updateStart},
		},
		{
			name: "mid-apply: files and OS being written",
			sim:  updating(name, oldConfig, newConfig, updateStart, stageApplying),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeUpdating, Condition: "AppliedFilesAndOS", Status: metav1.ConditionUnknown,
				Since: updateStart.Add(atApplying), Began: updateStart, DrainStarted: updateStart.Add(atCordoned)},
		},
		{
			name: "rebooting: the reboot asked, NodeDegraded False written as update() returns",
			sim:  updating(name, oldConfig, newConfig, updateStart, stageRebooting),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeRebooting, Condition: "RebootedNode", Status: metav1.ConditionUnknown,
				Since: updateStart.Add(atRebooting), Began: updateStart, DrainStarted: updateStart.Add(atCordoned)},
		},
		{
			name: "a daemon restarted in the update writes Resumed before the node goes down: still rebooting",
			sim:  restarted(),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeRebooting, Condition: "RebootedNode", Status: metav1.ConditionUnknown,
				Since: updateStart.Add(atRebooting), Began: updateStart, DrainStarted: updateStart.Add(atCordoned)},
		},
		{
			name: "rebooted and uncordoned, before the daemon writes the node Done",
			sim:  updating(name, oldConfig, newConfig, updateStart, stageFinishing),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeUpdating, Condition: "Uncordoned", Status: metav1.ConditionTrue,
				Since: updateStart.Add(atUncordoned), Began: updateStart, DrainStarted: updateStart.Add(atCordoned), Uncordoned: updateStart.Add(atUncordoned)},
		},
		{
			name: "done: Updated True, every other condition reset False, the update's start gone",
			sim:  updating(name, oldConfig, newConfig, updateStart, stageDone),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeCompleted, Condition: "Updated", Status: metav1.ConditionTrue,
				Since: updateStart.Add(atUpdated), Completed: updateStart.Add(atUpdated)},
		},
		{
			name: "degraded: the drain failed after an hour",
			sim:  degradedDrain(),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeDraining, Condition: "Drained", Status: metav1.ConditionUnknown,
				Since: updateStart.Add(time.Minute), Began: updateStart, DrainStarted: updateStart.Add(atCordoned),
				Degraded: "Node worker-1 upgrade failure. failed to drain node: worker-1 after 1 hour. Please see machine-config-controller logs for more information"},
		},
		{
			name: "pinned images degraded during the update",
			sim:  pinned(),
			want: MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeDraining, Condition: "Drained", Status: metav1.ConditionUnknown,
				Since: updateStart.Add(atDraining), Began: updateStart, DrainStarted: updateStart.Add(atCordoned),
				PinnedImageSets: &health.PinnedImageSetsDegraded{
					Message: "One or more PinnedImageSet is experiencing an error. See PinnedImageSet list for more details.",
					Since:   updateStart.Add(time.Minute),
					Sets:    []health.PinnedImageSet{{Name: "release-4-16", Error: "requeue: prefetching images incomplete after timeout: 2m0s"}},
				}},
		},
		{
			// The controller targeted the new configuration; the daemon
			// has not written since: the conditions are the last update's.
			name: "for another configuration: not used",
			sim:  newMCNSim(name, oldConfig).updated(settledAt).target(newConfig),
		},
		{
			name: "of another node: not used",
			sim:  otherNode(),
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got := ReadMachineConfigNode(tc.sim.mcn, tc.sim.node())
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	t.Run("no conditions: not used", func(t *testing.T) {
		// As the operator creates it before any daemon writes
		// (GenerateAndApplyMachineConfigNodeSpec).
		s := newMCNSim(name, oldConfig)
		mcn := &machineconfigurationv1.MachineConfigNode{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: machineconfigurationv1.MachineConfigNodeSpec{ConfigVersion: machineconfigurationv1.MachineConfigNodeSpecMachineConfigVersion{Desired: oldConfig}}}
		if diff := cmp.Diff(MachineConfigNodeProgress{}, ReadMachineConfigNode(mcn, s.node())); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("nil: nothing", func(t *testing.T) {
		if diff := cmp.Diff(MachineConfigNodeProgress{}, ReadMachineConfigNode(nil, newMCNSim(name, oldConfig).node())); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("the fixtures are the daemon's: all conditions, reset False once updated", func(t *testing.T) {
		s := updating(name, oldConfig, newConfig, updateStart, stageDone)
		if got := len(s.mcn.Status.Conditions); got != len(mcnConditionTypes) {
			t.Errorf("%d conditions, want %d", got, len(mcnConditionTypes))
		}
		for _, c := range s.mcn.Status.Conditions {
			if c.Type != "Updated" && c.Status != metav1.ConditionFalse {
				t.Errorf("%s is %s once updated, want False", c.Type, c.Status)
			}
		}
		want := metav1.Condition{Type: "Drained", Status: metav1.ConditionFalse, Reason: "UpdateExecutedDrained", LastTransitionTime: metav1.NewTime(updateStart.Add(atUpdated)),
			Message: "Action during update to " + newConfig + ": Drained node. The drain is complete as the desired drainer matches current drainer: drain-" + newConfig}
		if diff := cmp.Diff(want, conditionOf(s.mcn, machineconfigurationv1.MachineConfigNodeUpdateDrained)); diff != "" {
			t.Errorf("Drained once updated (-want +got):\n%s", diff)
		}
	})
	t.Run("an unreconcilable configuration: the desired configuration not yet set on the status", func(t *testing.T) {
		s := newMCNSim(name, oldConfig).updated(settledAt).target(newConfig).needsUpdate(updateStart)
		s.write(updateStart.Add(atPrepared), mcnCondition{machineconfigurationv1.MachineConfigNodeUpdatePrepared, "UpdatePrepared",
			"Update Failed compatibility validation. MachineConfigs " + oldConfig + " and " + newConfig + " are not compatible. Err: invalid kernel argument change"},
			metav1.ConditionUnknown, nil, metav1.ConditionFalse, nil)
		got := ReadMachineConfigNode(s.mcn, s.node())
		want := MachineConfigNodeProgress{Usable: true, Phase: insightsv1alpha1.NodeUpdating, Condition: "UpdatePrepared", Status: metav1.ConditionUnknown,
			Since: updateStart.Add(atPrepared), Began: updateStart}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

func TestMentions(t *testing.T) {
	for _, tc := range []struct {
		s, name string
		want    bool
	}{
		{"PinnedImageSet release-4-16 failed", "release-4-16", true},
		{"PinnedImageSet release-4-16.", "release-4-16", true},
		{"PinnedImageSet release-4-160 failed", "release-4-16", false},
		{"PinnedImageSet xrelease-4-16 and release-4-16", "release-4-16", true},
		{"no set", "release-4-16", false},
		{"anything", "", false},
	} {
		if got := mentions(tc.s, tc.name); got != tc.want {
			t.Errorf("mentions(%q, %q) = %t, want %t", tc.s, tc.name, got, tc.want)
		}
	}
}

// A node that fails to pin its PinnedImageSets' images while it is still
// to be updated has a health insight; the MachineConfigNode need not speak
// of the node's update for it, as the pinned image set manager writes it
// whatever the configuration.
func TestAssessReportsPinnedImageSets(t *testing.T) {
	const set, err = "release-4-16", "requeue: prefetching images incomplete after timeout: 2m0s"
	waiting := func() *mcnSim {
		return newMCNSim("worker-1", oldConfig).updated(settledAt).pinFailed(updateStart, set, err)
	}
	targeted := func() *mcnSim {
		// Targeted; the daemon has not written since.
		return newMCNSim("worker-1", oldConfig).updated(settledAt).pinFailed(updateStart, set, err).target(newConfig)
	}
	done := func() *mcnSim {
		return newMCNSim("worker-1", newConfig).updated(settledAt).pinFailed(updateStart, set, err)
	}
	for _, tc := range []struct {
		name string
		sim  *mcnSim
		want []string
	}{
		{name: "updating", sim: updating("worker-1", oldConfig, newConfig, updateStart, stageApplying).pinFailed(updateStart.Add(time.Minute), set, err),
			want: []string{health.NodePinnedImageSetsDegraded}},
		{name: "waiting its turn", sim: waiting(), want: []string{health.NodePinnedImageSetsDegraded}},
		{name: "targeted, its MachineConfigNode of the former configuration", sim: targeted(), want: []string{health.NodePinnedImageSetsDegraded}},
		{name: "updated", sim: done()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, insights, _ := Assess(Input{Node: tc.sim.node(), Pool: testPool("worker", false), Versions: versions, Target: target,
				PerNode: DefaultPerNodeTime, MachineConfigNode: tc.sim.mcn, Now: now})
			var problems []string
			for _, i := range insights {
				problems = append(problems, i.Problem)
			}
			if diff := cmp.Diff(tc.want, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
