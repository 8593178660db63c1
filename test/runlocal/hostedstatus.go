package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
	"github.com/update-insights/update-insights-operator/pkg/names"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
)

// statusWait is how long a step waits for status to say what the step
// makes true: the operator recomputes the insights at most once a second,
// and a loaded machine delays it.
const statusWait = 30 * time.Second

// neverShown is what status never prints about a hosted cluster.
const neverShown = "MachineConfigPool"

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
	var missing []string
	for {
		var err error
		if out, err = h.status(ctx); err != nil {
			return interrupted(ctx, err)
		}
		missing = w.missing(out)
		if len(missing) == 0 || time.Now().After(deadline) || !sleep(ctx, time.Second) {
			break
		}
	}
	say("status, %s: $ %s", moment, h.walk.commandLine([]string{"status"}))
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		fmt.Printf("          %s\n", line)
	}
	if len(missing) > 0 && ctx.Err() == nil {
		failure := fmt.Sprintf("%s: status did not print %s", moment, strings.Join(missing, ", "))
		say("%s", failure)
		h.failures = append(h.failures, failure)
	}
	return nil
}

// status runs the status command against the local cluster, and returns
// its output (stdout and stderr).
func (h *hostedStatus) status(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.walk.binary, "status")
	cmd.Env = append(os.Environ(), "KUBECONFIG="+h.walk.kubeconfig)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && ctx.Err() == nil) {
		return out.String(), fmt.Errorf("status: %w", err)
	}
	return out.String(), nil
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

// expect is what status must print at a moment of the play, as HyperShift's
// code makes it true then.
func (h *hostedStatus) expect(moment string) want {
	switch moment {
	case "idle":
		return want{lines: []*regexp.Regexp{line(`The cluster is not updating\.`)}}
	case "midway":
		// The six synthetic ClusterOperators flipped at the start, with
		// conditions that never change: they count neither in completion
		// nor in health.
		return want{
			lines: []*regexp.Regexp{
				line(`Assessment:\s+Progressing`),
				line(`Target Version:\s+%s \(from %s\)`, to4_17.version, from4_16.version),
				line(`Operator Health: %s Healthy`, h.counted),
			},
			checks: []func([]string) string{countsOperators(h.counted)},
		}
	}
	return want{}
}
