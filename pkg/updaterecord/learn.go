package updaterecord

import (
	"slices"
	"sort"
	"strings"
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/eta"
)

// learnFrom is how many of the latest completed updates the estimates learn
// from: enough that one slow update does not set the next estimate, few
// enough to follow the cluster as it grows.
const learnFrom = 5

// minDated is the share of a record's ClusterOperators that must have been
// seen updated for its curve to be learned: one seen only in part (the
// operator installed mid-update) says nothing of the part not seen.
const minDated = 0.75

// Learn is what the records of the cluster's latest completed updates say
// of its control plane, for the estimate of an update from `from` to `to`:
// their median duration and each one's curve, from the updates of the same
// kind (a minor or a patch update) when there are any, else from all;
// nil when no record has a curve to learn.
func Learn(records []insightsv1alpha1.UpdateRecordStatus, from, to string) (*eta.Past, int) {
	var usable []*insightsv1alpha1.UpdateRecordStatus
	for i := range records {
		if curve(&records[i]) != nil {
			usable = append(usable, &records[i])
		}
	}
	sort.SliceStable(usable, func(i, j int) bool { return usable[i].StartedAt.After(usable[j].StartedAt.Time) })
	minor := isMinor(from, to)
	var sameKind []*insightsv1alpha1.UpdateRecordStatus
	for _, r := range usable {
		if r.From != nil && isMinor(r.From.Version, r.To.Version) == minor {
			sameKind = append(sameKind, r)
		}
	}
	if len(sameKind) > 0 {
		usable = sameKind
	}
	usable = usable[:min(len(usable), learnFrom)]
	if len(usable) == 0 {
		return nil, 0
	}
	past := &eta.Past{}
	var took []time.Duration
	for _, r := range usable {
		past.Curves = append(past.Curves, curve(r))
		took = append(took, r.Durations.ControlPlane.Duration)
	}
	slices.Sort(took)
	past.Duration = took[len(took)/2]
	if n := len(took); n%2 == 0 {
		past.Duration = (took[n/2-1] + took[n/2]) / 2
	}
	return past, len(usable)
}

// curve is a completed record's operators' completions as fractions of its
// control plane's duration, ascending; nil for a record that cannot be
// learned from.
func curve(r *insightsv1alpha1.UpdateRecordStatus) []float64 {
	if r.State != insightsv1alpha1.UpdateRecordCompleted || r.ControlPlaneCompletedAt == nil || r.Durations.ControlPlane == nil ||
		r.Durations.ControlPlane.Duration <= 0 || len(r.ClusterOperators) == 0 {
		return nil
	}
	took := r.Durations.ControlPlane.Seconds()
	var c []float64
	for _, o := range r.ClusterOperators {
		if o.CompletedAt == nil {
			continue
		}
		c = append(c, min(max(o.CompletedAt.Sub(r.StartedAt.Time).Seconds()/took, 0), 1))
	}
	if float64(len(c)) < minDated*float64(len(r.ClusterOperators)) {
		return nil
	}
	slices.Sort(c)
	return c
}

// isMinor says whether an update changes the minor version: 4.15.x to
// 4.16.y is, 4.16.x to 4.16.y is not.
func isMinor(from, to string) bool {
	return majorMinor(from) != majorMinor(to)
}

func majorMinor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// PerNode is how long a node of the pool took in the latest completed
// update that timed its nodes: their median and 90th percentile, a range
// where the nodes disagree.
func PerNode(records []insightsv1alpha1.UpdateRecordStatus, pool string) (median, p90 time.Duration, ok bool) {
	var latest *insightsv1alpha1.NodeTimes
	var at time.Time
	for i := range records {
		r := &records[i]
		if r.State != insightsv1alpha1.UpdateRecordCompleted || (latest != nil && !r.StartedAt.After(at)) {
			continue
		}
		for j := range r.Pools {
			if p := &r.Pools[j]; p.Name == pool && p.NodeTimes.Median != nil && p.NodeTimes.P90 != nil {
				latest, at = &p.NodeTimes, r.StartedAt.Time
			}
		}
	}
	if latest == nil {
		return 0, 0, false
	}
	return latest.Median.Duration, latest.P90.Duration, true
}
