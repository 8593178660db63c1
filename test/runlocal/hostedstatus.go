package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/test/internal/docexamples"
)

// statusWait is how long a step waits for status to say what the step
// makes true: the operator recomputes the insights at most once a second,
// and a loaded machine delays it.
const statusWait = 30 * time.Second

// neverShown is what status never prints about a hosted cluster.
const neverShown = "MachineConfigPool"

// documentedMoment is the step whose status docs/administrators.md shows
// ("A hosted cluster"): a Replace NodePool rolling out beside one updated in
// place and one behind.
const documentedMoment = "replacing"

// hostedStatus runs status at each played step, prints what it shows, and
// keeps what it showed that HyperShift's code does not make true then.
type hostedStatus struct {
	walk  walkthrough
	check bool
	nodes *hostedNodes
	// counted is how many ClusterOperators the control plane's completion
	// counts: those of the payload, whose versions mean progress.
	counted int
	// failures are the steps at which status did not say what it should,
	// with what it printed.
	failures []string
}

// want is what status must print at a step: each pattern matches a line of
// its output, each of checks finds what it wants (it returns what it
// missed, or ""), and neverShown appears nowhere.
type want struct {
	lines  []*regexp.Regexp
	checks []func(lines []string) string
}

// missing are the patterns that no line of out matches, what checks
// missed, and neverShown if out has it.
func (w want) missing(out string) []string {
	var missing []string
	lines := strings.Split(out, "\n")
	for _, re := range w.lines {
		if !slices.ContainsFunc(lines, re.MatchString) {
			missing = append(missing, fmt.Sprintf("a line matching %q", re))
		}
	}
	for _, check := range w.checks {
		if m := check(lines); m != "" {
			missing = append(missing, m)
		}
	}
	if strings.Contains(out, neverShown) {
		missing = append(missing, fmt.Sprintf("no %q", neverShown))
	}
	return missing
}

// line is a pattern of a whole line, whose text parts are quoted.
func line(format string, args ...any) *regexp.Regexp {
	quoted := make([]any, len(args))
	for i, a := range args {
		quoted[i] = regexp.QuoteMeta(fmt.Sprint(a))
	}
	return regexp.MustCompile("^" + fmt.Sprintf(format, quoted...) + "$")
}

// show runs status until it prints what the step makes true, at most
// statusWait, and prints its output.
func (h *hostedStatus) show(ctx context.Context, moment string) error {
	w := h.expect(moment)
	deadline := time.Now().Add(statusWait)
	var out string
	var code int
	var missing []string
	for {
		var err error
		if out, code, err = h.status(ctx); err != nil {
			return interrupted(ctx, err)
		}
		missing = w.missing(out)
		if len(missing) == 0 || time.Now().After(deadline) || !sleep(ctx, time.Second) {
			break
		}
	}
	say("status, %s: $ %s", moment, h.walk.commandLine([]string{"status"}))
	printOutput(out)
	if len(missing) > 0 && ctx.Err() == nil {
		failure := fmt.Sprintf("%s: status did not print %s", moment, strings.Join(missing, ", "))
		say("%s", failure)
		h.failures = append(h.failures, failure)
	}
	if moment == documentedMoment && h.check && ctx.Err() == nil {
		docs, err := documentedAs(docexamples.Hosted, [][]string{{"status"}})
		if err != nil {
			return err
		}
		if err := matches(docs[0], out, code); err != nil {
			h.failures = append(h.failures, fmt.Sprintf("%s: %v", moment, err))
		}
	}
	return nil
}

// status runs the status command against the local cluster, and returns
// its output (stdout and stderr) and exit code.
func (h *hostedStatus) status(ctx context.Context) (string, int, error) {
	return h.walk.quietly(ctx, []string{"status"})
}

// checked fails unless status said at each step what it should, the
// insight went from Progressing to Completed, and the operator's
// ClusterOperator is Available in the hosted mode and not Degraded.
func (h *hostedStatus) checked(progressing, completed, healthy bool, available string) error {
	var problems []string
	problems = append(problems, h.failures...)
	if !progressing || !completed {
		problems = append(problems, fmt.Sprintf("want the ClusterVersion insight to go from Progressing to Completed; saw Progressing=%t, Completed=%t", progressing, completed))
	}
	if !healthy || !strings.HasPrefix(available, operatorstatus.HostedMode) {
		problems = append(problems, fmt.Sprintf("want the operator's ClusterOperator Available, not Degraded, at the target, its message starting %q; its message: %q", operatorstatus.HostedMode, available))
	}
	if len(problems) > 0 {
		return fmt.Errorf("the hosted cluster:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// ownAvailableMessage is the message of the operator's own ClusterOperator's
// Available condition.
func ownAvailableMessage(ctx context.Context, c *clients) (string, error) {
	co, err := c.config.ConfigV1().ClusterOperators().Get(ctx, names.OwnClusterOperator, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	if a := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable); a != nil {
		return a.Message, nil
	}
	return "", nil
}

// completion is the control plane's Completion line, with the
// ClusterOperators it counts.
var completion = regexp.MustCompile(`^Completion:\s+\d+% \((\d+) operators updated, (\d+) updating, (\d+) waiting\)$`)

// countsOperators checks that the Completion line counts n
// ClusterOperators.
func countsOperators(n int) func([]string) string {
	return func(lines []string) string {
		for _, l := range lines {
			if m := completion.FindStringSubmatch(l); m != nil {
				total := 0
				for _, count := range m[1:] {
					c, _ := strconv.Atoi(count)
					total += c
				}
				if total == n {
					return ""
				}
				return fmt.Sprintf("a completion of %d ClusterOperators (the payload's, not the hosted-cluster-config-operator's), not %d", n, total)
			}
		}
		return "a Completion line"
	}
}

// behind is the line status prints of a NodePool behind the control
// plane: its nodes' kubelet, how many minors behind the control plane's
// Kubernetes release it runs, and the skew HyperShift allows
// (support/supportedversion/version.go, ValidateVersionSkew).
func behind(pool string, r release, minors int, controlPlane release) *regexp.Regexp {
	plural := "s"
	if minors == 1 {
		plural = ""
	}
	return line(`NodePool %s is behind the control plane: .*kubelet %s, %s minor release`+plural+` behind the control plane's %s\..* up to %s minor releases behind the control plane\.`,
		pool, r.kubelet, minors, controlPlane.kubernetes, hosted.MaxMinorsBehind)
}

// notBehind checks that status does not say the NodePool is behind.
func notBehind(pool string) func([]string) string {
	prefix := "NodePool " + pool + " is behind"
	return func(lines []string) string {
		if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) }) {
			return fmt.Sprintf("no line saying NodePool %s is behind", pool)
		}
		return ""
	}
}

// noLine finds that no line matches re.
func noLine(re *regexp.Regexp) func([]string) string {
	return func(lines []string) string {
		if slices.ContainsFunc(lines, re.MatchString) {
			return fmt.Sprintf("no line matching %q", re)
		}
		return ""
	}
}

// poolRow is a NodePool's row in the worker pools' table: its assessment
// and the pattern of its completion and what follows.
func poolRow(pool, assessment, completion string) *regexp.Regexp {
	return regexp.MustCompile("^" + regexp.QuoteMeta(pool) + `\s+` + assessment + `\s+` + completion + `(\s.*)?$`)
}

// nodeRow is a node's row in its NodePool's section: its assessment, the
// pattern of its phase, no OpenShift version (the guest cannot know it),
// and its note.
func nodeRow(node, assessment, phase, note string) *regexp.Regexp {
	return regexp.MustCompile("^" + regexp.QuoteMeta(node) + `\s+` + assessment + `\s+` + phase + `\s+\?\s+\S+\s+` + regexp.QuoteMeta(note) + "$")
}

// kubeletNote is a node's note: its kubelet against the control plane.
func kubeletNote(r release, minors int) string {
	switch minors {
	case 0:
		return fmt.Sprintf("kubelet %s, the control plane's release", r.kubelet)
	case 1:
		return fmt.Sprintf("kubelet %s, 1 minor release behind the control plane's %s", r.kubelet, to4_17.kubernetes)
	}
	return fmt.Sprintf("kubelet %s, %d minor releases behind the control plane's %s", r.kubelet, minors, to4_17.kubernetes)
}

// expect is what status must print at a moment of the play, as HyperShift's
// code makes it true then.
func (h *hostedStatus) expect(moment string) want {
	notUpdating := line(`The cluster is not updating\.`)
	completed := line(`Update to %s successfully completed at \S+ \(duration: .*\)`, to4_17.version)
	inPlace, replaced, legacy := h.nodes.pools[0], h.nodes.pools[1], h.nodes.pools[2]
	switch moment {
	case "idle":
		// The control plane runs 4.16, Kubernetes 1.29: so do two
		// NodePools; the third runs 4.14's kubelet.
		return want{
			lines:  []*regexp.Regexp{notUpdating, behind(behindPool, old4_14, 2, from4_16)},
			checks: []func([]string) string{notBehind(inPlacePool), notBehind(replacePool)},
		}
	case "midway":
		// The hosted-cluster-config-operator runs the new release from
		// the start: its kube-apiserver ClusterOperator reports Kubernetes
		// 1.30, and every NodePool runs behind it. The six ClusterOperators
		// it writes, whose conditions never change, count neither in
		// completion nor in health.
		return want{
			lines: []*regexp.Regexp{
				line(`Assessment:\s+Progressing`),
				line(`Target Version:\s+%s \(from %s\)`, to4_17.version, from4_16.version),
				line(`Operator Health: %s Healthy`, h.counted),
				poolRow(inPlacePool, "Behind", `0% \(0/2\)`),
				poolRow(replacePool, "Behind", `0% \(0/2\)`),
				poolRow(behindPool, "Behind", `0% \(0/2\)`),
				behind(inPlacePool, from4_16, 1, to4_17),
				behind(replacePool, from4_16, 1, to4_17),
				behind(behindPool, old4_14, 3, to4_17),
				// Nodes of a NodePool behind have no update to come.
				nodeRow(inPlace.nodes[0], "Behind", "Behind", kubeletNote(from4_16, 1)),
				nodeRow(replaced.nodes[0], "Behind", "Behind", kubeletNote(from4_16, 1)),
				nodeRow(legacy.nodes[0], "Behind", "Behind", kubeletNote(old4_14, 3)),
			},
			checks: []func([]string) string{countsOperators(h.counted)},
		}
	case "control plane updated":
		// Nothing updates: the NodePools are updated apart, from the
		// management cluster.
		return want{lines: []*regexp.Regexp{
			notUpdating,
			behind(inPlacePool, from4_16, 1, to4_17),
			behind(replacePool, from4_16, 1, to4_17),
			behind(behindPool, old4_14, 3, to4_17),
		}}
	case "draining":
		// The in-place upgrader gave the first node its target (at most
		// maxUnavailable, 1, at once) and the drainer drains it; the second
		// waits for its turn.
		return want{lines: []*regexp.Regexp{
			completed,
			poolRow(inPlacePool, "Progressing", `0% \(0/2\)\s+1 Available, 1 Progressing, 1 Draining`),
			poolRow(replacePool, "Behind", `0% \(0/2\)`),
			poolRow(behindPool, "Behind", `0% \(0/2\)`),
			line(`Worker Pool Nodes: %s`, inPlacePool),
			nodeRow(inPlace.nodes[0], "Progressing", "Draining", kubeletNote(from4_16, 1)),
			nodeRow(inPlace.nodes[1], "Outdated", "Pending", kubeletNote(from4_16, 1)),
			behind(replacePool, from4_16, 1, to4_17),
			behind(behindPool, old4_14, 3, to4_17),
		}}
	case "applying":
		// The drainer drained the node and its daemon applies the
		// configuration. The post-config action Rebooting of the node's
		// earlier in-place update is still there: it is not rebooting.
		return want{lines: []*regexp.Regexp{
			poolRow(inPlacePool, "Progressing", `0% \(0/2\)`),
			nodeRow(inPlace.nodes[0], "Progressing", "Updating", kubeletNote(from4_16, 1)),
			nodeRow(inPlace.nodes[1], "Outdated", "Pending", kubeletNote(from4_16, 1)),
		}}
	case "rebooting":
		// The machine-config daemon applied the configuration and reboots
		// the node: it says so in post-config-action, its state still
		// Working, and the node's kubelet is down.
		return want{lines: []*regexp.Regexp{
			poolRow(inPlacePool, "Progressing", `0% \(0/2\)`),
			nodeRow(inPlace.nodes[0], "Progressing", "Rebooting", kubeletNote(from4_16, 1)),
			nodeRow(inPlace.nodes[1], "Outdated", "Pending", kubeletNote(from4_16, 1)),
		}}
	case "in place updated":
		return want{
			lines:  []*regexp.Regexp{notUpdating, behind(replacePool, from4_16, 1, to4_17), behind(behindPool, old4_14, 3, to4_17)},
			checks: []func([]string) string{notBehind(inPlacePool)},
		}
	case "rollout started":
		// cluster-api tainted the old nodes outdated-revision and a new
		// node joined, which the hosted-cluster-config-operator has not
		// labelled yet: the guest sees the NodePool's old nodes only, and
		// the rollout by their taint.
		return want{lines: []*regexp.Regexp{
			poolRow(replacePool, "Progressing", `0% \(0/2\)`),
			nodeRow(replaced.nodes[0], "Outdated", "Pending", kubeletNote(from4_16, 1)),
			nodeRow(replaced.nodes[1], "Outdated", "Pending", kubeletNote(from4_16, 1)),
		}, checks: []func([]string) string{notBehind(replacePool), noLine(notUpdating)}}
	case "replacing":
		// cluster-api surged a node at the new release, and drains the
		// first old one; the second waits to be replaced.
		return want{lines: []*regexp.Regexp{
			completed,
			poolRow(inPlacePool, "Completed", `100% \(2/2\)`),
			poolRow(replacePool, "Progressing", `33% \(1/3\)\s+2 Available, 1 Progressing, 1 Draining`),
			poolRow(behindPool, "Behind", `0% \(0/2\)`),
			nodeRow(inPlace.nodes[0], "Completed", "Updated", kubeletNote(to4_17, 0)),
			nodeRow(replaced.nodes[0], "Progressing", "Draining", kubeletNote(from4_16, 1)),
			nodeRow(replaced.nodes[1], "Outdated", "Pending", kubeletNote(from4_16, 1)),
			nodeRow(replaced.nodes[2], "Completed", "Updated", kubeletNote(to4_17, 0)),
			nodeRow(legacy.nodes[0], "Behind", "Behind", kubeletNote(old4_14, 3)),
			behind(behindPool, old4_14, 3, to4_17),
		}}
	case "replaced":
		return want{
			lines:  []*regexp.Regexp{notUpdating, behind(behindPool, old4_14, 3, to4_17)},
			checks: []func([]string) string{notBehind(inPlacePool), notBehind(replacePool)},
		}
	}
	return want{}
}
