package updateplan

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// A finding an answer held and the plan does not (one the API would
// refuse, one of an answer the API server refused) keeps the plan from
// being accepted, however many shown are accepted, and is counted for the
// informer; a shortened summary is counted, and blocks nothing.
func TestFindingsLeftOutAreCountedAndBlockAcceptance(t *testing.T) {
	kept := finding("kept", insightsv1alpha1.WarningInsightLevel)
	long := kept
	long.UID = "long"
	long.Impact.Summary = strings.Repeat("s", 300)
	acceptAll := plan(accept("chatty", Identity("chatty", kept), true), accept("chatty", Identity("chatty", long), true))
	tests := []struct {
		name     string
		answers  []updatestatus.Answer
		accepted state
		notes    map[string]string
	}{{
		name:     "every finding kept and accepted",
		answers:  []updatestatus.Answer{{Informer: "chatty", Insights: []insightsv1alpha1.UpdateInsight{kept}}},
		accepted: state{"True", ReasonAllAccepted, "The 1 finding is accepted."},
		notes:    map[string]string{},
	}, {
		name: "a finding the API would refuse left out",
		answers: []updatestatus.Answer{{Informer: "chatty", Insights: []insightsv1alpha1.UpdateInsight{kept},
			Problem: `1 insights left out, which the API would refuse: insight "uuu": uid longer than 256 characters`}},
		accepted: state{"False", ReasonInsightsCut, `The plan could not hold every finding, so not all can be accepted: chatty: 1 insights left out, which the API would refuse: insight "uuu": uid longer than 256 characters`},
		notes:    map[string]string{"chatty": `1 insights left out, which the API would refuse: insight "uuu": uid longer than 256 characters`},
	}, {
		name: "an answer the API server refused",
		answers: []updatestatus.Answer{{Informer: "chatty", Refused: true, Offline: updatestatus.RefusedReason,
			Problem: "the API server refused a status holding its insights"}},
		accepted: state{"False", ReasonInsightsCut, "The plan could not hold every finding, so not all can be accepted: chatty: the API server refused a status holding its insights"},
		notes:    map[string]string{"chatty": "the API server refused a status holding its insights"},
	}, {
		name:     "a summary shortened",
		answers:  []updatestatus.Answer{{Informer: "chatty", Insights: []insightsv1alpha1.UpdateInsight{kept, long}}},
		accepted: state{"True", ReasonAllAccepted, "All 2 findings are accepted."},
		notes:    map[string]string{"chatty": "1 summary cut to 256 characters"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Evaluate(Input{Plan: acceptAll, Answers: tt.answers, Expected: []string{"chatty"}, EvaluatedAt: now, Now: now})
			if diff := cmp.Diff(tt.accepted, conditions(got.Status)[ConditionAccepted]); diff != "" {
				t.Errorf("Accepted (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.notes, got.Notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}
