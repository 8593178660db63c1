package analyze_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// nodeRow is a row of the reference's node tables.
type nodeRow struct {
	Pool, Assessment, Phase, Version, Est, Message string
}

// nodePhaseDifferences are phases the node rows deliberately word apart
// from the reference: the insight says it cannot determine the phase of a
// node whose current configuration (and so version) is not known, which the
// reference calls Pending.
var nodePhaseDifferences = map[string]string{"Unknown": "Pending"}

// referencePastDrainingEstimate is what the reference estimates for any node
// past draining (updating or rebooting). The insight counts the pool's time
// per node down from when the node began, which is 10 minutes for a node of
// a recording, where no node has been seen to finish.
const referencePastDrainingEstimate = "+5m"

var nodeTableHeader = regexp.MustCompile(`(?m)^(Control Plane Nodes|Worker Pool Nodes: (\S+))\n(NAME +ASSESSMENT +PHASE +VERSION +EST +MESSAGE)\n`)

// referenceNodeRows reads the node tables of the reference's detailed
// output, by node name.
func referenceNodeRows(t *testing.T, detailed string) map[string]nodeRow {
	t.Helper()
	rows := map[string]nodeRow{}
	for _, m := range nodeTableHeader.FindAllStringSubmatchIndex(detailed, -1) {
		pool := "master"
		if m[4] >= 0 {
			pool = detailed[m[4]:m[5]]
		}
		header := detailed[m[6]:m[7]]
		columns := []int{0}
		for _, name := range []string{"ASSESSMENT", "PHASE", "VERSION", "EST", "MESSAGE"} {
			columns = append(columns, strings.Index(header, name))
		}
		body := detailed[m[1]:]
		if end := strings.Index(body, "\n\n"); end >= 0 {
			body = body[:end]
		}
		for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
			field := func(i int) string {
				start, end := columns[i], len(line)
				if i+1 < len(columns) {
					end = min(columns[i+1], len(line))
				}
				if start >= len(line) {
					return ""
				}
				return strings.TrimSpace(line[start:end])
			}
			rows[field(0)] = nodeRow{Pool: pool, Assessment: field(1), Phase: field(2), Version: field(3), Est: field(4), Message: field(5)}
		}
	}
	return rows
}

// asReferenceRow renders a node insight as `status` shows it in a node table.
func asReferenceRow(s *insightsv1alpha1.NodeProgressInsightStatus) nodeRow {
	n := statusview.NodeOf(s)
	row := nodeRow{Pool: s.PoolResource.Name, Assessment: n.Assessment, Phase: n.Phase, Version: n.Version, Est: n.Estimate(), Message: n.Message}
	if row.Version == "" {
		row.Version = "?"
	}
	return row
}

// checkNodesAgreeWithReference compares every node insight with its row in
// the reference's node tables, and the set of nodes with the set of rows.
func checkNodesAgreeWithReference(t *testing.T, c recordedtest.Case, insights []analyze.Insight) {
	t.Helper()
	want := referenceNodeRows(t, c.Detailed)
	got := map[string]nodeRow{}
	poolDone := map[string]bool{}
	for _, i := range insights {
		switch o := i.Object.(type) {
		case *insightsv1alpha1.NodeProgressInsight:
			got[o.Status.Name] = asReferenceRow(&o.Status)
		case *insightsv1alpha1.MachineConfigPoolProgressInsight:
			poolDone[o.Status.Name] = o.Status.Assessment == insightsv1alpha1.PoolCompleted
		}
	}
	// The reference prints no table for a control plane whose nodes are
	// all updated, only a line saying so.
	if strings.Contains(c.Detailed, "All control plane nodes successfully updated") {
		if !poolDone["master"] {
			t.Errorf("reference says all control plane nodes are updated; the master pool insight does not")
		}
		for name, row := range got {
			if row.Pool == "master" {
				delete(got, name)
			}
		}
	}
	if c.Output == "The cluster is not updating.\n" {
		if len(want) != 0 {
			t.Fatalf("reference prints nodes for a cluster it says is not updating")
		}
		for name, row := range got {
			if row.Assessment != "Completed" {
				t.Errorf("node %s: %+v in a cluster that is not updating", name, row)
			}
		}
		return
	}
	if len(want) == 0 {
		t.Fatalf("no node table in the reference output")
	}
	for name, row := range got {
		// The insight API caps the message at 100 characters, cut with an
		// ellipsis; the reference prints the whole reason.
		if cut, ok := strings.CutSuffix(row.Message, "…"); ok && strings.HasPrefix(want[name].Message, cut) {
			row.Message = want[name].Message
		}
		if phase, ok := nodePhaseDifferences[row.Phase]; ok && want[name].Phase == phase {
			row.Phase = phase
		}
		if (row.Phase == "Updating" || row.Phase == "Rebooting") && row.Est == "+10m" && want[name].Est == referencePastDrainingEstimate {
			row.Est = referencePastDrainingEstimate
		}
		got[name] = row
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("node rows (-reference +insights):\n%s", diff)
	}
}

var poolRow = regexp.MustCompile(`(?m)^(\S+) +(\S+) +(\d+)% \((\d+)/(\d+)\) +(.+)$`)

// checkPoolsAgreeWithReference compares the pool insights with the rows of
// the reference's worker pool table: assessment, completion and counts.
func checkPoolsAgreeWithReference(t *testing.T, c recordedtest.Case, insights []analyze.Insight) {
	t.Helper()
	want := map[string]string{}
	if start := strings.Index(c.Detailed, "WORKER POOL "); start >= 0 {
		table := c.Detailed[start:]
		table = table[:strings.Index(table, "\n\n")]
		for _, m := range poolRow.FindAllStringSubmatch(table, -1) {
			want[m[1]] = fmt.Sprintf("%s %s%% (%s/%s) %s", m[2], m[3], m[4], m[5], m[6])
		}
	}
	got := map[string]string{}
	for _, i := range insights {
		pool, ok := i.Object.(*insightsv1alpha1.MachineConfigPoolProgressInsight)
		// The reference has no row for the control plane's pool, nor for
		// a pool without nodes (a compact cluster's worker pool); the
		// insights describe every pool.
		if !ok || pool.Status.ScopeType == insightsv1alpha1.ScopeTypeControlPlane || summary(&pool.Status, insightsv1alpha1.NodesTotal) == 0 {
			continue
		}
		got[pool.Status.Name] = asReferencePoolRow(&pool.Status)
	}
	if c.Output == "The cluster is not updating.\n" {
		want = got
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("worker pool rows (-reference +insights):\n%s", diff)
	}
}

func asReferencePoolRow(s *insightsv1alpha1.MachineConfigPoolProgressInsightStatus) string {
	total, outdated := summary(s, insightsv1alpha1.NodesTotal), summary(s, insightsv1alpha1.NodesOutdated)
	status := fmt.Sprintf("%d Available, %d Progressing, %d Draining", summary(s, insightsv1alpha1.NodesAvailable),
		summary(s, insightsv1alpha1.NodesProgressing), summary(s, insightsv1alpha1.NodesDraining))
	for _, t := range []insightsv1alpha1.NodeSummaryType{insightsv1alpha1.NodesExcluded, insightsv1alpha1.NodesDegraded} {
		if n := summary(s, t); n > 0 {
			status += fmt.Sprintf(", %d %s", n, t)
		}
	}
	return fmt.Sprintf("%s %d%% (%d/%d) %s", s.Assessment, s.CompletionPercent, total-outdated, total, status)
}

func summary(s *insightsv1alpha1.MachineConfigPoolProgressInsightStatus, t insightsv1alpha1.NodeSummaryType) int32 {
	for _, sum := range s.Summaries {
		if sum.Type == t {
			return sum.Count
		}
	}
	return 0
}
