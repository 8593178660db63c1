package updaterecord

import (
	"sort"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// nodePhases are the phases of a node's update the Node insight names in
// its Updating condition's reason (pkg/assessment/nodes), in order.
var nodePhases = []string{insightsv1alpha1.NodeDraining, insightsv1alpha1.NodeUpdating, insightsv1alpha1.NodeRebooting}

func isPhase(reason string) bool {
	for _, p := range nodePhases {
		if p == reason {
			return true
		}
	}
	return false
}

// pools are the record's pools at now, from the Node insights and the
// pools' insights. A node is timed from its Updating condition turning
// True (which the Node insight dates) to its turning False with reason
// Completed; its phases are timed by their sight, since the insight dates
// only the condition's status. A node whose start was not seen is counted
// updated, and not timed. A MachineConfigNode would not tell more once a
// node finished: the machine-config daemon dates each step's condition as
// it reaches it, and when Updated turns True sets every other condition
// False, dated anew (openshift/machine-config-operator
// pkg/upgrademonitor/upgrade_monitor.go, generateAndApplyMachineConfigNodes,
// reset), so its step times can only be read live, as these are.
func pools(in Input, started, now metav1.Time) ([]insightsv1alpha1.PoolUpdateRecord, int32) {
	byName := map[string]*insightsv1alpha1.PoolUpdateRecord{}
	var omitted int32
	if in.Previous != nil {
		for i := range in.Previous.Pools {
			byName[in.Previous.Pools[i].Name] = in.Previous.Pools[i].DeepCopy()
		}
		omitted = in.Previous.PoolsOmitted
	}
	members := map[string][]*insightsv1alpha1.NodeProgressInsightStatus{}
	for i := range in.Nodes {
		n := &in.Nodes[i]
		if n.Name == "" || n.PoolResource.Name == "" {
			// An insight is created empty, its status written next.
			continue
		}
		members[n.PoolResource.Name] = append(members[n.PoolResource.Name], n)
		if byName[n.PoolResource.Name] == nil {
			byName[n.PoolResource.Name] = &insightsv1alpha1.PoolUpdateRecord{Name: n.PoolResource.Name, ScopeType: n.ScopeType}
		}
	}
	assessments := map[string]insightsv1alpha1.PoolAssessment{}
	for i := range in.Pools {
		assessments[in.Pools[i].Name] = in.Pools[i].Assessment
	}
	inUpdate := func(t metav1.Time) bool { return !t.Before(&started) && !now.Before(&t) }
	for name, p := range byName {
		nodes, ok := members[name]
		switch {
		case ok:
			poolAt(p, nodes, inUpdate, now)
		case p.StartedAt == nil && p.NodeTimes.Timed == 0:
			// Its nodes' insights went before any began updating: insights
			// of nodes no longer there, which the node controller deletes
			// once it runs, or a pool emptied. It holds nothing of the
			// update.
			delete(byName, name)
			continue
		default:
			// Its nodes went after some updated: what they took stays, and
			// no node holds the update's completion any more.
			p.Nodes, p.Updated, p.Updating = 0, 0, nil
		}
		if a, ok := assessments[name]; ok {
			p.Assessment = a
		}
	}

	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	sort.Strings(names)
	if n := len(names) - insightsv1alpha1.UpdateRecordMaxPools; n > 0 {
		names, omitted = names[:insightsv1alpha1.UpdateRecordMaxPools], int32(n)
	}
	var out []insightsv1alpha1.PoolUpdateRecord
	for _, name := range names {
		out = append(out, *byName[name])
	}
	return out, omitted
}

// poolAt moves a pool's record to now from its nodes' insights.
func poolAt(p *insightsv1alpha1.PoolUpdateRecord, nodes []*insightsv1alpha1.NodeProgressInsightStatus, inUpdate func(metav1.Time) bool, now metav1.Time) {
	updating := map[string]*insightsv1alpha1.NodeUpdateRecord{}
	for i := range p.Updating {
		updating[p.Updating[i].Name] = &p.Updating[i]
	}
	present := map[string]bool{}
	inPhase := map[string]bool{}
	var untracked int32
	var finishedAt *metav1.Time
	p.Nodes, p.Updated = int32(len(nodes)), 0
	for _, n := range nodes {
		present[n.Name] = true
		c := meta.FindStatusCondition(n.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
		if c == nil {
			continue
		}
		since := c.LastTransitionTime.Rfc3339Copy()
		t := updating[n.Name]
		switch {
		case c.Status == metav1.ConditionTrue && isPhase(c.Reason):
			inPhase[c.Reason] = true
			if t == nil {
				if len(updating) >= insightsv1alpha1.UpdateRecordMaxUpdatingNodes {
					untracked++
					continue
				}
				t = &insightsv1alpha1.NodeUpdateRecord{Name: n.Name, StartedAt: now}
				if inUpdate(since) {
					t.StartedAt = since
				}
				t.PhaseSince = ptr(now)
				if c.Reason == nodePhases[0] {
					// The node is in its first phase: it has been since it
					// began.
					t.PhaseSince = ptr(t.StartedAt)
				}
				t.Phase = c.Reason
				updating[n.Name] = t
				if p.StartedAt == nil || t.StartedAt.Before(p.StartedAt) {
					p.StartedAt = ptr(t.StartedAt)
				}
			}
			if t.Phase != c.Reason {
				addPhase(t, now)
				t.Phase, t.PhaseSince = c.Reason, ptr(now)
			}
			enterPhase(p, c.Reason, *t.PhaseSince)
		case c.Status == metav1.ConditionFalse && c.Reason == insightsv1alpha1.NodeCompleted:
			p.Updated++
			if t == nil {
				continue
			}
			done := now
			if inUpdate(since) && !since.Before(&t.StartedAt) {
				done = since
			}
			addPhase(t, done)
			t.Phase, t.PhaseSince, t.CompletedAt = "", nil, ptr(done)
			finished(p, *t)
			delete(updating, n.Name)
			if finishedAt == nil || finishedAt.Before(&done) {
				finishedAt = ptr(done)
			}
		}
	}
	// A new slice: the map points into the old one.
	var followed []insightsv1alpha1.NodeUpdateRecord
	for name, t := range updating {
		if present[name] {
			followed = append(followed, *t)
		}
	}
	sort.Slice(followed, func(i, j int) bool { return followed[i].Name < followed[j].Name })
	p.Updating = followed
	p.UpdatingOmitted = max(p.UpdatingOmitted, untracked)
	for i := range p.Phases {
		switch {
		case inPhase[p.Phases[i].Phase]:
			p.Phases[i].EndedAt = nil
		case p.Phases[i].EndedAt == nil:
			p.Phases[i].EndedAt = ptr(now)
		}
	}
	switch {
	case p.Nodes > 0 && p.Updated == p.Nodes && len(p.Updating) == 0:
		if p.CompletedAt == nil {
			if finishedAt == nil {
				finishedAt = ptr(now)
			}
			p.CompletedAt = finishedAt
		}
	default:
		p.CompletedAt = nil
	}
}

// enterPhase notes that a pool's node is in phase since since.
func enterPhase(p *insightsv1alpha1.PoolUpdateRecord, phase string, since metav1.Time) {
	for i := range p.Phases {
		if p.Phases[i].Phase == phase {
			if since.Before(&p.Phases[i].StartedAt) {
				p.Phases[i].StartedAt = since
			}
			return
		}
	}
	p.Phases = append(p.Phases, insightsv1alpha1.PhaseRecord{Phase: phase, StartedAt: since})
	order := map[string]int{}
	for i, ph := range nodePhases {
		order[ph] = i
	}
	sort.Slice(p.Phases, func(i, j int) bool { return order[p.Phases[i].Phase] < order[p.Phases[j].Phase] })
}

// addPhase adds the time from a node's phase's start to at to its phase.
func addPhase(t *insightsv1alpha1.NodeUpdateRecord, at metav1.Time) {
	if t.PhaseSince == nil || at.Before(t.PhaseSince) {
		return
	}
	d := at.Sub(t.PhaseSince.Time)
	var sum **metav1.Duration
	switch t.Phase {
	case insightsv1alpha1.NodeDraining:
		sum = &t.Draining
	case insightsv1alpha1.NodeUpdating:
		sum = &t.Updating
	case insightsv1alpha1.NodeRebooting:
		sum = &t.Rebooting
	default:
		return
	}
	if *sum == nil {
		*sum = &metav1.Duration{}
	}
	(*sum).Duration += d
}

// finished counts a timed node's time in its pool's, and keeps it if it is
// among the slowest.
func finished(p *insightsv1alpha1.PoolUpdateRecord, t insightsv1alpha1.NodeUpdateRecord) {
	took := t.CompletedAt.Sub(t.StartedAt.Time)
	p.NodeTimes = AddNodeTime(p.NodeTimes, took)
	for i := range p.SlowestNodes {
		if p.SlowestNodes[i].Name == t.Name {
			// A node that updated twice (a configuration rolled out again
			// within the update) is named once, by its slower time.
			if nodeTook(p.SlowestNodes[i]) >= int64(took) {
				return
			}
			p.SlowestNodes = append(p.SlowestNodes[:i], p.SlowestNodes[i+1:]...)
			break
		}
	}
	p.SlowestNodes = append(p.SlowestNodes, t)
	sort.SliceStable(p.SlowestNodes, func(i, j int) bool {
		a, b := nodeTook(p.SlowestNodes[i]), nodeTook(p.SlowestNodes[j])
		if a != b {
			return a > b
		}
		return p.SlowestNodes[i].Name < p.SlowestNodes[j].Name
	})
	if len(p.SlowestNodes) > insightsv1alpha1.UpdateRecordMaxSlowestNodes {
		p.SlowestNodes = p.SlowestNodes[:insightsv1alpha1.UpdateRecordMaxSlowestNodes]
	}
}

func nodeTook(t insightsv1alpha1.NodeUpdateRecord) int64 {
	if t.CompletedAt == nil {
		return 0
	}
	return int64(t.CompletedAt.Sub(t.StartedAt.Time))
}
