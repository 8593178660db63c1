package managedupgrade

import (
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// maxWorkerSamples bounds how many earlier updates' worker phases the
// estimate of this one's takes the median of: the recent ones say most
// about the cluster as it is.
const maxWorkerSamples = 5

// StatusInsights are the insights about the managed updates: one waiting
// for its window, the step and the worker phase of one running, what holds
// or failed it, and when the operator will force drains that
// PodDisruptionBudgets block. No UpgradeConfig, no insight.
func StatusInsights(in Input) []protocol.Insight {
	var out []protocol.Insight
	drainsReported := false
	for _, u := range updates(in.UpgradeConfigs) {
		if u.phase() == upgradev1alpha1.PhaseUpgraded {
			continue
		}
		out = append(out, awaitingWindow(u, in.Now)...)
		out = append(out, windowBreached(u, in)...)
		out = append(out, failed(u, in.Now)...)
		out = append(out, failingSteps(u, in.Now)...)
		out = append(out, currentStep(u, in)...)
		out = append(out, workerPhase(u, in.Now)...)
		// The operator drains for one update at a time: the nodes are
		// reported once, against the first update running.
		if u.phase() == upgradev1alpha1.PhaseUpgrading && !drainsReported {
			out = append(out, forcedDrains(u, in)...)
			drainsReported = true
		}
	}
	return out
}

// awaitingWindow holds the control plane until upgradeAt, so that
// UpdateStatus says the update awaits its window rather than that nothing
// happens; an upgradeAt that is no time is a warning, since then no one
// can tell when the update starts.
func awaitingWindow(u update, now time.Time) []protocol.Insight {
	if !u.notStarted() {
		return nil
	}
	if u.upgradeAtErr != nil {
		return []protocol.Insight{insight(u.since(now), u.uid("upgrade-at-invalid"), controlPlane(u.resource()), protocol.LevelWarning, protocol.ImpactUnknown,
			fmt.Sprintf("Managed update to %s has no valid start time", u.version()),
			fmt.Sprintf("The UpgradeConfig's %v, so when the Managed Upgrade Operator starts the update cannot be told.", u.upgradeAtErr))}
	}
	if !u.upgradeAt.After(now) {
		return nil
	}
	i := insight(u.since(now), u.uid("awaiting-window"), controlPlane(u.resource()), protocol.LevelStatus, protocol.ImpactAwaitingWindow,
		fmt.Sprintf("Managed update to %s scheduled for %s, in %s", u.version(), timestamp(u.upgradeAt), text.Minutes(u.upgradeAt.Sub(now))),
		"The Managed Upgrade Operator starts the update at the UpgradeConfig's upgradeAt, not before.")
	i.Remediation.EstimatedFinish = timestamp(u.upgradeAt)
	return []protocol.Insight{i}
}

// windowBreached reports an update that did not commence within the
// upgrade window: the operator gives it up rather than start it late. An
// update not yet started is measured from upgradeAt, as the operator's
// scheduler does for every upgrader; one started, from its start, as only
// the OSD upgrader does. Once the ClusterVersion update has commenced the
// window no longer applies.
func windowBreached(u update, in Input) []protocol.Insight {
	closed, since, ok := u.windowCloses(in.Config)
	if !ok || !in.Now.After(closed) {
		return nil
	}
	return []protocol.Insight{insight(closed, u.uid("window-breached"), controlPlane(u.resource()), protocol.LevelError, protocol.ImpactUpdateStalled,
		fmt.Sprintf("Managed update to %s will not start: its upgrade window closed at %s", u.version(), timestamp(closed)),
		fmt.Sprintf("The update did not commence within the upgrade window of %s after %s, so the Managed Upgrade Operator gives it up instead of starting it. A new schedule is needed to update the cluster.",
			text.Minutes(in.Config.UpgradeWindowTimeout), since))}
}

// windowCloses is when the update must have commenced by, with what the
// window is measured from; false when no window applies: the policy is
// off, the update is over or has commenced, or its start is not known.
func (u update) windowCloses(config Config) (time.Time, string, bool) {
	if config.UpgradeWindowTimeout <= 0 || u.done() || u.commenced() {
		return time.Time{}, "", false
	}
	switch start, started := u.startTime(); {
	case started && u.config.Spec.Type == upgradev1alpha1.UpgradeTypeOSD:
		return start.Add(config.UpgradeWindowTimeout), "its start at " + timestamp(start), true
	case !started && u.notStarted() && u.upgradeAtErr == nil:
		return u.upgradeAt.Add(config.UpgradeWindowTimeout), "its upgradeAt " + timestamp(u.upgradeAt), true
	}
	return time.Time{}, "", false
}

// commenced says the operator has set the ClusterVersion's desired
// release: UpgradeCommenced is True, or a step that follows it has begun.
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

// failed reports an update the operator gave up: its Failed phase or its
// FailedUpgrade condition.
func failed(u update, now time.Time) []protocol.Insight {
	c, hasCondition := u.condition(upgradev1alpha1.FailedUpgrade)
	if u.phase() != upgradev1alpha1.PhaseFailed && !hasCondition {
		return nil
	}
	var description []string
	if hasCondition {
		description = append(description, fmt.Sprintf("%s: %s", describe(c.Reason, "no reason given"), describe(c.Message, "no message")))
	}
	if commenced, ok := u.condition(upgradev1alpha1.UpgradeCommenced); !ok || commenced.Status != metav1.ConditionTrue {
		description = append(description, "The update had not commenced: the cluster still runs its version, and the Managed Upgrade Operator does not retry a failed update; a new schedule is needed.")
	} else {
		description = append(description, "The update had commenced, so the cluster may be part way to the new version.")
	}
	return []protocol.Insight{insight(u.since(now, c.LastTransitionTime, u.history.CompleteTime), u.uid("failed"), controlPlane(u.resource()), protocol.LevelError, protocol.ImpactUpdateStalled,
		fmt.Sprintf("Managed update to %s failed", u.version()), strings.Join(description, "\n"))}
}

// failingSteps are the steps whose condition is False for a reason other
// than being under way: the operator records a step not done yet as False
// too, with the message "<step> still in progress", and a step that hit an
// error with the error as its message.
func failingSteps(u update, now time.Time) []protocol.Insight {
	if u.history == nil {
		return nil
	}
	var out []protocol.Insight
	for _, c := range u.history.Conditions {
		if c.Status != metav1.ConditionFalse || c.Type == upgradev1alpha1.FailedUpgrade || inProgress(c) ||
			(strings.TrimSpace(c.Reason) == "" && strings.TrimSpace(c.Message) == "") {
			continue
		}
		description := fmt.Sprintf("Step %s of the managed update to %s is False: %s.", c.Type, u.version(), describe(c.Message, "no message"))
		if t, ok := timeOf(c.LastTransitionTime); ok {
			description += fmt.Sprintf(" Since %s.", timestamp(t))
		}
		description += " The Managed Upgrade Operator retries the step; the update does not go on until it passes."
		out = append(out, insight(u.since(now, c.LastTransitionTime, c.StartTime), u.uid("step-failing", string(c.Type)), controlPlane(u.resource()), protocol.LevelWarning, protocol.ImpactUpdateStalled,
			fmt.Sprintf("Managed update step %s: %s", c.Type, describe(c.Reason, c.Message)), description))
	}
	return out
}

// inProgress says a False condition only records a step not done yet.
func inProgress(c upgradev1alpha1.UpgradeCondition) bool {
	return c.Message == string(c.Type)+" still in progress"
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
// Awaiting Window insight until the upgrade window closes, and UpdateStatus
// says the update is pending and held, not that nothing happens.
func currentStep(u update, in Input) []protocol.Insight {
	if u.phase() != upgradev1alpha1.PhaseUpgrading {
		return nil
	}
	i := slices.IndexFunc(u.history.Conditions, func(c upgradev1alpha1.UpgradeCondition) bool {
		return c.Status != metav1.ConditionTrue && c.Type != upgradev1alpha1.FailedUpgrade
	})
	if i < 0 {
		return nil
	}
	c := u.history.Conditions[i]
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
	closes, _, windowed := u.windowCloses(in.Config)
	if !u.commenced() && (!windowed || !in.Now.After(closes)) {
		impact = protocol.ImpactAwaitingWindow
		description = strings.TrimSpace(description + "\nThe Managed Upgrade Operator sets the ClusterVersion's desired release once its pre-update steps pass.")
		// No estimated finish: the steps may pass at any time, and the
		// window's close is when the update is given up, not when it starts.
		if windowed {
			description += fmt.Sprintf(" If they have not passed when the upgrade window closes at %s, it gives the update up.", timestamp(closes))
		}
	}
	return []protocol.Insight{insight(u.since(in.Now, c.StartTime, c.LastTransitionTime, u.history.StartTime), u.uid("step", string(c.Type)),
		controlPlane(u.resource()), protocol.LevelStatus, impact, summary, description)}
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
		finish = timestamp(start.Add(d))
		description = fmt.Sprintf("Estimated to finish at %s: the median worker phase of the last %d updates took %s.", finish, n, text.Minutes(d))
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

// forcedDrains say when the operator will delete the pods of a node whose
// drain a PodDisruptionBudget blocks: PDBForceDrainTimeout (minutes) and
// then the expected node drain time after the drain started.
func forcedDrains(u update, in Input) []protocol.Insight {
	drains := slices.Clone(in.Drains)
	slices.SortFunc(drains, func(a, b NodeDrain) int { return strings.Compare(a.Node, b.Node) })
	var out []protocol.Insight
	for _, d := range drains {
		if !d.BlockedByPDB || d.Node == "" || d.Started.IsZero() {
			continue
		}
		wait := time.Duration(u.config.Spec.PDBForceDrainTimeout)*time.Minute + in.Config.ExpectedNodeDrainTime
		forced := d.Started.Add(wait)
		scope := protocol.Scope{Type: protocol.ScopeWorkerPool, Resources: []protocol.Resource{{Kind: "Node", Name: d.Node}, u.resource()}}
		if d.Pool != "" {
			scope.WorkerPool = []protocol.Resource{pool(d.Pool)}
		}
		when := "at " + timestamp(forced)
		if forced.After(in.Now) {
			when += ", in " + text.Minutes(forced.Sub(in.Now))
		}
		i := insight(d.Started, u.uid("force-drain", d.Node), scope, protocol.LevelWarning, protocol.ImpactApplicationAvailability,
			fmt.Sprintf("Node %s: a PodDisruptionBudget blocks its drain; the Managed Upgrade Operator forces it %s", d.Node, when),
			fmt.Sprintf("The drain started at %s. After the UpgradeConfig's PDBForceDrainTimeout (%d minutes) and the expected node drain time (%d minutes), the Managed Upgrade Operator deletes the node's pods whatever their PodDisruptionBudgets allow.",
				timestamp(d.Started), u.config.Spec.PDBForceDrainTimeout, int(in.Config.ExpectedNodeDrainTime.Minutes())))
		i.Remediation.EstimatedFinish = timestamp(forced)
		out = append(out, i)
	}
	return out
}
