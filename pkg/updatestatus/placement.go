package updatestatus

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	healthinsight "github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// Placement is every answer's insights, by the part of the cluster they are
// about, and what could not be placed or was cut. UpdateStatus and
// UpdatePlans place insights alike.
type Placement struct {
	ControlPlane []Answer
	// Pools are the answers about each worker pool, by the pool's name.
	Pools map[string][]Answer
	// Cut says, an informer a line, what could not be placed or was cut.
	Cut []string
	// Notes says the same by informer, for the informer's own status.
	Notes map[string][]string
	// Shortened counts, by informer, the strings cut to the API's
	// bounds: their insights are kept, shortened.
	Shortened map[string]string
}

// Place puts each insight where its scope says: the control plane, or the
// worker pool (one of pools) its workerPool names, or else the pool of the
// nodes it names (nodePools maps a node's name to its pool's). Answers and
// insights come out in a stable order, by informer.
func Place(answers []Answer, pools []string, nodePools map[string]string) Placement {
	p := Placement{Pools: map[string][]Answer{}, Shortened: map[string]string{}}
	answers = slices.Clone(answers)
	slices.SortFunc(answers, func(a, b Answer) int { return strings.Compare(a.Informer, b.Informer) })
	for _, a := range answers {
		controlPlane := Answer{Informer: a.Informer, Stale: a.Stale}
		byPool := map[string]*Answer{}
		unplaced := 0
		var short shortened
		for _, insight := range a.Insights {
			insight = short.normalized(insight)
			if insight.Scope.Type == insightsv1alpha1.ScopeTypeControlPlane {
				controlPlane.Insights = append(controlPlane.Insights, insight)
				continue
			}
			pool := poolOf(insight, nodePools)
			if !slices.Contains(pools, pool) {
				unplaced++
				continue
			}
			if byPool[pool] == nil {
				byPool[pool] = &Answer{Informer: a.Informer, Stale: a.Stale}
			}
			byPool[pool].Insights = append(byPool[pool].Insights, insight)
		}
		// An informer that answered is listed even without insights: it
		// was heard, and said nothing is wrong.
		p.ControlPlane = append(p.ControlPlane, controlPlane)
		for pool, answer := range byPool {
			p.Pools[pool] = append(p.Pools[pool], *answer)
		}
		if unplaced > 0 {
			p.cut(a.Informer, "%d worker pool insights name no known pool", unplaced)
		}
		if note := short.String(); note != "" {
			p.Shortened[a.Informer] = note
		}
	}
	for pool := range p.Pools {
		slices.SortFunc(p.Pools[pool], func(a, b Answer) int { return strings.Compare(a.Informer, b.Informer) })
	}
	return p
}

// Bounded orders each answer's insights, the most serious first, and keeps
// at most max of them, counting in p.Cut what it cuts from the part of the
// cluster named where.
func (p *Placement) Bounded(answers []Answer, max int, where string) []Answer {
	out := make([]Answer, 0, len(answers))
	for _, a := range answers {
		insights := slices.Clone(a.Insights)
		slices.SortStableFunc(insights, func(x, y insightsv1alpha1.UpdateInsight) int {
			return cmp.Or(cmp.Compare(insightsv1alpha1.UpdateInsightLevelRank(x.Impact.Level), insightsv1alpha1.UpdateInsightLevelRank(y.Impact.Level)), strings.Compare(x.UID, y.UID))
		})
		if len(insights) > max {
			p.cut(a.Informer, "%d of %d %s insights cut (at most %d are kept, the most serious)", len(insights)-max, len(insights), where, max)
			insights = insights[:max]
		}
		a.Insights = insights
		out = append(out, a)
	}
	return out
}

// poolOf is the worker pool an insight is about: a MachineConfigPool or
// NodePool of its workerPool, or else the pool of the first node it names.
func poolOf(insight insightsv1alpha1.UpdateInsight, nodePools map[string]string) string {
	for _, r := range insight.Scope.WorkerPool {
		if healthinsight.IsPool(r.Kind) {
			return r.Name
		}
	}
	for _, r := range insight.Scope.Resources {
		if r.Kind == "Node" && r.Group == "" {
			if pool, ok := nodePools[r.Name]; ok {
				return pool
			}
		}
	}
	return ""
}

// shortened counts the strings of an answer cut to the API's bounds.
type shortened struct{ summaries, descriptions int }

// normalized bounds an insight's strings as the API does, in characters,
// so that an informer's long summary is cut rather than refused, counting
// what it cuts.
func (s *shortened) normalized(insight insightsv1alpha1.UpdateInsight) insightsv1alpha1.UpdateInsight {
	folded := strings.Join(strings.Fields(insight.Impact.Summary), " ")
	insight.Impact.Summary = text.TruncateCharacters(folded, maxSummaryLength)
	if insight.Impact.Summary != folded {
		s.summaries++
	}
	if insight.Impact.Summary == "" {
		insight.Impact.Summary = "(no summary)"
	}
	description := insight.Impact.Description
	insight.Impact.Description = text.TruncateCharacters(description, maxDescriptionLength)
	if insight.Impact.Description != description {
		s.descriptions++
	}
	return insight
}

// String says what was cut, or nothing.
func (s shortened) String() string {
	var parts []string
	if s.summaries > 0 {
		parts = append(parts, fmt.Sprintf("%d %s cut to %d characters", s.summaries, plural(s.summaries, "summary", "summaries"), maxSummaryLength))
	}
	if s.descriptions > 0 {
		parts = append(parts, fmt.Sprintf("%d %s cut to %d characters", s.descriptions, plural(s.descriptions, "description", "descriptions"), maxDescriptionLength))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
