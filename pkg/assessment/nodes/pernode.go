package nodes

import (
	"slices"
	"sync"
	"time"
)

// observedPerPool is how many of a pool's latest node updates its expected
// per-node time is drawn from: enough to smooth one slow drain, few enough
// to follow a change of pace.
const observedPerPool = 9

// PerNodeTimes learns, pool by pool, how long a node takes to update, from
// the nodes seen to finish. It is safe for concurrent use.
type PerNodeTimes struct {
	mu     sync.Mutex
	byPool map[string][]time.Duration
}

// Observe records that a node of pool took d to update.
func (t *PerNodeTimes) Observe(pool string, d time.Duration) {
	if d <= 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byPool == nil {
		t.byPool = map[string][]time.Duration{}
	}
	observed := append(t.byPool[pool], d)
	if len(observed) > observedPerPool {
		observed = observed[len(observed)-observedPerPool:]
	}
	t.byPool[pool] = observed
}

// Expected is the median of the pool's latest node updates, or
// DefaultPerNodeTime before any node of the pool was seen to finish.
func (t *PerNodeTimes) Expected(pool string) time.Duration {
	t.mu.Lock()
	observed := slices.Clone(t.byPool[pool])
	t.mu.Unlock()
	if len(observed) == 0 {
		return DefaultPerNodeTime
	}
	slices.Sort(observed)
	return observed[len(observed)/2]
}
