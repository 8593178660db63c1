package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/olm"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
	"github.com/update-insights/update-insights-operator/test/internal/docexamples"
)

// walkthrough is the pre-checks walkthrough of docs/administrators.md on
// the local cluster: once the update completes, the cluster is offered
// target as a conditional update; pre-checks lists the demonstration
// informer's finding, the update's risk and the alert checks that did not
// run, upgrade refuses the update until all are accepted, accepting them
// lets pre-checks pass, and upgrade --dry-run shows the desiredUpdate it
// would write. It is offered minor, the next minor release, too, which an
// operator OLM installed blocks: pre-checks names it, and --details says
// how to remedy it. recommended is the third release offered, a
// recommended update the walkthrough leaves alone.
type walkthrough struct {
	binary, kubeconfig, target, recommended, minor string
	// blocker is what OLM's informer finds of the update to minor.
	blocker olmBlocker
	// held is the worker whose drain a budget holds during the update,
	// which status shows before the pre-checks.
	held heldDrain
}

// demoFindingIdentity, riskIdentity and alertsIdentity are the identities
// pre-checks --details prints for three of the findings the walkthrough
// accepts: the local operator reads no alerts, a check that did not run.
func (w walkthrough) demoFindingIdentity() string {
	return protocol.Identity(demoInformerName, demoPlanFinding(w.target, metav1.Time{}))
}

func (w walkthrough) riskIdentity() string {
	return protocol.Identity(updatestatus.BuiltinInformer, protocol.Insight{
		UID:   "risk/" + demoRiskName,
		Scope: protocol.Scope{Type: protocol.ScopeControlPlane, Resources: []protocol.Resource{{Group: "config.openshift.io", Kind: "ClusterVersion", Name: "version"}}},
	})
}

func (w walkthrough) alertsIdentity() string {
	return protocol.Identity(updatestatus.BuiltinInformer, protocol.Insight{
		UID:   "alerts-unchecked",
		Scope: protocol.Scope{Type: protocol.ScopeControlPlane, Resources: []protocol.Resource{{Group: "config.openshift.io", Kind: "ClusterOperator", Name: "monitoring"}}},
	})
}

// step is one of the walkthrough's commands, without the binary, and what
// it must do, whatever the documentation shows.
type step struct {
	args  []string
	check func(out string, code int) error
}

// steps are the walkthrough's commands, in the documentation's order: the
// status commands while a worker's drain is held, then the pre-checks.
func (w walkthrough) steps() []step {
	return append(w.drainSteps(), w.preCheckSteps()...)
}

// shortNames are the names pre-checks prints for the three findings, which
// the walkthrough accepts them by: the demonstration informer's uid, the
// risk's name, as oc adm upgrade accept takes it, and the operator's uid.
// The image-mode pool's rebuild is a status of the plan, with nothing to
// accept.
func (w walkthrough) shortNames() []string {
	return []string{demoPlanFindingUID, demoRiskName, "alerts-unchecked"}
}

// preCheckSteps are the commands run once the update completes.
func (w walkthrough) preCheckSteps() []step {
	identities := []string{w.demoFindingIdentity(), w.riskIdentity(), w.alertsIdentity()}
	namesFindings := func(names []string) func(string, int) error {
		return func(out string, code int) error {
			for _, want := range append([]string{demoPlanFinding(w.target, metav1.Time{}).Impact.Summary, "Conditional update risk " + demoRiskName}, names...) {
				if !strings.Contains(out, want) {
					return fmt.Errorf("want its output to name %q", want)
				}
			}
			return exits(1)(out, code)
		}
	}
	return []step{
		{args: []string{"pre-checks", "--to", w.target}, check: namesFindings(w.shortNames())},
		{args: []string{"pre-checks", "--to", w.target, "--details"}, check: namesFindings(append(w.shortNames(), identities...))},
		{args: []string{"upgrade", "--to", w.target, "--dry-run"}, check: exits(1)},
		{args: []string{"pre-checks", "--to", w.target, "--accept", strings.Join(w.shortNames(), ",")}, check: exits(0)},
		{args: []string{"upgrade", "--to", w.target, "--dry-run"}, check: func(out string, code int) error {
			if !strings.Contains(out, "version: "+w.target) {
				return fmt.Errorf("want a desiredUpdate with version %s", w.target)
			}
			return exits(0)(out, code)
		}},
		{args: []string{"pre-checks", "--to", w.minor}, check: w.namesBlocker(false)},
		{args: []string{"pre-checks", "--to", w.minor, "--details"}, check: w.namesBlocker(true)},
	}
}

// namesBlocker checks that pre-checks names OLM's blocker of the update to
// minor, and with details its informer and remedy, and exits 1.
func (w walkthrough) namesBlocker(details bool) func(string, int) error {
	return func(out string, code int) error {
		want := []string{w.blocker.summary}
		if details {
			want = append(want, "Informer:    "+olm.Informer, w.blocker.remedy)
		}
		for _, s := range want {
			if !strings.Contains(out, s) {
				return fmt.Errorf("want its output to say %q", s)
			}
		}
		return exits(1)(out, code)
	}
}

// exits checks a step's exit code.
func exits(want int) func(string, int) error {
	return func(_ string, code int) error {
		if code != want {
			return fmt.Errorf("want exit code %d, got %d", want, code)
		}
		return nil
	}
}

// commandLine is a step as an administrator pastes it into a shell at the
// repository's root.
func (w walkthrough) commandLine(args []string) string {
	return fmt.Sprintf("KUBECONFIG=%s %s %s", shown(w.kubeconfig), shown(w.binary), strings.Join(args, " "))
}

// hint says how to follow the walkthrough from another terminal.
func (w walkthrough) hint() {
	say("once the update completes, the cluster is offered %s (a conditional update with a risk), %s, and %s (which an operator OLM installed blocks); check the update to %s from another terminal:", w.target, w.recommended, w.minor, w.target)
	say("  %s", w.commandLine(w.preCheckSteps()[0].args))
	say("  (docs/administrators.md, \"Pre-checks walkthrough\", has the next steps: --details, --accept, upgrade --dry-run, then pre-checks --to %s)", w.minor)
}

// check runs the pre-checks' commands, prints what they print, and fails
// unless each does what its step says and prints what the documentation
// shows for it.
func (w walkthrough) check(ctx context.Context) error {
	steps := w.steps()
	for i := len(w.drainSteps()); i < len(steps); i++ {
		if err := w.runStep(ctx, steps, i, true); err != nil {
			return err
		}
	}
	return nil
}

// runStep runs steps[i], and fails unless it does what the step says and,
// with compare, prints what the documentation shows for the walkthrough's
// i-th command.
func (w walkthrough) runStep(ctx context.Context, steps []step, i int, compare bool) error {
	s := steps[i]
	out, code, err := w.run(ctx, s.args)
	if err != nil {
		return err
	}
	if err := s.check(out, code); err != nil {
		return fmt.Errorf("%s: %w; it printed:\n%s", strings.Join(s.args, " "), err, out)
	}
	if !compare {
		return nil
	}
	args := make([][]string, len(steps))
	for j, s := range steps {
		args[j] = s.args
	}
	docs, err := documentedAs(docexamples.Walkthrough, args)
	if err != nil {
		return err
	}
	return matches(docs[i], out, code)
}

// run runs a step with the binary against the local cluster, printing its
// command line and its output, and returns its output (stdout and stderr)
// and exit code.
func (w walkthrough) run(ctx context.Context, step []string) (string, int, error) {
	say("$ %s", w.commandLine(step))
	out, code, err := w.quietly(ctx, step)
	printOutput(out)
	return out, code, err
}

// quietly runs the binary with args against the local cluster, within a
// minute, and returns its output (stdout and stderr) and exit code.
func (w walkthrough) quietly(ctx context.Context, args []string) (string, int, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.binary, args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+w.kubeconfig)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0, nil
	case errors.As(err, &exit) && ctx.Err() == nil:
		return out.String(), exit.ExitCode(), nil
	default:
		return out.String(), -1, fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
}

// printOutput prints a command's output, indented under its command line.
func printOutput(out string) {
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		fmt.Printf("          %s\n", line)
	}
}
