package node

import (
	"sort"
	"sync"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"github.com/openshift/library-go/pkg/operator/events"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// membership is which pool each node is in, kept by the event handlers so
// that no sync parses every pool's selector or scans every node. A node's
// pool depends on its labels and on every pool's selector, which an index
// of the node informer cannot see: the node handler places one node, the
// pool handler parses the selectors again and places every node.
//
// The workers only read it; the handlers write it, so a sync sees the
// selectors and members as of the last event handled.
type membership struct {
	recorder events.Recorder

	mu      sync.RWMutex
	pools   *nodes.Pools
	poolOf  map[string]string
	members map[string]sets.Set[string]
	// invalid are the invalid selectors reported, by their error: each is
	// reported once, when it appears, not at every rebuild.
	invalid sets.Set[string]
}

func newMembership(recorder events.Recorder) *membership {
	return &membership{
		recorder: recorder,
		pools:    &nodes.Pools{},
		poolOf:   map[string]string{},
		members:  map[string]sets.Set[string]{},
		invalid:  sets.New[string](),
	}
}

// setPools parses the pools' selectors and places every node again. The
// nodes are listed under the lock: a node the node informer adds meanwhile
// is either listed here or placed by its handler's setNode after this, with
// the new selectors. Listed before the lock, such a node could be placed by
// the old selectors, then left out of the rebuild, and so be in no pool
// until its next change.
func (m *membership) setPools(pools []*machineconfigurationv1.MachineConfigPool, listNodes func() ([]*corev1.Node, error)) error {
	parsed, errs := nodes.NewPools(pools)
	invalid := sets.New[string]()
	for _, err := range errs {
		invalid.Insert(err.Error())
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	allNodes, err := listNodes()
	if err != nil {
		return err
	}
	for _, err := range errs {
		if !m.invalid.Has(err.Error()) {
			// The pool is left out until it is fixed; the others carry on.
			klog.ErrorS(err, "Ignoring a MachineConfigPool")
			m.recorder.Warningf("InvalidNodeSelector", "%v", err)
		}
	}
	m.invalid = invalid
	m.pools = parsed
	m.poolOf = map[string]string{}
	m.members = map[string]sets.Set[string]{}
	for _, node := range allNodes {
		m.place(node.Name, node.Labels)
	}
	return nil
}

// setNode places a node by its labels.
func (m *membership) setNode(name string, labels map[string]string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(name)
	m.place(name, labels)
}

// removeNode forgets a deleted node.
func (m *membership) removeNode(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(name)
}

func (m *membership) place(name string, labels map[string]string) {
	pool := m.pools.Of(labels)
	if pool == nil {
		return
	}
	m.poolOf[name] = pool.Name
	if m.members[pool.Name] == nil {
		m.members[pool.Name] = sets.New[string]()
	}
	m.members[pool.Name].Insert(name)
}

func (m *membership) remove(name string) {
	pool, ok := m.poolOf[name]
	if !ok {
		return
	}
	delete(m.poolOf, name)
	m.members[pool].Delete(name)
}

// current returns the pools with parsed selectors. They are never changed,
// only replaced: the caller may keep them.
func (m *membership) current() *nodes.Pools {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.pools
}

// nodesIn returns the names of the nodes in a pool, sorted.
func (m *membership) nodesIn(pool string) []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	names := m.members[pool].UnsortedList()
	sort.Strings(names)
	return names
}
