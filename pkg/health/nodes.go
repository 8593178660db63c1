package health

import (
	"fmt"
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
	// while the machine-config controller drains it.
	DrainBlocks []drain.Pod
}

// Unavailability is why a node cannot run workloads, and since when (zero
// when the node does not say).
type Unavailability struct {
	// Reason is the reason of the node insight's Available condition.
	Reason  string
	Message string
	// Condition is the node condition behind it, if any.
	Condition *corev1.NodeCondition
	Since     time.Time
}

// ForNode returns the health insights of a node at now, from its insight
// status and state: degraded by its machine-config daemon, or unavailable
// for longer than its grace while not being updated. It also returns when
// they would next change by the passage of time alone, or the zero time.
func ForNode(s *insightsv1alpha1.NodeProgressInsightStatus, a *NodeState, now time.Time) ([]Insight, time.Time) {
	resources := []insightsv1alpha1.ResourceRef{nodeResource.ref(s.Name)}
	var insights []Insight
	if a.DegradedReason != "" {
		insights = append(insights, nodeInsight(NodeDegraded, s.ScopeType, resources, since(s, insightsv1alpha1.NodeProgressInsightDegraded),
			insightsv1alpha1.InsightImpact{
				Level:       insightsv1alpha1.ErrorImpactLevel,
				Type:        insightsv1alpha1.UpdateStalledImpactType,
				Summary:     text.OneLine(fmt.Sprintf("Node %s is degraded", s.Name), maxSummaryLength),
				Description: text.Truncate(a.DegradedReason, maxDescriptionLength),
			}, machineConfigOperatorDocs))
	}

	drained, next := forDrain(s, a.DrainBlocks, now)
	insights = append(insights, drained...)
	if u := a.Unavailable; u != nil && !a.Updating {
		if grace, reported := unavailableGrace[u.Reason]; reported {
			started := u.Since
			if started.IsZero() {
				started = since(s, insightsv1alpha1.NodeProgressInsightAvailable)
			}
			if due := started.Add(grace); now.Before(due) {
				next = earliest(next, due)
			} else {
				insights = append(insights, nodeInsight(NodeUnavailable, s.ScopeType, resources, started,
					insightsv1alpha1.InsightImpact{
						Level:       insightsv1alpha1.WarningImpactLevel,
						Type:        insightsv1alpha1.UpdateSpeedImpactType,
						Summary:     text.OneLine(fmt.Sprintf(unavailableSummary[u.Reason], s.Name), maxSummaryLength),
						Description: text.Truncate(unavailableDescription(u), maxDescriptionLength),
					}, machineConfigOperatorDocs))
			}
		}
	}
	return insights, next
}

func unavailableDescription(u *Unavailability) string {
	if u.Condition == nil {
		return "The node has not reported that it is Ready. An unavailable node slows the update of its pool: the pool updates only so many unavailable nodes at a time."
	}
	return fmt.Sprintf("Node has a %s=%s condition with reason %q and message %q. An unavailable node slows the update of its pool: the pool updates only so many unavailable nodes at a time.",
		u.Condition.Type, u.Condition.Status, u.Condition.Reason, u.Condition.Message)
}

// ForPool returns the health insights of a pool: outdated nodes that will
// not be updated because the pool is paused.
func ForPool(s *insightsv1alpha1.MachineConfigPoolProgressInsightStatus) []Insight {
	if s.Assessment != insightsv1alpha1.PoolExcluded {
		return nil
	}
	resources := []insightsv1alpha1.ResourceRef{PoolRef(s)}
	return []Insight{nodeInsight(PausedPoolOutdated, s.ScopeType, resources, conditionSince(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating),
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

func nodeInsight(problem string, scope insightsv1alpha1.ScopeType, resources []insightsv1alpha1.ResourceRef, startedAt time.Time, impact insightsv1alpha1.InsightImpact, reference string) Insight {
	return Insight{
		Name:    problemName(NodeInsightPrefix, problem, resources),
		Problem: problem,
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
