package eta

import (
	"slices"
	"time"
)

// Past is what the cluster's own completed updates say of its control
// plane: how long it took, and when each of its ClusterOperators was done.
// With it the estimate projects along this cluster's curve, not the
// reference cluster's TimewiseCompletion, from this cluster's duration.
type Past struct {
	// Duration is the median of the updates' control plane durations.
	Duration time.Duration
	// Curves are, for each update, the fractions of its duration at which
	// its ClusterOperators were seen updated, ascending: the k-th is when
	// k+1 of them were.
	Curves [][]float64
}

// Completion is the fraction of an update's time that has passed when the
// fraction x of its operators is updated: for each past update, read off
// its curve between the operators around x (so that a payload of another
// size maps onto it), and the median of those.
func (p *Past) Completion(x float64) float64 {
	var at []float64
	for _, c := range p.Curves {
		if len(c) == 0 {
			continue
		}
		at = append(at, along(c, x))
	}
	if len(at) == 0 {
		return TimewiseCompletion(x)
	}
	slices.Sort(at)
	if n := len(at); n%2 == 0 {
		return (at[n/2-1] + at[n/2]) / 2
	}
	return at[len(at)/2]
}

// along is the curve's time at operator fraction x: the curve is the
// points (k/n, c[k-1]) from (0, 0), joined by straight lines.
func along(c []float64, x float64) float64 {
	n := float64(len(c))
	pos := min(max(x, 0), 1) * n
	k := int(pos)
	if k >= len(c) {
		return c[len(c)-1]
	}
	lo := 0.0
	if k > 0 {
		lo = c[k-1]
	}
	return lo + (c[k]-lo)*(pos-float64(k))
}

// usable says whether the past can be projected along.
func (p *Past) usable() bool {
	if p == nil || p.Duration <= 0 {
		return false
	}
	for _, c := range p.Curves {
		if len(c) > 0 {
			return true
		}
	}
	return false
}
