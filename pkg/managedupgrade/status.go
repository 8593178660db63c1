package managedupgrade

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/blang/semver/v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// maxWorkerSamples bounds how many earlier updates' worker phases the
// estimate of this one's takes the median of: the recent ones say most
// about the cluster as it is.
const maxWorkerSamples = 5

// dueGrace is how long after upgradeAt an update that has not started is
// only due: the operator reconciles a Pending UpgradeConfig at least every
// five minutes (its SyncPeriodDefault), and starts it at the first
// reconcile past upgradeAt whose validation passes
// (controllers/upgradeconfig/upgradeconfig_controller.go).
const dueGrace = 10 * time.Minute

// StatusInsights are the insights about the managed update: one waiting
// for its window or due, the step and the worker phase of one running,
// what holds or failed it, and when the operator will force drains that
// PodDisruptionBudgets block. No UpgradeConfig, no insight.
func StatusInsights(in Input) []protocol.Insight {
	var out []protocol.Insight
	for _, u := range updates(in.UpgradeConfigs) {
		if u.phase() == upgradev1alpha1.PhaseUpgraded {
			continue
		}
		out = append(out, configInvalid(u, in)...)
		out = append(out, configOverflow(u, in)...)
		out = append(out, awaitingWindow(u, in.Now)...)
		out = append(out, due(u, in)...)
		out = append(out, windowFailing(u, in)...)
		out = append(out, delayed(u, in)...)
		out = append(out, failed(u, in)...)
		out = append(out, failingSteps(u, in.Now)...)
		out = append(out, currentStep(u, in)...)
		out = append(out, controlPlaneOverrun(u, in)...)
		out = append(out, workerPhase(u, in.Now)...)
		if in.Config.Overflow == "" {
			// Both count from the drain timeouts, which zero would
			// misstate; the other timing insights take zero as off.
			out = append(out, workerWindowOverrun(u, in)...)
			out = append(out, forcedDrains(u, in)...)
		}
	}
	return out
}

// configInvalid reports a configuration the operator refuses: it then
// runs no step of any update (the UpgradeConfig controller returns before
// its phases, controllers/upgradeconfig/upgradeconfig_controller.go).
func configInvalid(u update, in Input) []protocol.Insight {
	if in.Config.Invalid == "" || u.done() {
		return nil
	}
	return []protocol.Insight{insight(u.since(in.Now), u.uid("config-invalid"), controlPlane(u.resource()), protocol.LevelError, protocol.ImpactUpdateStalled,
		fmt.Sprintf("Managed update to %s cannot proceed: the Managed Upgrade Operator's configuration is invalid", u.version()),
		fmt.Sprintf("The Managed Upgrade Operator reads ConfigMap %s/%s (key %s) before it acts on the UpgradeConfig, and stops there: %s. Until it is fixed, the update neither starts nor moves on.",
			u.config.Namespace, ConfigMapName, ConfigMapKey, in.Config.Invalid))}
}

// configOverflow reports minute values the operator's durations cannot
// hold: the timing insights (window, delay, maintenance, drains) are then
// left out rather than computed from a number the operator wraps around.
func configOverflow(u update, in Input) []protocol.Insight {
	if in.Config.Overflow == "" || u.done() {
		return nil
	}
	return []protocol.Insight{insight(u.since(in.Now), u.uid("config-overflow"), controlPlane(u.resource()), protocol.LevelWarning, protocol.ImpactUnknown,
		fmt.Sprintf("Managed update to %s: the Managed Upgrade Operator's timing cannot be told from its configuration", u.version()),
		fmt.Sprintf("ConfigMap %s/%s (key %s): %s. The operator multiplies them by a minute without checking, and the result wraps around, so when it fails a late update, ends the maintenance window or forces drains is unknown; those insights are left out. Set the values in minutes the operator can hold.",
			u.config.Namespace, ConfigMapName, ConfigMapKey, in.Config.Overflow))}
}

// awaitingWindow holds the control plane until upgradeAt, so that
// UpdateStatus says the update awaits its window rather than that nothing
// happens. An upgradeAt that is no RFC 3339 time never comes: the
// operator's scheduler is never ready (pkg/scheduler/scheduler.go) and its
// validation refuses it (pkg/validation/validation.go).
func awaitingWindow(u update, now time.Time) []protocol.Insight {
	if !u.notStarted() {
		return nil
	}
	if u.upgradeAtErr != nil {
		return []protocol.Insight{insight(u.since(now), u.uid("upgrade-at-invalid"), controlPlane(u.resource()), protocol.LevelError, protocol.ImpactUpdateStalled,
			fmt.Sprintf("Managed update to %s will not start: its upgradeAt is no time", u.version()),
			fmt.Sprintf("The UpgradeConfig's %v. The Managed Upgrade Operator's validation refuses it (\"Failed to parse upgradeAt:%s during validation\"), so it never starts the update. Set upgradeAt to an RFC 3339 time.",
				u.upgradeAtErr, u.config.Spec.UpgradeAt))}
	}
	if !u.upgradeAt.After(now) {
		return nil
	}
	i := insight(u.since(now), u.uid("awaiting-window"), controlPlane(u.resource()), protocol.LevelStatus, protocol.ImpactAwaitingWindow,
		fmt.Sprintf("Managed update to %s scheduled for %s, in %s", u.version(), timestamp(u.upgradeAt), text.Minutes(u.upgradeAt.Sub(now))),
		"The Managed Upgrade Operator starts the update at the UpgradeConfig's upgradeAt, not before.")
	i.Remediation.EstimatedFinish = finishAt(u.upgradeAt)
	return []protocol.Insight{i}
}

// due reports an update past its upgradeAt that has not started. The
// operator starts a due update however late (its scheduler's breach is
// computed but never read), once its validation passes; a validation that
// fails leaves it Pending and writes nothing in the UpgradeConfig, only a
// log line and the upgradeoperator_upgradeconfig_validation_failed metric.
func due(u update, in Input) []protocol.Insight {
	if !u.notStarted() || u.upgradeAtErr != nil || u.upgradeAt.After(in.Now) {
		return nil
	}
	late := in.Now.Sub(u.upgradeAt)
	if reason := u.refused(); reason != "" {
		return []protocol.Insight{insight(u.upgradeAt, u.uid("refused"), controlPlane(u.resource()), protocol.LevelError, protocol.ImpactUpdateStalled,
			fmt.Sprintf("Managed update to %s will not start: the Managed Upgrade Operator's validation refuses the UpgradeConfig", u.version()),
			fmt.Sprintf("It was due at %s. The Managed Upgrade Operator validates a Pending UpgradeConfig before it starts it, and refuses this one: %s. It stays Pending until spec.desired is fixed.",
				timestamp(u.upgradeAt), reason))}
	}
	if late < dueGrace {
		// Awaiting Window without an estimated finish: the update is held
		// until the operator starts it, which it does at its next
		// reconcile, so the update is pending and about to start, not
		// absent.
		return []protocol.Insight{insight(u.upgradeAt, u.uid("due"), controlPlane(u.resource()), protocol.LevelStatus, protocol.ImpactAwaitingWindow,
			fmt.Sprintf("Managed update to %s is due since %s", u.version(), timestamp(u.upgradeAt)),
			"The Managed Upgrade Operator starts it at its next reconcile of the UpgradeConfig, within minutes, once its validation passes.")}
	}
	return []protocol.Insight{insight(u.upgradeAt, u.uid("due"), controlPlane(u.resource()), protocol.LevelWarning, protocol.ImpactUpdateStalled,
		fmt.Sprintf("Managed update to %s, due since %s, has not started", u.version(), timestamp(u.upgradeAt)),
		fmt.Sprintf("The update is %s late. The Managed Upgrade Operator starts a due update however late, once it validates the UpgradeConfig; "+
			"a validation that fails leaves it Pending and is seen only in the operator's log (\"An error occurred while validating UpgradeConfig\") "+
			"and its metric upgradeoperator_upgradeconfig_validation_failed. It checks:\n%s",
			text.Minutes(late), validationChecks))}
}

// validationChecks are what the operator's validation checks, beyond what
// refused can tell from the UpgradeConfig alone (pkg/validation/validation.go).
const validationChecks = `- with spec.desired.image: the image's release version, fetched from its registry, which needs a pull spec with a digest;
- otherwise: spec.desired.version is a newer version than the cluster runs (not the same, not older);
- when spec.desired.channel is the ClusterVersion's channel: the version is among the ClusterVersion's availableUpdates or conditionalUpdates (check 'oc adm upgrade');
- when the channel differs, only with validation.cincinnati set in its ConfigMap: the update service lists the version in that channel.`

// refused is why the operator's validation refuses the UpgradeConfig, as
// it says it, for what the UpgradeConfig alone tells; empty when it may
// pass (pkg/validation/validation.go IsValidUpgradeConfig).
func (u update) refused() string {
	desired := u.config.Spec.Desired
	if desired.Image != "" {
		return ""
	}
	if desired.Version == "" && desired.Channel == "" {
		return "Not able to validate the upgrade config, either image or (channel + version) needs to be provided"
	}
	if _, err := semver.Parse(desired.Version); err != nil {
		return fmt.Sprintf("failed to parse upgrade config desired version %s as semver: %v", desired.Version, err)
	}
	return ""
}

// windowFailing reports an update the OSD upgrader fails at its next
// reconcile: running, not commenced, and past the upgrade window from its
// start (pkg/upgraders/osdupgrader.go shouldFailUpgrade). The ARO upgrader
// fails no update.
func windowFailing(u update, in Input) []protocol.Insight {
	closes, ok := u.windowCloses(in.Config)
	if !ok || !in.Now.After(closes) {
		return nil
	}
	return []protocol.Insight{insight(closes, u.uid("window-closed"), controlPlane(u.resource()), protocol.LevelError, protocol.ImpactUpdateStalled,
		fmt.Sprintf("Managed update to %s is being given up: it did not commence by %s", u.version(), timestamp(closes)),
		fmt.Sprintf("The OSD upgrader fails an update whose ClusterVersion update has not commenced within the upgrade window (upgradeWindow.timeOut, %s) of its start at %s, and does not retry it. It does so at its next reconcile, within a minute.",
			text.Minutes(in.Config.UpgradeWindowTimeout), timestamp(closes.Add(-in.Config.UpgradeWindowTimeout))))}
}

// windowCloses is when a running OSD update that has not commenced is
// failed; false when no window applies: the policy is off (zero), the
// upgrader is ARO's, the update is not running or has commenced, or its
// start is not known. An UpgradeConfig of another type runs the OSD
// upgrader (pkg/upgraders/builder.go).
func (u update) windowCloses(config Config) (time.Time, bool) {
	if config.UpgradeWindowTimeout <= 0 || u.config.Spec.Type == upgradev1alpha1.UpgradeTypeARO ||
		u.phase() != upgradev1alpha1.PhaseUpgrading || u.commenced() {
		return time.Time{}, false
	}
	start, ok := u.startTime()
	if !ok {
		return time.Time{}, false
	}
	return start.Add(config.UpgradeWindowTimeout), true
}

// delayed reports an OSD update that the operator has notified as delayed:
// running, not commenced delayTrigger after its start
// (pkg/upgraders/delaystep.go). The notification goes to the cluster's
// owners through OCM, or to the operator's log.
func delayed(u update, in Input) []protocol.Insight {
	if in.Config.DelayTrigger <= 0 || u.config.Spec.Type == upgradev1alpha1.UpgradeTypeARO ||
		u.phase() != upgradev1alpha1.PhaseUpgrading || u.commenced() {
		return nil
	}
	start, ok := u.startTime()
	if !ok || !in.Now.After(start.Add(in.Config.DelayTrigger)) {
		return nil
	}
	at := start.Add(in.Config.DelayTrigger)
	return []protocol.Insight{insight(at, u.uid("delayed"), controlPlane(u.resource()), protocol.LevelWarning, protocol.ImpactUpdateStalled,
		fmt.Sprintf("Managed update to %s is delayed: it has not commenced %s after its start", u.version(), text.Minutes(in.Config.DelayTrigger)),
		fmt.Sprintf("The update started at %s and its pre-update steps have not all passed, so the ClusterVersion has no desired release yet. The Managed Upgrade Operator notified its delay at %s (upgradeWindow.delayTrigger).",
			timestamp(start), timestamp(at)))}
}

// commenced says the operator has set the ClusterVersion's desired
// release. The operator asks the ClusterVersion (pkg/clusterversion/cv.go
// HasUpgradeCommenced), which this does not read: UpgradeCommenced is True,
// or a step that follows it has begun, which the operator records only
// after it set the desired release.
func (u update) commenced() bool {
	if u.history == nil {
		return false
	}
	later := osdSteps[slices.Index(osdSteps, upgradev1alpha1.UpgradeCommenced)+1:]
	for _, c := range u.history.Conditions {
		if (c.Type == upgradev1alpha1.UpgradeCommenced && c.Status == metav1.ConditionTrue) || slices.Contains(later, c.Type) {
			return true
		}
	}
	return false
}

func (u update) startTime() (time.Time, bool) {
	if u.history == nil {
		return time.Time{}, false
	}
	return timeOf(u.history.StartTime)
}

// failed reports an update the operator gave up. Only the OSD upgrader
// fails one, for its upgrade window, and the phase is all it leaves: the
// FailedUpgrade condition it builds is set on a copy of the history entry
// and never written (pkg/upgraders/osdupgrader.go performUpgradeFailure),
// and completeTime is set only for Upgraded. Failed is final: the
// UpgradeConfig controller does nothing more with it.
func failed(u update, in Input) []protocol.Insight {
	if u.phase() != upgradev1alpha1.PhaseFailed {
		return nil
	}
	description := "The OSD upgrader gave the update up: the ClusterVersion update had not commenced within the upgrade window (upgradeWindow.timeOut) of its start"
	if start, ok := u.startTime(); ok {
		description += " at " + timestamp(start)
	}
	description += ", so the cluster still runs its version."
	if c, ok := u.currentCondition(); ok {
		description += fmt.Sprintf(" It was on step %s: %s.", c.Type, describe(c.Message, "no message"))
	}
	description += " The Managed Upgrade Operator does not retry a failed update: the UpgradeConfig stays Failed for this version. To update, schedule it again: a new upgrade policy where OCM schedules the cluster's updates (automated updates are scheduled again at their next cycle), otherwise a new UpgradeConfig, or this one for another version."
	return []protocol.Insight{insight(u.since(in.Now, u.history.StartTime), u.uid("failed"), controlPlane(u.resource()), protocol.LevelError, protocol.ImpactUpdateStalled,
		fmt.Sprintf("Managed update to %s failed: it did not commence within its upgrade window", u.version()), description)}
}

// failingSteps are the steps of a running update that hit an error. The
// operator's runner (pkg/upgradesteps/runner.go) writes a step False with
// reason "<step> not done" whether it is under way or failing: under way,
// its message is "<step> has started" or "<step> still in progress";
// failing, the error itself (for the health check, "critical alert(s)
// firing: ..."). It runs the steps again from the first at every
// reconcile, about every minute.
func failingSteps(u update, now time.Time) []protocol.Insight {
	if u.phase() != upgradev1alpha1.PhaseUpgrading {
		return nil
	}
	var out []protocol.Insight
	for _, c := range u.history.Conditions {
		if c.Status != metav1.ConditionFalse || inProgress(c) || strings.TrimSpace(c.Message) == "" {
			continue
		}
		description := fmt.Sprintf("Step %s of the managed update to %s failed: %s.", c.Type, u.version(), strings.TrimSpace(c.Message))
		if t, ok := timeOf(c.LastProbeTime); ok {
			description += fmt.Sprintf(" Last tried at %s.", timestamp(t))
		}
		description += " The Managed Upgrade Operator runs the step again at each reconcile, about every minute; the update does not go on until it passes."
		out = append(out, insight(u.since(now, c.StartTime, c.LastTransitionTime), u.uid("step-failing", string(c.Type)), controlPlane(u.resource()), protocol.LevelWarning, protocol.ImpactUpdateStalled,
			fmt.Sprintf("Managed update step %s: %s", c.Type, strings.TrimSpace(c.Message)), description))
	}
	return out
}

// inProgress says a False condition only records a step under way, in the
// runner's words.
func inProgress(c upgradev1alpha1.UpgradeCondition) bool {
	return c.Message == string(c.Type)+" has started" || c.Message == string(c.Type)+" still in progress"
}

func describe(s, otherwise string) string {
	if s = strings.TrimSpace(s); s != "" {
		return s
	}
	return otherwise
}

// currentStep is the step the operator is on: the first condition of the
// update not complete (the operator puts the newest first). Before the
// update commences, the step holds it: the ClusterVersion gets the desired
// release only once the operator's pre-update steps pass, so the step is an
// Awaiting Window insight, and UpdateStatus says the update is pending and
// held, not that nothing happens.
func currentStep(u update, in Input) []protocol.Insight {
	if u.phase() != upgradev1alpha1.PhaseUpgrading {
		return nil
	}
	c, ok := u.currentCondition()
	if !ok {
		return nil
	}
	step := string(c.Type)
	if all := steps(u.config.Spec.Type); slices.Contains(all, c.Type) {
		step += fmt.Sprintf(" (step %d of %d)", slices.Index(all, c.Type)+1, len(all))
	}
	summary := fmt.Sprintf("Managed update to %s: %s", u.version(), step)
	start, ok := timeOf(c.StartTime)
	if !ok {
		start, ok = timeOf(c.LastTransitionTime)
	}
	if ok {
		summary += ", running for " + text.Minutes(max(in.Now.Sub(start), 0))
	}
	description, impact := describe(c.Message, ""), protocol.ImpactType("")
	closes, windowed := u.windowCloses(in.Config)
	if !u.commenced() && (!windowed || !in.Now.After(closes)) {
		impact = protocol.ImpactAwaitingWindow
		description = strings.TrimSpace(description + "\nThe Managed Upgrade Operator sets the ClusterVersion's desired release once its pre-update steps pass.")
		// No estimated finish: the steps may pass at any time, and the
		// window's close is when the update is given up, not when it starts.
		if windowed {
			description += fmt.Sprintf(" If they have not passed when the upgrade window closes at %s, the OSD upgrader gives the update up.", timestamp(closes))
		}
	}
	return []protocol.Insight{insight(u.since(in.Now, c.StartTime, c.LastTransitionTime, u.history.StartTime), u.uid("step", string(c.Type)),
		controlPlane(u.resource()), protocol.LevelStatus, impact, summary, description)}
}

// controlPlaneOverrun reports a control plane update that has run past its
// maintenance window, the silence of the critical alerts it is expected to
// fire: the operator then records the timeout (metric
// upgradeoperator_controlplane_timeout) and goes on waiting; it fails
// nothing (pkg/upgraders/controlplanestep.go). The operator measures from
// the ClusterVersion's history entry of the version, which this does not
// read: UpgradeCommenced's completion, when the operator set the desired
// release and the ClusterVersion update began, stands in, else upgradeAt,
// as the operator falls back to.
func controlPlaneOverrun(u update, in Input) []protocol.Insight {
	if in.Config.ControlPlaneTime <= 0 || u.phase() != upgradev1alpha1.PhaseUpgrading || !u.commenced() {
		return nil
	}
	if c, ok := u.currentCondition(); !ok || c.Type != upgradev1alpha1.ControlPlaneUpgraded {
		return nil
	}
	start, ok := time.Time{}, false
	if c, found := u.condition(upgradev1alpha1.UpgradeCommenced); found {
		start, ok = timeOf(c.CompleteTime)
	}
	if !ok && u.upgradeAtErr == nil {
		start, ok = u.upgradeAt, true
	}
	if !ok || !in.Now.After(start.Add(in.Config.ControlPlaneTime)) {
		return nil
	}
	end := start.Add(in.Config.ControlPlaneTime)
	return []protocol.Insight{insight(end, u.uid("control-plane-overrun"), controlPlane(u.resource()), protocol.LevelWarning, protocol.ImpactUpdateSpeed,
		fmt.Sprintf("Managed update to %s: the control plane has updated longer than its maintenance window of %s", u.version(), text.Minutes(in.Config.ControlPlaneTime)),
		fmt.Sprintf("The control plane's update began at %s; its maintenance window (maintenance.controlPlaneTime), which silences the critical alerts it is expected to fire, ended at %s, so those alerts page again. The Managed Upgrade Operator records the timeout and keeps waiting for the control plane; it does not fail the update.",
			timestamp(start), timestamp(end)))}
}

// workerWindowOverrun reports worker nodes updating past the longest
// maintenance window the operator can have opened for them, the silence of
// the alerts they are expected to fire: then it records the timeout
// (metric upgradeoperator_worker_timeout) and goes on waiting
// (pkg/upgraders/workerstep.go). It opens that window when
// WorkersMaintenanceWindowCreated runs, for each worker then pending
// max(PDBForceDrainTimeout, nodeDrain.timeOut) and expectedNodeDrainTime
// (pkg/upgraders/maintenancestep.go). The UpgradeConfig does not record how
// many were pending: every node not a master stands in, so the window
// taken here ends no sooner than the operator's, and an overrun is
// reported late rather than wrongly.
func workerWindowOverrun(u update, in Input) []protocol.Insight {
	if u.phase() != upgradev1alpha1.PhaseUpgrading || in.WorkerNodes <= 0 {
		return nil
	}
	if c, ok := u.currentCondition(); !ok || c.Type != upgradev1alpha1.WorkerNodesUpgraded {
		return nil
	}
	created, ok := u.condition(upgradev1alpha1.WorkersMaintenanceWindowCreated)
	if !ok {
		return nil
	}
	opened, ok := timeOf(created.CompleteTime)
	if !ok {
		return nil
	}
	perNode := max(time.Duration(u.config.Spec.PDBForceDrainTimeout)*time.Minute, in.Config.NodeDrainTimeout) + in.Config.ExpectedNodeDrainTime
	end := opened.Add(time.Duration(in.WorkerNodes) * perNode)
	if perNode <= 0 || !in.Now.After(end) {
		return nil
	}
	return []protocol.Insight{insight(end, u.uid("worker-window-overrun"), controlPlane(u.resource()), protocol.LevelWarning, protocol.ImpactUpdateSpeed,
		fmt.Sprintf("Managed update to %s: the worker nodes have updated past their maintenance window", u.version()),
		fmt.Sprintf("The Managed Upgrade Operator opened the workers' maintenance window at %s, for at most %d workers of %s each; it ended by %s, so the alerts it silenced page again. The operator records the timeout and keeps waiting for the workers; it does not fail the update.",
			timestamp(opened), in.WorkerNodes, text.Minutes(perNode), timestamp(end)))}
}

// workerPhase is the update of the worker nodes, from the operator's
// workerStartTime, with an estimated finish from the worker phases of the
// earlier updates the history records.
func workerPhase(u update, now time.Time) []protocol.Insight {
	if u.phase() != upgradev1alpha1.PhaseUpgrading {
		return nil
	}
	start, ok := timeOf(u.history.WorkerStartTime)
	if !ok {
		return nil
	}
	if _, done := timeOf(u.history.WorkerCompleteTime); done {
		return nil
	}
	scope := protocol.Scope{Type: protocol.ScopeWorkerPool, WorkerPool: []protocol.Resource{pool("worker")}, Resources: []protocol.Resource{u.resource()}}
	summary := fmt.Sprintf("Managed update to %s: worker nodes updating for %s", u.version(), text.Minutes(max(now.Sub(start), 0)))
	description := "The earlier updates the UpgradeConfig records say nothing of how long the worker nodes take."
	d, n := workerDuration(u)
	var finish string
	if n > 0 {
		finish = finishAt(start.Add(d))
		description = fmt.Sprintf("Estimated to finish at %s: the median worker phase of the last %d updates took %s.", timestamp(start.Add(d)), n, text.Minutes(d))
	}
	i := insight(start, u.uid("workers"), scope, protocol.LevelStatus, "", summary, description)
	i.Remediation.EstimatedFinish = finish
	return []protocol.Insight{i}
}

// workerDuration is the median duration of the worker phases of the
// latest earlier updates, with how many it is the median of.
func workerDuration(u update) (time.Duration, int) {
	var ds []time.Duration
	for _, h := range u.config.Status.History {
		if h.Version == u.history.Version {
			continue
		}
		start, ok1 := timeOf(h.WorkerStartTime)
		end, ok2 := timeOf(h.WorkerCompleteTime)
		if !ok1 || !ok2 || end.Before(start) {
			continue
		}
		ds = append(ds, end.Sub(start))
		if len(ds) == maxWorkerSamples {
			break
		}
	}
	if len(ds) == 0 {
		return 0, 0
	}
	slices.Sort(ds)
	m := len(ds) / 2
	if len(ds)%2 == 0 {
		return (ds[m-1] + ds[m]) / 2, len(ds)
	}
	return ds[m], len(ds)
}
