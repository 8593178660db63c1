package updateplan

import (
	"context"
	"fmt"
	"time"

	"github.com/blang/semver/v4"
	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/planview"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

// pruneReason says why a plan is done with, or nothing. A one-off check's
// plan goes when no one touched it for updateplan.OneOffTTL, answered or
// not: the command that would have read it is gone. Otherwise only a plan
// that answered its latest evaluation request is: a plan the cluster cannot
// take (a downgrade, the release it runs) is answered, not deleted unread.
// An answered plan goes when the cluster completed an update to its target
// or past it after the plan was evaluated (a plan evaluated since says what
// its administrator asked, and stays), or when no one touched it for ttl.
func pruneReason(plan *insightsv1alpha1.UpdatePlan, cv *configv1.ClusterVersion, now time.Time, ttl time.Duration) string {
	if since := untouchedSince(plan); oneOff(plan) && now.Sub(since) >= updateplan.OneOffTTL {
		return fmt.Sprintf("pre-checks made it for a one-off check of a release not offered, and no one touched it since %s, over %s ago",
			since.UTC().Format(time.RFC3339), updateplan.OneOffTTL)
	}
	if !answered(plan) {
		return ""
	}
	if running, completed, ok := runningVersion(cv); ok && completed.After(plan.Status.EvaluatedAt.Time) {
		if target, err := semver.Parse(plan.Spec.TargetRelease); err == nil && target.LTE(running) {
			return fmt.Sprintf("the cluster completed its update to %s at %s, at or past the plan's target, after the plan was evaluated",
				running, completed.UTC().Format(time.RFC3339))
		}
	}
	if since := untouchedSince(plan); now.Sub(since) >= ttl {
		return fmt.Sprintf("no one touched it since %s, over %s ago", since.UTC().Format(time.RFC3339), ttl)
	}
	return ""
}

// oneOff says whether pre-checks made the plan for one check of a release
// not offered (insightsv1alpha1.OneOffCheckLabel).
func oneOff(plan *insightsv1alpha1.UpdatePlan) bool {
	return plan.Labels[insightsv1alpha1.OneOffCheckLabel] == "true"
}

// lifetime is how long the plan is kept when no one touches it.
func lifetime(plan *insightsv1alpha1.UpdatePlan, ttl time.Duration) time.Duration {
	if oneOff(plan) {
		return min(ttl, updateplan.OneOffTTL)
	}
	return ttl
}

// answered tells whether the plan's status answers its latest evaluation
// request, waiting for no informer: what pre-checks waits for.
func answered(plan *insightsv1alpha1.UpdatePlan) bool {
	evaluated, _ := planview.Evaluated(plan, plan.Spec.EvaluationRequest)
	return evaluated && plan.Status.EvaluatedAt != nil
}

// runningVersion is the version of the newest completed update, when it is
// a version, and when it completed.
func runningVersion(cv *configv1.ClusterVersion) (semver.Version, time.Time, bool) {
	if cv == nil {
		return semver.Version{}, time.Time{}, false
	}
	for _, h := range cv.Status.History {
		if h.State != configv1.CompletedUpdate {
			continue
		}
		v, err := semver.Parse(h.Version)
		if err != nil || h.CompletionTime == nil {
			return semver.Version{}, time.Time{}, false
		}
		return v, h.CompletionTime.Time, true
	}
	return semver.Version{}, time.Time{}, false
}

// untouchedSince is when someone last wrote the plan's spec or metadata:
// its creation, or the newest of its managed fields' times outside the
// status subresource, which the controller's own writes are.
func untouchedSince(plan *insightsv1alpha1.UpdatePlan) time.Time {
	since := plan.CreationTimestamp.Time
	for _, f := range plan.ManagedFields {
		if f.Subresource == "" && f.Time != nil && f.Time.After(since) {
			since = f.Time.Time
		}
	}
	return since
}

// recordPruning writes the Event that says why the plan is deleted, before
// it is: `pre-checks`, waiting for a plan that disappears, reads it to say
// why. It is written at once, not through an event broadcaster, so that it
// exists by the time the plan is gone.
func (c *Controller) recordPruning(ctx context.Context, plan *insightsv1alpha1.UpdatePlan, why string, now time.Time) error {
	at := metav1.NewTime(now)
	event := &corev1.Event{
		// Events about cluster-scoped objects live in "default"; the name
		// follows client-go's recorder: the object's, and the time.
		ObjectMeta: metav1.ObjectMeta{Namespace: metav1.NamespaceDefault, Name: fmt.Sprintf("%s.%x", plan.Name, now.UnixNano())},
		InvolvedObject: corev1.ObjectReference{
			APIVersion: insightsv1alpha1.SchemeGroupVersion.String(), Kind: "UpdatePlan",
			Name: plan.Name, UID: plan.UID, ResourceVersion: plan.ResourceVersion,
		},
		Reason:         updateplan.ReasonPruned,
		Message:        "Deleted, as " + why,
		Type:           corev1.EventTypeNormal,
		Source:         corev1.EventSource{Component: names.Component},
		FirstTimestamp: at,
		LastTimestamp:  at,
		Count:          1,
	}
	if _, err := c.events.Events(metav1.NamespaceDefault).Create(ctx, event, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("recording why UpdatePlan %s is pruned: %w", plan.Name, err)
	}
	return nil
}
