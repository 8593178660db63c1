package updatestatus

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestStoreSignalsOnlyChanges(t *testing.T) {
	s := NewStore()
	changes := 0
	s.OnChange(func() { changes++ })
	answer := Answer{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{{UID: "a"}}}

	s.Set(answer)
	s.Set(Answer{Informer: "another"})
	s.Set(answer)
	if changes != 2 {
		t.Errorf("%d changes signalled, want 2: the same answer again is no news", changes)
	}
	if diff := cmp.Diff([]Answer{{Informer: "another"}, answer}, s.Answers()); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	answer.Stale = true
	s.Set(answer)
	s.Delete("another")
	s.Delete("another")
	if changes != 4 {
		t.Errorf("%d changes signalled, want 4", changes)
	}
	if diff := cmp.Diff([]Answer{answer}, s.Answers()); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// A seed stands for an informer until it is heard from, whichever comes
// first: an answer replaces it, and it never replaces an answer, nor
// brings back an informer deleted.
func TestStoreSeedsOnlyInformersNotHeardFrom(t *testing.T) {
	s := NewStore()
	changes := 0
	s.OnChange(func() { changes++ })
	seeded := Answer{Informer: "olm", Insights: []insightsv1alpha1.UpdateInsight{{UID: "old"}}}
	fresh := Answer{Informer: "olm", Insights: []insightsv1alpha1.UpdateInsight{{UID: "new"}}}

	s.Seed(seeded)
	if diff := cmp.Diff([]Answer{seeded}, s.Answers()); diff != "" || changes != 1 {
		t.Errorf("after a seed, %d changes and answers (-want +got):\n%s", changes, diff)
	}
	s.Set(fresh)
	s.Seed(seeded)
	if diff := cmp.Diff([]Answer{fresh}, s.Answers()); diff != "" || changes != 2 {
		t.Errorf("a seed after an answer: %d changes, answers (-want +got):\n%s", changes, diff)
	}

	s.Delete("mco")
	s.Seed(Answer{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{{UID: "gone"}}})
	if diff := cmp.Diff([]Answer{fresh}, s.Answers()); diff != "" {
		t.Errorf("a seed after a deletion (-want +got):\n%s", diff)
	}
}

// A note is told to whoever watches, once for each informer whose note
// changed, cleared ones included.
func TestStoreNotes(t *testing.T) {
	s := NewStore()
	var noted []string
	s.OnNote(func(informer string) { noted = append(noted, informer) })
	s.SetNotes(map[string]string{"flood": "cut", "crowd": "left out"})
	s.SetNotes(map[string]string{"flood": "cut", "verbose": "shortened"})
	if diff := cmp.Diff([]string{"crowd", "flood", "crowd", "verbose"}, noted); diff != "" {
		t.Errorf("informers noted (-want +got):\n%s", diff)
	}
	if got := s.Note("flood") + "|" + s.Note("crowd") + "|" + s.Note("verbose"); got != "cut||shortened" {
		t.Errorf("notes %q, want cut||shortened", got)
	}
}

// Each plan's notes are kept apart, told as the others are, and said a
// sentence a plan; a plan forgotten takes its notes with it.
func TestStorePlanNotes(t *testing.T) {
	s := NewStore()
	var noted []string
	s.OnNote(func(informer string) { noted = append(noted, informer) })
	s.SetPlanNotes("4.18.1", map[string]string{"wide": "1 insights left out"})
	s.SetPlanNotes("4.17.9", map[string]string{"wide": "1 summary cut to 256 characters", "mco": "cut"})
	s.SetPlanNotes("4.17.9", map[string]string{"wide": "1 summary cut to 256 characters"})
	if diff := cmp.Diff([]string{"wide", "mco", "wide", "mco"}, noted); diff != "" {
		t.Errorf("informers noted (-want +got):\n%s", diff)
	}
	want := "UpdatePlan 4.17.9: 1 summary cut to 256 characters. UpdatePlan 4.18.1: 1 insights left out."
	if got := s.PlanNotes("wide"); got != want {
		t.Errorf("plan notes %q, want %q", got, want)
	}
	s.SetPlanNotes("4.18.1", nil)
	if got := s.PlanNotes("wide"); got != "UpdatePlan 4.17.9: 1 summary cut to 256 characters." {
		t.Errorf("plan notes after the plan is forgotten: %q", got)
	}
}
