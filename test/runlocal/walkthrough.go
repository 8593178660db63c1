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
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// walkthrough is the pre-checks walkthrough of docs/administrators.md on
// the local cluster: once the update completes, the cluster is offered
// target as a conditional update; pre-checks lists the demonstration
// informer's finding and the update's risk, accepting both lets it pass,
// and upgrade --dry-run shows the desiredUpdate it would write.
type walkthrough struct {
	binary, kubeconfig, target string
}

// demoFindingIdentity and riskIdentity are the identities pre-checks
// prints for the two findings, which the walkthrough accepts.
func (w walkthrough) demoFindingIdentity() string {
	return protocol.Identity(demoInformerName, demoPlanFinding(w.target, metav1.Time{}))
}

func (w walkthrough) riskIdentity() string {
	return protocol.Identity(updatestatus.BuiltinInformer, protocol.Insight{
		UID:   "risk/" + demoRiskName,
		Scope: protocol.Scope{Type: protocol.ScopeControlPlane, Resources: []protocol.Resource{{Group: "config.openshift.io", Kind: "ClusterVersion", Name: "version"}}},
	})
}

// steps are the walkthrough's commands, without the binary.
func (w walkthrough) steps() [][]string {
	return [][]string{
		{"pre-checks", "--to", w.target},
		{"pre-checks", "--to", w.target, "--accept", w.demoFindingIdentity() + "," + w.riskIdentity()},
		{"upgrade", "--to", w.target, "--dry-run"},
	}
}

// commandLine is a step as an administrator pastes it into a shell at the
// repository's root.
func (w walkthrough) commandLine(step []string) string {
	return fmt.Sprintf("KUBECONFIG=%s %s %s", shown(w.kubeconfig), shown(w.binary), strings.Join(step, " "))
}

// hint says how to follow the walkthrough from another terminal.
func (w walkthrough) hint() {
	say("once the update completes, the cluster is offered %s (a conditional update with a risk); check an update to it from another terminal:", w.target)
	say("  %s", w.commandLine(w.steps()[0]))
	say("  (docs/administrators.md, \"Pre-checks walkthrough\", has the next steps: --details, --accept, then upgrade --dry-run)")
}

// check runs the walkthrough's commands, prints what they print, and fails
// unless pre-checks refuses the update naming both findings, passes once
// they are accepted, and upgrade --dry-run shows a desiredUpdate to target.
func (w walkthrough) check(ctx context.Context) error {
	steps := w.steps()

	out, code, err := w.run(ctx, steps[0])
	if err != nil {
		return err
	}
	demoSummary := demoPlanFinding(w.target, metav1.Time{}).Impact.Summary
	for _, want := range []string{demoSummary, "Conditional update risk " + demoRiskName, w.demoFindingIdentity(), w.riskIdentity()} {
		if !strings.Contains(out, want) {
			return fmt.Errorf("pre-checks --to %s: want its output to name %q; it printed:\n%s", w.target, want, out)
		}
	}
	if code != 1 {
		return fmt.Errorf("pre-checks --to %s: want exit code 1 before the findings are accepted, got %d", w.target, code)
	}

	if out, code, err = w.run(ctx, steps[1]); err != nil {
		return err
	}
	if code != 0 {
		return fmt.Errorf("pre-checks --to %s --accept: want exit code 0 once both findings are accepted, got %d; it printed:\n%s", w.target, code, out)
	}

	if out, code, err = w.run(ctx, steps[2]); err != nil {
		return err
	}
	if code != 0 || !strings.Contains(out, "version: "+w.target) {
		return fmt.Errorf("upgrade --to %s --dry-run: want exit code 0 and a desiredUpdate with version %s, got exit code %d; it printed:\n%s", w.target, w.target, code, out)
	}
	return nil
}

// run runs a step with the binary against the local cluster, printing its
// command line and its output, and returns its output (stdout and stderr)
// and exit code.
func (w walkthrough) run(ctx context.Context, step []string) (string, int, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	say("$ %s", w.commandLine(step))
	cmd := exec.CommandContext(ctx, w.binary, step...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+w.kubeconfig)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		fmt.Printf("          %s\n", line)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0, nil
	case errors.As(err, &exit) && ctx.Err() == nil:
		return out.String(), exit.ExitCode(), nil
	default:
		return out.String(), -1, fmt.Errorf("%s: %w", strings.Join(step, " "), err)
	}
}
