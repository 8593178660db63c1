package updatestatus

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/equality"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// Store holds what the informers last answered, between whoever asks them
// (the UpdateInformers' controller, a built-in informer's own), which sets
// the answers, and the UpdateStatus controller, which aggregates them. It
// is safe for concurrent use. It is here, not in a controller, so that no
// controller imports another for it.
type Store struct {
	mu      sync.Mutex
	answers map[string]Answer
	// heard are the informers whose answers were set or deleted.
	heard   map[string]bool
	changed func()
	// notes say, by informer, what UpdateStatus left out of its answer;
	// noted is called with each informer whose note changes.
	notes map[string]string
	noted func(informer string)
	// planNotes say, by plan and informer, what the plan left out of the
	// informer's answer or shortened.
	planNotes map[string]map[string]string
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{answers: map[string]Answer{}, heard: map[string]bool{}, notes: map[string]string{}, planNotes: map[string]map[string]string{}}
}

// Set records an informer's answer, replacing its previous one.
func (s *Store) Set(a Answer) {
	s.update(func() bool {
		s.heard[a.Informer] = true
		previous, ok := s.answers[a.Informer]
		s.answers[a.Informer] = a
		return !ok || !equality.Semantic.DeepEqual(previous, a)
	})
}

// Delete forgets an informer: deleted or disabled, its insights leave.
func (s *Store) Delete(informer string) {
	s.update(func() bool {
		s.heard[informer] = true
		_, ok := s.answers[informer]
		delete(s.answers, informer)
		return ok
	})
}

// Seed records an answer of an informer that has not been set or deleted
// yet, and otherwise does nothing: what the UpdateStatus held of it
// before the operator restarted, which its first answer replaces, in
// whichever order the two come.
func (s *Store) Seed(a Answer) {
	s.update(func() bool {
		if s.heard[a.Informer] {
			return false
		}
		previous, ok := s.answers[a.Informer]
		s.answers[a.Informer] = a
		return !ok || !equality.Semantic.DeepEqual(previous, a)
	})
}

// SeedBuiltin seeds what status, the UpdateStatus written before the
// operator (re)started, holds of a built-in informer's insights, unless it
// answered already: the UpdateStatus controller then keeps those insights
// until the informer's first answer, instead of dropping them at its first
// write. Only for an informer whose controller runs, and replaces them.
func (s *Store) SeedBuiltin(status *insightsv1alpha1.UpdateStatus, informer string) {
	if status == nil {
		return
	}
	for _, i := range status.Status.ControlPlane.Informers {
		if i.Name == informer {
			s.Seed(Answer{Informer: informer, Insights: i.Insights})
			return
		}
	}
}

// Answers returns every informer's answer, by informer name.
func (s *Store) Answers() []Answer {
	s.mu.Lock()
	defer s.mu.Unlock()
	answers := make([]Answer, 0, len(s.answers))
	for _, a := range s.answers {
		answers = append(answers, a)
	}
	slices.SortFunc(answers, func(a, b Answer) int { return strings.Compare(a.Informer, b.Informer) })
	return answers
}

// OnChange sets what to call when an answer changes; it must not block.
func (s *Store) OnChange(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changed = f
}

func (s *Store) update(change func() bool) {
	s.mu.Lock()
	changed := change()
	notify := s.changed
	s.mu.Unlock()
	if changed && notify != nil {
		notify()
	}
}

// SetNotes records what UpdateStatus, as last written, left out of each
// informer's answer, replacing every previous note.
func (s *Store) SetNotes(notes map[string]string) {
	s.mu.Lock()
	var changed []string
	for informer, note := range notes {
		if s.notes[informer] != note {
			changed = append(changed, informer)
		}
	}
	for informer := range s.notes {
		if _, ok := notes[informer]; !ok {
			changed = append(changed, informer)
		}
	}
	s.notes = maps.Clone(notes)
	if s.notes == nil {
		s.notes = map[string]string{}
	}
	noted := s.noted
	s.mu.Unlock()
	slices.Sort(changed)
	if noted != nil {
		for _, informer := range changed {
			noted(informer)
		}
	}
}

// Note says what UpdateStatus left out of the informer's answer, if
// anything.
func (s *Store) Note(informer string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notes[informer]
}

// OnNote sets what to call with an informer whose note changes; it must
// not block.
func (s *Store) OnNote(f func(informer string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noted = f
}

// SetPlanNotes records what an UpdatePlan, as last written, left out of
// each informer's answer or shortened, replacing the plan's previous notes;
// nil forgets the plan.
func (s *Store) SetPlanNotes(plan string, notes map[string]string) {
	s.mu.Lock()
	previous := s.planNotes[plan]
	var changed []string
	for informer, note := range notes {
		if previous[informer] != note {
			changed = append(changed, informer)
		}
	}
	for informer := range previous {
		if _, ok := notes[informer]; !ok {
			changed = append(changed, informer)
		}
	}
	if len(notes) == 0 {
		delete(s.planNotes, plan)
	} else {
		s.planNotes[plan] = maps.Clone(notes)
	}
	noted := s.noted
	s.mu.Unlock()
	slices.Sort(changed)
	if noted != nil {
		for _, informer := range changed {
			noted(informer)
		}
	}
}

// PlanNotes says what each UpdatePlan left out of the informer's answer or
// shortened, a sentence a plan, by the plans' names.
func (s *Store) PlanNotes(informer string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, plan := range slices.Sorted(maps.Keys(s.planNotes)) {
		if note := s.planNotes[plan][informer]; note != "" {
			out = append(out, "UpdatePlan "+plan+": "+note+".")
		}
	}
	return strings.Join(out, " ")
}
