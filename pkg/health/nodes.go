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
	// NodePinnedImageSetsDegraded is a node whose machine-config daemon
	// reports on its MachineConfigNode that it cannot pull and pin the
	// images of its PinnedImageSets.
	NodePinnedImageSetsDegraded = "NodePinnedImageSetsDegraded"
)

const (
	machineConfigOperatorDocs = "https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html#understanding-the-machine-config-operator"
	pausedPoolDocs            = "https://docs.openshift.com/container-platform/latest/support/troubleshooting/troubleshooting-operator-issues.html#troubleshooting-disabling-autoreboot-mco_troubleshooting-operator-issues"
	pinnedImageSetDocs        = "https://docs.redhat.com/en/documentation/openshift_container_platform/4.20/html/machine_apis/pinnedimageset-machineconfiguration-openshift-io-v1"

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
	// DegradedOnMachineConfigNode says DegradedReason is the message of
	// the NodeDegraded condition of the node's MachineConfigNode, not the
	// daemon's reason annotation on the node: where the whole reason is
	// when a text quoting it has to be cut.
	DegradedOnMachineConfigNode bool
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
	// PinnedImageSetsDegraded is the node's MachineConfigNode reporting
	// PinnedImageSetsDegraded True, nil while it does not.
	PinnedImageSetsDegraded *PinnedImageSetsDegraded
}

// PinnedImageSetsDegraded is a PinnedImageSetsDegraded True condition on a
// node's MachineConfigNode, as the machine-config daemon's pinned image set
// manager writes it when it fails to prefetch and pin the images
// (machine-config-operator pkg/daemon/pinned_image_set.go, updateStatusError:
// reason PrefetchFailed, "One or more PinnedImageSet is experiencing an
// error. See PinnedImageSet list for more details.").
type PinnedImageSetsDegraded struct {
	// Message is the condition's message.
	Message string
	// Since is the condition's lastTransitionTime. The pinned image
	// conditions are the upgrade monitor's singletons, written anew at each
	// report (pkg/upgrademonitor/upgrade_monitor.go,
	// generateAndApplyMachineConfigNodes): it is when the daemon last
	// reported the failure.
	Since time.Time
	// Sets are the PinnedImageSets the MachineConfigNode names as failing,
	// in its order: those of status.pinnedImageSets with a failed generation
	// they have not since pinned, or that the message names.
	Sets []PinnedImageSet
}

// PinnedImageSet is a PinnedImageSet a node fails to pin, with the error
// its MachineConfigNode gives (lastFailedGenerationError), if any.
type PinnedImageSet struct {
	Name, Error string
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
				Description: quoted(a.DegradedReason, degradedWhere(s.Name, a)),
			}, machineConfigOperatorDocs))
	}
	if p := a.PinnedImageSetsDegraded; p != nil && (a.Updating || outdated(s)) {
		insights = append(insights, pinnedImageSetsInsight(s, resources, p))
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

// degradedWhere is where the whole reason of a degraded node is.
func degradedWhere(node string, a *NodeState) string {
	return DegradedWhere(node, a.DegradedOnMachineConfigNode)
}

// DegradedWhere is where the whole reason of a degraded node is: the
// daemon's reason annotation on the node, or the NodeDegraded condition of
// its MachineConfigNode.
func DegradedWhere(node string, onMachineConfigNode bool) string {
	if onMachineConfigNode {
		return "MachineConfigNode/" + node + " status.conditions[NodeDegraded]"
	}
	return "Node/" + node + " annotation machineconfiguration.openshift.io/reason"
}

// outdated says the node's insight has it short of the target version and
// waiting in its pool (Pending, or Paused with its pool): the pool still
// has this node to update.
func outdated(s *insightsv1alpha1.NodeProgressInsightStatus) bool {
	c := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
	return c != nil && c.Status == metav1.ConditionFalse &&
		(c.Reason == insightsv1alpha1.NodePending || c.Reason == insightsv1alpha1.NodePaused)
}

// pinnedImageSetsInsight is a node that fails to pin its PinnedImageSets'
// images during an update, since the daemon last reported it. A Warning
// that slows the update, not an Error that stalls it: the images the node
// has not pinned are pulled when the update needs them, and the
// machine-config operator does not yet degrade a pool on the condition (its
// node controller's calculateStatus, pkg/controller/node/status.go, leaves
// PinnedImageSetsDegraded out until the condition stops being set for
// images that merely take long to fetch, OCPBUGS-32745 and OCPBUGS-57177).
func pinnedImageSetsInsight(s *insightsv1alpha1.NodeProgressInsightStatus, resources []insightsv1alpha1.ResourceRef, p *PinnedImageSetsDegraded) Insight {
	names := make([]string, len(p.Sets))
	for i, set := range p.Sets {
		names[i] = set.Name
	}
	summary := fmt.Sprintf("Node %s cannot pin the images of its PinnedImageSets", s.Name)
	switch len(names) {
	case 0:
	case 1:
		summary = fmt.Sprintf("Node %s cannot pin the images of PinnedImageSet %s", s.Name, names[0])
	default:
		summary = fmt.Sprintf("Node %s cannot pin the images of PinnedImageSets %s", s.Name, strings.Join(names, ", "))
	}
	return nodeInsight(NodePinnedImageSetsDegraded, s.ScopeType, resources, p.Since,
		insightsv1alpha1.InsightImpact{
			Level:       insightsv1alpha1.WarningImpactLevel,
			Type:        insightsv1alpha1.UpdateSpeedImpactType,
			Summary:     text.OneLine(summary, maxSummaryLength),
			Description: text.Truncate(pinnedImageSetsDescription(s.Name, p, names), maxDescriptionLength),
		}, pinnedImageSetDocs)
}

// maxPinnedQuote bounds each text a pinned image set insight quotes.
const maxPinnedQuote = 2048

// pinnedImageSetsDescription quotes the condition and the failed sets'
// errors, and says what to look at. It states a time, not how long: the
// insight is written once and read for as long as it stands.
func pinnedImageSetsDescription(node string, p *PinnedImageSetsDegraded, names []string) string {
	var b strings.Builder
	b.WriteString("The machine-config daemon reports PinnedImageSetsDegraded on MachineConfigNode " + node)
	if !p.Since.IsZero() {
		b.WriteString(", last at " + p.Since.UTC().Format(time.RFC3339))
	}
	// The texts quoted are bounded so that what to do always follows them.
	fmt.Fprintf(&b, ": %q.", text.Cut(p.Message, maxPinnedQuote, "MachineConfigNode/"+node+" status.conditions[PinnedImageSetsDegraded]"))
	for _, set := range p.Sets {
		if set.Error != "" {
			fmt.Fprintf(&b, " PinnedImageSet %s: %q.", set.Name,
				text.Cut(set.Error, maxPinnedQuote, "MachineConfigNode/"+node+" status.pinnedImageSets["+set.Name+"]"))
		}
	}
	b.WriteString(" The images the node has not pinned are not kept on it: the update pulls them when it needs them, which takes longer, " +
		"and fails where the node cannot reach their registry. The machine-config operator does not yet degrade the pool for this " +
		"(the condition is also set for images that only take long to fetch), and the daemon keeps retrying.")
	b.WriteString(" See which images fail and why: oc describe machineconfignode " + node)
	if len(names) > 0 {
		b.WriteString(" and oc describe pinnedimageset " + strings.Join(names, " "))
	} else {
		b.WriteString(" and oc get pinnedimagesets")
	}
	b.WriteString(".")
	return b.String()
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
