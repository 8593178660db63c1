package updaterecord

import (
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// maxNodeMinutes is the longest per-node time counted apart: a node that
// took a day or more counts as a day.
const maxNodeMinutes = 1440

// AddNodeTime counts a node that took took in a pool's per-node times. The
// times are kept by the whole minute, which a pool of thousands of nodes
// fills with a few dozen counts; past UpdateRecordMaxNodeTimeBuckets
// distinct minutes the two closest counts merge into the larger, so the
// record stays bounded and the percentiles move by no more than that gap.
func AddNodeTime(nt insightsv1alpha1.NodeTimes, took time.Duration) insightsv1alpha1.NodeTimes {
	m := int32(min(max(took, 0)/time.Minute, maxNodeMinutes))
	out := insightsv1alpha1.NodeTimes{Timed: nt.Timed + 1, Minutes: append([]insightsv1alpha1.MinuteCount(nil), nt.Minutes...)}
	i := sort.Search(len(out.Minutes), func(i int) bool { return out.Minutes[i].Minutes >= m })
	switch {
	case i < len(out.Minutes) && out.Minutes[i].Minutes == m:
		out.Minutes[i].Nodes++
	default:
		out.Minutes = append(out.Minutes, insightsv1alpha1.MinuteCount{})
		copy(out.Minutes[i+1:], out.Minutes[i:])
		out.Minutes[i] = insightsv1alpha1.MinuteCount{Minutes: m, Nodes: 1}
	}
	if len(out.Minutes) > insightsv1alpha1.UpdateRecordMaxNodeTimeBuckets {
		out.Minutes = mergeClosest(out.Minutes)
	}
	out.Median, out.P90 = percentile(out.Minutes, 50), percentile(out.Minutes, 90)
	return out
}

// mergeClosest merges the two adjacent counts closest in minutes into the
// one with more nodes (the shorter on a tie).
func mergeClosest(counts []insightsv1alpha1.MinuteCount) []insightsv1alpha1.MinuteCount {
	best := 0
	for i := 1; i+1 < len(counts); i++ {
		if counts[i+1].Minutes-counts[i].Minutes < counts[best+1].Minutes-counts[best].Minutes {
			best = i
		}
	}
	keep, gone := best, best+1
	if counts[gone].Nodes > counts[keep].Nodes {
		keep, gone = gone, keep
	}
	counts[keep].Nodes += counts[gone].Nodes
	return append(counts[:gone], counts[gone+1:]...)
}

// percentile is the q-th percentile of the counted minutes by nearest rank:
// the smallest time at least q percent of the nodes took no longer than.
func percentile(counts []insightsv1alpha1.MinuteCount, q int) *metav1.Duration {
	var total int64
	for _, c := range counts {
		total += int64(c.Nodes)
	}
	if total == 0 {
		return nil
	}
	rank := (int64(q)*total + 99) / 100
	var seen int64
	for _, c := range counts {
		seen += int64(c.Nodes)
		if seen >= rank {
			return &metav1.Duration{Duration: time.Duration(c.Minutes) * time.Minute}
		}
	}
	return &metav1.Duration{Duration: time.Duration(counts[len(counts)-1].Minutes) * time.Minute}
}
