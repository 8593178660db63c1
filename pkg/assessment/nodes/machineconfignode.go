package nodes

import (
	"fmt"
	"strings"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// What the machine-config operator writes on a MachineConfigNode
// (openshift/machine-config-operator at 7ff337a).
const (
	// mcnNotYetSet is the desired configuration of a MachineConfigNode
	// that names none yet (pkg/upgrademonitor/upgrade_monitor.go,
	// NotYetSet), mcnNotYetSetAlso the spelling the same file compares with
	// at the end of generateAndApplyMachineConfigNodes.
	mcnNotYetSet     = "not-yet-set"
	mcnNotYetSetAlso = "NotYetSet"
	// mcnNeedsUpdate ends the message of the Updated False condition the
	// daemon writes as it finds its node needs an update, before it begins
	// (pkg/daemon/daemon.go, syncNode: "Node %s needs an update").
	mcnNeedsUpdate = " needs an update"
	// mcnNoDrain ends the message of UpdatePrepared True when the update
	// needs no drain (pkg/daemon/update.go, update: "Update Compatible.
	// Post Cfg Actions: %v Drain Required: %t").
	mcnNoDrain = "Drain Required: false"
)

// MachineConfigNodeProgress is what a node's MachineConfigNode says of the
// node's update, as the machine-config daemon and the drain controller
// write it while they work (pkg/upgrademonitor/upgrade_monitor.go,
// generateAndApplyMachineConfigNodes: each condition they write carries the
// time they wrote it).
type MachineConfigNodeProgress struct {
	// Usable says the MachineConfigNode speaks of the update the node's
	// annotations are at: it has conditions, and its desired configuration
	// (and image, when it names one) is the node's. The fields below but
	// PinnedImageSets are empty otherwise.
	Usable bool
	// Phase is where the update stands on the node: NodeDraining,
	// NodeUpdating or NodeRebooting while the daemon works, NodeCompleted
	// once Updated is True; empty when no condition of the update places
	// the node (the daemon has not begun).
	Phase string
	// Condition is the condition type that places the node in Phase, with
	// its Status.
	Condition string
	Status    metav1.ConditionStatus
	// Since is when the node entered that step: the condition's
	// lastTransitionTime.
	Since time.Time
	// Began is when the update began on the node: the earliest time of the
	// update's conditions still set (True or Unknown), or of the daemon's
	// "needs an update". Zero once the update completed: Updated True turns
	// every other condition False anew.
	Began time.Time
	// DrainStarted is when the drain controller cordoned the node for the
	// update (Cordoned True), zero if it has not.
	DrainStarted time.Time
	// Uncordoned is when the drain controller uncordoned the node at the
	// end of the update (UpdateComplete True), zero if it has not.
	Uncordoned time.Time
	// Completed is when the update completed on the node (Updated True),
	// zero until then.
	Completed time.Time
	// Degraded is the message of NodeDegraded True, empty while the node is
	// not degraded.
	Degraded string
	// PinnedImageSets is PinnedImageSetsDegraded True, read from any
	// MachineConfigNode with conditions: the pinned image set manager
	// reports on the node's images, whatever configuration the node is at.
	PinnedImageSets *health.PinnedImageSetsDegraded
}

// mcnConditions are a MachineConfigNode's conditions by type.
type mcnConditions struct {
	prepared, executed, cordoned, drained, filesAndOS, files, imagePulled, osImage,
	postAction, rebooted, resumed, complete, uncordoned, updated, degraded, pinnedDegraded *metav1.Condition
}

// mcnStepCount is how many conditions steps returns.
const mcnStepCount = 13

// steps are the update's conditions in the order the daemon reaches them,
// a parent before its children: UpdatePrepared (pkg/daemon/update.go,
// update); UpdateExecuted with Cordoned and Drained (the drain controller,
// pkg/controller/drain/drain_controller.go, drainNode, or the daemon when no
// drain is needed) then AppliedFilesAndOS, or AppliedFiles,
// ImagePulledFromRegistry and AppliedOSImage (update, applyOSChanges);
// UpdatePostActionComplete or RebootedNode (performPostConfigChangeAction,
// reboot; RebootedNode True once back, pkg/daemon/daemon.go, syncNode);
// Resumed (updateConfigAndState); UpdateComplete with Uncordoned (the drain
// controller, as the daemon's completeUpdate asks the uncordon). Updated
// and NodeDegraded are not steps.
func (c *mcnConditions) steps() [mcnStepCount]*metav1.Condition {
	return [mcnStepCount]*metav1.Condition{c.prepared, c.executed, c.cordoned, c.drained, c.filesAndOS, c.files, c.imagePulled, c.osImage,
		c.postAction, c.rebooted, c.resumed, c.complete, c.uncordoned}
}

func indexConditions(conditions []metav1.Condition) mcnConditions {
	var c mcnConditions
	for i := range conditions {
		cond := &conditions[i]
		switch machineconfigurationv1.StateProgress(cond.Type) {
		case machineconfigurationv1.MachineConfigNodeUpdatePrepared:
			c.prepared = cond
		case machineconfigurationv1.MachineConfigNodeUpdateExecuted:
			c.executed = cond
		case machineconfigurationv1.MachineConfigNodeUpdateCordoned:
			c.cordoned = cond
		case machineconfigurationv1.MachineConfigNodeUpdateDrained:
			c.drained = cond
		case machineconfigurationv1.MachineConfigNodeUpdateFilesAndOS:
			c.filesAndOS = cond
		case machineconfigurationv1.MachineConfigNodeUpdateFiles:
			c.files = cond
		case machineconfigurationv1.MachineConfigNodeImagePulledFromRegistry:
			c.imagePulled = cond
		case machineconfigurationv1.MachineConfigNodeUpdateOS:
			c.osImage = cond
		case machineconfigurationv1.MachineConfigNodeUpdatePostActionComplete:
			c.postAction = cond
		case machineconfigurationv1.MachineConfigNodeUpdateRebooted:
			c.rebooted = cond
		case machineconfigurationv1.MachineConfigNodeResumed:
			c.resumed = cond
		case machineconfigurationv1.MachineConfigNodeUpdateComplete:
			c.complete = cond
		case machineconfigurationv1.MachineConfigNodeUpdateUncordoned:
			c.uncordoned = cond
		case machineconfigurationv1.MachineConfigNodeUpdated:
			c.updated = cond
		case machineconfigurationv1.MachineConfigNodeNodeDegraded:
			c.degraded = cond
		case machineconfigurationv1.MachineConfigNodePinnedImageSetsDegraded:
			c.pinnedDegraded = cond
		}
	}
	return c
}

// set says a condition is on: True, or Unknown, which the daemon and the
// drain controller write for a step in progress (a parent whose children
// are not all done, a drain under way, a reboot asked).
func set(c *metav1.Condition) bool {
	return c != nil && c.Status != metav1.ConditionFalse
}

func isStatus(c *metav1.Condition, status metav1.ConditionStatus) bool {
	return c != nil && c.Status == status
}

// ReadMachineConfigNode reads the MachineConfigNode of node: nothing from
// nil, from one of another node, or from one without conditions (which the
// machine-config controller does not use either: calculateStatus,
// pkg/controller/node/status.go); only its pinned image sets from one that
// speaks of another update than the node's annotations.
func ReadMachineConfigNode(mcn *machineconfigurationv1.MachineConfigNode, node *corev1.Node) MachineConfigNodeProgress {
	var p MachineConfigNodeProgress
	if mcn == nil || node == nil || mcn.Name != node.Name || len(mcn.Status.Conditions) == 0 {
		return p
	}
	c := indexConditions(mcn.Status.Conditions)
	p.PinnedImageSets = pinnedImageSetsDegraded(c.pinnedDegraded, mcn)
	if !speaksOf(mcn, node.Annotations) {
		return p
	}
	p.Usable = true
	if isStatus(c.degraded, metav1.ConditionTrue) {
		// The daemon reports the outcome of each update attempt there
		// (pkg/daemon/update.go, reportMachineNodeDegradeStatus: "Node %s
		// upgrade failure. %v"), and the machine-config controller counts
		// the node degraded on it with its message
		// (pkg/controller/node/status.go, calculateStatus).
		p.Degraded = c.degraded.Message
	}
	if isStatus(c.updated, metav1.ConditionTrue) {
		// The daemon writes Updated True once the node runs its desired
		// configuration (pkg/daemon/daemon.go, syncNode: "Node %s
		// Updated"), and the upgrade monitor then turns every other
		// condition not False to False with a new time
		// (pkg/upgrademonitor/upgrade_monitor.go,
		// generateAndApplyMachineConfigNodes, reset): the update's steps
		// and times are gone, its completion is Updated's time.
		p.Phase, p.Condition, p.Status = insightsv1alpha1.NodeCompleted, c.updated.Type, c.updated.Status
		p.Since, p.Completed = c.updated.LastTransitionTime.Time, c.updated.LastTransitionTime.Time
		return p
	}
	steps := c.steps()
	var step *metav1.Condition
	for _, s := range steps {
		if !set(s) {
			continue
		}
		// The step last written is where the daemon is: a condition keeps
		// its time until written again, and the upgrade monitor writes a
		// parent (with its child) only when its status or message change
		// (generateAndApplyMachineConfigNodes, isParentConditionChanged).
		// Conditions of a second share a time; the later in the daemon's
		// order wins. Steps of an update left unfinished stay set into the
		// next (nothing resets them but Updated), and are older than its.
		if step == nil || !s.LastTransitionTime.Before(&step.LastTransitionTime) {
			step = s
		}
		if t := s.LastTransitionTime.Time; p.Began.IsZero() || t.Before(p.Began) {
			p.Began = t
		}
	}
	if u := c.updated; u != nil && u.Status == metav1.ConditionFalse && u.Reason == string(machineconfigurationv1.MachineConfigNodeUpdated) &&
		strings.HasSuffix(u.Message, mcnNeedsUpdate) {
		// The daemon's first word on the update, before it prepares it
		// (pkg/daemon/daemon.go, syncNode, then triggerUpdate).
		if t := u.LastTransitionTime.Time; p.Began.IsZero() || t.Before(p.Began) {
			p.Began = t
		}
	}
	if step == c.resumed && isStatus(c.rebooted, metav1.ConditionUnknown) {
		// A daemon that restarted in the update writes Resumed once it has
		// asked the reboot, before the node goes down (pkg/daemon/daemon.go,
		// syncNode, after checkStateOnFirstRun): the reboot asked is where
		// the node is.
		step = c.rebooted
	}
	if isStatus(c.cordoned, metav1.ConditionTrue) {
		// The drain controller records its own start of the drain as it
		// cordons the node, and writes Cordoned True then
		// (pkg/controller/drain/drain_controller.go, drainNode:
		// ongoingDrains).
		p.DrainStarted = c.cordoned.LastTransitionTime.Time
	}
	if isStatus(c.complete, metav1.ConditionTrue) {
		// The daemon's last step before it writes the node Done
		// (pkg/daemon/daemon.go, updateConfigAndState: completeUpdate,
		// whose uncordon the drain controller writes, then SetDone).
		p.Uncordoned = c.complete.LastTransitionTime.Time
	}
	if step != nil {
		p.Phase, p.Condition, p.Status, p.Since = phaseOf(step, &c), step.Type, step.Status, step.LastTransitionTime.Time
	}
	return p
}

// phaseOf is the update phase of the step the daemon is at.
func phaseOf(step *metav1.Condition, c *mcnConditions) string {
	switch machineconfigurationv1.StateProgress(step.Type) {
	case machineconfigurationv1.MachineConfigNodeUpdatePrepared:
		// Prepared, the daemon asks the drain at once (pkg/daemon/update.go,
		// update, then performDrain in pkg/daemon/drain.go): draining, as a
		// node whose drain is asked and not begun, unless the update needs
		// none. Unknown is a failed validation (update: "Update Failed
		// compatibility validation"), an unreconcilable configuration the
		// daemon keeps at.
		if step.Status == metav1.ConditionTrue && !strings.HasSuffix(step.Message, mcnNoDrain) {
			return insightsv1alpha1.NodeDraining
		}
		return insightsv1alpha1.NodeUpdating
	case machineconfigurationv1.MachineConfigNodeUpdateExecuted:
		// Written with its children, the parent names the child last
		// written in its reason: the cordon or drain begun
		// (pkg/controller/drain/drain_controller.go, drainNode), or a drain
		// not needed (Drained False: "Node Drain Not required for this
		// update.", pkg/daemon/update.go, update, and pkg/daemon/drain.go,
		// performDrain).
		switch machineconfigurationv1.StateProgress(step.Reason) {
		case machineconfigurationv1.MachineConfigNodeUpdateCordoned:
			return insightsv1alpha1.NodeDraining
		case machineconfigurationv1.MachineConfigNodeUpdateDrained:
			if isStatus(c.drained, metav1.ConditionUnknown) {
				return insightsv1alpha1.NodeDraining
			}
		}
		return insightsv1alpha1.NodeUpdating
	case machineconfigurationv1.MachineConfigNodeUpdateCordoned:
		return insightsv1alpha1.NodeDraining
	case machineconfigurationv1.MachineConfigNodeUpdateDrained:
		// Unknown while the drain controller drains and retries
		// ("Draining node. …", "Error: Node Drain has not succeeded. …"),
		// True once drained (pkg/controller/drain/drain_controller.go,
		// drainNode).
		if step.Status == metav1.ConditionUnknown {
			return insightsv1alpha1.NodeDraining
		}
		return insightsv1alpha1.NodeUpdating
	case machineconfigurationv1.MachineConfigNodeUpdateRebooted:
		// Unknown once the daemon asks the reboot ("Upgrade requires a
		// reboot.", pkg/daemon/update.go, performPostConfigChange(NodeDisruption)Action),
		// True once back ("Node has rebooted", pkg/daemon/daemon.go,
		// syncNode).
		if step.Status == metav1.ConditionUnknown {
			return insightsv1alpha1.NodeRebooting
		}
		return insightsv1alpha1.NodeUpdating
	}
	// The files and OS being written (pkg/daemon/update.go, update), the
	// post-update action taken without a reboot
	// (performPostConfigChangeAction), the daemon resumed
	// (pkg/daemon/daemon.go, updateConfigAndState), the node uncordoned
	// (pkg/controller/drain/drain_controller.go, syncNode): the daemon
	// finishes.
	return insightsv1alpha1.NodeUpdating
}

// speaksOf says the MachineConfigNode's conditions are about the update
// the node's annotations are at. The upgrade monitor sets
// status.configVersion.desired to the node's desiredConfig annotation each
// time it writes a condition, to "not-yet-set" for a failed validation
// (generateAndApplyMachineConfigNodes); spec.configVersion.desired is the
// configuration the machine-config controller and the daemon last targeted
// (UpdateMachineConfigNodeSpecDesiredAnnotations,
// GenerateAndApplyMachineConfigNodeSpec), read when the status names none.
// status.configImage.desiredImage, when set (ImageModeStatusReporting),
// is the desiredImage annotation of the same write.
func speaksOf(mcn *machineconfigurationv1.MachineConfigNode, annotations map[string]string) bool {
	desired := ""
	if v := mcn.Status.ConfigVersion; v != nil && !notYetSet(v.Desired) {
		desired = v.Desired
	} else if !notYetSet(mcn.Spec.ConfigVersion.Desired) {
		desired = mcn.Spec.ConfigVersion.Desired
	}
	if desired == "" || desired != annotations[DesiredConfigAnnotation] {
		return false
	}
	image := string(mcn.Status.ConfigImage.DesiredImage)
	return image == "" || image == annotations[DesiredImageAnnotation]
}

func notYetSet(config string) bool {
	return config == "" || config == mcnNotYetSet || config == mcnNotYetSetAlso
}

// pinnedImageSetsDegraded reads PinnedImageSetsDegraded True and the sets
// that fail: status.pinnedImageSets gives each the generation it failed to
// pin and why (pkg/daemon/pinned_image_set.go, createApplyConfigForImageSet:
// lastFailedGeneration, lastFailedGenerationError), or the message names
// it.
func pinnedImageSetsDegraded(cond *metav1.Condition, mcn *machineconfigurationv1.MachineConfigNode) *health.PinnedImageSetsDegraded {
	if !isStatus(cond, metav1.ConditionTrue) {
		return nil
	}
	p := &health.PinnedImageSetsDegraded{Message: cond.Message, Since: cond.LastTransitionTime.Time}
	for _, s := range mcn.Status.PinnedImageSets {
		failing := s.LastFailedGeneration != 0 && s.CurrentGeneration != s.DesiredGeneration
		if failing || mentions(cond.Message, s.Name) {
			p.Sets = append(p.Sets, health.PinnedImageSet{Name: s.Name, Error: s.LastFailedGenerationError})
		}
	}
	return p
}

// mentions says s names name as a whole name, not as part of a longer one.
func mentions(s, name string) bool {
	for from := 0; name != ""; {
		i := strings.Index(s[from:], name)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(name)
		// A dot after the name may end a sentence rather than continue it.
		continues := end < len(s) && isNameByte(s[end]) && (s[end] != '.' || end+1 < len(s) && isNameByte(s[end+1]))
		if (i == 0 || !isNameByte(s[i-1])) && !continues {
			return true
		}
		from = i + 1
	}
	return false
}

// inProgress says the MachineConfigNode places an updating node in one of
// its phases.
func (p *MachineConfigNodeProgress) inProgress() bool {
	if p == nil {
		return false
	}
	switch p.Phase {
	case insightsv1alpha1.NodeDraining, insightsv1alpha1.NodeUpdating, insightsv1alpha1.NodeRebooting:
		return true
	}
	return false
}

// note names the step that places the node and since when, for the
// Updating condition's message.
func (p *MachineConfigNodeProgress) note() string {
	step := p.Condition
	if p.Status == metav1.ConditionUnknown {
		step += " in progress"
	}
	if p.Since.IsZero() {
		return fmt.Sprintf(" (MachineConfigNode: %s)", step)
	}
	return fmt.Sprintf(" (MachineConfigNode: %s since %s)", step, p.Since.UTC().Format(time.RFC3339))
}

// completion is when the update completed on the node per its
// MachineConfigNode: Updated True's time, or before the daemon writes it
// the drain controller's uncordon, the daemon's last step before it writes
// the node Done and the annotations say so (updateConfigAndState); zero if
// neither.
func (p *MachineConfigNodeProgress) completion() time.Time {
	if p == nil {
		return time.Time{}
	}
	if !p.Completed.IsZero() {
		return p.Completed
	}
	return p.Uncordoned
}
