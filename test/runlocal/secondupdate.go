package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
)

// playSecond plays a second update, to release, once the first completed,
// as the cluster-version operator would start it and the payload's
// operators and the machine-config operator carry it out, without a held
// drain. Its control plane's estimate learns from the first's record,
// which the operator's log says.
func playSecond(ctx context.Context, c *clients, s *scenario, release configv1.Release, step time.Duration) error {
	from := s.target()
	s.to = release
	say("a second update, to %s from %s: its estimate learns from the record of the first", release.Version, from)
	if err := s.commence(ctx, c); err != nil {
		return err
	}
	return s.play(ctx, c, step, playHooks{})
}

// learnedFromRecords says whether the operator's log says the control
// plane's estimate of the update to version learned from recorded updates.
func learnedFromRecords(logPath, version string) (bool, error) {
	log, err := os.ReadFile(logPath)
	if err != nil {
		return false, err
	}
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, "Estimating the control plane's update from the cluster's recorded updates") &&
			strings.Contains(line, `update="`+version+`"`) && !strings.Contains(line, "records=0") {
			return true, nil
		}
	}
	return false, nil
}

// checkBothRecorded runs history once the second update's record says it
// completed, and fails unless it lists both updates Completed and the
// operator's log says the second's estimate learned from the first.
func (w walkthrough) checkBothRecorded(ctx context.Context, first, second, logPath string) error {
	steps := w.historySteps(second)
	if err := w.showHistory(ctx, second, false); err != nil {
		return err
	}
	out, code, err := w.quietly(ctx, steps[0].args)
	if err != nil {
		return err
	}
	if err := w.historySteps(first)[0].check(out, code); err != nil {
		return fmt.Errorf("history: %w, and of the update to %s; it printed:\n%s", err, second, out)
	}
	if err := steps[0].check(out, code); err != nil {
		return fmt.Errorf("history: %w; it printed:\n%s", err, out)
	}
	learned, err := learnedFromRecords(logPath, second)
	if err != nil {
		return err
	}
	if !learned {
		return fmt.Errorf("want the operator's log (%s) to say the estimate of the update to %s learned from a recorded update", logPath, second)
	}
	return nil
}
