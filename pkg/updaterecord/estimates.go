package updaterecord

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// estimatePercents are the control plane completions an estimate is kept
// at.
var estimatePercents = []int32{25, 50, 75}

// estimateWindow is how far past its percentage an estimate may be taken:
// a control plane first seen at 80 percent, after a span not observed,
// gives the estimate at 75 and none at 25 or 50, since what it said then
// was not seen.
const estimateWindow = 25

// estimates are the record's estimates at now: the ClusterVersion insight's
// estimated completion, kept once for each percentage the control plane
// is first seen at or within estimateWindow past.
func estimates(in Input, now metav1.Time) []insightsv1alpha1.EstimateRecord {
	var out []insightsv1alpha1.EstimateRecord
	if in.Previous != nil {
		for _, e := range in.Previous.Estimates {
			out = append(out, *e.DeepCopy())
		}
	}
	cv := in.ClusterVersion
	if cv.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted {
		return out
	}
	taken := map[int32]bool{}
	for _, e := range out {
		taken[e.Percent] = true
	}
	for _, p := range estimatePercents {
		if taken[p] || cv.CompletionPercent < p || cv.CompletionPercent >= p+estimateWindow {
			continue
		}
		e := insightsv1alpha1.EstimateRecord{Percent: p, ObservedAt: now, CompletionPercent: cv.CompletionPercent}
		if cv.EstimatedCompletedAt != nil {
			e.EstimatedCompletedAt = ptr(cv.EstimatedCompletedAt.Rfc3339Copy())
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Percent < out[j].Percent })
	return out
}
