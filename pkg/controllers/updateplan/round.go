package updateplan

import (
	"slices"
	"strings"
	"sync"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// round is one evaluation of a plan: the informers asked for one
// evaluation request, and their answers as they arrive. The sync of the
// plan and the goroutines asking its informers share it.
type round struct {
	uid     types.UID
	request string
	started time.Time

	mu         sync.Mutex
	byInformer map[string]updatestatus.Answer
	asked      map[string]bool
	// previous are the informers' answers of the plan's former round, if
	// this one answers a fresh evaluation request: an informer that cannot
	// be heard in this one keeps the findings it gave then, stale, rather
	// than lose them.
	previous map[string]updatestatus.Answer

	// refused are the answers whose findings the API server refused, and
	// accepted each informer's findings in the plan last written, which an
	// informer whose new findings are refused keeps, stale; only the plan's
	// sync uses them.
	refused  updatestatus.Refusals
	accepted map[string][]insightsv1alpha1.UpdateInsight
	// refusedSince is when refused last became non-empty, and held the
	// plan the API server refused with no informer left to leave out.
	refusedSince time.Time
	held         *heldPlan
}

type heldPlan struct {
	status insightsv1alpha1.UpdatePlanStatus
	at     time.Time
	err    error
}

func newRound(plan *insightsv1alpha1.UpdatePlan, started time.Time, kept map[string]updatestatus.Answer) *round {
	accepted := map[string][]insightsv1alpha1.UpdateInsight{}
	for name, a := range answersOf(plan) {
		accepted[name] = a.Insights
	}
	return &round{uid: plan.UID, request: plan.Spec.EvaluationRequest, started: started, byInformer: kept, asked: map[string]bool{},
		refused: updatestatus.Refusals{}, accepted: accepted}
}

// round returns the plan's current round. A new plan, or one that asks
// for a fresh evaluation, starts one without answers, so that the plan says
// it waits for them; a round InformerRefresh old is followed by one that
// keeps the answers until new ones arrive. After a restart, a plan whose
// status answers its evaluation request resumes that round from its status.
func (c *Controller) round(plan *insightsv1alpha1.UpdatePlan, now time.Time) *round {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.rounds[plan.Name]
	switch {
	case r == nil && plan.Status.ObservedEvaluationRequest == plan.Spec.EvaluationRequest && plan.Status.EvaluatedAt != nil:
		r = newRound(plan, plan.Status.EvaluatedAt.Time, answersOf(plan))
		if now.Sub(r.started) >= InformerRefresh {
			r = newRound(plan, now, r.byInformer)
			break
		}
		// The informers the status holds answered this round already.
		for name := range r.byInformer {
			r.asked[name] = true
		}
	case r == nil || r.uid != plan.UID || r.request != plan.Spec.EvaluationRequest:
		previous := answersOf(plan)
		if r != nil && r.uid == plan.UID {
			previous = r.snapshot()
		}
		former := r
		r = newRound(plan, now, map[string]updatestatus.Answer{})
		r.previous = previous
		if former != nil && former.uid == plan.UID {
			r.accepted = former.accepted
		}
	case now.Sub(r.started) >= InformerRefresh:
		former := r
		r = newRound(plan, now, r.snapshot())
		r.accepted = former.accepted
	}
	c.rounds[plan.Name] = r
	return r
}

func (c *Controller) forget(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.rounds, name)
	c.setNotes(name, nil)
	if c.refusals != nil {
		c.refusals.Refused(Name, name, nil)
	}
}

// ask asks each informer that handles plans, and has not been asked in
// this round, in a goroutine of its own: its answer queues the plan again.
// An informer no longer expected (disabled, deleted, no longer handling
// plans) is forgotten, its findings with it.
func (c *Controller) ask(plan *insightsv1alpha1.UpdatePlan, r *round, expected []*insightsv1alpha1.UpdateInformer, cv *configv1.ClusterVersion) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for name := range r.byInformer {
		if !slices.Contains(informerNames(expected), name) {
			delete(r.byInformer, name)
			delete(r.asked, name)
		}
	}
	for name := range r.previous {
		if !slices.Contains(informerNames(expected), name) {
			delete(r.previous, name)
		}
	}
	for _, informer := range expected {
		if r.asked[informer.Name] {
			continue
		}
		r.asked[informer.Name] = true
		go func() {
			answer := c.asker.AskPlan(c.ctx, informer, cv, plan.Spec.TargetRelease)
			r.set(answer)
			c.queue.Add(plan.Name)
		}()
	}
}

// set records an informer's answer. An informer that could not be heard
// keeps the findings it gave before, in this round or the plan's former
// one, marked stale, until it answers again or is no longer asked: the
// promise of docs/insights.md.
func (r *round) set(answer updatestatus.Answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if answer.Offline != "" && len(answer.Insights) == 0 {
		previous, ok := r.byInformer[answer.Informer]
		if !ok {
			previous = r.previous[answer.Informer]
		}
		answer.Insights, answer.Stale = previous.Insights, len(previous.Insights) > 0
	}
	r.byInformer[answer.Informer] = answer
}

func (r *round) snapshot() map[string]updatestatus.Answer {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]updatestatus.Answer, len(r.byInformer))
	for name, a := range r.byInformer {
		out[name] = a
	}
	return out
}

func (r *round) answers() []updatestatus.Answer {
	var out []updatestatus.Answer
	for _, a := range r.snapshot() {
		out = append(out, a)
	}
	return out
}

// answersOf are the informers' findings a plan's status holds, as their
// answers: the operator's own are made anew at each evaluation. An
// informer the status says did not answer stays not heard, so that the
// finding about it, which an administrator may have accepted, stays too.
func answersOf(plan *insightsv1alpha1.UpdatePlan) map[string]updatestatus.Answer {
	out := map[string]updatestatus.Answer{}
	for _, name := range updateplan.UnansweredInformers(&plan.Status) {
		out[name] = updatestatus.Answer{Informer: name, Offline: notHeardBeforeRestart}
	}
	for _, informer := range updateplan.Informers(&plan.Status) {
		if informer.Name == updatestatus.BuiltinInformer {
			continue
		}
		a := out[informer.Name]
		a.Informer, a.Stale = informer.Name, informer.Stale
		for _, i := range informer.Insights {
			a.Insights = append(a.Insights, i.UpdateInsight)
		}
		out[informer.Name] = a
	}
	return out
}

// keepAccepted gives each answer whose findings the API server refused the
// findings of its informer the API server last accepted in the plan,
// marked stale, as an informer that cannot be heard keeps its last: the
// refusal is still reported, and still keeps the plan from being accepted.
func (r *round) keepAccepted(answers []updatestatus.Answer) []updatestatus.Answer {
	out := slices.Clone(answers)
	for i, a := range out {
		if !a.Refused || a.Informer == updatestatus.BuiltinInformer {
			continue
		}
		kept := r.accepted[a.Informer]
		out[i].Insights, out[i].Stale = kept, len(kept) > 0
	}
	return out
}

// dropKept forgets the findings kept for the informers whose new ones
// were refused, and returns those informers: the API server refused a plan
// holding them too, and no one else's findings were left to leave out.
func (r *round) dropKept() []string {
	var dropped []string
	for name := range r.refused {
		if len(r.accepted[name]) > 0 {
			delete(r.accepted, name)
			dropped = append(dropped, name)
		}
	}
	slices.Sort(dropped)
	return dropped
}

// wrote records the findings of each informer in a plan the API server
// accepted.
func (r *round) wrote(answers []updatestatus.Answer) {
	for _, a := range answers {
		if a.Informer != updatestatus.BuiltinInformer {
			r.accepted[a.Informer] = a.Insights
		}
	}
}

// notHeardBeforeRestart is why an informer is not heard in a round resumed
// from a plan's status: it was not, before the operator restarted.
const notHeardBeforeRestart = "not heard before the operator restarted"

// planInformers are the enabled informers whose discovery says they handle
// plans.
func (c *Controller) planInformers() ([]*insightsv1alpha1.UpdateInformer, error) {
	all, err := c.informers.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	var out []*insightsv1alpha1.UpdateInformer
	for _, i := range all {
		if i.Spec.Enabled != nil && !*i.Spec.Enabled {
			continue
		}
		if slices.ContainsFunc(i.Status.Handlers, func(h insightsv1alpha1.InformerHandler) bool { return h.Name == insightsv1alpha1.PlanHandler }) {
			out = append(out, i)
		}
	}
	slices.SortFunc(out, func(a, b *insightsv1alpha1.UpdateInformer) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func informerNames(informers []*insightsv1alpha1.UpdateInformer) []string {
	out := make([]string, 0, len(informers))
	for _, i := range informers {
		out = append(out, i.Name)
	}
	return out
}
