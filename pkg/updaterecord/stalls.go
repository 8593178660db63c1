package updaterecord

import (
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// stallLevels are the levels a health insight must have to be a stall: an
// Info insight says a fact, not a problem.
var stallLevels = map[insightsv1alpha1.InsightImpactLevel]int{
	insightsv1alpha1.WarningImpactLevel:  1,
	insightsv1alpha1.ErrorImpactLevel:    2,
	insightsv1alpha1.CriticalImpactLevel: 3,
}

// stalls are the record's stalls at now: each Warning, Error or Critical
// health insight active is one, kept in the words it last had; one gone
// ends at now, or, when the time before now was not watched (gap), at when
// it was last seen, said to be so. An insight that returns is the same
// problem: its stall is reopened from its first sight, not started anew.
func stalls(in Input, now metav1.Time, gap bool) ([]insightsv1alpha1.UpdateStall, int32) {
	byName := map[string]insightsv1alpha1.UpdateStall{}
	var omitted int32
	if in.Previous != nil {
		for _, s := range in.Previous.Stalls {
			byName[s.Name] = *s.DeepCopy()
		}
		omitted = in.Previous.StallsOmitted
	}
	active := map[string]bool{}
	for i := range in.Health {
		h := &in.Health[i]
		st := &h.Status
		if _, ok := stallLevels[st.Impact.Level]; !ok || st.Impact.Summary == "" {
			// An insight is created empty, its status written next.
			continue
		}
		active[h.Name] = true
		s, seen := byName[h.Name]
		if !seen {
			s = insightsv1alpha1.UpdateStall{Name: h.Name, FirstSeenAt: now}
		}
		if !seen || stallLevels[st.Impact.Level] > stallLevels[s.Level] {
			s.Level = st.Impact.Level
		}
		s.Impact, s.Scope, s.Summary = st.Impact.Type, st.Scope.Type, st.Impact.Summary
		n := min(len(st.Scope.Resources), insightsv1alpha1.UpdateRecordMaxStallResources)
		s.Resources = append([]insightsv1alpha1.ResourceRef(nil), st.Scope.Resources[:n]...)
		if s.StartedAt == nil && !st.StartedAt.IsZero() {
			s.StartedAt = ptr(st.StartedAt.Rfc3339Copy())
		}
		s.EndedAt, s.EndNotObserved = nil, false
		byName[h.Name] = s
	}
	for name, s := range byName {
		if active[name] || s.EndedAt != nil {
			continue
		}
		switch {
		case gap && in.Previous != nil:
			s.EndedAt, s.EndNotObserved = ptr(in.Previous.ObservedUntil), true
		default:
			s.EndedAt = ptr(now)
		}
		byName[name] = s
	}

	var out []insightsv1alpha1.UpdateStall
	for _, s := range byName {
		out = append(out, s)
	}
	if n := len(out) - insightsv1alpha1.UpdateRecordMaxStalls; n > 0 {
		// The shortest stalls that ended go first: the long ones and those
		// still active are what a postmortem reads.
		sort.SliceStable(out, func(i, j int) bool { return keepBefore(&out[i], &out[j], now) })
		out, omitted = out[:insightsv1alpha1.UpdateRecordMaxStalls], omitted+int32(n)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].FirstSeenAt.Equal(&out[j].FirstSeenAt) {
			return out[i].FirstSeenAt.Before(&out[j].FirstSeenAt)
		}
		return out[i].Name < out[j].Name
	})
	return out, omitted
}

// keepBefore orders stalls by how much a postmortem needs them: active
// first, then the longest.
func keepBefore(a, b *insightsv1alpha1.UpdateStall, now metav1.Time) bool {
	if (a.EndedAt == nil) != (b.EndedAt == nil) {
		return a.EndedAt == nil
	}
	if da, db := StallDuration(a, now.Time), StallDuration(b, now.Time); da != db {
		return da > db
	}
	return a.Name < b.Name
}

// StallDuration is how long a stall lasted, or has lasted until until: from
// the problem's start as its insight dated it, else from its first sight,
// to its end.
func StallDuration(s *insightsv1alpha1.UpdateStall, until time.Time) time.Duration {
	start := s.FirstSeenAt.Time
	if s.StartedAt != nil {
		start = s.StartedAt.Time
	}
	end := until
	if s.EndedAt != nil {
		end = s.EndedAt.Time
	}
	return max(0, end.Sub(start))
}
