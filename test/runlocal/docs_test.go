package main

import (
	"strings"
	"testing"
	"time"

	"github.com/update-insights/update-insights-operator/test/internal/docexamples"
)

// The documentation shows the walkthrough's, the managed mode's and the
// hosted mode's commands as run-local runs them: a step added or changed on one side
// only fails here, without a cluster, rather than in make test-run-local.
func TestTheDocumentationShowsTheCommandsRunLocalRuns(t *testing.T) {
	// run-local reads the documentation from the repository's root, where
	// make runs it.
	t.Chdir("../..")
	s, err := loadScenario("test/testdata/oc-examples/4.15.0-ec2-early", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	w := walkthrough{binary: "_output/bin/update-insights-operator", kubeconfig: "_output/run-local/kubeconfig", target: s.offers.next.Version, minor: s.offers.minor.Version}
	var steps [][]string
	for _, s := range w.steps() {
		steps = append(steps, s.args)
	}
	testCases := []struct {
		scenario string
		steps    [][]string
	}{
		{scenario: docexamples.Walkthrough, steps: steps},
		{scenario: docexamples.Managed, steps: [][]string{{"status"}}},
		{scenario: docexamples.Hosted, steps: [][]string{{"status"}}},
	}
	for _, tt := range testCases {
		t.Run(tt.scenario, func(t *testing.T) {
			if _, err := documentedAs(tt.scenario, tt.steps); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestMatches(t *testing.T) {
	doc := docexamples.Command{
		File: "docs/administrators.md", Line: 1,
		Output: []string{
			"Evaluated:  2026-11-22T21:27:27Z (1s ago)",
			"...",
			"Accepted:   True",
		},
		ExitCode: new(int),
	}
	printed := "UpdatePlan 4.15.0-ec.3: waiting for the operator to evaluate the plan (1s)\n" +
		"UpdatePlan 4.15.0-ec.3: waiting for the findings of demo-informer (2s)\n" +
		"Evaluated:  2026-11-24T04:01:02.5Z (3s ago)\n" +
		"Status:     fine\n" +
		"Accepted:   True\n"
	testCases := []struct {
		name    string
		doc     []string
		printed string
		code    int
		wantErr bool
	}{
		{name: "other times, and progress lines", doc: doc.Output, printed: printed},
		{name: "another line", doc: doc.Output, printed: strings.Replace(printed, "Accepted:   True", "Accepted:   False", 1), wantErr: true},
		{name: "another exit code", doc: doc.Output, printed: printed, code: 1, wantErr: true},
		{name: "a countdown to a time, to the minute", doc: []string{"Informers:       Managed update scheduled for 2026-11-22T23:48:48Z, in under a minute (managed-upgrade)"},
			printed: "Informers:       Managed update scheduled for 2026-11-24T05:39:04Z, in 1m (managed-upgrade)\n"},
		{name: "a countdown in another sentence", doc: []string{"Informers:       Managed update scheduled for 2026-11-22T23:48:48Z, in under a minute (managed-upgrade)"},
			printed: "Informers:       Managed update held for 2026-11-24T05:39:04Z, in 1m (managed-upgrade)\n", wantErr: true},
		{name: "how long a health insight has lasted", doc: []string{"SINCE   LEVEL     IMPACT", "1m30s   Warning   Update Stalled   Pod payments/ledger-7c9d8b6f5d-q8z2x holds the drain"},
			printed: "SINCE   LEVEL     IMPACT\n2m0s    Warning   Update Stalled   Pod payments/ledger-7c9d8b6f5d-q8z2x holds the drain\n"},
		{name: "a SINCE column as wide as its widest value", doc: []string{"SINCE    LEVEL   IMPACT   MESSAGE", "14m20s   Info    None     Update is proceeding well"},
			printed: "SINCE   LEVEL   IMPACT   MESSAGE\n14m5s   Info    None     Update is proceeding well\n"},
		{name: "how long a held drain has lasted, at another level", doc: []string{"ip-10-0-20-162   payments/ledger-7c9d8b6f5d-q8z2x   payments/ledger   1m30s   Warning"},
			printed: "ip-10-0-20-162   payments/ledger-7c9d8b6f5d-q8z2x   payments/ledger   1h0m0s   Error\n", wantErr: true},
		{name: "a node's estimate and an update's duration", doc: []string{"Update to 4.15.0-ec.2 successfully completed at 2026-11-27T12:18:03Z (duration: 13m)", "ip-10-0-20-162   Progressing   Draining   4.14.1    +9m   Drain held"},
			printed: "Update to 4.15.0-ec.2 successfully completed at 2026-11-28T08:00:00Z (duration: 14m)\nip-10-0-20-162   Progressing   Draining   4.14.1    +8m   Drain held\n"},
		{name: "a duration in another sentence", doc: []string{"Status:     The update should take about 1h6m"},
			printed: "Status:     The update should take about 1h7m\n", wantErr: true},
		{name: "a progress line shown", doc: append([]string{"UpdatePlan 4.15.0-ec.3: waiting for the operator to evaluate the plan (0s)"}, doc.Output...), printed: printed, wantErr: true},
	}
	for _, tt := range testCases {
		t.Run(tt.name, func(t *testing.T) {
			doc := doc
			doc.Output = tt.doc
			if err := matches(doc, tt.printed, tt.code); (err != nil) != tt.wantErr {
				t.Errorf("matches() = %v, want an error: %t", err, tt.wantErr)
			}
		})
	}
}
