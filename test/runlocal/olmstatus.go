package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/olm"
)

// failingSummary starts the summary of the insight OLM's informer makes of
// the failing CSV during the update (the CSV's display name and version,
// its namespace and name, its phase and reason); the time it failed
// follows.
const failingSummary = "Operator etcd 0.9.4 (" + failingCSVNamespace + "/" + failingCSVName + ") is Failed (" + failingReason + ") since "

// olmSeen is what UpdateStatus showed of the failing CSV's insight.
type olmSeen struct {
	// shown: UpdateStatus held it, as an error of OLM's informer, at some
	// point; now: the latest UpdateStatus holds it; left: a later one no
	// longer did.
	shown, now, left bool
}

func (o *olmSeen) observe(u *insightsv1alpha1.UpdateStatus) {
	o.now = false
	for _, i := range u.Status.ControlPlane.Informers {
		if i.Name != olm.Informer {
			continue
		}
		for _, insight := range i.Insights {
			if insight.UID == failingInsightUID && insight.Impact.Level == insightsv1alpha1.ErrorInsightLevel {
				o.now = true
			}
		}
	}
	if o.now {
		o.shown = true
	} else if o.shown {
		o.left = true
	}
}

// waitForOLMInsight waits until the latest UpdateStatus holds the failing
// CSV's insight (present) or no longer does, at most timeout; false when
// it did not.
func (s *statusObserver) waitForOLMInsight(ctx context.Context, present bool, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		s.mu.Lock()
		seen := s.olm
		s.mu.Unlock()
		ok := seen.now == present && (present || seen.shown)
		if ok || time.Now().After(deadline) {
			return ok
		}
		if !sleep(ctx, 100*time.Millisecond) {
			return false
		}
	}
}

func (s *statusObserver) olmSoFar() olmSeen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.olm
}

// statusDuringUpdate are the status commands run while the failing CSV's
// insight is in UpdateStatus: the summary, and the health insights'
// details.
var statusDuringUpdate = [][]string{{"status"}, {"status", "--details=health"}}

// showOLMHealth runs the status commands while the update runs and the
// failing CSV's insight is in UpdateStatus, and returns what they did not
// show of it, empty when they showed it in their health section.
func (w walkthrough) showOLMHealth(ctx context.Context) (string, error) {
	var missing []string
	for _, args := range statusDuringUpdate {
		out, _, err := w.run(ctx, args)
		if err != nil {
			return "", err
		}
		if why := healthShowsFailingCSV(out, len(args) > 1); why != "" {
			missing = append(missing, fmt.Sprintf("%s: %s", strings.Join(args, " "), why))
		}
	}
	return strings.Join(missing, "; "), nil
}

// healthShowsFailingCSV says what the output of status does not show of
// the failing CSV's insight in its health section, empty when it shows
// it: a line of the table at level Error naming OLM's informer, or, with
// the details, the insight's summary, its informer and the CSV's message.
func healthShowsFailingCSV(out string, details bool) string {
	_, health, ok := strings.Cut(out, "= Update Health =")
	if !ok {
		return "no health section"
	}
	if details {
		_, insight, ok := strings.Cut(health, "Message: "+failingSummary)
		if !ok {
			return fmt.Sprintf("its health section has no message %q...", failingSummary)
		}
		insight, _, _ = strings.Cut(insight, "\n\n")
		for _, want := range []string{"Informer:    " + olm.Informer, "Level:       Error", failingMessage} {
			if !strings.Contains(insight, want) {
				return fmt.Sprintf("its details of the insight do not say %q", want)
			}
		}
		return ""
	}
	for _, line := range strings.Split(health, "\n") {
		if strings.Contains(line, failingSummary) && strings.Contains(line, "Error") && strings.Contains(line, "("+olm.Informer+")") {
			return ""
		}
	}
	return fmt.Sprintf("its health section has no Error line %q... (%s)", failingSummary, olm.Informer)
}
