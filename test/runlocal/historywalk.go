package main

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// historySteps are the history commands run once the played update
// completed: the list, which has it Completed, and its postmortem, which
// has the held drain as a stall in the words of its health insight, naming
// the pod and the budget, and the worker pools' nodes.
func (w walkthrough) historySteps(target string) []step {
	stall := fmt.Sprintf("Pod %s/%s holds the drain of node %s: PodDisruptionBudget %s/%s allows no disruption", heldNamespace, heldPod, w.held.node, heldNamespace, heldBudget)
	return []step{
		{args: []string{"history"}, check: func(out string, code int) error {
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, target+" ") && strings.Contains(line, "Completed") {
					return nil
				}
			}
			return fmt.Errorf("want a line of the update to %s, Completed (exit %d)", target, code)
		}},
		{args: []string{"history", target}, check: says("= Update to "+target, "Timeline:", "Pools:", "worker (WorkerPool)", layeredPoolName+" (WorkerPool)", "Stalls:", stall)},
	}
}

// showHistory runs the history commands once the update's record says it
// completed, which it does once the pools' last node is seen finished:
// within a minute of the pools' insights saying so. With check, it fails
// unless each printed what its step says.
func (w walkthrough) showHistory(ctx context.Context, target string, check bool) error {
	steps := w.historySteps(target)
	deadline := time.Now().Add(time.Minute)
	for {
		out, code, err := w.quietly(ctx, steps[0].args)
		if err != nil {
			return err
		}
		if steps[0].check(out, code) == nil || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Second)
	}
	for _, s := range steps {
		out, code, err := w.run(ctx, s.args)
		if err != nil {
			return err
		}
		if err := s.check(out, code); err != nil && check {
			return fmt.Errorf("%s: %w", strings.Join(s.args, " "), err)
		}
	}
	return nil
}
