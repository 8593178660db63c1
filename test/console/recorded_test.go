package console

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRecordedClustersInTheBrowser loads each recorded cluster, lets the
// operator write its insights, and compares what the tab shows in the
// browser with what status --details=all prints for the same state of the
// API server (checked unchanged around both): the warnings, the control
// plane's assessment, target, operators updating, completion and operator
// health, the updating operators' table (reasons cut and messages
// continued as status prints them), the durations (which may differ by
// the time between the two reads), each pool's row and its nodes by
// phase, every node's row but the estimate's minutes, each cut node
// message whole once expanded, the health insights with their levels and
// details, the colours the assessments call for and what the bars
// measure, no one-line column wrapped, and the informers that cannot be
// heard (on the cluster not updating, an UpdateInformer at an address that
// refuses connections). The
// Overview's status line is checked to say the same and to lead to the
// tab. A screenshot of each is kept under _output/console-e2e.
func TestRecordedClustersInTheBrowser(t *testing.T) {
	for _, tc := range []struct {
		name        string
		unreachable bool
	}{
		{name: "4.14.1-workers-started-updating-multiple-pools"},
		{name: "4.16.0-ec2-control-plane-updated-pdb-prohibits-draining"},
		// Operators updating with a Progressing reason of their own.
		{name: "4.15.0-ec2-early"},
		// A Stalled control plane with Error health insights.
		{name: "4.14.1-degraded"},
		{name: "not-upgrading", unreachable: true},
	} {
		name := tc.name
		t.Run(name, func(t *testing.T) {
			c := startCluster(t, name, 0)
			if tc.unreachable {
				c.createUnreachableInformer(t)
			}
			// The same state of the API server for both reads: read again
			// if the operator wrote meanwhile (an informer's poll).
			var out string
			var facts pageFacts
			var overview overviewFacts
			var apart time.Duration
			for attempt := 1; ; attempt++ {
				before := c.settle(t, 3*time.Second)
				read := time.Now()
				out = c.command(t, "status", "--details=all")
				browse(t, browseSpec{URL: c.standin.URL, Mode: "tab", Screenshot: name + ".png"}, &facts)
				apart = time.Since(read)
				browse(t, browseSpec{URL: c.standin.URL, Mode: "overview", Screenshot: name + "-overview.png"}, &overview)
				after, err := c.state(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if after == before {
					break
				}
				if attempt == 3 {
					t.Fatalf("the operator changed its objects while the page was read, %d times", attempt)
				}
				t.Logf("the operator changed its objects while the page was read: reading again")
			}
			want := parseStatus(out)
			if diff := cmp.Diff(want.tabFacts(), shownFacts(&facts)); diff != "" {
				t.Errorf("the tab shows (+) not what status --details=all printed (-):\n%s\nstatus printed:\n%s", diff, out)
			}
			checkDurations(t, want.durations(), shownDurations(&facts), apart)
			if d, ok := shownDurations(&facts)["control plane: Duration"]; ok {
				// As recorded, and as long again as it has run here.
				recorded := shortDurationOf(c.recordedDuration + time.Since(c.loaded))
				if !durationsAgree(recorded, d, time.Since(c.loaded)) {
					t.Errorf("the tab says the update has run %s, not the recorded %s and the time since it was loaded (%s)", d, shortDurationOf(c.recordedDuration), recorded)
				}
			}
			if diff := cmp.Diff(want.wholeMessages(), nonEmpty(facts.WholeMessages)); diff != "" {
				t.Errorf("the node rows that cut their message show, expanded (+), not the whole message status prints of the node (-):\n%s", diff)
			}
			// The hosted clusters' page is for a management cluster: every
			// cluster serves HostedClusterProgressInsight, but not HyperShift's
			// HostedCluster.
			if len(facts.Nav) > 0 {
				t.Errorf("a cluster without HyperShift shows the plugin's navigation items %+v", facts.Nav)
			}
			if len(facts.Wrapped) > 0 {
				t.Errorf("at 1,400 px these cells, kept on one line, wrap:\n%s", strings.Join(facts.Wrapped, "\n"))
			}
			if cp := facts.ControlPlaneProgress; want.controlPlane["Assessment"] == "Stalled" && (cp == nil || cp.Variant != "danger") {
				t.Errorf("status says the control plane is Stalled; the tab's bar is %+v, not danger", cp)
			}
			checkOverview(t, want, overview)
		})
	}
}

// facts are what both the tab and status say, each as a line, in an order
// of their own.
type facts struct {
	Warnings     []string
	NotUpdating  bool
	ControlPlane []string
	Pools        []string
	Phases       []string
	Nodes        []string
	Health       []string
	// HealthDetails are what --details=health prints under each insight:
	// impact, reference, resources and description.
	HealthDetails []string
	// Operators are the rows of the updating operators' table, in order:
	// name, reason, message, a row without a name continuing the message
	// above.
	Operators []string
	// Severity is the colour of each pool's and node's label and of each
	// progress bar, and what each bar measures.
	Severity []string
	// Offline are the informers that cannot be heard.
	Offline []string
}

// offlineWarning is the warning status prints of an informer it cannot
// hear (pkg/updatestatus withOfflineInformers).
var offlineWarning = regexp.MustCompile(`^Update informer (\S+) is offline `)

// controlPlaneTerms are the control plane lines compared, status's key and
// the tab's term: Duration and Est. Time Remaining are compared as
// durations, which may pass between the two reads (checkDurations).
var controlPlaneTerms = [][2]string{
	{"Assessment", "Assessment"},
	{"Target Version", "Target version"},
	{"Updating", "Updating"},
	{"Completion", "Completion"},
	{"Operator Health", "Operator health"},
}

// estimate is a node's EST compared: "?" and "-" as they are, a duration
// only as being one.
func estimate(est string) string {
	if est == "?" || est == "-" || est == "" {
		return est
	}
	return "a duration"
}

func (s statusText) tabFacts() facts {
	f := facts{Warnings: s.warnings, NotUpdating: s.notUpdating}
	for _, term := range controlPlaneTerms {
		if v, ok := s.controlPlane[term[0]]; ok {
			f.ControlPlane = append(f.ControlPlane, term[1]+": "+v)
		}
	}
	if s.completed != "" {
		f.ControlPlane = append(f.ControlPlane, s.completed)
	}
	if s.nodesLine != "" {
		f.ControlPlane = append(f.ControlPlane, s.nodesLine)
	}
	for name, row := range s.pools {
		f.Pools = append(f.Pools, fmt.Sprintf("%s: %s, completion %s, %s", name, row[0], row[1], row[2]))
	}
	phases := map[string]map[string]int{}
	for name, row := range s.nodes {
		pool := s.nodePool[name]
		f.Nodes = append(f.Nodes, strings.Join([]string{pool, name, row[0], row[1], row[2], estimate(row[3]), row[4]}, " | "))
		if phases[pool] == nil {
			phases[pool] = map[string]int{}
		}
		phases[pool][row[1]]++
	}
	for pool, byPhase := range phases {
		for phase, n := range byPhase {
			f.Phases = append(f.Phases, fmt.Sprintf("%s: %s: %d", pool, phase, n))
		}
	}
	for _, h := range s.health {
		f.Health = append(f.Health, h.level+": "+h.message)
		if h.impact != "" {
			f.HealthDetails = append(f.HealthDetails, healthDetail(h.level, h.message, h.impact, h.reference, strings.Join(h.resources, ", "), h.description))
		}
	}
	f.Severity = s.severities()
	for _, o := range s.operators {
		f.Operators = append(f.Operators, operatorLine(o[0], o[2], o[3]))
	}
	for _, w := range s.warnings {
		if m := offlineWarning.FindStringSubmatch(w); m != nil {
			f.Offline = append(f.Offline, m[1])
		}
	}
	return f.sorted()
}

func shownFacts(p *pageFacts) facts {
	f := facts{Warnings: p.Warnings}
	for _, l := range p.NotUpdating {
		if l == "The cluster is not updating." {
			f.NotUpdating = true
		}
	}
	if cp := p.ControlPlane; cp != nil {
		for _, term := range controlPlaneTerms {
			if v, ok := cp.Terms[term[1]]; ok {
				f.ControlPlane = append(f.ControlPlane, term[1]+": "+v)
			}
		}
		if cp.Completed != nil {
			f.ControlPlane = append(f.ControlPlane, *cp.Completed)
		}
		if i := strings.Index(cp.Text, "All control plane nodes"); i >= 0 {
			f.ControlPlane = append(f.ControlPlane, cp.Text[i:])
		}
	}
	for _, pool := range p.Pools {
		// The card of the control plane's nodes is titled so; status
		// heads their table "Control Plane Nodes".
		name := pool.Name
		if strings.HasPrefix(pool.Title, "Control plane nodes") {
			name = "Control Plane Nodes"
		} else {
			f.Pools = append(f.Pools, poolLine(pool.Name, pool.Title, pool.Completion, pool.Status))
		}
		for _, phase := range pool.Phases {
			f.Phases = append(f.Phases, name+": "+phase)
		}
		for _, row := range pool.Nodes {
			f.Nodes = append(f.Nodes, strings.Join([]string{name, row[0], row[1], row[2], row[3], estimate(row[4]), row[5]}, " | "))
		}
	}
	for _, h := range p.Health {
		f.Health = append(f.Health, h.Level+": "+h.Message)
		if h.Terms["Impact"] != "" {
			f.HealthDetails = append(f.HealthDetails, healthDetail(h.Level, h.Message, h.Terms["Impact"], h.Terms["Reference"],
				strings.ReplaceAll(h.Terms["Resources"], "\n", ", "), h.Terms["Description"]))
		}
	}
	f.Severity = shownSeverities(p)
	for _, o := range p.Operators {
		f.Operators = append(f.Operators, operatorLine(o[0], o[2], o[3]))
	}
	// The informers' table: name, online, last contact, handles, message.
	for _, row := range p.Informers {
		if strings.HasPrefix(row[1], "Offline") {
			f.Offline = append(f.Offline, row[0])
		}
	}
	return f.sorted()
}

// wholeMessages are, for each node whose row's message status cuts (with
// an ellipsis), the whole of it: the description of the node's health
// insight, which names it in its resources ("nodes: NAME") and says why it
// is degraded or unavailable.
func (s statusText) wholeMessages() map[string]string {
	var out map[string]string
	for name, row := range s.nodes {
		if !strings.HasSuffix(row[4], "…") {
			continue
		}
		for _, h := range s.health {
			if slices.Contains(h.resources, "nodes: "+name) && h.description != "" {
				if out == nil {
					out = map[string]string{}
				}
				out[name] = h.description
				break
			}
		}
	}
	return out
}

// nonEmpty makes an empty map nil: an absence is no fact.
func nonEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// operatorLine is a row of the updating operators' table, whitespace as
// the page collapses it.
func operatorLine(name, reason, message string) string {
	return strings.Join(strings.Fields(name+" | "+reason+" | "+message), " ")
}

// poolLine says a pool card as status's pool row: the card's title ends
// with the assessment's label, its progress bar is titled "Completion C",
// and its first line is the status.
func poolLine(name, title, completion, status string) string {
	fields := strings.Fields(title)
	return fmt.Sprintf("%s: %s, completion %s, %s", name, fields[len(fields)-1], strings.TrimPrefix(completion, "Completion "), status)
}

// sorted sorts each list but the updating operators' rows, whose order
// says which message a row continues, and makes an empty one nil: neither
// order nor absence is a fact.
func (f facts) sorted() facts {
	for _, l := range []*[]string{&f.Warnings, &f.ControlPlane, &f.Pools, &f.Phases, &f.Nodes, &f.Health, &f.HealthDetails, &f.Severity, &f.Offline} {
		if len(*l) == 0 {
			*l = nil
		}
		sort.Strings(*l)
	}
	if len(f.Operators) == 0 {
		f.Operators = nil
	}
	return f
}

// checkOverview checks the Overview's line: updating or not as status
// says, Error, Warning or healthy by the worst health insight status
// lists and by the assessment (Stalled an Error, Progressing - Slow a
// Warning), and a popup whose link leads to the tab.
func checkOverview(t *testing.T, s statusText, o overviewFacts) {
	t.Helper()
	updating := !s.notUpdating
	if got := strings.HasPrefix(o.Message, "Updating to "); got != updating {
		t.Errorf("the Overview says %q, status says updating %v", o.Message, updating)
	}
	levels := map[string]bool{}
	for _, h := range s.health {
		levels[h.level] = true
	}
	want := map[bool]string{true: "UPDATING", false: "OK"}[updating]
	switch {
	case levels["Critical"] || levels["Error"], s.controlPlane["Assessment"] == "Stalled":
		want = "ERROR"
	case levels["Warning"], s.controlPlane["Assessment"] == "Progressing - Slow":
		want = "WARNING"
	}
	if o.State != want {
		t.Errorf("the Overview's state is %s (%q), want %s from status's health insights", o.State, o.Message, want)
	}
	if o.Link != "/settings/cluster/update-insights" || o.Followed != "/settings/cluster/update-insights" {
		t.Errorf("the Overview's popup links to %q and led to %q, not the tab", o.Link, o.Followed)
	}
}
