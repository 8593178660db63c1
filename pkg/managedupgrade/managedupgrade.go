// Package managedupgrade turns the Managed Upgrade Operator's UpgradeConfigs
// into UpdateInformer insights: when a managed update is scheduled, which of
// its steps runs, what holds it, and, for an UpdatePlan, whether a managed
// update is scheduled beside the planned one. It reads no cluster and no
// clock: the informer that serves these insights fills an Input.
package managedupgrade

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// What the aggregator keeps of an insight's strings (contract.md).
const (
	maxSummaryLength     = 256
	maxDescriptionLength = 4096
)

// Input is what the insights are made of.
type Input struct {
	// UpgradeConfigs are those of the operator's namespace; none when the
	// cluster has none or does not serve the kind. The operator runs the
	// one named managed-upgrade-config alone, and the
	// insights say nothing of the others.
	UpgradeConfigs []*upgradev1alpha1.UpgradeConfig
	// Drains are the worker nodes being drained for the update.
	Drains []NodeDrain
	// WorkerNodes counts the nodes not labelled master: at least the
	// worker pool's machines, the most that can have been pending when the
	// operator opened the workers' maintenance window.
	WorkerNodes int
	// Config is the Managed Upgrade Operator's configuration, from its
	// ConfigMap.
	Config Config
	// Now is when the insights are made: their acquisition time.
	Now time.Time
}

// NodeDrain is a worker node being drained for the update.
type NodeDrain struct {
	Node string
	// Pool is the node's MachineConfigPool, empty when not known.
	Pool string
	// Started is when the drain started (the node was cordoned).
	Started time.Time
	// Blocking are the pods whose eviction PodDisruptionBudgets refuse, as
	// the drain model says: the drain waits for them.
	Blocking []BlockingPod
	// PDBPods says the node has pods the operator counts a
	// PodDisruptionBudget's, whose deletion it delays longest.
	PDBPods bool
}

// BlockingPod is a pod that keeps a node from draining.
type BlockingPod struct {
	Namespace, Name string
	// Reason is why the eviction API refuses it: drain.BudgetAtLimit,
	// drain.MultipleBudgets, drain.BudgetNotSynced.
	Reason drain.Reason
	// PDBPod says the Managed Upgrade Operator counts it a
	// PodDisruptionBudget's pod, and so deletes it after the UpgradeConfig's
	// PDBForceDrainTimeout and the expected node drain time rather than
	// after nodeDrain.timeOut.
	PDBPod bool
	// DaemonSetOwned says an owner of the pod is a DaemonSet: the operator
	// never deletes it.
	DaemonSetOwned bool
}

// update is one UpgradeConfig with what the insights read of it.
type update struct {
	config *upgradev1alpha1.UpgradeConfig
	// history is the entry of the desired version; nil before the operator
	// wrote one.
	history *upgradev1alpha1.UpgradeHistory
	// upgradeAt is spec.upgradeAt; zero, with upgradeAtErr, when it is not
	// an RFC 3339 time.
	upgradeAt    time.Time
	upgradeAtErr error
}

// updates are the UpgradeConfigs the operator runs, in a stable order, by
// namespace and name.
func updates(configs []*upgradev1alpha1.UpgradeConfig) []update {
	var out []update
	for _, c := range configs {
		if c == nil || c.Name != upgradev1alpha1.DefaultName {
			continue
		}
		u := update{config: c, history: historyOf(c)}
		u.upgradeAt, u.upgradeAtErr = time.Parse(time.RFC3339, c.Spec.UpgradeAt)
		if u.upgradeAtErr != nil {
			u.upgradeAtErr = fmt.Errorf("upgradeAt %q is not an RFC 3339 time", c.Spec.UpgradeAt)
		}
		out = append(out, u)
	}
	slices.SortFunc(out, func(a, b update) int {
		return cmp.Or(strings.Compare(a.config.Namespace, b.config.Namespace), strings.Compare(a.config.Name, b.config.Name))
	})
	return out
}

// historyOf is the history entry of the desired version, as the operator
// finds it: the first of that version.
func historyOf(c *upgradev1alpha1.UpgradeConfig) *upgradev1alpha1.UpgradeHistory {
	for i := range c.Status.History {
		if c.Status.History[i].Version == c.Spec.Desired.Version {
			return &c.Status.History[i]
		}
	}
	return nil
}

func (u update) phase() upgradev1alpha1.UpgradePhase {
	if u.history == nil {
		return ""
	}
	return u.history.Phase
}

// notStarted says the operator has not begun running the update's steps.
func (u update) notStarted() bool {
	switch u.phase() {
	case "", upgradev1alpha1.PhaseNew, upgradev1alpha1.PhasePending:
		return true
	}
	return false
}

// done says the operator is finished with the update, one way or another.
func (u update) done() bool {
	return u.phase() == upgradev1alpha1.PhaseUpgraded || u.phase() == upgradev1alpha1.PhaseFailed
}

// condition is the history's condition of that type, if any.
func (u update) condition(t upgradev1alpha1.UpgradeConditionType) (upgradev1alpha1.UpgradeCondition, bool) {
	if u.history == nil {
		return upgradev1alpha1.UpgradeCondition{}, false
	}
	for _, c := range u.history.Conditions {
		if c.Type == t {
			return c, true
		}
	}
	return upgradev1alpha1.UpgradeCondition{}, false
}

// currentCondition is the condition of the step the operator is on: the
// first not complete, as it puts the newest first.
func (u update) currentCondition() (upgradev1alpha1.UpgradeCondition, bool) {
	if u.history == nil {
		return upgradev1alpha1.UpgradeCondition{}, false
	}
	for _, c := range u.history.Conditions {
		if c.Status != metav1.ConditionTrue {
			return c, true
		}
	}
	return upgradev1alpha1.UpgradeCondition{}, false
}

// version names the desired version in a sentence.
func (u update) version() string {
	desired := u.config.Spec.Desired
	if v := strings.TrimSpace(desired.Version); v != "" {
		return v
	}
	if desired.Image != "" {
		return "release image " + desired.Image
	}
	return "an unnamed version"
}

// resource is the UpgradeConfig as an insight names it.
func (u update) resource() protocol.Resource {
	return protocol.Resource{Group: upgradev1alpha1.GroupName, Kind: "UpgradeConfig", Namespace: u.config.Namespace, Name: u.config.Name}
}

// uid identifies an insight of kind what about this UpgradeConfig's update
// to its desired version and the given details (a step, a node). The
// details are hashed: they are the CR's strings, of any length, and the
// protocol bounds a uid to 256 characters.
func (u update) uid(what string, details ...string) string {
	parts := append([]string{u.config.Namespace, u.config.Name, u.config.Spec.Desired.Version}, details...)
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return what + "/" + hex.EncodeToString(sum[:8])
}

// since is when what an insight reports began, its acquisition time: the
// first of these times that is set, else when the UpgradeConfig was
// created, else now. A time of the situation, not of the call, keeps an
// unchanged situation an unchanged insight, so the aggregator does not
// rewrite UpdateStatus at every poll.
func (u update) since(now time.Time, times ...*metav1.Time) time.Time {
	for _, t := range times {
		if t, ok := timeOf(t); ok {
			return t
		}
	}
	if created := u.config.CreationTimestamp; !created.IsZero() {
		return created.Time
	}
	return now
}

// insight makes an insight acquired at acquired, with its strings bounded
// as the aggregator keeps them.
//
// An UpgradeConfig's upgradeAt may be any RFC 3339 time, which the
// operator parses and waits for (or, in year 0, starts at once): one out of
// the range the API stores (protocol.CheckTime) is no acquisition time,
// and no estimated finish (finishAt), rather than a time that would make
// the whole answer invalid.
func insight(acquired time.Time, uid string, scope protocol.Scope, level protocol.Level, impact protocol.ImpactType, summary, description string) protocol.Insight {
	var at *metav1.Time
	if protocol.CheckTime(acquired) == nil {
		t := metav1.NewTime(acquired.Truncate(time.Second))
		at = &t
	}
	return protocol.Insight{
		UID:             uid,
		AcquisitionTime: at,
		Scope:           scope,
		Impact: protocol.Impact{
			Level:       level,
			Type:        impact,
			Summary:     text.OneLine(summary, maxSummaryLength),
			Description: text.Truncate(description, maxDescriptionLength),
		},
	}
}

func controlPlane(resources ...protocol.Resource) protocol.Scope {
	return protocol.Scope{Type: protocol.ScopeControlPlane, Resources: resources}
}

// pool is a MachineConfigPool as a worker pool scope names it.
func pool(name string) protocol.Resource {
	return protocol.Resource{Group: "machineconfiguration.openshift.io", Kind: "MachineConfigPool", Name: name}
}

// finishAt is an insight's estimatedFinish at t, or none when the API
// could not store t.
func finishAt(t time.Time) string {
	if protocol.CheckTime(t) != nil {
		return ""
	}
	return timestamp(t)
}

// timestamp prints a time as the UpgradeConfig does, in UTC.
func timestamp(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}

// timeOf is a condition time, nil when absent or zero.
func timeOf(t *metav1.Time) (time.Time, bool) {
	if t == nil || t.IsZero() {
		return time.Time{}, false
	}
	return t.Time, true
}
