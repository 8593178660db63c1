package console

import (
	"strings"

	"github.com/update-insights/update-insights-operator/pkg/historyview"
)

// The update history as browse.js reads it from the page, and what
// history RECORD prints, read into the same shape.

// historyFacts is what browse.js reads from the update history.
type historyFacts struct {
	Rows []struct {
		Record string   `json:"record"`
		Cells  []string `json:"cells"`
	} `json:"rows"`
	Unseen      []string          `json:"unseen"`
	Postmortems []postmortemFacts `json:"postmortems"`
}

type postmortemFacts struct {
	Record string `json:"record"`
	Title  string `json:"title"`
	// Terms are each line of the head: its term, then its lines.
	Terms  [][]string            `json:"terms"`
	Tables map[string]tableFacts `json:"tables"`
	Pools  poolsFacts            `json:"pools"`
	Events [][]string            `json:"events"`
	// Picture is the timeline drawn, in the drawing's units.
	Picture *struct {
		Operators []drawnBar `json:"operators"`
		Pools     []drawnBar `json:"pools"`
		Stalls    []struct {
			Name  string `json:"name"`
			Level string `json:"level"`
			drawnSpan
		} `json:"stalls"`
		NotObserved []struct {
			Since bool   `json:"since"`
			Label string `json:"label"`
			drawnSpan
		} `json:"notObserved"`
		// Markers are the x of the lines of the start, the control
		// plane's completion and the rest.
		Markers   map[string]float64 `json:"markers"`
		Estimates []struct {
			Percent int32   `json:"percent"`
			Beyond  bool    `json:"beyond"`
			X       float64 `json:"x"`
		} `json:"estimates"`
		Unseen *string `json:"unseen"`
	} `json:"picture"`
}

type drawnSpan struct {
	X     float64 `json:"x"`
	Width float64 `json:"width"`
}

type drawnBar struct {
	Name string `json:"name"`
	Open bool   `json:"open"`
	drawnSpan
}

// poolsFacts are the postmortem's pools as the page shows them: each
// one's summary line, the rows of its phases then of its slowest nodes,
// its per-node line and its notes; what it says without any, and the
// pools left out.
type poolsFacts struct {
	Pools []poolFacts `json:"pools"`
	None  *string     `json:"none"`
	Notes []string    `json:"notes"`
}

type poolFacts struct {
	Summary string     `json:"summary"`
	Rows    [][]string `json:"rows"`
	PerNode *string    `json:"perNode"`
	Notes   []string   `json:"notes"`
}

// tableFacts is a table of the postmortem as the page shows it: its rows,
// what it says without any, and the lines beneath it.
type tableFacts struct {
	Rows  [][]string `json:"rows"`
	None  *string    `json:"none"`
	Notes []string   `json:"notes"`
}

// parsePostmortem reads what history RECORD prints as the page lays it
// out: the title, the head's terms with their lines, each table's rows (as
// many as -o json, p, has), what it says without any and the lines beneath
// it, and the timeline's events.
func parsePostmortem(text string, p *historyview.Postmortem) postmortemFacts {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	f := postmortemFacts{Record: p.Update.Record, Title: strings.Trim(lines[0], "= "), Tables: map[string]tableFacts{}}
	i := 1
	for ; lines[i] != ""; i++ {
		if m := keyValue.FindStringSubmatch(lines[i]); m != nil {
			f.Terms = append(f.Terms, []string{m[1], m[2]})
		} else {
			f.Terms[len(f.Terms)-1] = append(f.Terms[len(f.Terms)-1], strings.TrimSpace(lines[i]))
		}
	}
	// section is the lines under a heading, up to the next blank one.
	section := func(heading string) []string {
		for j := range lines {
			if lines[j] == heading {
				k := j + 1
				for k < len(lines) && lines[k] != "" {
					k++
				}
				return lines[j+1 : k]
			}
		}
		return nil
	}
	for _, l := range section("Timeline:") {
		f.Events = append(f.Events, folded([]string{l[2:22], l[22:]}))
	}
	tables := []struct {
		key, heading string
		columns      []string
		rows         int
	}{
		{"slowest", "Slowest Operators:", []string{"NAME", "STARTED", "COMPLETED", "DURATION"}, len(p.SlowestOperators)},
		{"stalls", "Stalls:", []string{"LEVEL", "SINCE", "UNTIL", "DURATION", "SUMMARY"}, len(p.Stalls)},
		{"estimates", "Estimates:", []string{"AT", "TAKEN", "ESTIMATED COMPLETION", "COMPLETED", "COMPLETION VS ESTIMATE"}, len(p.Estimates)},
	}
	f.Pools = parsePools(section("Pools:"), p)
	for _, tb := range tables {
		ls := section(tb.heading)
		// As the page's JSON reads: no row and no note are empty lists.
		tf := tableFacts{Rows: [][]string{}, Notes: []string{}}
		rest := ls[1:]
		if tb.rows == 0 {
			none := strings.TrimSpace(ls[0])
			tf.None = &none
		} else {
			for _, r := range columnsAt(ls[:tb.rows+1], tb.columns) {
				tf.Rows = append(tf.Rows, folded(r))
			}
			rest = ls[tb.rows+1:]
		}
		for _, l := range rest {
			tf.Notes = append(tf.Notes, strings.TrimSpace(l))
		}
		f.Tables[tb.key] = tf
	}
	return f
}

// parsePools reads the Pools section of history RECORD: a line a pool,
// then as many rows of its phases and of its slowest nodes as -o json, p,
// has, its per-node line and the nodes it did not follow; the pools left
// out last.
func parsePools(lines []string, p *historyview.Postmortem) poolsFacts {
	trim := strings.TrimSpace
	f := poolsFacts{Pools: make([]poolFacts, len(p.Pools)), Notes: []string{}}
	i := 0
	if len(p.Pools) == 0 {
		none := trim(lines[0])
		f.None = &none
		i++
	}
	for k, pool := range p.Pools {
		got := &f.Pools[k]
		got.Summary, got.Rows, got.Notes = trim(lines[i]), [][]string{}, []string{}
		i++
		table := func(rows int, headings ...string) {
			if rows > 0 {
				for _, r := range columnsAt(lines[i:i+rows+1], headings) {
					got.Rows = append(got.Rows, folded(r))
				}
				i += rows + 1
			}
		}
		table(len(pool.Phases), "PHASE", "FIRST NODE IN", "LAST NODE OUT")
		if nt := pool.NodeTimes; nt.Median != nil && nt.P90 != nil {
			perNode := trim(lines[i])
			got.PerNode = &perNode
			i++
		}
		table(len(pool.SlowestNodes), "SLOWEST NODE", "STARTED", "COMPLETED", "DURATION", "DRAINING", "UPDATING", "REBOOTING")
		if pool.UpdatingOmitted > 0 {
			got.Notes = append(got.Notes, trim(lines[i]))
			i++
		}
	}
	for ; i < len(lines); i++ {
		f.Notes = append(f.Notes, trim(lines[i]))
	}
	return f
}

// columnsAt reads the rows of a table under its heading line, each column
// starting where its heading does: headings of more than one word among
// them.
func columnsAt(lines []string, headings []string) [][]string {
	var starts []int
	for _, h := range headings {
		starts = append(starts, strings.Index(lines[0], h))
	}
	var rows [][]string
	for _, l := range lines[1:] {
		var row []string
		for i, start := range starts {
			end := len(l)
			if i+1 < len(starts) {
				end = min(starts[i+1], len(l))
			}
			row = append(row, strings.TrimSpace(l[min(start, len(l)):end]))
		}
		rows = append(rows, row)
	}
	return rows
}
