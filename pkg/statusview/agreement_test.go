package statusview_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// BenchmarkReferenceAgreement measures how much of what the reference printed
// for the recorded clusters status reproduces: per case and output, the
// reference's lines that a line diff keeps (their longest common subsequence
// with ours), as is, without undoing the deliberate differences that
// TestRecordedClusters undoes. It reports figures and asserts nothing;
// hack/measure-agreement.sh prints them as a table.
//
//	go test ./pkg/statusview -run '^$' -bench ReferenceAgreement -benchtime 1x
func BenchmarkReferenceAgreement(b *testing.B) {
	var reproduced, total int
	for _, c := range recordedtest.Cases(b) {
		for _, suffix := range []string{".output", ".detailed-output"} {
			o := outputs[suffix]
			b.Run(c.Name+suffix, func(b *testing.B) {
				var got string
				for b.Loop() {
					got = render(b, c, o.details)
				}
				ours, theirs := textLines(got), textLines(o.reference(c))
				kept := reproducedLines(theirs, ours)
				reportAgreement(b, kept, len(theirs))
				reproduced += kept
				total += len(theirs)
			})
		}
	}
	// The sum over the outputs measured above: b.Loop runs each of them once.
	b.Run("total", func(b *testing.B) {
		for b.Loop() {
		}
		reportAgreement(b, reproduced, total)
	})
}

func reportAgreement(b *testing.B, reproduced, total int) {
	b.ReportMetric(float64(reproduced), "reproduced-lines")
	b.ReportMetric(float64(total), "oc-lines")
	if total > 0 {
		b.ReportMetric(100*float64(reproduced)/float64(total), "oc-lines-%")
	}
}

// render is what status prints for a recorded cluster.
func render(tb testing.TB, c recordedtest.Case, d statusview.Details) string {
	tb.Helper()
	s, err := statusview.Build(insightsOf(tb, analyze.Insights(c.Cluster, c.Now)), c.Now)
	if err != nil {
		tb.Fatal(err)
	}
	var out bytes.Buffer
	if err := statusview.WriteText(&out, s, d); err != nil {
		tb.Fatal(err)
	}
	return out.String()
}

// textLines are the lines of a text, without the empty one after its final
// line break.
func textLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// reproducedLines is the length of the longest common subsequence of two
// texts' lines: how many lines of want a line diff against got keeps.
func reproducedLines(want, got []string) int {
	// One row of the dynamic programme at a time: longest[j] is the answer
	// for the lines of want seen so far and got[:j].
	longest, previous := make([]int, len(got)+1), make([]int, len(got)+1)
	for _, w := range want {
		longest, previous = previous, longest
		for j, g := range got {
			if w == g {
				longest[j+1] = previous[j] + 1
			} else {
				longest[j+1] = max(previous[j+1], longest[j])
			}
		}
	}
	return longest[len(got)]
}

func TestReproducedLines(t *testing.T) {
	testCases := []struct {
		want, got string
		kept      int
	}{
		{want: "", got: "", kept: 0},
		{want: "a\nb\n", got: "", kept: 0},
		{want: "a\nb\nc\n", got: "a\nb\nc\n", kept: 3},
		{want: "a\nb\nc\n", got: "a\nx\nc\n", kept: 2},
		// Reordered blocks: only one of them can be kept.
		{want: "a\nb\nc\nd\n", got: "c\nd\na\nb\n", kept: 2},
		// A line we add costs nothing; one we change costs the reference's.
		{want: "a\nb\n", got: "a\nnew\nb\n", kept: 2},
		{want: "a\na\n", got: "a\n", kept: 1},
	}
	for _, tc := range testCases {
		t.Run(fmt.Sprintf("%q vs %q", tc.want, tc.got), func(t *testing.T) {
			if kept := reproducedLines(textLines(tc.want), textLines(tc.got)); kept != tc.kept {
				t.Errorf("reproducedLines = %d, want %d", kept, tc.kept)
			}
		})
	}
}
