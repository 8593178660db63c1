package statusview

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// Node assessments, as a client reads them from a node insight's conditions.
const (
	NodeDegraded    = "Degraded"
	NodeUnavailable = "Unavailable"
	NodeProgressing = "Progressing"
	NodeOutdated    = "Outdated"
	NodeExcluded    = "Excluded"
	NodeCompleted   = "Completed"
	NodeUnknown     = "Unknown"
	// NodeBehind is a NodePool's node behind the control plane that
	// nothing updates: not Outdated, which reads as an update to come.
	NodeBehind = "Behind"
)

// nodeRank orders the node tables: the nodes that need attention first.
var nodeRank = map[string]int{
	NodeDegraded:    0,
	NodeUnavailable: 1,
	NodeProgressing: 2,
	NodeUnknown:     3,
	NodeOutdated:    4,
	NodeBehind:      5,
	NodeExcluded:    5,
	NodeCompleted:   6,
}

// phases are how the reference words a node's Updating reason. A reason not
// here, CannotDetermine included, reads Unknown: the reference would say
// Pending, which the insight does not know.
var phases = map[string]string{
	insightsv1alpha1.NodeDraining:  "Draining",
	insightsv1alpha1.NodeUpdating:  "Updating",
	insightsv1alpha1.NodeRebooting: "Rebooting",
	insightsv1alpha1.NodePaused:    "Paused",
	insightsv1alpha1.NodePending:   "Pending",
	insightsv1alpha1.NodeCompleted: "Updated",
	insightsv1alpha1.NodeBehind:    "Behind",
}

// NodeOf returns a node insight as the node tables show it.
func NodeOf(s *insightsv1alpha1.NodeProgressInsightStatus) Node {
	updating := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
	n := Node{
		Name:                s.Name,
		Phase:               NodeUnknown,
		Version:             s.Version,
		EstimatedToComplete: s.EstimatedToComplete,
		Message:             s.Message,
		Available:           !meta.IsStatusConditionFalse(s.Conditions, insightsv1alpha1.NodeProgressInsightAvailable),
	}
	if updating != nil {
		if phase, ok := phases[updating.Reason]; ok {
			n.Phase = phase
		}
	}
	switch {
	case meta.IsStatusConditionTrue(s.Conditions, insightsv1alpha1.NodeProgressInsightDegraded):
		n.Assessment = NodeDegraded
	case !n.Available && (updating == nil || updating.Status != metav1.ConditionTrue):
		// An updating node is expected to be unavailable for a while.
		n.Assessment = NodeUnavailable
	case updating == nil:
		n.Assessment = NodeUnknown
	case updating.Reason == insightsv1alpha1.NodePaused:
		n.Assessment = NodeExcluded
	case updating.Status == metav1.ConditionTrue:
		n.Assessment = NodeProgressing
	case updating.Reason == insightsv1alpha1.NodeCompleted:
		n.Assessment = NodeCompleted
	case updating.Reason == insightsv1alpha1.NodeBehind:
		n.Assessment = NodeBehind
	default:
		n.Assessment = NodeOutdated
	}
	return n
}

// updated says whether the node is at the target: its phase, not its
// assessment, which may be Degraded or Unavailable.
func (n *Node) updated() bool { return n.Phase == phases[insightsv1alpha1.NodeCompleted] }

func (n *Node) progressing() bool {
	switch n.Phase {
	case phases[insightsv1alpha1.NodeDraining], phases[insightsv1alpha1.NodeUpdating], phases[insightsv1alpha1.NodeRebooting]:
		return true
	}
	return false
}

// Estimate is the node's EST column: how long until it is updated while it
// updates, - once it is, while its pool is paused or while nothing updates
// it (Behind), ? when not known. A node of a paused pool that is degraded or
// unavailable reads ?, as in `oc adm upgrade status`
// (pkg/cli/admin/upgrade/status/workerpool.go, assessNodesStatus): when it
// will be updated depends on more than the pause.
func (n *Node) Estimate() string {
	switch {
	case n.EstimatedToComplete != nil:
		return "+" + shortDuration(n.EstimatedToComplete.Duration)
	case n.Phase == phases[insightsv1alpha1.NodeCompleted] || n.Assessment == NodeExcluded ||
		n.Phase == phases[insightsv1alpha1.NodeBehind]:
		return "-"
	}
	return unknown
}

// countNodes counts nodes the way the reference counts the rows it omits.
func countNodes(nodes []Node) NodeCounts {
	var c NodeCounts
	for i := range nodes {
		n := &nodes[i]
		c.Total++
		if n.Available {
			c.Available++
		}
		if n.progressing() {
			c.Progressing++
		}
		if !n.updated() {
			c.Outdated++
		}
		if n.Phase == phases[insightsv1alpha1.NodeDraining] {
			c.Draining++
		}
		if n.Phase == phases[insightsv1alpha1.NodePaused] {
			c.Excluded++
		}
		if n.Assessment == NodeDegraded {
			c.Degraded++
		}
	}
	return c
}

func sortNodes(nodes []Node) {
	slices.SortFunc(nodes, func(a, b Node) int {
		if ra, rb := nodeRank[a.Assessment], nodeRank[b.Assessment]; ra != rb {
			return ra - rb
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// PoolEmpty is the assessment status gives a worker pool without nodes:
// its insight, with nothing to update, says Completed.
const PoolEmpty insightsv1alpha1.PoolAssessment = "Empty"

// pools returns the control plane's pool and the worker pools, those
// without nodes assessed Empty. A pool known only from its nodes' insights
// is shown too, with counts taken from the nodes.
func pools(mcps []*insightsv1alpha1.MachineConfigPoolProgressInsight, npis []*insightsv1alpha1.NodeProgressInsight) (*Pool, []Pool) {
	byName := map[string]*Pool{}
	scopes := map[string]insightsv1alpha1.ScopeType{}
	summarized := map[string]bool{}
	pool := func(name string) *Pool {
		if byName[name] == nil {
			byName[name] = &Pool{Name: name, Nodes: []Node{}}
		}
		return byName[name]
	}
	for _, mcp := range mcps {
		s := &mcp.Status
		name := s.Name
		if name == "" {
			name = mcp.Name
		}
		p := pool(name)
		p.Assessment, p.CompletionPercent = s.Assessment, s.CompletionPercent
		if hosted.IsNodePool(s.Resource) {
			p.Kind = KindNodePool
		}
		c := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating)
		if c != nil && c.Status == metav1.ConditionFalse && c.Reason == insightsv1alpha1.MachineConfigPoolRollingOutConfiguration {
			p.ConfigurationRollout = c.Message
		}
		// The NodePool controller says so in the Healthy condition
		// (pkg/assessment/nodepools, pool.go status), beside its Error
		// health insight.
		if h := meta.FindStatusCondition(s.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightHealthy); h != nil &&
			h.Status == metav1.ConditionFalse && h.Reason == reasonBeyondSupportedSkew {
			p.BeyondSupportedSkew = h.Message
		}
		if s.Assessment == insightsv1alpha1.PoolBehind {
			p.Behind = "none of its nodes is updating"
			if c != nil && c.Message != "" {
				p.Behind = c.Message
			}
		}
		p.ImageBuild = s.ImageBuild
		scopes[name] = s.ScopeType
		if len(s.Summaries) > 0 {
			p.Summary, summarized[name] = summaryOf(s.Summaries), true
		}
	}
	for _, npi := range npis {
		name := npi.Status.PoolResource.Name
		p := pool(name)
		if hosted.IsNodePool(&npi.Status.PoolResource) {
			p.Kind = KindNodePool
		}
		p.Nodes = append(p.Nodes, NodeOf(&npi.Status))
		if _, known := scopes[name]; !known {
			scopes[name] = npi.Status.ScopeType
		}
	}

	var controlPlane *Pool
	workers := []Pool{}
	for _, name := range slices.SortedFunc(maps.Keys(byName), comparePools) {
		p := byName[name]
		sortNodes(p.Nodes)
		if !summarized[name] {
			p.Summary = countNodes(p.Nodes)
		}
		switch {
		case scopes[name] == insightsv1alpha1.ScopeTypeControlPlane && controlPlane == nil:
			controlPlane = p
		case p.Summary.Total > 0 || len(p.Nodes) > 0:
			workers = append(workers, *p)
		case summarized[name]:
			// A pool whose insight counts no node (a custom
			// MachineConfigPool whose selector matches none) is listed
			// Empty, as `oc adm upgrade status` lists it
			// (pkg/cli/admin/upgrade/status/workerpool.go, writePools),
			// so that the administrator sees the pool exists and holds
			// nothing to update.
			p.Assessment = PoolEmpty
			workers = append(workers, *p)
		}
	}
	return controlPlane, workers
}

// comparePools orders the worker pools, their table's rows and their node
// tables alike. The reference prints them in the order it reads the
// MachineConfigPools, which in its recorded case with several pools puts
// worker first; insights come in no such order, so the default worker pool,
// which holds the nodes no custom pool claims, goes first, then the custom
// pools by name.
func comparePools(a, b string) int {
	if aDefault, bDefault := a == names.WorkerPool, b == names.WorkerPool; aDefault != bDefault {
		if aDefault {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

func summaryOf(summaries []insightsv1alpha1.NodeSummary) NodeCounts {
	var c NodeCounts
	counts := map[insightsv1alpha1.NodeSummaryType]*int32{
		insightsv1alpha1.NodesTotal:       &c.Total,
		insightsv1alpha1.NodesAvailable:   &c.Available,
		insightsv1alpha1.NodesProgressing: &c.Progressing,
		insightsv1alpha1.NodesOutdated:    &c.Outdated,
		insightsv1alpha1.NodesDraining:    &c.Draining,
		insightsv1alpha1.NodesExcluded:    &c.Excluded,
		insightsv1alpha1.NodesDegraded:    &c.Degraded,
	}
	for _, s := range summaries {
		if count, ok := counts[s.Type]; ok {
			*count = s.Count
		}
	}
	return c
}

// completed says whether the pool has nothing left to update: as its
// insight says, or, without one, when every node is updated. A NodePool
// Behind the control plane has none of its nodes updating, and no update
// the cluster can see: NodePools are updated apart from the control plane.
func (p *Pool) completed() bool {
	if p.Assessment != "" {
		return p.Assessment == insightsv1alpha1.PoolCompleted || p.Assessment == insightsv1alpha1.PoolBehind ||
			p.Assessment == PoolEmpty
	}
	return countNodes(p.Nodes).Outdated == 0
}

// KindNodePool is the Kind of a pool that is a HyperShift NodePool.
const KindNodePool = "NodePool"

// kindWord names the pool's kind in the text.
func (p *Pool) kindWord() string {
	if p.Kind != "" {
		return p.Kind
	}
	return "MachineConfigPool"
}

// reasonBeyondSupportedSkew is the reason of a NodePool's Healthy
// condition beyond the supported version skew (nodepools.
// PoolReasonBeyondSupportedSkew; statusview reads insights, not the
// assessment).
const reasonBeyondSupportedSkew = "BeyondSupportedSkew"

// behindLines say that a NodePool runs behind the control plane, and how
// far, in its insight's words, then, beyond the supported skew, the error
// in plain words: the limit is not left for the reader to compare.
func (p *Pool) behindLines() string {
	var b strings.Builder
	if p.Behind != "" {
		fmt.Fprintf(&b, "%s %s is behind the control plane: %s\n", p.kindWord(), p.Name, strings.TrimSuffix(p.Behind, "\n"))
	}
	if p.BeyondSupportedSkew != "" {
		fmt.Fprintf(&b, "Error: %s\n", strings.TrimSuffix(p.BeyondSupportedSkew, "\n"))
	}
	return b.String()
}

// imageBuildLine says where an image-mode pool's OS image build stands
// while the pool has nodes to update: its nodes take the update only once
// the image is built (pkg/assessment/imagemode), so a pool that waits on
// its build is not left to read as Pending with no reason.
func (p *Pool) imageBuildLine(now time.Time) string {
	ib := p.ImageBuild
	// A built image is news only while the nodes take it: before the
	// update reaches the pool, it is the image its nodes run.
	if ib == nil || p.completed() || ib.State == insightsv1alpha1.ImageBuildSucceeded && p.Assessment != insightsv1alpha1.PoolProgressing {
		return ""
	}
	var when []string
	if ib.Since != nil {
		when = append(when, "since "+ib.Since.UTC().Format(time.RFC3339)+" ("+since(ib.Since, now)+")")
	}
	if ib.EstimatedToComplete != nil {
		when = append(when, "about "+shortDuration(ib.EstimatedToComplete.Duration)+" left by its past builds")
	}
	head := fmt.Sprintf("%s %s: OS image build %s", p.kindWord(), p.Name, ib.State)
	if len(when) > 0 {
		head += " " + strings.Join(when, ", ")
	}
	if ib.Message == "" {
		return head + "\n"
	}
	return head + ": " + strings.TrimSuffix(ib.Message, "\n") + "\n"
}
