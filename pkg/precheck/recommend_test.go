package precheck_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/precheck"
)

// concern is what a finding on an alert says, in the terms of oc's
// recommend: which alert, of which severity, what it suggests, and the
// details oc builds of its summary, description and runbook.
type concern struct{ Severity, Alert, State, Suggests, Details string }

// ocConcern is oc's message for an alert condition it found cause for
// concern in: "<severity> alert <name> <state>, <suggests>. <details>".
var ocConcern = regexp.MustCompile(`^  Message: (\w+) alert (\S+) (\w+), ([^.]+)\. (.*)$`)

// ourConcern is the summary of a finding on an alert.
var ourConcern = regexp.MustCompile(`^(\w+) alert (\S+) is (\w+), ([^:]+): `)

// The alert findings of clusters that `oc adm upgrade recommend --version`
// checked are those oc found cause for concern in: the same alerts, each
// saying what oc says of it.
func TestAlertFindingsAreThoseOfOcRecommend(t *testing.T) {
	for _, tt := range []struct {
		name string
		// concerns is how many alert conditions oc printed a cause for
		// concern for: a check that the reference output was read.
		concerns int
	}{
		{"4.16.27-degraded-monitoring", 2},
		{"4.19.0-okd-scos.16", 0},
	} {
		name := tt.name
		t.Run(name, func(t *testing.T) {
			answer, err := os.Open(recordedtest.RecommendExample(name + "-alerts.json"))
			if err != nil {
				t.Fatal(err)
			}
			defer answer.Close()
			firing, err := alerts.Decode(answer)
			if err != nil {
				t.Fatal(err)
			}
			outputs, err := os.ReadDir(recordedtest.RecommendExample(""))
			if err != nil {
				t.Fatal(err)
			}
			var want []concern
			for _, o := range outputs {
				if !strings.HasPrefix(o.Name(), name+".version-") {
					continue
				}
				printed, err := os.ReadFile(recordedtest.RecommendExample(o.Name()))
				if err != nil {
					t.Fatal(err)
				}
				for _, line := range strings.Split(string(printed), "\n") {
					if m := ocConcern.FindStringSubmatch(line); m != nil {
						want = append(want, concern{strings.ToLower(m[1]), m[2], m[3], m[4], m[5]})
					}
				}
			}

			if len(want) != tt.concerns {
				t.Fatalf("read %d concerns of oc's output, want %d: %+v", len(want), tt.concerns, want)
			}

			var got []concern
			for _, f := range precheck.Run(precheck.Input{Alerts: firing, Now: time.Date(2025, 1, 21, 12, 0, 0, 0, time.UTC)}) {
				if !strings.HasPrefix(f.UID, "alert/") {
					continue
				}
				m := ourConcern.FindStringSubmatch(f.Impact.Summary)
				if m == nil {
					t.Fatalf("finding %s: summary %q does not say which alert fires and what it suggests", f.UID, f.Impact.Summary)
				}
				got = append(got, concern{strings.ToLower(m[1]), m[2], m[3], m[4], f.Impact.Description})
			}
			byAlert := func(a, b concern) int { return strings.Compare(a.Alert+a.Details, b.Alert+b.Details) }
			slices.SortFunc(want, byAlert)
			slices.SortFunc(got, byAlert)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("alert findings (-oc's +ours):\n%s", diff)
			}
		})
	}
}
