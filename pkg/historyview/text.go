package historyview

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// summaryWidth is where a stall's summary is cut in a table.
const summaryWidth = 100

// WriteList prints the history, one update per line.
func WriteList(w io.Writer, h *History) error {
	if len(h.Updates) == 0 {
		_, err := fmt.Fprintln(w, "No update is recorded: the operator records each update it sees from when it is installed.")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	fmt.Fprintln(tw, "TO\tFROM\tSTARTED\tSTATE\tDURATION\tCONTROL PLANE\tSTALLS\tCOMPLETION VS ESTIMATE")
	for _, u := range h.Updates {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", u.To, dash(u.From), stamp(u.StartedAt), state(&u), text.Minutes(u.Duration.Duration),
			text.Minutes(u.ControlPlane.Duration), stalls(&u), estimate(u.EstimateError))
	}
	return tw.Flush()
}

func state(u *Update) string {
	if u.NotObserved {
		return string(u.State) + " (partly observed)"
	}
	return string(u.State)
}

func stalls(u *Update) string {
	if u.Stalls == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%s)", u.Stalls, text.Minutes(u.StallTime.Duration))
}

// estimate says how the completion fared against the estimate taken at a
// percentage: "12m late (at 50%)".
func estimate(e *EstimateError) string {
	if e == nil {
		return "-"
	}
	return late(e.Late.Duration) + fmt.Sprintf(" (at %d%%)", e.Percent)
}

func late(d time.Duration) string {
	switch {
	case d.Round(time.Minute) == 0:
		return "on time"
	case d > 0:
		return text.Minutes(d) + " late"
	}
	return text.Minutes(-d) + " early"
}

// WritePostmortem prints what one update took.
func WritePostmortem(w io.Writer, p *Postmortem) error {
	u := &p.Update
	var b strings.Builder
	fmt.Fprintf(&b, "= Update to %s", u.To)
	if u.From != "" {
		fmt.Fprintf(&b, " from %s", u.From)
	}
	fmt.Fprintf(&b, " =\nRecord:         %s\nState:          %s\nStarted:        %s\n", u.Record, u.State, stamp(u.StartedAt))
	switch {
	case p.CompletedAt != nil:
		fmt.Fprintf(&b, "Control Plane:  completed at %s (%s)\n", stamp(*p.CompletedAt), text.Minutes(u.ControlPlane.Duration))
	case p.AbandonedAt != nil:
		fmt.Fprintf(&b, "Control Plane:  abandoned at %s for another update, after %s\n", stamp(*p.AbandonedAt), text.Minutes(u.ControlPlane.Duration))
	default:
		fmt.Fprintf(&b, "Control Plane:  updating for %s, last seen at %s\n", text.Minutes(u.ControlPlane.Duration), stamp(p.ObservedUntil))
	}
	if c := p.UpdateCompletedAt; c != nil {
		fmt.Fprintf(&b, "Completed:      %s (%s), its pools with its control plane\n", stamp(*c), text.Minutes(u.Duration.Duration))
	}
	for i, s := range p.NotObserved {
		label := "Not Observed:"
		if i > 0 {
			label = ""
		}
		fmt.Fprintf(&b, "%-15s %s to %s (%s): no operator saw the update\n", label, stamp(s.From), stamp(s.To), text.Minutes(s.To.Sub(s.From)))
	}
	if p.NotObservedOmitted > 0 {
		fmt.Fprintf(&b, "                and %d earlier spans\n", p.NotObservedOmitted)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nTimeline:")
	for _, e := range p.Timeline {
		fmt.Fprintf(tw, "  %s\t%s\n", stamp(e.At), e.What)
	}

	fmt.Fprintln(tw, "\nSlowest Operators:")
	if len(p.SlowestOperators) == 0 {
		fmt.Fprintln(tw, "  none was seen both beginning and finishing its update")
	} else {
		fmt.Fprintln(tw, "  NAME\tSTARTED\tCOMPLETED\tDURATION")
		for _, o := range p.SlowestOperators {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", o.Name, stamp(o.StartedAt), stamp(o.CompletedAt), text.Minutes(o.Duration.Duration))
		}
	}
	if p.OperatorsUndated > 0 {
		fmt.Fprintf(tw, "  %d more updated unseen, with no duration to tell\n", p.OperatorsUndated)
	}

	writePools(tw, p)

	fmt.Fprintln(tw, "\nStalls:")
	if len(p.Stalls) == 0 {
		fmt.Fprintln(tw, "  none: no Warning or Error health insight was active while the update was seen")
	} else {
		fmt.Fprintln(tw, "  LEVEL\tSINCE\tUNTIL\tDURATION\tSUMMARY")
		for _, s := range p.Stalls {
			since := s.FirstSeenAt.Time
			if s.StartedAt != nil {
				since = s.StartedAt.Time
			}
			until := "still active at the end"
			if s.EndedAt != nil {
				until = stamp(s.EndedAt.Time)
				if s.EndNotObserved {
					until += " (last seen)"
				}
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", s.Level, stamp(since), until, text.Minutes(s.Duration.Duration), text.OneLine(s.Summary, summaryWidth))
		}
	}
	if p.StallsOmitted > 0 {
		fmt.Fprintf(tw, "  %d shorter ones that ended are not kept\n", p.StallsOmitted)
	}

	fmt.Fprintln(tw, "\nEstimates:")
	if len(p.Estimates) == 0 {
		fmt.Fprintln(tw, "  none was seen at 25, 50 or 75 percent of the control plane")
	} else {
		fmt.Fprintln(tw, "  AT\tTAKEN\tESTIMATED COMPLETION\tCOMPLETED\tCOMPLETION VS ESTIMATE")
		for _, e := range p.Estimates {
			estimated, actual, miss := "none given", "not yet", "-"
			if e.Estimated != nil {
				estimated = stamp(*e.Estimated)
			}
			if e.Actual != nil {
				actual = stamp(*e.Actual)
			}
			if e.Late != nil {
				miss = late(e.Late.Duration)
			}
			fmt.Fprintf(tw, "  %d%%\t%s\t%s\t%s\t%s\n", e.CompletionPercent, stamp(e.ObservedAt), estimated, actual, miss)
		}
	}
	return tw.Flush()
}

// writePools prints each pool's nodes by phase: when the first entered and
// the last left each, the per-node times, and the slowest nodes.
func writePools(tw io.Writer, p *Postmortem) {
	fmt.Fprintln(tw, "\nPools:")
	if len(p.Pools) == 0 {
		fmt.Fprintln(tw, "  none: no node was seen in the update")
	}
	for _, pool := range p.Pools {
		fmt.Fprintf(tw, "  %s (%s): %d of %d nodes updated, %d timed", pool.Name, pool.ScopeType, pool.Updated, pool.Nodes, pool.NodeTimes.Timed)
		switch {
		case pool.StartedAt == nil:
			fmt.Fprint(tw, "; no node was seen to begin")
		case pool.CompletedAt != nil:
			fmt.Fprintf(tw, "; from %s to %s (%s)", stamp(pool.StartedAt.Time), stamp(pool.CompletedAt.Time), text.Minutes(pool.Duration.Duration))
		default:
			fmt.Fprintf(tw, "; since %s (%s so far)", stamp(pool.StartedAt.Time), text.Minutes(pool.Duration.Duration))
		}
		if pool.Assessment == insightsv1alpha1.PoolExcluded {
			fmt.Fprint(tw, "; excluded from the update (paused)")
		}
		fmt.Fprintln(tw)
		if len(pool.Phases) > 0 {
			fmt.Fprintln(tw, "    PHASE\tFIRST NODE IN\tLAST NODE OUT")
			for _, ph := range pool.Phases {
				out := "a node is in it"
				if ph.EndedAt != nil {
					out = stamp(ph.EndedAt.Time)
				}
				fmt.Fprintf(tw, "    %s\t%s\t%s\n", ph.Phase, stamp(ph.StartedAt.Time), out)
			}
		}
		if nt := pool.NodeTimes; nt.Median != nil && nt.P90 != nil {
			fmt.Fprintf(tw, "    Per node: median %s, 90th percentile %s, of %d timed\n", text.Minutes(nt.Median.Duration), text.Minutes(nt.P90.Duration), nt.Timed)
		}
		if len(pool.SlowestNodes) > 0 {
			fmt.Fprintln(tw, "    SLOWEST NODE\tSTARTED\tCOMPLETED\tDURATION\tDRAINING\tUPDATING\tREBOOTING")
			for _, n := range pool.SlowestNodes {
				fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%s\t%s\t%s\n", n.Name, stamp(n.StartedAt.Time), stamp(n.CompletedAt.Time),
					text.Minutes(n.CompletedAt.Sub(n.StartedAt.Time)), seen(n.Draining), seen(n.Updating), seen(n.Rebooting))
			}
		}
		if pool.UpdatingOmitted > 0 {
			fmt.Fprintf(tw, "    up to %d more nodes at once updated unfollowed, and untimed\n", pool.UpdatingOmitted)
		}
	}
	if p.PoolsOmitted > 0 {
		fmt.Fprintf(tw, "  %d more pools are not kept\n", p.PoolsOmitted)
	}
}

// seen is a phase's time as seen, "-" when the node was not seen in it.
func seen(d *metav1.Duration) string {
	if d == nil {
		return "-"
	}
	return text.Minutes(d.Duration)
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
