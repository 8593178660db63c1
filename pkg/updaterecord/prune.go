package updaterecord

import (
	"math"
	"sort"
	"strings"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// MaxRecords is how many records are kept: the first, the newest, the last
// of each minor and the rest by rank, as the cluster-version operator keeps
// its history (pkg/cvo/status_history.go, prune; it keeps 100 entries of a
// few hundred bytes, a record is tens of kilobytes). At the 512 KiB a record
// is bounded to, they stay under the 32 MiB that keeps etcd's share small.
const MaxRecords = 50

// The weights of a record's rank, the cluster-version operator's
// (pkg/cvo/status_history.go): the lowest ranked record is pruned first.
const (
	finalRecords         = 5
	mostImportantWeight  = 1000.0
	interestingWeight    = 30.0
	partialMinorWeight   = 20.0
	partialZStreamWeight = -20.0
	indexWeight          = -1.01
)

// Pruned are the records to delete so that max are kept, each with why it
// goes. A record is ranked as the cluster-version operator ranks a history
// entry, a Completed record as a completed entry and any other as a partial
// one, from the newest: the first (oldest), the five newest and the newest
// completed are never pruned; the first or last completed of a minor rank
// above a partial update across minors, which ranks above an older one,
// and a partial update within a z-stream ranks lowest; ties go to the
// older.
func Pruned(records []insightsv1alpha1.UpdateRecord, max int) map[string]string {
	h := make([]*insightsv1alpha1.UpdateRecord, 0, len(records))
	for i := range records {
		h = append(h, &records[i])
	}
	sort.SliceStable(h, func(i, j int) bool {
		if !h[i].Status.StartedAt.Equal(&h[j].Status.StartedAt) {
			return h[i].Status.StartedAt.After(h[j].Status.StartedAt.Time)
		}
		return h[i].Name > h[j].Name
	})
	pruned := map[string]string{}
	for len(h) > max {
		i, why := lowestRanked(h)
		pruned[h[i].Name] = why
		h = append(h[:i], h[i+1:]...)
	}
	return pruned
}

// lowestRanked is the index of the record of h, newest first, to prune
// next, and why.
func lowestRanked(h []*insightsv1alpha1.UpdateRecord) (int, string) {
	newestCompleted := nextCompleted(h, -1, 1)
	lowest, lowestIndex, why := math.MaxFloat64, 0, ""
	for i := range h {
		rank, reason := 0.0, "an older update of less importance"
		switch {
		case i == len(h)-1 || i < finalRecords || i == newestCompleted:
			rank = mostImportantWeight
		case firstOrLastCompletedInAMinor(h, i):
			rank, reason = interestingWeight, "the first or last completed update of a minor"
		case partialBetween(h, i, func(a, b string) bool { return minor(a) != minor(b) }):
			rank, reason = partialMinorWeight, "a partial update within a minor transition"
		case partialBetween(h, i, func(a, b string) bool { return minor(a) != minor(b) || patch(a) != patch(b) }):
			rank, reason = partialZStreamWeight, "a partial update within a z-stream transition"
		}
		rank += indexWeight * float64(i)
		if rank < lowest {
			lowest, lowestIndex, why = rank, i, reason
		}
	}
	return lowestIndex, why
}

func isCompleted(r *insightsv1alpha1.UpdateRecord) bool {
	return r.Status.State == insightsv1alpha1.UpdateRecordCompleted
}

// nextCompleted is the index of the first completed record after i in the
// direction step (1: older, -1: newer), or i for none.
func nextCompleted(h []*insightsv1alpha1.UpdateRecord, i, step int) int {
	for j := i + step; j >= 0 && j < len(h); j += step {
		if isCompleted(h[j]) {
			return j
		}
	}
	return i
}

func firstOrLastCompletedInAMinor(h []*insightsv1alpha1.UpdateRecord, i int) bool {
	if !isCompleted(h[i]) {
		return false
	}
	if i == 0 {
		return true
	}
	for _, step := range []int{1, -1} {
		if j := nextCompleted(h, i, step); j == i || minor(h[i].Status.To.Version) != minor(h[j].Status.To.Version) {
			return true
		}
	}
	return false
}

// partialBetween says whether the record at i is a partial update between
// two completed ones whose versions differ as transition says.
func partialBetween(h []*insightsv1alpha1.UpdateRecord, i int, transition func(a, b string) bool) bool {
	if isCompleted(h[i]) || i == 0 {
		return false
	}
	older, newer := nextCompleted(h, i, 1), nextCompleted(h, i, -1)
	return older != i && newer != i && transition(h[older].Status.To.Version, h[newer].Status.To.Version)
}

// minor and patch are the y and z of a version x.y.z, as the
// cluster-version operator splits it (getEffectiveMinor,
// getEffectiveMicro): empty when absent.
func minor(version string) string { return part(version, 1) }
func patch(version string) string { return part(version, 2) }

func part(version string, n int) string {
	if parts := strings.Split(version, "."); len(parts) > n {
		return parts[n]
	}
	return ""
}
