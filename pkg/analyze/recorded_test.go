package analyze_test

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"slices"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/output"
)

// TestRecordedClusters analyzes every recorded cluster at the recording's
// clock, checks the output against its golden file (regenerate with
// `go test ./pkg/analyze -run TestRecordedClusters -update`), and checks that
// it agrees with what the reference client printed.
func TestRecordedClusters(t *testing.T) {
	for _, c := range recordedtest.Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			insights := analyze.Insights(c.Cluster, c.Now)
			list, err := analyze.List(insights)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := output.Write(&out, list, output.YAML); err != nil {
				t.Fatal(err)
			}
			recordedtest.CheckGolden(t, recordedtest.Golden(c.Name+".yaml"), out.Bytes())

			if len(insights) == 0 {
				t.Fatal("no insight")
			}
			cv, ok := insights[0].Object.(*insightsv1alpha1.ClusterVersionProgressInsight)
			if !ok {
				t.Fatalf("the first insight is a %T, not the ClusterVersion's", insights[0].Object)
			}
			checkAgreesWithReference(t, c, &cv.Status)
			checkOperatorsAgreeWithReference(t, c, insights)
			checkHealthAgreesWithReference(t, c, insights)
			checkNodesAgreeWithReference(t, c, insights)
			checkPoolsAgreeWithReference(t, c, insights)
		})
	}
}

var (
	targetLine     = regexp.MustCompile(`(?m)^Target Version:\s+(\S+) \(from (incomplete )?(\S+)\)$`)
	migrationLine  = regexp.MustCompile(`(?m)^Target Version:\s+(\S+) to Multi-Architecture$`)
	migrationText  = "Est. Time Remaining: N/A for Multi-Architecture Migration)"
	completionLine = regexp.MustCompile(`(?m)^Completion:\s+(\d+)% \((\d+) operators updated, (\d+) updating, (\d+) waiting\)$`)
	remainingText  = regexp.MustCompile(`Est\. Time Remaining: (\S+)\)`)
	overdueText    = regexp.MustCompile(`Est\. Time Remaining: N/A; estimate duration was (\S+)\)`)
	assessmentLine = regexp.MustCompile(`(?m)^Assessment:\s+(.+)$`)
	completedLine  = regexp.MustCompile(`(?m)^Update to (\S+) successfully completed at (\S+) \(duration: \S+\)$`)
)

// assessments are the reference's words for the control plane assessments
// (pkg/cli/admin/upgrade/status/controlplane.go, assessmentState).
var assessments = map[string]insightsv1alpha1.ClusterVersionAssessment{
	"Progressing":        insightsv1alpha1.ClusterVersionAssessmentProgressing,
	"Progressing - Slow": insightsv1alpha1.ClusterVersionAssessmentProgressingSlow,
	"Stalled":            insightsv1alpha1.ClusterVersionAssessmentStalled,
}

func checkAgreesWithReference(t *testing.T, c recordedtest.Case, got *insightsv1alpha1.ClusterVersionProgressInsightStatus) {
	t.Helper()
	checked := 0
	if strings.TrimSpace(c.Output) == "The cluster is not updating." {
		checked++
		if got.Assessment != insightsv1alpha1.ClusterVersionAssessmentCompleted || got.EstimatedCompletedAt != nil {
			t.Errorf("reference says not updating; got assessment %s, estimate %v", got.Assessment, got.EstimatedCompletedAt)
		}
	}
	if m := completedLine.FindStringSubmatch(c.Output); m != nil {
		checked++
		if got.Assessment != insightsv1alpha1.ClusterVersionAssessmentCompleted || got.Versions.Target.Version != m[1] ||
			got.CompletionPercent != 100 || got.CompletedAt == nil || got.CompletedAt.UTC().Format(time.RFC3339) != m[2] {
			t.Errorf("reference says the update to %s completed at %s; got %s to %s at %d%%, completed at %v",
				m[1], m[2], got.Assessment, got.Versions.Target.Version, got.CompletionPercent, got.CompletedAt)
		}
	}
	if m := assessmentLine.FindStringSubmatch(c.Output); m != nil {
		checked++
		if want, ok := assessments[m[1]]; !ok || got.Assessment != want {
			t.Errorf("reference assessment %s; got %s", m[1], got.Assessment)
		}
	}
	if m := targetLine.FindStringSubmatch(c.Output); m != nil {
		checked++
		if got.Versions.Target.Version != m[1] || got.Versions.Previous == nil || got.Versions.Previous.Version != m[3] {
			t.Errorf("reference says %s from %s; got %+v", m[1], m[3], got.Versions)
		}
		partial := got.Versions.Previous != nil && len(got.Versions.Previous.Metadata) == 1 && got.Versions.Previous.Metadata[0].Key == insightsv1alpha1.PartialMetadata
		if partial != (m[2] != "") {
			t.Errorf("reference says previous incomplete=%t; got metadata %v", m[2] != "", got.Versions.Previous)
		}
	}
	if m := migrationLine.FindStringSubmatch(c.Output); m != nil {
		checked++
		multi := []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.ArchitectureMetadata, Value: "multi"}}
		if got.Versions.Target.Version != m[1] || !cmp.Equal(got.Versions.Target.Metadata, multi) || got.Versions.Previous == nil || got.Versions.Previous.Version != m[1] {
			t.Errorf("reference says %s migrating to the multi-architecture payload; got %+v", m[1], got.Versions)
		}
	}
	if strings.Contains(c.Output, migrationText) {
		checked++
		if got.EstimatedCompletedAt != nil {
			t.Errorf("reference makes no estimate during a migration; got %v", got.EstimatedCompletedAt)
		}
	}
	if m := completionLine.FindStringSubmatch(c.Output); m != nil {
		checked++
		// The reference's percent, exactly.
		if want, updated := int32(atoi(t, m[1])), atoi(t, m[2]); got.CompletionPercent != want {
			t.Errorf("reference %d%% (%d updated); got %d%%", want, updated, got.CompletionPercent)
		}
	}
	if m := overdueText.FindStringSubmatch(c.Output); m != nil {
		checked++
		if got.EstimatedCompletedAt == nil || got.StartedAt == nil {
			t.Fatalf("reference estimated a duration of %s; got no estimate", m[1])
		}
		// The reference prints this duration with its seconds cut off.
		if duration := shortDuration(got.EstimatedCompletedAt.Sub(got.StartedAt.Time).Truncate(time.Minute)); duration != m[1] {
			t.Errorf("reference estimated a duration of %s; got %s", m[1], duration)
		}
	} else if m := remainingText.FindStringSubmatch(c.Output); m != nil {
		checked++
		if got.EstimatedCompletedAt == nil {
			t.Fatalf("reference estimated %s remaining; got no estimate", m[1])
		}
		left := got.EstimatedCompletedAt.Sub(c.Now)
		// The reference prints "<10m" for anything from 10 minutes past
		// the estimate to 10 minutes before it.
		if m[1] == "<10m" {
			if left <= -10*time.Minute || left >= 10*time.Minute {
				t.Errorf("reference estimated <10m remaining; got %s", left)
			}
		} else if remaining := shortDuration(left); remaining != m[1] {
			t.Errorf("reference estimated %s remaining; got %s", m[1], remaining)
		}
	}
	if checked == 0 {
		t.Errorf("found nothing to compare in the reference output:\n%s", c.Output)
	}
}

var (
	updatingLine = regexp.MustCompile(`(?m)^Updating:\s+(.+)$`)
	healthLine   = regexp.MustCompile(`(?m)^Operator Health:\s+(.+)$`)
	healthCount  = regexp.MustCompile(`^(\d+) (.+)$`)
)

// operatorHealthWording is how the reference names each Healthy reason.
var operatorHealthWording = map[string]string{
	insightsv1alpha1.ClusterOperatorAsExpected:  "Healthy",
	insightsv1alpha1.ClusterOperatorUnavailable: "Unavailable",
	insightsv1alpha1.ClusterOperatorDegraded:    "Available but degraded",
}

// checkOperatorsAgreeWithReference compares the ClusterOperator insights
// with the reference's "Updating:" operators, its counts of updated,
// updating and waiting operators, and its operator health counts.
func checkOperatorsAgreeWithReference(t *testing.T, c recordedtest.Case, insights []analyze.Insight) {
	t.Helper()
	var updating []string
	reasons := map[string]int{}
	health := map[string]int{}
	for _, i := range insights {
		o, ok := i.Object.(*insightsv1alpha1.ClusterOperatorProgressInsight)
		if !ok {
			continue
		}
		s := o.Status
		reasons[s.Conditions[0].Reason]++
		if s.Conditions[0].Status == "True" {
			updating = append(updating, s.Name)
		}
		health[operatorHealthWording[s.Conditions[1].Reason]]++
	}

	wantUpdating := ""
	if m := updatingLine.FindStringSubmatch(c.Output); m != nil {
		wantUpdating = m[1]
	}
	if got := strings.Join(updating, ", "); got != wantUpdating {
		t.Errorf("reference says updating: %q; insights say %q", wantUpdating, got)
	}
	if m := completionLine.FindStringSubmatch(c.Output); m != nil {
		want := map[string]int{"updated": atoi(t, m[2]), "updating": atoi(t, m[3]), "waiting": atoi(t, m[4])}
		got := map[string]int{
			"updated":  reasons[insightsv1alpha1.ClusterOperatorUpdated],
			"updating": reasons[insightsv1alpha1.ClusterOperatorProgressing],
			"waiting":  reasons[insightsv1alpha1.ClusterOperatorPending] + reasons[insightsv1alpha1.ClusterOperatorCannotDetermine],
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("operator counts (-reference +insights):\n%s", diff)
		}
	}
	if m := healthLine.FindStringSubmatch(c.Output); m != nil {
		want := map[string]int{}
		for _, part := range strings.Split(m[1], ", ") {
			pm := healthCount.FindStringSubmatch(part)
			if pm == nil {
				t.Fatalf("cannot read operator health %q", part)
			}
			want[pm[2]] = atoi(t, pm[1])
		}
		if diff := cmp.Diff(want, health); diff != "" {
			t.Errorf("operator health (-reference +insights):\n%s", diff)
		}
	}
}

var healthTable = regexp.MustCompile(`(?s)= Update Health =\nSINCE\s+LEVEL\s+IMPACT\s+MESSAGE\n(.*?)(\n\n|$)`)

// referenceOnly are the rows the reference prints that this project has no
// insight for, on purpose.
var referenceOnly = map[*regexp.Regexp]string{
	regexp.MustCompile(`^Update is proceeding well$`): "the reference's placeholder when it finds no problem; no problem, no insight",
}

// checkHealthAgreesWithReference compares the health insights with the rows
// of the reference's health table: level, impact and message.
func checkHealthAgreesWithReference(t *testing.T, c recordedtest.Case, insights []analyze.Insight) {
	t.Helper()
	type row struct{ level, impact, message string }
	var want []row
	if m := healthTable.FindStringSubmatch(c.Output); m != nil {
	rows:
		for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
			fields := regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(line), 4)
			if len(fields) != 4 {
				t.Fatalf("cannot read health row %q", line)
			}
			for pattern := range referenceOnly {
				if pattern.MatchString(fields[3]) {
					continue rows
				}
			}
			want = append(want, row{level: fields[1], impact: fields[2], message: fields[3]})
		}
	}
	var got []row
	for _, i := range insights {
		h, ok := i.Object.(*insightsv1alpha1.UpdateHealthInsight)
		if !ok {
			continue
		}
		s := h.Status
		got = append(got, row{level: string(s.Impact.Level), impact: string(s.Impact.Type), message: s.Impact.Summary})
	}
	less := func(a, b row) int { return strings.Compare(a.message, b.message) }
	slices.SortFunc(want, less)
	slices.SortFunc(got, less)
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(row{})); diff != "" {
		t.Errorf("health (-reference +insights):\n%s", diff)
	}
}

// shortDuration prints a duration as the reference does: 1h12m, 28m, 1m29s.
func shortDuration(d time.Duration) string {
	s := d.String()
	s = strings.TrimSuffix(s, "m0s")
	if strings.HasSuffix(d.String(), "m0s") {
		s += "m"
	}
	return strings.Replace(s, "h0m", "h", 1)
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
