package hostednodepools

import (
	"regexp"
	"strconv"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// desiredMachines is how many machines the NodePool wants: spec.replicas,
// or, when it autoscales, what the autoscaler last set on the
// MachineDeployment (Replace) or MachineSet (InPlace); the NodePool
// controller leaves replicas to the autoscaler then (capi.go
// setMachineDeploymentReplicas, setMachineSetReplicas).
func desiredMachines(in Input) int32 {
	np := in.NodePool
	if np.Spec.AutoScaling == nil && np.Spec.Replicas != nil {
		return max(*np.Spec.Replicas, 0)
	}
	if in.MachineDeployment != nil && in.MachineDeployment.Spec.Replicas != nil {
		return max(*in.MachineDeployment.Spec.Replicas, 0)
	}
	var n int32
	for _, ms := range in.MachineSets {
		if ms != nil && ms.Spec.Replicas != nil && *ms.Spec.Replicas > 0 && n <= maxInt32-*ms.Spec.Replicas {
			n += *ms.Spec.Replicas
		}
	}
	if n > 0 {
		return n
	}
	return max(np.Status.Replicas, 0)
}

const maxInt32 = int32(^uint32(0) >> 1)

// count is how many machines run the target, and what says so.
type count struct {
	updated int32
	source  insightsv1alpha1.MachinesSource
	known   bool
}

// updatedMachines counts the machines at target, from the first that
// speaks of them of: the in-place upgrader's progress, the NodePool's
// nodesInfo, the Machines' release-version annotations, the
// MachineDeployment's up-to-date replicas.
func updatedMachines(in Input, target string) count {
	if c, ok := inPlaceProgress(in); ok {
		return c
	}
	if target == "" {
		return count{}
	}
	if c, ok := fromNodesInfo(in.NodePool, target); ok {
		return c
	}
	if c, ok := fromMachines(in, target); ok {
		return c
	}
	if c, ok := fromMachineSets(in); ok {
		return c
	}
	return count{}
}

// configuredMachines counts the machines that run a new configuration,
// the release unchanged: the in-place upgrader's progress (InPlace), else
// the MachineDeployment's or MachineSets' up-to-date replicas, the
// Machines of the current template (Replace). Neither nodesInfo nor the
// Machines' release annotations can tell: every machine runs the release.
func configuredMachines(in Input) count {
	if c, ok := inPlaceProgress(in); ok {
		return c
	}
	if c, ok := fromMachineSets(in); ok {
		return c
	}
	return count{}
}

// fromNodesInfo counts the nodes of the target in status.nodesInfo, which
// the NodePool controller groups by each Machine's release-version
// annotation, ready or not, once the Machine has a node (version.go
// nodeVersionsFromMachines).
func fromNodesInfo(np *hypershift.NodePool, target string) (count, bool) {
	versions := np.Status.NodesInfo.NodeVersions
	if len(versions) == 0 {
		return count{}, false
	}
	c := count{source: insightsv1alpha1.MachinesFromNodesInfo, known: true}
	for _, v := range versions {
		if v.OCPVersion != target {
			continue
		}
		for _, n := range []*int32{v.ReadyNodeCount, v.UnreadyNodeCount} {
			if n != nil && *n > 0 && c.updated <= maxInt32-*n {
				c.updated += *n
			}
		}
	}
	return c, true
}

// fromMachines counts the Machines, not being deleted, whose node has
// joined and runs the target: the release-version annotation a Machine
// takes from its MachineDeployment's template (Replace) or from the
// in-place upgrader once its node is updated (InPlace); a Machine older than
// the annotation runs the NodePool's status.version (version.go
// nodeVersionsFromMachines). It counts nothing when no Machine is annotated,
// as on HyperShift older than the annotation.
func fromMachines(in Input, target string) (count, bool) {
	annotated := false
	c := count{source: insightsv1alpha1.MachinesFromMachines, known: true}
	for _, m := range in.Machines {
		if m == nil {
			continue
		}
		v, ok := m.Annotations[hypershift.ReleaseVersionAnnotation]
		annotated = annotated || ok
		if !ok {
			v = in.NodePool.Status.Version
		}
		if v == target && m.DeletionTimestamp == nil && m.Status.NodeRef != nil {
			c.updated++
		}
	}
	return c, annotated
}

// fromMachineSets counts the MachineDeployment's up-to-date replicas, the
// Machines of its current template (Replace), else its MachineSets'.
func fromMachineSets(in Input) (count, bool) {
	c := count{source: insightsv1alpha1.MachinesFromMachineSets, known: true}
	if md := in.MachineDeployment; md != nil && md.Status.UpToDateReplicas != nil {
		c.updated = max(*md.Status.UpToDateReplicas, 0)
		return c, true
	}
	found := false
	for _, ms := range in.MachineSets {
		if ms != nil && ms.Status.UpToDateReplicas != nil && *ms.Status.UpToDateReplicas > 0 && c.updated <= maxInt32-*ms.Status.UpToDateReplicas {
			found = true
			c.updated += *ms.Status.UpToDateReplicas
		}
	}
	return c, found
}

// inPlaceProgressRE parses the in-place upgrader's progress annotation
// (control-plane-operator/hostedclusterconfigoperator/controllers/
// inplaceupgrader/inplaceupgrader.go: "Nodepool update in progress. Target
// Config version: %s. Total Nodes: %d. Upgraded: %d").
var inPlaceProgressRE = regexp.MustCompile(`Total Nodes: (\d+)\. Upgraded: (\d+)$`)

// inPlaceProgress is the in-place upgrader's count of updated nodes while it
// rolls an InPlace NodePool out.
func inPlaceProgress(in Input) (count, bool) {
	if in.NodePool.Spec.Management.UpgradeType != hypershift.UpgradeTypeInPlace {
		return count{}, false
	}
	for _, ms := range in.MachineSets {
		if ms == nil {
			continue
		}
		m := inPlaceProgressRE.FindStringSubmatch(ms.Annotations[hypershift.UpgradeInProgressTrueAnnotation])
		if m == nil {
			continue
		}
		upgraded, err := strconv.ParseInt(m[2], 10, 32)
		if err != nil {
			continue
		}
		return count{updated: int32(upgraded), source: insightsv1alpha1.MachinesFromInPlaceUpgrader, known: true}, true
	}
	return count{}, false
}

// inPlaceDegraded is the in-place upgrader's message of a node that failed
// to update ("Node %s in nodepool degraded: %v", inplaceupgrader.go), which
// the NodePool controller copies into UpdatingVersion False, reason
// InplaceUpgradeFailed (conditions.go).
func inPlaceDegraded(in Input) (string, *hypershift.MachineSet) {
	if in.NodePool.Spec.Management.UpgradeType != hypershift.UpgradeTypeInPlace {
		return "", nil
	}
	for _, ms := range in.MachineSets {
		if ms == nil {
			continue
		}
		if msg := ms.Annotations[hypershift.UpgradeInProgressFalseAnnotation]; msg != "" {
			return msg, ms
		}
	}
	return "", nil
}
