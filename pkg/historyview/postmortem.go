package historyview

import (
	"fmt"
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

// slowestOperators is how many operators the postmortem lists.
const slowestOperators = 10

// Postmortem is what one recorded update took.
type Postmortem struct {
	Update Update `json:"update"`
	// CompletedAt is the control plane's completion; AbandonedAt the start
	// of the update that replaced this one; UpdateCompletedAt the update's
	// completion, its pools' with its control plane's.
	CompletedAt       *time.Time `json:"completedAt,omitempty"`
	AbandonedAt       *time.Time `json:"abandonedAt,omitempty"`
	UpdateCompletedAt *time.Time `json:"updateCompletedAt,omitempty"`
	// ObservedUntil is the last time the operator saw it in progress.
	ObservedUntil time.Time `json:"observedUntil"`
	// NotObserved are the spans the operator did not see, and the count of
	// the oldest left out of the record.
	NotObserved        []Span     `json:"notObserved,omitempty"`
	NotObservedOmitted int32      `json:"notObservedOmitted,omitempty"`
	Timeline           []Event    `json:"timeline"`
	SlowestOperators   []Operator `json:"slowestOperators"`
	// OperatorsUndated counts the operators the record has no duration
	// for: they updated while the operator did not see them.
	OperatorsUndated int        `json:"operatorsUndated,omitempty"`
	Stalls           []Stall    `json:"stalls"`
	StallsOmitted    int32      `json:"stallsOmitted,omitempty"`
	Estimates        []Estimate `json:"estimates"`
	// Pools are the node pools, as the record has them, and PoolsOmitted
	// counts those it left out.
	Pools        []Pool `json:"pools"`
	PoolsOmitted int32  `json:"poolsOmitted,omitempty"`
}

// Pool is what a pool's nodes took.
type Pool struct {
	insightsv1alpha1.PoolUpdateRecord `json:",inline"`
	// Duration is from its first node's start to its last's finish, or to
	// the update's end while it updates; nil before a node began.
	Duration *metav1.Duration `json:"duration,omitempty"`
}

// Span is a span of time.
type Span struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Event is a moment of the update.
type Event struct {
	At   time.Time `json:"at"`
	What string    `json:"what"`
}

// Operator is how long a ClusterOperator took.
type Operator struct {
	Name        string          `json:"name"`
	StartedAt   time.Time       `json:"startedAt"`
	CompletedAt time.Time       `json:"completedAt"`
	Duration    metav1.Duration `json:"duration"`
}

// Stall is a health insight active during the update.
type Stall struct {
	insightsv1alpha1.UpdateStall `json:",inline"`
	// Duration is from its start, or first sight, to its end or the
	// update's.
	Duration metav1.Duration `json:"duration"`
}

// Estimate is an estimate of the control plane's completion against its
// completion.
type Estimate struct {
	Percent           int32      `json:"percent"`
	ObservedAt        time.Time  `json:"observedAt"`
	CompletionPercent int32      `json:"completionPercent"`
	Estimated         *time.Time `json:"estimatedCompletedAt,omitempty"`
	Actual            *time.Time `json:"completedAt,omitempty"`
	// Late is how much later the control plane completed than estimated,
	// negative when earlier; nil until it completed or when no estimate
	// was given.
	Late *metav1.Duration `json:"late,omitempty"`
}

// Build is the postmortem of the record at now.
func Build(r *insightsv1alpha1.UpdateRecord, now time.Time) Postmortem {
	s := &r.Status
	p := Postmortem{Update: line(r, now), ObservedUntil: s.ObservedUntil.Time, NotObservedOmitted: s.NotObservedOmitted,
		StallsOmitted: s.StallsOmitted, Estimates: estimateErrors(s), Timeline: []Event{}, SlowestOperators: []Operator{}, Stalls: []Stall{},
		Pools: []Pool{}, PoolsOmitted: s.PoolsOmitted}
	if t := s.ControlPlaneCompletedAt; t != nil {
		p.CompletedAt = &t.Time
	}
	if t := s.CompletedAt; t != nil {
		p.UpdateCompletedAt = &t.Time
	}
	if t := s.AbandonedAt; t != nil {
		p.AbandonedAt = &t.Time
	}
	add := func(at time.Time, format string, args ...any) {
		p.Timeline = append(p.Timeline, Event{At: at, What: fmt.Sprintf(format, args...)})
	}
	add(s.StartedAt.Time, "The update to %s started", s.To.Version)
	for _, span := range s.NotObserved {
		p.NotObserved = append(p.NotObserved, Span{From: span.From.Time, To: span.To.Time})
		add(span.From.Time, "Not observed until %s: no operator saw the update (%s)", span.To.UTC().Format(time.RFC3339), text.Minutes(span.To.Sub(span.From.Time)))
	}
	for _, o := range s.ClusterOperators {
		if o.StartedAt != nil {
			add(o.StartedAt.Time, "ClusterOperator %s began updating", o.Name)
		}
		if o.CompletedAt != nil {
			add(o.CompletedAt.Time, "ClusterOperator %s updated", o.Name)
		}
		if o.StartedAt == nil || o.CompletedAt == nil {
			if o.Updated {
				p.OperatorsUndated++
			}
			continue
		}
		p.SlowestOperators = append(p.SlowestOperators, Operator{Name: o.Name, StartedAt: o.StartedAt.Time, CompletedAt: o.CompletedAt.Time,
			Duration: metav1.Duration{Duration: o.CompletedAt.Sub(o.StartedAt.Time)}})
	}
	sort.SliceStable(p.SlowestOperators, func(i, j int) bool {
		if p.SlowestOperators[i].Duration != p.SlowestOperators[j].Duration {
			return p.SlowestOperators[i].Duration.Duration > p.SlowestOperators[j].Duration.Duration
		}
		return p.SlowestOperators[i].Name < p.SlowestOperators[j].Name
	})
	p.SlowestOperators = p.SlowestOperators[:min(len(p.SlowestOperators), slowestOperators)]

	until := end(s, now)
	for _, st := range s.Stalls {
		d := updaterecord.StallDuration(&st, until)
		p.Stalls = append(p.Stalls, Stall{UpdateStall: st, Duration: metav1.Duration{Duration: d}})
		start := st.FirstSeenAt.Time
		if st.StartedAt != nil {
			start = st.StartedAt.Time
		}
		add(start, "%s: %s", st.Level, st.Summary)
		if st.EndedAt != nil {
			ended := "Resolved after %s: %s"
			if st.EndNotObserved {
				ended = "Last seen after %s (it ended while no operator watched): %s"
			}
			add(st.EndedAt.Time, ended, text.Minutes(d), st.Summary)
		}
	}
	sort.SliceStable(p.Stalls, func(i, j int) bool { return p.Stalls[i].Duration.Duration > p.Stalls[j].Duration.Duration })
	for _, e := range p.Estimates {
		if e.Estimated != nil {
			add(e.ObservedAt, "At %d%% the control plane's completion was estimated at %s", e.CompletionPercent, e.Estimated.UTC().Format(time.RFC3339))
		}
	}
	for i := range s.Pools {
		pool := Pool{PoolUpdateRecord: *s.Pools[i].DeepCopy()}
		if st := pool.StartedAt; st != nil {
			until := until
			if pool.CompletedAt != nil {
				until = pool.CompletedAt.Time
			}
			pool.Duration = &metav1.Duration{Duration: max(0, until.Sub(st.Time))}
			add(st.Time, "Pool %s began updating its nodes", pool.Name)
		}
		if c := pool.CompletedAt; c != nil && pool.StartedAt != nil {
			add(c.Time, "Pool %s updated its %d nodes (%s)", pool.Name, pool.Nodes, text.Minutes(pool.Duration.Duration))
		}
		p.Pools = append(p.Pools, pool)
	}
	if c := p.UpdateCompletedAt; c != nil && (p.CompletedAt == nil || c.After(*p.CompletedAt)) {
		add(*c, "The update completed, its pools with its control plane (%s)", text.Minutes(p.Update.Duration.Duration))
	}
	switch {
	case p.CompletedAt != nil:
		add(*p.CompletedAt, "The control plane completed the update (%s)", text.Minutes(p.Update.ControlPlane.Duration))
	case p.AbandonedAt != nil:
		add(*p.AbandonedAt, "The update was abandoned for another")
	}
	sort.SliceStable(p.Timeline, func(i, j int) bool { return p.Timeline[i].At.Before(p.Timeline[j].At) })
	return p
}

// estimateErrors are the record's estimates against the control plane's
// completion.
func estimateErrors(s *insightsv1alpha1.UpdateRecordStatus) []Estimate {
	out := []Estimate{}
	for _, e := range s.Estimates {
		x := Estimate{Percent: e.Percent, ObservedAt: e.ObservedAt.Time, CompletionPercent: e.CompletionPercent}
		if e.EstimatedCompletedAt != nil {
			x.Estimated = &e.EstimatedCompletedAt.Time
		}
		if c := s.ControlPlaneCompletedAt; c != nil {
			x.Actual = &c.Time
			if x.Estimated != nil {
				x.Late = &metav1.Duration{Duration: c.Sub(*x.Estimated)}
			}
		}
		out = append(out, x)
	}
	return out
}
