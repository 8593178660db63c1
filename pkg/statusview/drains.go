package statusview

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	problems "github.com/update-insights/update-insights-operator/pkg/health"
)

// drainHeld is a health insight about a pod that holds a node's drain: it
// names the node and the pod, and the pod's budgets if any
// (pkg/health's drain insights).
type drainHeld struct {
	health    *Health
	node, pod string
	budgets   []string
}

// drainsHeld are the health insights about pods that hold the drains of
// nodes, by the node each names.
func drainsHeld(health []Health) map[string][]drainHeld {
	out := map[string][]drainHeld{}
	for i := range health {
		d := drainHeld{health: &health[i]}
		var ok bool
		if d.node, d.pod, d.budgets, ok = problems.DrainHeld(health[i].Resources); ok {
			out[d.node] = append(out[d.node], d)
		}
	}
	return out
}

// writeDrainsHeld lists, under a pool's nodes, every pod that holds the
// drain of one of them, for --details=nodes: the node's row names only the
// first.
func writeDrainsHeld(b *bytes.Buffer, pool string, nodes []Node, s *Status) {
	held := drainsHeld(s.Health)
	var rows []drainHeld
	for _, n := range nodes {
		rows = append(rows, held[n.Name]...)
	}
	if len(rows) == 0 {
		return
	}
	slices.SortStableFunc(rows, func(a, b drainHeld) int {
		return cmpStrings(a.node, b.node, a.pod, b.pod)
	})
	fmt.Fprintf(b, "\nDrains Held: %s\n", pool)
	t := newTable(b)
	fmt.Fprint(t, "NODE\tPOD\tBUDGETS\tSINCE\tLEVEL\n")
	for _, r := range rows {
		budgets := "-"
		if len(r.budgets) > 0 {
			budgets = strings.Join(r.budgets, ",")
		}
		fmt.Fprintf(t, "%s\t%s\t%s\t%s\t%s\n", cell(r.node), cell(r.pod), cell(budgets), since(r.health.StartedAt, s.Now.Time), r.health.Level)
	}
	_ = t.Flush()
}

func cmpStrings(pairs ...string) int {
	for i := 0; i+1 < len(pairs); i += 2 {
		if c := strings.Compare(pairs[i], pairs[i+1]); c != 0 {
			return c
		}
	}
	return 0
}
