package statusview_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// TestRecordedClusters renders what analyze computes for every recorded
// cluster, checks it against its golden files (regenerate with
// `go test ./pkg/statusview -run TestRecordedClusters -update`), and against
// what the reference printed, but for the differences listed in differences.
func TestRecordedClusters(t *testing.T) {
	for _, c := range recordedtest.Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			s, err := statusview.Build(insightsOf(t, analyze.Insights(c.Cluster, c.Now)), c.Now)
			if err != nil {
				t.Fatal(err)
			}
			for suffix, o := range outputs {
				var out bytes.Buffer
				if err := statusview.WriteText(&out, s, o.details); err != nil {
					t.Fatal(err)
				}
				recordedtest.CheckGolden(t, recordedtest.Golden(filepath.Join(golden, c.Name+suffix)), out.Bytes())
				checkAgreesWithReference(t, c.Name+suffix, o.reference(c), out.String())
			}
			content, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			recordedtest.CheckGolden(t, recordedtest.Golden(filepath.Join(golden, c.Name+".json")), append(content, '\n'))
		})
	}
}

// checkAgreesWithReference compares our output with the reference's once
// every expected difference of the file has been undone, and fails on an
// expected difference that no longer occurs.
func checkAgreesWithReference(t *testing.T, file, reference, got string) {
	t.Helper()
	for _, d := range differences {
		if !d.appliesTo(file) {
			continue
		}
		if !d.ours.MatchString(got) {
			t.Errorf("%s: the expected difference %q no longer occurs (%s)", file, d.ours, d.reason)
			continue
		}
		got = d.ours.ReplaceAllString(got, d.reference)
	}
	if diff := cmp.Diff(lines(reference), lines(got)); diff != "" {
		t.Errorf("%s: unexpected differences from the reference (-reference +ours):\n%s", file, diff)
	}
}
