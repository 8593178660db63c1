package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// The uid prefixes of the managed-upgrade informer's insights that the
// check looks for: a failing step (the pre-update health check, which its
// summary names), and the step running.
const (
	failingStepUIDPrefix = "step-failing/"
	stepUIDPrefix        = "step/"
)

// managedSeen is what UpdateStatus showed of the managed update.
type managedSeen struct {
	// awaitingWindow: the control plane was UpdateActive=False/AwaitingWindow.
	awaitingWindow bool
	// healthWarning: the informer's warning of a failing step was there;
	// healthWarningLeft: a later UpdateStatus no longer had it.
	healthWarning, healthWarningLeft bool
	// step: the informer's insight of the step running was there.
	step bool
}

// observe notes what u shows of the managed update.
func (m *managedSeen) observe(u *insightsv1alpha1.UpdateStatus) {
	if c := meta.FindStatusCondition(u.Status.ControlPlane.Conditions, insightsv1alpha1.UpdateActive); c != nil &&
		c.Status == metav1.ConditionFalse && c.Reason == insightsv1alpha1.UpdateAwaitingWindow {
		m.awaitingWindow = true
	}
	warning := false
	for _, i := range managedInsights(u) {
		switch {
		case strings.HasPrefix(i.UID, failingStepUIDPrefix) && i.Impact.Level == insightsv1alpha1.WarningInsightLevel &&
			strings.Contains(i.Impact.Summary, string(upgradev1alpha1.ClusterHealthyBeforeUpgrade)):
			warning = true
		case strings.HasPrefix(i.UID, stepUIDPrefix) && i.Impact.Level == insightsv1alpha1.StatusInsightLevel:
			m.step = true
		}
	}
	if warning {
		m.healthWarning = true
	} else if m.healthWarning {
		m.healthWarningLeft = true
	}
}

// managedInsights are the managed-upgrade informer's insights in u, on the
// control plane and the worker pools.
func managedInsights(u *insightsv1alpha1.UpdateStatus) []insightsv1alpha1.UpdateInsight {
	var out []insightsv1alpha1.UpdateInsight
	add := func(list []insightsv1alpha1.InformerInsights) {
		for _, i := range list {
			if i.Name == managedInformerName {
				out = append(out, i.Insights...)
			}
		}
	}
	add(u.Status.ControlPlane.Informers)
	for _, p := range u.Status.WorkerPools {
		add(p.Informers)
	}
	return out
}

// managedSoFar is what UpdateStatus has shown of the managed update so far.
func (s *statusObserver) managedSoFar() managedSeen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.managed
}

// waitFor waits until what UpdateStatus and the UpdateInformers have shown
// satisfies done, at most until deadline; false when it did not.
func (s *statusObserver) waitFor(ctx context.Context, deadline time.Time, done func(managedSeen, map[string]string) bool) bool {
	for {
		s.mu.Lock()
		ok := done(s.managed, s.online)
		s.mu.Unlock()
		if ok || time.Now().After(deadline) {
			return ok
		}
		if !sleep(ctx, 100*time.Millisecond) {
			return false
		}
	}
}

// managedChecked says whether UpdateStatus showed everything the check of
// the managed mode wants, and what it saw.
func managedChecked(beforeWindow, during managedSeen, statusShowedWindow bool) (bool, string) {
	ok := beforeWindow.awaitingWindow && statusShowedWindow && during.healthWarning && during.healthWarningLeft && during.step
	return ok, fmt.Sprintf("AwaitingWindow before the window=%t, the status command's window line=%t, the health check's warning shown=%t and then gone=%t, a step insight shown=%t",
		beforeWindow.awaitingWindow, statusShowedWindow, during.healthWarning, during.healthWarningLeft, during.step)
}
