package nodes

import (
	"fmt"
	"sort"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// The pools the machine-config operator always has.
const (
	MasterPool = names.MasterPool
	WorkerPool = names.WorkerPool
)

// Pools decides which MachineConfigPool a node belongs to, the way the
// machine-config controller does: a node matching the master pool is a
// master whatever else it matches, a custom pool wins over worker (a worker
// node with a custom role label is moved to the custom pool).
type Pools struct {
	ordered []pool
}

type pool struct {
	*machineconfigurationv1.MachineConfigPool
	selector labels.Selector
}

// NewPools prepares the pools for membership queries. A pool whose node
// selector is malformed or empty selects no node (an empty selector would
// otherwise select them all); its name is returned with the error so the
// caller can say which pool is wrong while the others keep working.
func NewPools(pools []*machineconfigurationv1.MachineConfigPool) (*Pools, []error) {
	var errs []error
	p := &Pools{}
	for _, mcp := range pools {
		if mcp.Spec.NodeSelector == nil {
			continue
		}
		selector, err := metav1.LabelSelectorAsSelector(mcp.Spec.NodeSelector)
		if err != nil {
			errs = append(errs, fmt.Errorf("MachineConfigPool %s has an invalid node selector: %w", mcp.Name, err))
			continue
		}
		if selector.Empty() {
			continue
		}
		p.ordered = append(p.ordered, pool{MachineConfigPool: mcp, selector: selector})
	}
	sort.Slice(p.ordered, func(i, j int) bool {
		ri, rj := rank(p.ordered[i].Name), rank(p.ordered[j].Name)
		if ri != rj {
			return ri < rj
		}
		return p.ordered[i].Name < p.ordered[j].Name
	})
	return p, errs
}

// rank orders pools by precedence: master, then custom pools, then worker.
func rank(name string) int {
	switch name {
	case MasterPool:
		return 0
	case WorkerPool:
		return 2
	default:
		return 1
	}
}

// Of returns the pool of a node with the given labels, or nil when the node
// is in no pool. A node that matches two custom pools is an error in the
// machine-config operator too; the first by name is chosen so the answer is
// stable.
func (p *Pools) Of(nodeLabels map[string]string) *machineconfigurationv1.MachineConfigPool {
	set := labels.Set(nodeLabels)
	for _, candidate := range p.ordered {
		if candidate.selector.Matches(set) {
			return candidate.MachineConfigPool
		}
	}
	return nil
}

// Get returns the pool of that name, or nil.
func (p *Pools) Get(name string) *machineconfigurationv1.MachineConfigPool {
	for _, candidate := range p.ordered {
		if candidate.Name == name {
			return candidate.MachineConfigPool
		}
	}
	return nil
}

// ScopeType is the scope of a pool's nodes: the master pool is the control
// plane, every other pool is a worker pool.
func ScopeType(poolName string) insightsv1alpha1.ScopeType {
	if poolName == MasterPool {
		return insightsv1alpha1.ScopeTypeControlPlane
	}
	return insightsv1alpha1.ScopeTypeWorkerPool
}
