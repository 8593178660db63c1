package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/drain"
)

// heldFor is how long the walkthrough waits for the operator to name the
// pod that holds the worker's drain: it names it once the block has lasted
// drain.MCO's WarnAfter, counted from the later of when it saw the node
// begin updating and when the budget stopped allowing disruptions, and it
// needs a moment more to write what it found. The node begins updating
// when the roll reaches it, so no recorded time shortens the wait: the
// budget's condition, older, does not count. The wait ends as soon as the
// operator names the pod; its margin is for a loaded machine.
var heldFor = drain.MCO.WarnAfter + 3*time.Minute

// drainSteps are the walkthrough's status commands while a budget holds the
// worker's drain, and once it allows it: the node's note, the health
// insight and the Drains Held table name the pod and the budget, and then
// nothing does.
func (w walkthrough) drainSteps() []step {
	summary := fmt.Sprintf("Pod %s/%s holds the drain of node %s: PodDisruptionBudget %s/%s allows no disruption", heldNamespace, heldPod, w.held.node, heldNamespace, heldBudget)
	return []step{
		{args: []string{"status"}, check: says("Drain held by pod "+heldNamespace+"/"+heldPod, summary)},
		{args: []string{"status", "--details=nodes"}, check: says("Drains Held: worker", heldNamespace+"/"+heldPod, heldNamespace+"/"+heldBudget)},
		{args: []string{"status"}, check: func(out string, _ int) error {
			if strings.Contains(out, heldPod) {
				return fmt.Errorf("want its output not to name pod %s/%s once its budget allows the disruption", heldNamespace, heldPod)
			}
			return nil
		}},
	}
}

// says checks that a step's output says each of want.
func says(want ...string) func(string, int) error {
	return func(out string, _ int) error {
		for _, s := range want {
			if !strings.Contains(out, s) {
				return fmt.Errorf("want its output to say %q", s)
			}
		}
		return nil
	}
}

// holdDrain is called once the roll has asked for the held worker's drain:
// it waits for the operator to name the pod that holds it, runs the status
// commands that show it, scales the workload so that the budget allows the
// disruption, waits for the operator to drop what it named, shows status
// again, and lets the drain evict the pod. With check, it fails unless
// each command printed what the documentation shows.
func (w walkthrough) holdDrain(ctx context.Context, c *clients, check bool) error {
	h := w.held
	say("the machine-config controller cannot drain %s: PodDisruptionBudget %s/%s allows no disruption of its pod %s; the operator names it once the drain has been held for %s",
		h.node, heldNamespace, heldBudget, heldPod, drain.MCO.WarnAfter)
	steps := w.steps()
	if !waitForHeld(ctx, c, h.node, true, heldFor) {
		return fmt.Errorf("the operator did not name pod %s/%s as holding the drain of %s within %s", heldNamespace, heldPod, h.node, heldFor)
	}
	for i := range 2 {
		if err := w.runStep(ctx, steps, i, check); err != nil {
			return err
		}
	}
	if err := h.allow(ctx, c); err != nil {
		return err
	}
	say("ReplicaSet %s/%s scaled to 2: PodDisruptionBudget %s/%s allows one disruption", heldNamespace, heldReplicaSet, heldNamespace, heldBudget)
	if !waitForHeld(ctx, c, h.node, false, 3*time.Minute) {
		return fmt.Errorf("the operator still names pod %s/%s as holding the drain of %s three minutes after its budget allowed the disruption", heldNamespace, heldPod, h.node)
	}
	if err := w.runStep(ctx, steps, 2, check); err != nil {
		return err
	}
	if err := h.drain(ctx, c); err != nil {
		return err
	}
	say("the drain evicted pod %s/%s; its replacement runs on %s", heldNamespace, heldPod, h.replacedTo)
	if check {
		say("check passed: status named pod %s/%s and PodDisruptionBudget %s/%s while they held the drain of %s, and no longer once the budget allowed it, as docs/administrators.md shows", heldNamespace, heldPod, heldNamespace, heldBudget, h.node)
	}
	return nil
}

// waitForHeld waits until the node's insight and the health insights name
// the held pod (held) or no longer do, and says whether they did in time.
func waitForHeld(ctx context.Context, c *clients, node string, held bool, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		if named, err := namesHeldPod(ctx, c, node); err == nil && named == held {
			return true
		}
		if !sleep(ctx, 250*time.Millisecond) {
			return false
		}
	}
}

// namesHeldPod says whether both the node's insight (its note) and a health
// insight name the held pod; false once neither does.
func namesHeldPod(ctx context.Context, c *clients, node string) (bool, error) {
	insights := c.insights.InsightsV1alpha1()
	nodes, err := insights.NodeProgressInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, err
	}
	inNote := 0
	for _, n := range nodes.Items {
		if n.Status.Name == node && strings.Contains(n.Status.Message, heldNamespace+"/"+heldPod) {
			inNote++
		}
	}
	health, err := insights.UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, err
	}
	inHealth := 0
	for _, h := range health.Items {
		if strings.HasPrefix(h.Status.Impact.Summary, "Pod "+heldNamespace+"/"+heldPod+" ") {
			inHealth++
		}
	}
	switch {
	case inNote > 0 && inHealth > 0:
		return true, nil
	case inNote == 0 && inHealth == 0:
		return false, nil
	}
	return false, fmt.Errorf("named in %d node notes and %d health insights", inNote, inHealth)
}
