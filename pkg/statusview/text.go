package statusview

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// Details says which parts of the text to show in full, as
// `oc adm upgrade status --details` does.
type Details struct {
	Operators bool
	Nodes     bool
	Health    bool
}

// maxNodeRows is how many rows a node table shows without Details.Nodes.
const maxNodeRows = 10

// descriptionIndent continues a multi-line description under its first line.
const descriptionIndent = "               "

// WriteText writes the status in the layout and wording of
// `oc adm upgrade status`, so that habits and scripts carry over.
func WriteText(w io.Writer, s *Status, d Details) error {
	return WriteTextWithHead(w, s, d, "")
}

// WriteTextWithHead writes the text with head (such as --watch's
// completion bar) between the warnings and the rest: the warnings come
// first, since they say what may make the rest stale.
func WriteTextWithHead(w io.Writer, s *Status, d Details, head string) error {
	var b bytes.Buffer
	for _, warning := range s.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n\n", warning)
	}
	b.WriteString(head)
	if s.Updating {
		writeControlPlane(&b, s, d)
		writeWorkerPools(&b, s, d)
		writeHealth(&b, s, d)
	} else {
		progress := s.ControlPlane.Informers
		if s.Upcoming != nil {
			writeUpcoming(&b, s.Upcoming)
			_, progress = upcoming(progress, s.Now.Time)
		} else {
			b.WriteString("The cluster is not updating.\n")
		}
		// Nodes that drain and reboot with no update in progress are
		// explained, so that no one takes them for an update.
		for _, p := range allPools(s) {
			if p.ConfigurationRollout != "" {
				fmt.Fprintf(&b, "%s %s: %s.\n", p.kindWord(), p.Name, p.ConfigurationRollout)
			}
			// A NodePool behind the control plane is not updating, and
			// may stay so: it is said, not taken for an update; beyond
			// the supported skew it is an error all the same.
			b.WriteString(p.behindLines())
		}
		// An informer may know of an update to come: one scheduled for a
		// maintenance window, and what holds or failed it before it began.
		writeInformerProgress(&b, "Informers:", progress, s.Now.Time)
		if scheduled := informersOnly(s); len(scheduled.Health) > 0 {
			writeHealth(&b, scheduled, d)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeUpcoming says, in place of "The cluster is not updating.", that an
// informer holds an update: which (in the informer's words, which name the
// release), and that the control plane has not begun it.
func writeUpcoming(b *bytes.Buffer, u *Upcoming) {
	var note []string
	if u.WindowOpensAt != nil {
		note = append(note, "window opens at "+u.WindowOpensAt.UTC().Format(time.RFC3339))
	}
	if u.Stale {
		note = append(note, "stale: the informer's last call failed")
	}
	summary := u.Summary
	if len(note) > 0 {
		summary += " (" + strings.Join(note, ", ") + ")"
	}
	switch u.State {
	case UpcomingScheduled:
		fmt.Fprintf(b, "An update is scheduled, as %s reports: %s.\n", u.Informer, summary)
	default:
		fmt.Fprintf(b, "An update is starting, as %s reports: %s. The control plane has not begun to update.\n", u.Informer, summary)
	}
}

// allPools returns the control plane's pool, if known, and the worker pools.
func allPools(s *Status) []Pool {
	if s.ControlPlaneNodes == nil {
		return s.WorkerPools
	}
	return append([]Pool{*s.ControlPlaneNodes}, s.WorkerPools...)
}

// informersOnly is the status with the informers' health insights only:
// the operator's are about an update in progress.
func informersOnly(s *Status) *Status {
	out := *s
	out.Health = nil
	for _, h := range s.Health {
		if h.Informer != "" {
			out.Health = append(out.Health, h)
		}
	}
	return &out
}

// newTable returns a writer of columns as the reference aligns them.
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
}

func writeControlPlane(b *bytes.Buffer, s *Status, d Details) {
	cp := &s.ControlPlane
	b.WriteString("= Control Plane =\n")
	if cp.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted {
		completedAt, duration := unknown, unknown
		if cp.CompletedAt != nil {
			completedAt = cp.CompletedAt.UTC().Format(time.RFC3339)
			if cp.StartedAt != nil {
				duration = roughDuration(cp.CompletedAt.Sub(cp.StartedAt.Time))
			}
		}
		fmt.Fprintf(b, "Update to %s successfully completed at %s (duration: %s)\n", orUnknown(cp.Target.Version), completedAt, duration)
	} else {
		writeProgress(b, s, d)
	}
	writeInformerProgress(b, "Informers:", cp.Informers, s.Now.Time)

	pool := s.ControlPlaneNodes
	switch {
	case pool == nil || len(pool.Nodes) == 0:
	case pool.Assessment == insightsv1alpha1.PoolCompleted:
		fmt.Fprintf(b, "\nAll control plane nodes successfully updated to %s\n", orUnknown(pool.Nodes[0].Version))
	default:
		b.WriteString("\nControl Plane Nodes\n")
		b.WriteString(pool.imageBuildLine(s.Now.Time))
		writeNodes(b, pool.Nodes, d.Nodes)
		if d.Nodes {
			writeDrainsHeld(b, pool.Name, pool.Nodes, s)
		}
	}
}

// writeProgress writes how far an ongoing control plane update is.
func writeProgress(b *bytes.Buffer, s *Status, d Details) {
	cp, now := &s.ControlPlane, s.Now.Time
	fmt.Fprintf(b, "Assessment:      %s\n", assessmentWord(cp.Assessment))
	fmt.Fprintf(b, "Target Version:  %s\n", targetVersion(cp))
	if len(cp.Updating) > 0 {
		names := make([]string, 0, len(cp.Updating))
		for _, o := range cp.Updating {
			names = append(names, o.Name)
		}
		fmt.Fprintf(b, "Updating:        %s\n", strings.Join(names, ", "))
	}
	c := &cp.Completion
	fmt.Fprintf(b, "Completion:      %d%% (%d operators updated, %d updating, %d waiting)\n", c.Percent, c.Updated, c.Updating, c.Waiting)
	duration := unknown
	if cp.StartedAt != nil {
		duration = roughDuration(now.Sub(cp.StartedAt.Time))
	}
	switch {
	case isArchitectureMigration(cp):
		// A migration has no estimate (the operators keep their versions,
		// so their progress cannot be projected); say so, as the reference does.
		duration += " (Est. Time Remaining: N/A for Multi-Architecture Migration)"
	case cp.EstimatedCompletedAt != nil:
		duration += fmt.Sprintf(" (Est. Time Remaining: %s)", remaining(cp, now))
	}
	fmt.Fprintf(b, "Duration:        %s\n", duration)
	fmt.Fprintf(b, "Operator Health: %s\n", operatorHealth(cp.OperatorHealth))
	if d.Operators && len(cp.Updating) > 0 {
		writeUpdatingOperators(b, cp.Updating, s)
	}
}

func writeUpdatingOperators(b *bytes.Buffer, operators []Operator, s *Status) {
	b.WriteString("\nUpdating Cluster Operators\n")
	t := newTable(b)
	fmt.Fprint(t, "NAME\tSINCE\tREASON\tMESSAGE\n")
	for _, o := range operators {
		// As oc prints them (pkg/cli/admin/upgrade/status/controlplane.go):
		// the reason cut to 20 characters, and each further line of the
		// message on a row of its own, under the first.
		reason := "-"
		if o.Reason != "" {
			reason = ellipsis(cell(o.Reason), maxReasonLength)
		}
		lines := strings.Split(o.Message, "\n")
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\n", cell(o.Name), since(o.Since, s.Now.Time), reason, cell(lines[0]))
		for _, line := range lines[1:] {
			fmt.Fprintf(t, "\t\t\t%s\n", cell(line))
		}
	}
	_ = t.Flush()
}

func writeNodes(b *bytes.Buffer, nodes []Node, all bool) {
	shown := nodes
	if !all && len(nodes) > maxNodeRows {
		shown = nodes[:maxNodeRows]
	}
	t := newTable(b)
	fmt.Fprint(t, "NAME\tASSESSMENT\tPHASE\tVERSION\tEST\tMESSAGE\n")
	for i := range shown {
		n := &shown[i]
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\t%s\n", cell(n.Name), n.Assessment, n.Phase, cell(orUnknown(n.Version)), n.Estimate(), cell(n.Message))
	}
	_ = t.Flush()
	if omitted := nodes[len(shown):]; len(omitted) > 0 {
		c := countNodes(omitted)
		fmt.Fprintf(b, "...\nOmitted additional %d Total, %d Completed, %d Available, %d Progressing, %d Outdated, %d Draining, %d Excluded, and %d Degraded nodes.\n",
			c.Total, c.Total-c.Outdated, c.Available, c.Progressing, c.Outdated, c.Draining, c.Excluded, c.Degraded)
		b.WriteString("Pass along --details=nodes to see all information.\n")
	}
}

func writeWorkerPools(b *bytes.Buffer, s *Status, d Details) {
	// As oc prints it (pkg/cli/admin/upgrade/status/status.go): only when a
	// worker pool has nodes, and then every pool, the empty ones too. A
	// compact cluster's worker pool, empty, is no worker update.
	if !slices.ContainsFunc(s.WorkerPools, func(p Pool) bool { return p.Assessment != PoolEmpty }) {
		return
	}
	b.WriteString("\n= Worker Upgrade =\n\n")
	t := newTable(b)
	fmt.Fprint(t, "WORKER POOL\tASSESSMENT\tCOMPLETION\tSTATUS\n")
	for i := range s.WorkerPools {
		p := &s.WorkerPools[i]
		c := &p.Summary
		if p.Assessment == PoolEmpty {
			fmt.Fprintf(t, "%s\t%s\t\t%d Total\n", cell(p.Name), p.Assessment, c.Total)
			continue
		}
		fmt.Fprintf(t, "%s\t%s\t%d%% (%d/%d)\t%s\n", cell(p.Name), orUnknown(string(p.Assessment)), p.CompletionPercent, c.Total-c.Outdated, c.Total, poolStatus(*c))
	}
	_ = t.Flush()
	var notes []string
	for i := range s.WorkerPools {
		if lines := s.WorkerPools[i].behindLines(); lines != "" {
			notes = append(notes, lines)
		}
		if line := s.WorkerPools[i].imageBuildLine(s.Now.Time); line != "" {
			notes = append(notes, line)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, ""))
	}
	for i := range s.WorkerPools {
		if p := &s.WorkerPools[i]; len(p.Informers) > 0 {
			fmt.Fprintf(b, "\nWorker Pool Informers: %s\n", p.Name)
			writeInformerProgress(b, "", p.Informers, s.Now.Time)
		}
	}
	for i := range s.WorkerPools {
		p := &s.WorkerPools[i]
		if len(p.Nodes) == 0 {
			continue
		}
		fmt.Fprintf(b, "\nWorker Pool Nodes: %s\n", p.Name)
		writeNodes(b, p.Nodes, d.Nodes)
		if d.Nodes {
			writeDrainsHeld(b, p.Name, p.Nodes, s)
		}
	}
}

// writeInformerProgress writes what the UpdateInformers say of a part's
// progress, one insight a line, after a label that the lines of the control
// plane align on; without a label, under a heading of their own.
func writeInformerProgress(b *bytes.Buffer, label string, progress []Progress, now time.Time) {
	width := 0
	if label != "" {
		width = len("Operator Health: ")
	}
	for i := range progress {
		fmt.Fprintf(b, "%-*s%s (%s)\n", width, label, progress[i].Summary, progressNote(&progress[i], now))
		if label != "" {
			label = " "
		}
	}
}

func writeHealth(b *bytes.Buffer, s *Status, d Details) {
	b.WriteString("\n= Update Health =\n")
	if len(s.Health) == 0 {
		// The reference's placeholder when nothing is wrong: a rendering,
		// not an insight.
		t := newTable(b)
		fmt.Fprint(t, "SINCE\tLEVEL\tIMPACT\tMESSAGE\n")
		fmt.Fprintf(t, "%s\t%s\t%s\tUpdate is proceeding well\n", sinceStart(s.ControlPlane.StartedAt, s.Now.Time), insightsv1alpha1.InfoImpactLevel, insightsv1alpha1.NoneImpactType)
		_ = t.Flush()
		return
	}
	if d.Health {
		for i := range s.Health {
			if i > 0 {
				b.WriteString("\n")
			}
			writeHealthDetails(b, &s.Health[i], s)
		}
		return
	}
	t := newTable(b)
	fmt.Fprint(t, "SINCE\tLEVEL\tIMPACT\tMESSAGE\n")
	for i := range s.Health {
		h := &s.Health[i]
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\n", since(h.StartedAt, s.Now.Time), h.Level, h.Impact, cell(message(h)))
	}
	_ = t.Flush()
	b.WriteString("\nRun with --details=health for additional description and links to related online documentation\n")
}

func writeHealthDetails(b *bytes.Buffer, h *Health, s *Status) {
	fmt.Fprintf(b, "Message: %s\n", h.Summary)
	fmt.Fprintf(b, "  Since:       %s\n", since(h.StartedAt, s.Now.Time))
	if h.Informer != "" {
		fmt.Fprintf(b, "  Informer:    %s\n", h.Informer)
	}
	fmt.Fprintf(b, "  Level:       %s\n", h.Level)
	fmt.Fprintf(b, "  Impact:      %s\n", h.Impact)
	fmt.Fprintf(b, "  Reference:   %s\n", reference(h))
	b.WriteString("  Resources:\n")
	for _, r := range h.Resources {
		fmt.Fprintf(b, "    %s\n", resource(r))
	}
	// Each further line of a description is a further message of the
	// component it quotes; the reference lists them so.
	fmt.Fprintf(b, "  Description: %s\n", strings.ReplaceAll(h.Description, "\n", "\n"+descriptionIndent+", "))
}
