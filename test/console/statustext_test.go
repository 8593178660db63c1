package console

import (
	"regexp"
	"strings"
)

// statusText is what `status --details=all` prints, read back into the
// facts the tab shows (pkg/statusview/text.go writes it).
type statusText struct {
	warnings    []string
	notUpdating bool
	// controlPlane are the control plane section's "Key: value" lines.
	controlPlane map[string]string
	// completed is the line of a control plane that completed its update.
	completed string
	// nodesLine is the line said of control plane nodes all updated.
	nodesLine string
	// pools are the worker pools' table rows: assessment, completion, status.
	pools map[string][]string
	// nodes are every node table's rows by node name: assessment, phase,
	// version, est, message.
	nodes map[string][]string
	// nodePool is the table each node is in: the pool's name, or "Control
	// Plane Nodes".
	nodePool map[string]string
	// health are the health insights.
	health []healthText
	// operators are the rows of the Updating Cluster Operators table:
	// name, since, reason and message; a row without a name continues
	// the message of the row above.
	operators [][]string
}

// healthText is a health insight as --details=health prints it; the
// insights status prints as a table (none but "Update is proceeding
// well") have only a level and a message.
type healthText struct {
	level, message string
	// since, impact and reference are the lines so keyed; resources are
	// those listed under Resources; description is the Description, its
	// further lines joined with a space.
	since, impact, reference, description string
	resources                             []string
}

var keyValue = regexp.MustCompile(`^([A-Z][A-Za-z. ]+):\s+(.*)$`)

// detailKey is a key of a health insight's details: "  Since:       8s",
// or "  Resources:" alone.
var detailKey = regexp.MustCompile(`^  ([A-Z][a-z]+):\s*(.*)$`)

func parseStatus(out string) statusText {
	s := statusText{controlPlane: map[string]string{}, pools: map[string][]string{}, nodes: map[string][]string{}, nodePool: map[string]string{}}
	lines := strings.Split(out, "\n")
	section := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "Warning: "):
			s.warnings = append(s.warnings, strings.TrimPrefix(l, "Warning: "))
		case l == "The cluster is not updating.":
			s.notUpdating = true
		case strings.HasPrefix(l, "= ") && strings.HasSuffix(l, " ="):
			section = strings.Trim(l, "= ")
		case section == "Control Plane" && strings.HasPrefix(l, "Update to ") && strings.Contains(l, " successfully completed at "):
			s.completed = l
		case section == "Control Plane" && strings.HasPrefix(l, "All control plane nodes"):
			s.nodesLine = l
		case section == "Control Plane" && l == "Updating Cluster Operators":
			rows := table(lines[i+1:])
			s.operators = append(s.operators, rows...)
			i += len(rows) + 1
		case section == "Control Plane" && keyValue.MatchString(l):
			m := keyValue.FindStringSubmatch(l)
			s.controlPlane[m[1]] = m[2]
		case l == "Control Plane Nodes" || strings.HasPrefix(l, "Worker Pool Nodes: "):
			pool := strings.TrimPrefix(l, "Worker Pool Nodes: ")
			rows := table(lines[i+1:])
			for _, r := range rows {
				s.nodes[r[0]] = r[1:]
				s.nodePool[r[0]] = pool
			}
			i += len(rows) + 1
		case strings.HasPrefix(l, "WORKER POOL "):
			rows := table(lines[i:])
			for _, r := range rows {
				s.pools[r[0]] = r[1:]
			}
			i += len(rows)
		case section == "Update Health" && strings.HasPrefix(l, "SINCE "):
			// Without a health insight, status prints a table of one row
			// that the tab says as an alert of its own: no insight.
			rows := table(lines[i:])
			for _, r := range rows {
				if r[3] != "Update is proceeding well" {
					s.health = append(s.health, healthText{level: r[1], message: r[3]})
				}
			}
			i += len(rows)
		case section == "Update Health" && strings.HasPrefix(l, "Message: "):
			h := healthText{message: strings.TrimPrefix(l, "Message: ")}
			key := ""
			for _, d := range lines[i+1:] {
				if !strings.HasPrefix(d, "  ") {
					break
				}
				if m := detailKey.FindStringSubmatch(d); m != nil {
					key = m[1]
					switch key {
					case "Level":
						h.level = m[2]
					case "Since":
						h.since = m[2]
					case "Impact":
						h.impact = m[2]
					case "Reference":
						h.reference = m[2]
					case "Description":
						h.description = m[2]
					}
					continue
				}
				switch {
				case key == "Resources" && strings.HasPrefix(d, "    "):
					h.resources = append(h.resources, strings.TrimSpace(d))
				case key == "Description":
					// A further line of the description, after ", ".
					h.description += " " + strings.TrimPrefix(strings.TrimSpace(d), ", ")
				}
			}
			s.health = append(s.health, h)
		}
	}
	return s
}

// table reads a table whose header is lines[0], as tabwriter aligns it:
// each column starts where its heading does; it ends at a blank line.
func table(lines []string) [][]string {
	header := lines[0]
	var starts []int
	for i := 0; i < len(header); i++ {
		if header[i] != ' ' && (i == 0 || header[i-1] == ' ') {
			starts = append(starts, i)
		}
	}
	// "WORKER POOL" is one heading of two words.
	if strings.HasPrefix(header, "WORKER POOL") {
		starts = append(starts[:1], starts[2:]...)
	}
	var rows [][]string
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		var row []string
		for j, start := range starts {
			end := len(l)
			if j+1 < len(starts) && starts[j+1] < end {
				end = starts[j+1]
			}
			cell := ""
			if start < len(l) {
				cell = strings.TrimSpace(l[start:end])
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return rows
}
