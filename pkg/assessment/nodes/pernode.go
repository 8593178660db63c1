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

	// Past, when set, is what the cluster's recorded updates say of a
	// pool's nodes (updaterecord.PerNode): their median and 90th
	// percentile in the last update that timed them, expected until a
	// node of the pool is seen to finish.
	Past func(pool string) (median, p90 time.Duration, ok bool)
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

// Expected is the median of the pool's latest node updates; before any
// node of the pool was seen to finish, the median its records give, else
// DefaultPerNodeTime.
func (t *PerNodeTimes) Expected(pool string) time.Duration {
	t.mu.Lock()
	observed := slices.Clone(t.byPool[pool])
	t.mu.Unlock()
	if len(observed) == 0 {
		if median, _, ok := t.Learned(pool); ok {
			return median
		}
		return DefaultPerNodeTime
	}
	slices.Sort(observed)
	return observed[len(observed)/2]
}

// Learned is the pool's per-node median and 90th percentile from its
// records, when Expected is that median: no node of the pool was seen to
// finish since the operator started.
func (t *PerNodeTimes) Learned(pool string) (median, p90 time.Duration, ok bool) {
	t.mu.Lock()
	observed := len(t.byPool[pool])
	t.mu.Unlock()
	if observed > 0 || t.Past == nil {
		return 0, 0, false
	}
	median, p90, ok = t.Past(pool)
	return median, p90, ok && median > 0
}
