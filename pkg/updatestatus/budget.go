package updatestatus

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/olm"
)

// The bounds of UpdateStatus as a whole, beyond those of one informer's
// insights: what a real cluster accepts in one object is less than the sum
// of every informer's bounds.
const (
	// MaxStatusBytes bounds the JSON of the UpdateStatus object, metadata
	// included: etcd refuses a request over 1.5 MiB by default
	// (--max-request-bytes), and the API server's client a message over
	// 2 MiB; a third of etcd's limit is left for what the operator cannot
	// count (managed fields, the request's own framing).
	MaxStatusBytes = 1 << 20
	// MaxInsightsBytes is what the informers' entries share of
	// MaxStatusBytes, as JSON: the rest holds the conditions (two messages
	// of up to 32 KiB each), up to 64 worker pools' references and
	// conditions, and the metadata.
	MaxInsightsBytes = 768 << 10
	// MaxInformers bounds the informers of each part of UpdateStatus (the
	// control plane, each worker pool), as the API does.
	MaxInformers = insightsv1alpha1.InformersMaxItems
)

// BuiltinInformers are the names of the operator's own informers, answered
// without HTTP, in the order they are served first: their insights are the
// cluster's own state, bounded by its size, not by what a third party
// sends. The operator's starter lists what each does, in this order.
var BuiltinInformers = []string{BuiltinInformer, olm.Informer}

func isBuiltin(informer string) bool {
	return slices.Contains(BuiltinInformers, informer)
}

func builtinRank(informer string) int {
	if i := slices.Index(BuiltinInformers, informer); i >= 0 {
		return i
	}
	return len(BuiltinInformers)
}

// part is the informers' entries of one part of UpdateStatus.
type part struct {
	// where names the part in the notes: "the control plane", "pool x".
	where   string
	answers []Answer
}

// fit keeps parts within the API's count of informers and the size budget,
// noting in p what it leaves out and cuts; size measures an insight as the
// status of object (UpdateStatus, an UpdatePlan) holds it.
func (p *Placement) fit(parts []part, size Sizer, object string) {
	for i := range parts {
		parts[i].answers = p.fewEnough(parts[i].answers, parts[i].where)
	}
	p.withinBudget(parts, size, object)
}

// Sizer is the bytes of JSON an informer's insight takes in a status.
type Sizer func(informer string, insight insightsv1alpha1.UpdateInsight) int

// Part is the informers' answers about one part of a status: the control
// plane first, then each worker pool, which Where names in the notes ("the
// control plane", "pool worker").
type Part struct {
	Where   string
	Answers []Answer
}

// Fit holds parts as UpdateStatus' are held: at most MaxInformers a part,
// and every informer within its share of MaxInsightsBytes, each insight
// measured by size, as the status that holds it takes it. UpdatePlans,
// whose findings carry more than an insight, are held alike. What it
// leaves out and cuts is noted in p, naming object, what holds them.
func (p *Placement) Fit(parts []Part, size Sizer, object string) []Part {
	inner := make([]part, 0, len(parts))
	for _, pt := range parts {
		inner = append(inner, part{where: pt.Where, answers: pt.Answers})
	}
	p.fit(inner, size, object)
	out := make([]Part, 0, len(inner))
	for _, pt := range inner {
		out = append(out, Part{Where: pt.where, Answers: pt.answers})
	}
	return out
}

// fewEnough keeps at most MaxInformers of a part's answers: the operator's
// own first, then those with the most serious insight there, then by name.
// One left out that has insights there is noted; one with none had nothing
// to say there, and only leaves the list of those heard.
func (p *Placement) fewEnough(answers []Answer, where string) []Answer {
	if len(answers) <= MaxInformers {
		return answers
	}
	ranked := slices.Clone(answers)
	slices.SortStableFunc(ranked, func(a, b Answer) int {
		return cmp.Or(cmp.Compare(builtinRank(a.Informer), builtinRank(b.Informer)),
			cmp.Compare(mostSerious(a), mostSerious(b)), strings.Compare(a.Informer, b.Informer))
	})
	for _, a := range ranked[MaxInformers:] {
		if len(a.Insights) > 0 {
			p.cut(a.Informer, "left out of %s with its %d insights there: %s holds at most %d informers, the operator's own first, then those with the most serious insights, then by name",
				where, len(a.Insights), where, MaxInformers)
		}
	}
	kept := ranked[:MaxInformers]
	// The order of the part stays by informer.
	slices.SortFunc(kept, func(a, b Answer) int { return strings.Compare(a.Informer, b.Informer) })
	return kept
}

// mostSerious ranks an answer by its most serious insight, as
// UpdateInsightLevelRank does; one without insights comes after all, as no
// level ("") does.
func mostSerious(a Answer) int {
	rank := insightsv1alpha1.UpdateInsightLevelRank("")
	for _, i := range a.Insights {
		rank = min(rank, insightsv1alpha1.UpdateInsightLevelRank(i.Impact.Level))
	}
	return rank
}

// entrySize is the bytes of JSON an answer's entry in a part takes,
// insights apart.
func entrySize(a Answer) int {
	return JSONSize(insightsv1alpha1.InformerInsights{Name: a.Informer, Stale: a.Stale}) + 1
}

// insightSize is the bytes of JSON an insight takes in its entry of
// UpdateStatus.
func insightSize(_ string, i insightsv1alpha1.UpdateInsight) int {
	return JSONSize(i) + 1
}

// JSONSize is the bytes of JSON of one of the API's values.
func JSONSize(v any) int {
	raw, err := json.Marshal(v)
	if err != nil {
		// The API's types always marshal.
		panic(err)
	}
	return len(raw)
}

// held is one insight of an informer's entries, where it is held.
type held struct {
	part, answer, index int
	rank, size          int
	uid                 string
}

// withinBudget cuts each informer to its share of MaxInsightsBytes, over
// all its entries: the operator's own informers are served first, up to
// half of it, and the others share what is left fairly: each gets an
// equal share, and what one does not use of it is shared equally among
// those that want more. An informer over its share loses its least serious
// insights first, the largest first among those of one level.
func (p *Placement) withinBudget(parts []part, size Sizer, object string) {
	sizes := map[string]int{}
	insights := map[string][]held{}
	for pi, pt := range parts {
		for ai, a := range pt.answers {
			sizes[a.Informer] += entrySize(a)
			for ii, insight := range a.Insights {
				h := held{part: pi, answer: ai, index: ii, rank: insightsv1alpha1.UpdateInsightLevelRank(insight.Impact.Level), size: size(a.Informer, insight), uid: insight.UID}
				sizes[a.Informer] += h.size
				insights[a.Informer] = append(insights[a.Informer], h)
			}
		}
	}
	shares := Shares(sizes, MaxInsightsBytes)
	// cut are the indexes of the insights cut, by entry: part and answer.
	cut := map[[2]int]map[int]bool{}
	for informer, size := range sizes {
		share := shares[informer]
		if size <= share {
			continue
		}
		candidates := insights[informer]
		slices.SortStableFunc(candidates, func(a, b held) int {
			return cmp.Or(cmp.Compare(b.rank, a.rank), cmp.Compare(b.size, a.size), strings.Compare(a.uid, b.uid))
		})
		n := 0
		for _, h := range candidates {
			if size <= share {
				break
			}
			entry := [2]int{h.part, h.answer}
			if cut[entry] == nil {
				cut[entry] = map[int]bool{}
			}
			cut[entry][h.index] = true
			size -= h.size
			a := parts[h.part].answers[h.answer]
			if h.part > 0 && len(cut[entry]) == len(a.Insights) {
				// A worker pool's entry without insights leaves.
				size -= entrySize(a)
			}
			n++
		}
		p.cut(informer, "%d of %d insights cut to keep %s within its size budget: its share is %d bytes of %d, its insights took %d; the least serious and, of one level, the largest are cut first",
			n, len(candidates), object, share, MaxInsightsBytes, sizes[informer])
	}
	for entry, indexes := range cut {
		a := &parts[entry[0]].answers[entry[1]]
		var kept []insightsv1alpha1.UpdateInsight
		for i, insight := range a.Insights {
			if !indexes[i] {
				kept = append(kept, insight)
			}
		}
		a.Insights = kept
	}
	// Only the control plane lists the informers heard without insights
	// there.
	for i := 1; i < len(parts); i++ {
		parts[i].answers = slices.DeleteFunc(parts[i].answers, func(a Answer) bool { return len(a.Insights) == 0 })
	}
}

// Shares divides total among informers by the bytes each would take: the
// operator's own informers first, in turn, up to half of total together;
// then the others, fairly, from what is left: an
// informer that takes less than an equal share of what is left leaves the
// rest to the others (max-min fairness).
func Shares(sizes map[string]int, total int) map[string]int {
	shares := map[string]int{}
	left := total
	builtinLeft := total / 2
	var others []string
	for informer := range sizes {
		if !isBuiltin(informer) {
			others = append(others, informer)
		}
	}
	for _, informer := range BuiltinInformers {
		size, ok := sizes[informer]
		if !ok {
			continue
		}
		shares[informer] = min(size, builtinLeft)
		builtinLeft -= shares[informer]
		left -= shares[informer]
	}
	slices.SortFunc(others, func(a, b string) int { return cmp.Or(cmp.Compare(sizes[a], sizes[b]), strings.Compare(a, b)) })
	for i, informer := range others {
		share := min(sizes[informer], left/(len(others)-i))
		shares[informer] = share
		left -= share
	}
	return shares
}

// Size is the bytes of JSON of an UpdateStatus' status each informer's
// entries take, insights included, by informer.
func Size(status *insightsv1alpha1.UpdateStatusStatus) map[string]int {
	sizes := map[string]int{}
	entries := slices.Clone(status.ControlPlane.Informers)
	for _, pool := range status.WorkerPools {
		entries = append(entries, pool.Informers...)
	}
	for _, e := range entries {
		sizes[e.Name] += JSONSize(e) + 1
	}
	return sizes
}

// Largest is the informer with the largest entries in status, whose
// absence would most shrink it: another's than the operator's own while
// there is one with insights. ok is false when no informer has insights.
func Largest(status *insightsv1alpha1.UpdateStatusStatus) (informer string, size int, ok bool) {
	withInsights := map[string]bool{}
	for _, e := range status.ControlPlane.Informers {
		withInsights[e.Name] = withInsights[e.Name] || len(e.Insights) > 0
	}
	for _, pool := range status.WorkerPools {
		for _, e := range pool.Informers {
			withInsights[e.Name] = withInsights[e.Name] || len(e.Insights) > 0
		}
	}
	return LargestOf(Size(status), withInsights)
}

// LargestOf is, of the informers withInsights says have insights, the one
// whose entries take the most bytes by sizes: another's than the
// operator's own while there is one. ok is false when none has insights.
func LargestOf(sizes map[string]int, withInsights map[string]bool) (informer string, size int, ok bool) {
	var names []string
	for name, has := range withInsights {
		if has {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "", 0, false
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(compareBool(isBuiltin(a), isBuiltin(b)), cmp.Compare(sizes[b], sizes[a]), strings.Compare(a, b))
	})
	return names[0], sizes[names[0]], true
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// cut notes that something of an informer's answer was cut or left out:
// in Cut, for UpdateStatus' InsightsComplete, and in Notes, for the
// informer's own status.
func (p *Placement) cut(informer, format string, args ...any) {
	what := fmt.Sprintf(format, args...)
	p.Cut = append(p.Cut, informer+": "+what)
	if p.Notes == nil {
		p.Notes = map[string][]string{}
	}
	p.Notes[informer] = append(p.Notes[informer], what)
}
