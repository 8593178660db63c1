package health

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// Kinds of node and pool problems.
const (
	NodeDegraded       = "NodeDegraded"
	NodeUnavailable    = "NodeUnavailable"
	PausedPoolOutdated = "PausedPoolOutdated"
)

const (
	machineConfigOperatorDocs = "https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html#understanding-the-machine-config-operator"
	pausedPoolDocs            = "https://docs.openshift.com/container-platform/latest/support/troubleshooting/troubleshooting-operator-issues.html#troubleshooting-disabling-autoreboot-mco_troubleshooting-operator-issues"

	// NodeInsightPrefix starts the names of node and pool health insights.
	NodeInsightPrefix = "node-"
)

// unavailableGrace is how long a node that is not being updated may be
// unavailable, by reason, before it is a problem: a kubelet restart makes a
// node NotReady for a moment, while pressure or a missing network stops its
// workloads at once. Cordoned nodes and nodes the daemon is working on are
// not problems by themselves.
var unavailableGrace = map[string]time.Duration{
	insightsv1alpha1.NodeNotReady:           5 * time.Minute,
	insightsv1alpha1.NodeDiskPressure:       time.Minute,
	insightsv1alpha1.NodeNetworkUnavailable: time.Minute,
}

var unavailableSummary = map[string]string{
	insightsv1alpha1.NodeNotReady:           "Node %s is not ready",
	insightsv1alpha1.NodeDiskPressure:       "Node %s is under disk pressure",
	insightsv1alpha1.NodeNetworkUnavailable: "Node %s network is unavailable",
}

// NodeState is what a node's health insights are judged from beyond its
// insight status; the node assessment finds it.
type NodeState struct {
	// Updating is true while the node is on its way to the target version.
	Updating bool
	// Unavailable is why the node cannot run workloads, nil if it can.
	Unavailable *Unavailability
	// DegradedReason is the machine-config daemon's full reason when the
	// node is degraded.
	DegradedReason string
	// DrainBlocks are the pods that keep the node's drain from finishing,
	// while Drainer drains it.
	DrainBlocks []drain.Pod
	// Drainer drains the node; nil is the machine-config controller
	// (MachineConfigDrainer).
	Drainer *Drainer
}

// Unavailability is why a node cannot run workloads, and since when (zero
// when the node does not say).
type Unavailability struct {
	// Reason is the reason of the node insight's Available condition: its
	// first cause's.
	Reason string
	// Message names every cause.
	Message string
	// Condition is the node condition behind its first cause, if any.
	Condition *corev1.NodeCondition
	// Since is when its earliest cause began.
	Since time.Time
	// Causes are every cause, in order, when there are several; nil when
	// the fields above are its one cause.
	Causes []Unavailability
}

// Unavailable is a node unavailable for each of causes (at least one), in
// their order: named as `oc adm upgrade status` names them, joined by " | "
// (pkg/cli/admin/upgrade/status/mco/layered_node_state.go,
// GetUnavailableReason), since the earliest that says when it began
// (GetUnavailableSince).
func Unavailable(causes ...Unavailability) *Unavailability {
	if len(causes) == 1 {
		return &causes[0]
	}
	u := Unavailability{Reason: causes[0].Reason, Condition: causes[0].Condition, Causes: causes}
	messages := make([]string, 0, len(causes))
	for _, c := range causes {
		messages = append(messages, c.Message)
		if !c.Since.IsZero() && (u.Since.IsZero() || c.Since.Before(u.Since)) {
			u.Since = c.Since
		}
	}
	u.Message = strings.Join(messages, causeSeparator)
	return &u
}

// causeSeparator joins the causes of a node's unavailability, as
// `oc adm upgrade status` joins them.
const causeSeparator = " | "

// causes returns every cause of u.
func (u *Unavailability) causes() []Unavailability {
	if len(u.Causes) > 0 {
		return u.Causes
	}
	return []Unavailability{*u}
}

// ForNode returns the health insights of a node at now, from its insight
// status and state: degraded by its machine-config daemon, or unavailable
// for longer than its grace while not being updated. It also returns when
// they would next change by the passage of time alone, or the zero time.
func ForNode(s *insightsv1alpha1.NodeProgressInsightStatus, a *NodeState, now time.Time) ([]Insight, time.Time) {
	resources := []insightsv1alpha1.ResourceRef{nodeResource.ref(s.Name)}
	var insights []Insight
	if a.DegradedReason != "" {
		// The daemon's state annotation says nothing of when it turned.
		insights = append(insights, nodeInsight(NodeDegraded, s.ScopeType, resources, time.Time{},
			insightsv1alpha1.InsightImpact{
				Level:       insightsv1alpha1.ErrorImpactLevel,
				Type:        insightsv1alpha1.UpdateStalledImpactType,
				Summary:     text.OneLine(fmt.Sprintf("Node %s is degraded", s.Name), maxSummaryLength),
				Description: quoted(a.DegradedReason, "Node/"+s.Name+" annotation machineconfiguration.openshift.io/reason"),
			}, machineConfigOperatorDocs))
	}

	drainer := MachineConfigDrainer
	if a.Drainer != nil {
		drainer = *a.Drainer
	}
	drained, next := forDrain(s, drainer, a.DrainBlocks, now)
	insights = append(insights, drained...)
	if u := a.Unavailable; u != nil && !a.Updating {
		if reported, due := unavailableReported(s, u, now); reported {
			insights = append(insights, nodeInsight(NodeUnavailable, s.ScopeType, resources, u.Since,
				insightsv1alpha1.InsightImpact{
					Level:       insightsv1alpha1.WarningImpactLevel,
					Type:        insightsv1alpha1.UpdateSpeedImpactType,
					Summary:     text.OneLine(unavailableSummaryOf(u, s.Name), maxSummaryLength),
					Description: text.Truncate(unavailableDescription(u), maxDescriptionLength),
				}, machineConfigOperatorDocs))
		} else if !due.IsZero() {
			next = earliest(next, due)
		}
	}
	return insights, next
}

// unavailableReported says whether any cause of u has lasted past its
// grace, as `oc adm upgrade status` reports a node once any of its causes
// is serious (pkg/cli/admin/upgrade/status/mco/layered_node_state.go,
// SeriouslyUnavailable); if none has, it returns when the first will.
func unavailableReported(s *insightsv1alpha1.NodeProgressInsightStatus, u *Unavailability, now time.Time) (bool, time.Time) {
	var due time.Time
	for _, c := range u.causes() {
		grace, reported := unavailableGrace[c.Reason]
		if !reported {
			continue
		}
		started := c.Since
		if started.IsZero() {
			started = since(s, insightsv1alpha1.NodeProgressInsightAvailable)
		}
		if d := started.Add(grace); now.Before(d) {
			due = earliest(due, d)
		} else {
			return true, time.Time{}
		}
	}
	return false, due
}

// unavailableSummaryOf names every cause of u, in order.
func unavailableSummaryOf(u *Unavailability, node string) string {
	var parts []string
	for _, c := range u.causes() {
		if format, ok := unavailableSummary[c.Reason]; ok {
			parts = append(parts, fmt.Sprintf(format, node))
		} else {
			parts = append(parts, c.Message)
		}
	}
	return strings.Join(parts, causeSeparator)
}

func unavailableDescription(u *Unavailability) string {
	var parts []string
	for _, c := range u.causes() {
		switch {
		case c.Condition != nil:
			parts = append(parts, fmt.Sprintf("Node has a %s=%s condition with reason %q and message %q",
				c.Condition.Type, c.Condition.Status, c.Condition.Reason, c.Condition.Message))
		case c.Reason == insightsv1alpha1.NodeNotReady:
			parts = append(parts, "The node has not reported that it is Ready")
		default:
			parts = append(parts, c.Message)
		}
	}
	return strings.Join(parts, causeSeparator) + ". An unavailable node slows the update of its pool: the pool updates only so many unavailable nodes at a time."
}

// ForPool returns the health insights of a pool: outdated nodes that will
// not be updated because the pool is paused.
func ForPool(s *insightsv1alpha1.MachineConfigPoolProgressInsightStatus) []Insight {
	if s.Assessment != insightsv1alpha1.PoolExcluded {
		return nil
	}
	resources := []insightsv1alpha1.ResourceRef{PoolRef(s)}
	// A pool's spec.paused has no time.
	return []Insight{nodeInsight(PausedPoolOutdated, s.ScopeType, resources, time.Time{},
		insightsv1alpha1.InsightImpact{
			Level:       insightsv1alpha1.WarningImpactLevel,
			Type:        insightsv1alpha1.UpdateStalledImpactType,
			Summary:     text.OneLine(fmt.Sprintf("Outdated nodes in a paused pool '%s' will not be updated", s.Name), maxSummaryLength),
			Description: "Pool is paused, which stops all changes to the nodes in the pool, including updates. The nodes will not be updated until the pool is unpaused by the administrator.",
		}, pausedPoolDocs)}
}

// PoolResource refers to a MachineConfigPool from an insight.
func PoolResource(poolName string) insightsv1alpha1.ResourceRef {
	return machineConfigPoolResource.ref(poolName)
}

// PoolRef refers to the pool of a pool insight: the resource its status
// names (a HyperShift NodePool), or else the MachineConfigPool of its name.
func PoolRef(s *insightsv1alpha1.MachineConfigPoolProgressInsightStatus) insightsv1alpha1.ResourceRef {
	if s.Resource != nil {
		return *s.Resource
	}
	return PoolResource(s.Name)
}

// nodeInsight is a node or pool problem since startedAt, undated when zero.
func nodeInsight(problem string, scope insightsv1alpha1.ScopeType, resources []insightsv1alpha1.ResourceRef, startedAt time.Time, impact insightsv1alpha1.InsightImpact, reference string) Insight {
	return Insight{
		Name:    problemName(NodeInsightPrefix, problem, resources),
		Problem: problem,
		Undated: startedAt.IsZero(),
		Status: insightsv1alpha1.UpdateHealthInsightStatus{
			StartedAt:   metav1.NewTime(startedAt),
			Scope:       insightsv1alpha1.InsightScope{Type: scope, Resources: resources},
			Impact:      impact,
			Remediation: insightsv1alpha1.InsightRemediation{Reference: reference},
		},
	}
}

func since(s *insightsv1alpha1.NodeProgressInsightStatus, conditionType string) time.Time {
	return conditionSince(s.Conditions, conditionType)
}

func conditionSince(conditions []metav1.Condition, conditionType string) time.Time {
	if c := meta.FindStatusCondition(conditions, conditionType); c != nil {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}
