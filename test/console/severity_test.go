package console

import (
	"fmt"
	"regexp"
	"strings"
)

// healthDetail is one line of a health insight's details, whitespace as
// the page collapses it.
func healthDetail(level, message, impact, reference, resources, description string) string {
	return strings.Join(strings.Fields(fmt.Sprintf("%s: %s | impact %s | reference %s | resources %s | description %s",
		level, message, impact, reference, resources, description)), " ")
}

// nodeSeverity is the colour a node's assessment takes: danger for what
// stalls the update, warning for what slows it, info on its way, success
// done, none for the rest (console-plugin/src/view/severity.ts).
func nodeSeverity(assessment string) string {
	switch assessment {
	case "Degraded":
		return "danger"
	case "Unavailable":
		return "warning"
	case "Progressing":
		return "info"
	case "Completed":
		return "success"
	}
	return "none"
}

// poolSeverity is a pool's: its assessment's when Degraded or Completed,
// else the worst of its nodes', else info while Progressing.
func poolSeverity(assessment string, nodes []string) string {
	switch assessment {
	case "Degraded":
		return "danger"
	case "Completed":
		return "success"
	}
	worst := "none"
	for _, n := range nodes {
		switch nodeSeverity(n) {
		case "danger":
			worst = "danger"
		case "warning":
			if worst != "danger" {
				worst = "warning"
			}
		}
	}
	if worst == "none" && assessment == "Progressing" {
		return "info"
	}
	return worst
}

// variant is a progress bar's: PatternFly's bar has no info variant.
func variant(severity string) string {
	if severity == "info" {
		return "none"
	}
	return severity
}

var percent = regexp.MustCompile(`^\d+%`)

// severities are the colours status's assessments call for, and what the
// bars measure: each node's label; each worker pool's label and bar, its
// completion's percentage; the control plane's bar, its completion's
// percentage (its colour is checked apart: danger when Stalled, otherwise
// it follows the health insights' scopes, which status does not print).
func (s statusText) severities() []string {
	var out []string
	byPool := map[string][]string{}
	for name, row := range s.nodes {
		out = append(out, fmt.Sprintf("node %s: %s", name, nodeSeverity(row[0])))
		byPool[s.nodePool[name]] = append(byPool[s.nodePool[name]], row[0])
	}
	for name, row := range s.pools {
		sev := poolSeverity(row[0], byPool[name])
		out = append(out, fmt.Sprintf("pool %s: %s", name, sev), fmt.Sprintf("pool %s bar: %s %s", name, percent.FindString(row[1]), variant(sev)))
	}
	if c, ok := s.controlPlane["Completion"]; ok {
		out = append(out, "control plane bar: "+percent.FindString(c))
	}
	return out
}

// shownSeverities are the tab's, as severities words them.
func shownSeverities(p *pageFacts) []string {
	var out []string
	for _, pool := range p.Pools {
		for name, sev := range pool.NodeSeverity {
			out = append(out, fmt.Sprintf("node %s: %s", name, deref(sev)))
		}
		if strings.HasPrefix(pool.Title, "Control plane nodes") {
			continue
		}
		out = append(out, fmt.Sprintf("pool %s: %s", pool.Name, deref(pool.Severity)))
		if pool.Progress != nil {
			out = append(out, fmt.Sprintf("pool %s bar: %s %s", pool.Name, pool.Progress.Measure, pool.Progress.Variant))
		}
	}
	if cp := p.ControlPlaneProgress; cp != nil {
		out = append(out, "control plane bar: "+cp.Measure)
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
