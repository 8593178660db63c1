package hostedview

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// unknown stands for a value the insights do not tell, as status prints it.
const unknown = "?"

// maxProblemCell is how many characters of a problem the fleet's table
// shows: a whole message would push every row off the screen.
const maxProblemCell = 80

// continuation indents a value's further lines under its first, after a
// label of the control plane's width.
const continuation = "                 "

// WriteFleet writes the fleet's table, one line per hosted cluster, those
// that need attention first.
func WriteFleet(w io.Writer, f *Fleet) error {
	if len(f.Clusters) == 0 {
		_, err := io.WriteString(w, "No HostedClusterProgressInsights or NodePoolProgressInsights: the operator reports on no hosted cluster.\n")
		return err
	}
	var b bytes.Buffer
	t := newTable(&b)
	fmt.Fprint(t, "NAMESPACE/NAME\tFROM -> TO\tCONTROL PLANE\tNODEPOOLS\tETA\tPROBLEM\n")
	for i := range f.Clusters {
		c := &f.Clusters[i]
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\n", cell(c.Namespace+"/"+c.Name), cell(fromTo(c)), controlPlaneCell(c),
			nodePoolsCell(c.NodePoolCount), estimateCell(c.Estimate, f.Now.Time), cell(problemCell(c)))
	}
	_ = t.Flush()
	_, err := w.Write(b.Bytes())
	return err
}

// WriteCluster writes one hosted cluster's update in the layout of
// status: the control plane, then a section per NodePool.
func WriteCluster(w io.Writer, c *Cluster, now time.Time) error {
	var b bytes.Buffer
	writeControlPlane(&b, c, now)
	for i := range c.NodePools {
		writeNodePool(&b, &c.NodePools[i], c, now)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func writeControlPlane(b *bytes.Buffer, c *Cluster, now time.Time) {
	fmt.Fprintf(b, "= Control Plane: %s/%s =\n", c.Namespace, c.Name)
	if c.InsightMissing {
		fmt.Fprintf(b, "Assessment:      %s (no HostedClusterProgressInsight %s/%s was read: the operator has not reported on this HostedCluster, only on its NodePools)\n", unknown, c.Namespace, c.Name)
		writeNodePoolCount(b, c.NodePoolCount)
		return
	}
	if c.Assessment == insightsv1alpha1.HostedClusterAssessmentCompleted {
		completedAt, duration := unknown, unknown
		if c.CompletedAt != nil {
			completedAt = c.CompletedAt.UTC().Format(time.RFC3339)
			if c.StartedAt != nil {
				duration = text.Minutes(c.CompletedAt.Sub(c.StartedAt.Time))
			}
		}
		fmt.Fprintf(b, "Update to %s successfully completed at %s (duration: %s)\n", orUnknown(c.Versions.Target.Version), completedAt, duration)
	} else {
		assessment := orUnknown(string(c.Assessment))
		if why := c.unknownWhy(); why != "" {
			assessment += " (" + why + ")"
		}
		fmt.Fprintf(b, "Assessment:      %s\n", assessment)
		fmt.Fprintf(b, "Target Version:  %s\n", targetVersion(c.Versions))
		// A Blocked or Unknown update has not begun what completion and
		// duration would measure.
		if under(c.Assessment) {
			fmt.Fprintf(b, "Completion:      %d%%\n", c.CompletionPercent)
			fmt.Fprintf(b, "Duration:        %s\n", duration(c.StartedAt, c.EstimatedCompletedAt, now))
		}
	}
	writeNodePoolCount(b, c.NodePoolCount)
	writeProblems(b, c.Problems, now)
}

func writeNodePoolCount(b *bytes.Buffer, n NodePoolCount) {
	fmt.Fprintf(b, "NodePools:       %s updated\n", nodePoolsCell(n))
}

func writeNodePool(b *bytes.Buffer, p *NodePool, c *Cluster, now time.Time) {
	fmt.Fprintf(b, "\n= NodePool: %s/%s =\n", c.Namespace, p.Name)
	fmt.Fprintf(b, "Upgrade Type:    %s\n", orUnknown(string(p.UpgradeType)))
	fmt.Fprintf(b, "Assessment:      %s\n", orUnknown(string(p.Assessment)))
	target := orUnknown(p.Versions.Target)
	switch {
	case p.Versions.Current != "" && p.Versions.Current != p.Versions.Target:
		target += " (from " + p.Versions.Current + ")"
	case p.Versions.Current != "" && p.StartedAt != nil && p.Assessment != insightsv1alpha1.PoolCompleted:
		// Rolling out with the release unchanged: a new configuration.
		target += " (a new configuration)"
	}
	fmt.Fprintf(b, "Target Version:  %s\n", target)
	fmt.Fprintf(b, "Completion:      %d%%\n", p.CompletionPercent)
	fmt.Fprintf(b, "Machines:        %s\n", machines(p.Machines))
	if h := p.HoldingMachine; h != nil {
		writeHolding(b, h, now)
	}
	if p.MinorsBehind != nil {
		fmt.Fprintf(b, "Skew:            %s\n", skew(*p.MinorsBehind))
	}
	if p.Assessment != insightsv1alpha1.PoolCompleted {
		fmt.Fprintf(b, "Duration:        %s\n", duration(p.StartedAt, p.EstimatedCompletedAt, now))
	}
	writeProblems(b, p.Problems, now)
}

// writeHolding names the machine that holds the rollout and Cluster API's
// words for why, each further line of its message (a drain's lists a pod
// or budget a line) under the first.
func writeHolding(b *bytes.Buffer, h *insightsv1alpha1.HoldingMachine, now time.Time) {
	machine := "Machine " + h.Name
	if h.Node != "" {
		machine += " (node " + h.Node + ")"
	}
	fmt.Fprintf(b, "Held By:         %s: %s", machine, h.Reason)
	if h.Since != nil {
		fmt.Fprintf(b, " since %s ago", ago(h.Since, now))
	}
	b.WriteString("\n")
	if h.Message != "" {
		for _, line := range strings.Split(strings.TrimRight(h.Message, "\n"), "\n") {
			fmt.Fprintf(b, "%s%s\n", continuation, line)
		}
	}
}

// writeProblems writes problems as status writes the updating operators:
// a row each, a message's further lines on rows of their own under it.
func writeProblems(b *bytes.Buffer, problems []insightsv1alpha1.HostedProblem, now time.Time) {
	if len(problems) == 0 {
		return
	}
	b.WriteString("\nProblems\n")
	t := newTable(b)
	fmt.Fprint(t, "SINCE\tLEVEL\tREASON\tMESSAGE\n")
	for i := range problems {
		p := &problems[i]
		lines := strings.Split(p.Message, "\n")
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\n", ago(p.Since, now), p.Level, cell(p.Reason), cell(lines[0]))
		for _, line := range lines[1:] {
			fmt.Fprintf(t, "\t\t\t%s\n", cell(line))
		}
	}
	_ = t.Flush()
}

// newTable returns a writer of columns aligned as status aligns them.
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
}

func fromTo(c *Cluster) string {
	if c.InsightMissing {
		return unknown
	}
	to := orUnknown(c.Versions.Target.Version)
	if c.Versions.Previous == nil {
		return to
	}
	return orUnknown(c.Versions.Previous.Version) + " -> " + to
}

func targetVersion(v insightsv1alpha1.ControlPlaneUpdateVersions) string {
	s := orUnknown(v.Target.Version)
	if v.Previous != nil {
		s += " (from " + orUnknown(v.Previous.Version) + ")"
	}
	return s
}

func controlPlaneCell(c *Cluster) string {
	switch {
	case c.InsightMissing:
		return unknown
	case under(c.Assessment):
		return fmt.Sprintf("%s %d%%", c.Assessment, c.CompletionPercent)
	}
	return orUnknown(string(c.Assessment))
}

// under says the control plane's update is under way, so that its
// completion and duration measure it: a completed one is at 100%, and a
// Blocked or Unknown one has not begun.
func under(a insightsv1alpha1.HostedClusterAssessment) bool {
	switch a {
	case insightsv1alpha1.HostedClusterAssessmentProgressing, insightsv1alpha1.HostedClusterAssessmentStalled, insightsv1alpha1.HostedClusterAssessmentFailing:
		return true
	}
	return false
}

func nodePoolsCell(n NodePoolCount) string {
	updated := unknown
	if n.Updated != nil {
		updated = fmt.Sprint(*n.Updated)
	}
	return fmt.Sprintf("%s of %d", updated, n.Total)
}

func estimateCell(e Estimate, now time.Time) string {
	if e.Unknown {
		return unknown
	}
	return eta(e.At, now)
}

// eta is how long until at: "~20m"; "-" without an estimate, and how long
// ago for an estimate that passed, so that a late update is not shown as
// finishing now.
func eta(at *metav1.Time, now time.Time) string {
	if at == nil {
		return "-"
	}
	if left := at.Sub(now); left < 0 {
		return "overdue " + text.Approx(-left)
	}
	return text.Approx(at.Sub(now))
}

// duration is how long an update has run, with the time its estimate
// leaves, as status words it.
func duration(started, estimated *metav1.Time, now time.Time) string {
	d := unknown
	if started != nil {
		d = text.Minutes(now.Sub(started.Time))
	}
	if estimated != nil {
		d += fmt.Sprintf(" (Est. Time Remaining: %s)", eta(estimated, now))
	}
	return d
}

func problemCell(c *Cluster) string {
	switch {
	case c.Problem == nil && c.InsightMissing:
		return "No HostedClusterProgressInsight"
	case c.Problem == nil && c.unknownWhy() != "":
		return text.OneLineCharacters(c.unknownWhy(), maxProblemCell)
	case c.Problem == nil:
		return "-"
	}
	message := c.Problem.Message
	if c.Problem.NodePool != "" {
		message = c.Problem.NodePool + ": " + message
	}
	return text.OneLineCharacters(message, maxProblemCell)
}

func machines(m insightsv1alpha1.MachinesSummary) string {
	s := fmt.Sprintf("%d of %d updated", m.Updated, m.Desired)
	if m.Source != "" {
		s += " (" + string(m.Source) + ")"
	}
	return s
}

// skew words minorsBehind against what HyperShift supports: up to three
// minor releases behind the control plane.
func skew(behind int32) string {
	switch {
	case behind == 0:
		return "at the control plane's minor version"
	case behind == 1:
		return "1 minor version behind the control plane"
	case behind == -1:
		return "1 minor version ahead of the control plane, which HyperShift does not support"
	case behind < 0:
		return fmt.Sprintf("%d minor versions ahead of the control plane, which HyperShift does not support", -behind)
	case behind > 3:
		return fmt.Sprintf("%d minor versions behind the control plane, more than the 3 HyperShift supports", behind)
	}
	return fmt.Sprintf("%d minor versions behind the control plane", behind)
}

// ago is how long ago t was, to the minute; "-" when unknown.
func ago(t *metav1.Time, now time.Time) string {
	if t == nil || t.IsZero() {
		return "-"
	}
	return text.Minutes(now.Sub(t.Time))
}

func orUnknown(s string) string {
	if s == "" {
		return unknown
	}
	return s
}

// cell keeps a value to its table cell: a tab or a line break in it would
// start another.
func cell(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
