package prechecks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/planview"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

// runner asks for and waits for a plan's evaluation, or records acceptance.
type runner struct {
	plans insightsclient.UpdatePlanInterface
	// events are those of namespace default, where the Events about
	// cluster-scoped objects such as plans are.
	events corev1client.EventInterface
	clock  clock.WithTicker
	errOut io.Writer
	// quiet keeps the progress lines off stderr.
	quiet bool
	// oneOff creates a plan that does not exist for this check only,
	// labelled so (the target is not offered, and no one asked to keep its
	// plan): discard deletes it once its findings are read. Without it, a
	// one-off plan that exists is kept from now on.
	oneOff bool
}

// errMayNotUpdate says that the user may not update the plan: it is shown
// as last evaluated.
var errMayNotUpdate = errors.New("may not update UpdatePlans")

// planResource names UpdatePlans as RBAC rules and the API server's
// refusals do.
var planResource = insightsv1alpha1.Resource("updateplans").String()

// evaluate refreshes the plan for target, or with identities or informers
// to accept records their acceptance, and returns the plan once the
// operator has caught up: within timeout.
func (r *runner) evaluate(ctx context.Context, target string, timeout time.Duration, identities, informers []string) (*insightsv1alpha1.UpdatePlan, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if len(identities) > 0 || len(informers) > 0 {
		accepted, err := r.accept(ctx, target, identities, informers)
		if err != nil {
			return nil, err
		}
		return r.wait(ctx, target, timeout, func(p *insightsv1alpha1.UpdatePlan) (bool, string) {
			if planview.Reflects(p, accepted) {
				return true, ""
			}
			return false, "the operator to show the findings accepted"
		})
	}
	request, err := r.refresh(ctx, target)
	if errors.Is(err, errMayNotUpdate) {
		fmt.Fprintf(r.errOut, "warning: you may not update UpdatePlans (%s), so UpdatePlan %s was not evaluated afresh: it is shown as last evaluated. "+
			"Ask someone who may update UpdatePlans to run pre-checks --to %s again.\n", planResource, target, target)
		plan, err := r.plans.Get(ctx, target, metav1.GetOptions{})
		return plan, wrap(err, "reading UpdatePlan %s", target)
	}
	if err != nil {
		return nil, err
	}
	return r.wait(ctx, target, timeout, func(p *insightsv1alpha1.UpdatePlan) (bool, string) {
		return planview.Evaluated(p, request)
	})
}

// refresh creates the plan, or asks for a fresh evaluation of it, and
// returns the evaluation request. The request is the time of asking, to the
// nanosecond: a new value at every run without reading the last one (a
// counter would, and two administrators counting from the same value would
// ask for one evaluation between them), and it says when it was asked.
// It returns errMayNotUpdate when the plan exists and the user may not
// update it.
func (r *runner) refresh(ctx context.Context, target string) (string, error) {
	request := r.clock.Now().UTC().Format(time.RFC3339Nano)
	plan := &insightsv1alpha1.UpdatePlan{
		ObjectMeta: metav1.ObjectMeta{Name: target},
		Spec:       insightsv1alpha1.UpdatePlanSpec{TargetRelease: target, EvaluationRequest: request},
	}
	if r.oneOff {
		plan.Labels = map[string]string{insightsv1alpha1.OneOffCheckLabel: "true"}
	}
	_, createErr := r.plans.Create(ctx, plan, metav1.CreateOptions{})
	// The API server refuses a user who may not create plans before it
	// looks whether the plan exists: that user may still update it.
	if createErr == nil || !apierrors.IsAlreadyExists(createErr) && !apierrors.IsForbidden(createErr) {
		return request, wrap(createErr, "creating UpdatePlan %s", target)
	}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		plan, err := r.plans.Get(ctx, target, metav1.GetOptions{})
		if err != nil {
			return err
		}
		plan.Spec.EvaluationRequest = request
		if !r.oneOff {
			// The release is offered now, or the administrator asked to
			// keep its plan: it is no longer a one-off check's.
			delete(plan.Labels, insightsv1alpha1.OneOffCheckLabel)
		}
		_, err = r.plans.Update(ctx, plan, metav1.UpdateOptions{})
		if apierrors.IsForbidden(err) {
			return errMayNotUpdate
		}
		return err
	})
	switch {
	case errors.Is(err, errMayNotUpdate):
		return "", err
	case apierrors.IsNotFound(err) && apierrors.IsForbidden(createErr):
		return "", fmt.Errorf("there is no UpdatePlan %s, and you may not create UpdatePlans (%s): ask someone who may to run pre-checks --to %s", target, planResource, target)
	}
	return request, wrap(err, "asking for a fresh evaluation of UpdatePlan %s", target)
}

// accept records the acceptance of findings in the plan's spec, merged
// with what it accepts already, and returns the identities accepted.
// Nothing is written when an identity or informer is unknown.
func (r *runner) accept(ctx context.Context, target string, identities, informers []string) ([]string, error) {
	var accepted []string
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		plan, err := r.plans.Get(ctx, target, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return fmt.Errorf("there is no UpdatePlan %s: run pre-checks --to %s first, to see its findings", target, target)
		}
		if err != nil {
			return wrap(err, "reading UpdatePlan %s", target)
		}
		a, err := planview.Accept(plan, identities, informers)
		if err != nil {
			return err
		}
		accepted = a.Identities
		if !a.Changed {
			return nil
		}
		plan.Spec.AcceptedInsights = a.AcceptedInsights
		_, err = r.plans.Update(ctx, plan, metav1.UpdateOptions{})
		if apierrors.IsForbidden(err) {
			return fmt.Errorf("you may not update UpdatePlans (%s), so nothing was accepted in UpdatePlan %s: ask someone who may to accept the findings", planResource, target)
		}
		if err != nil && !apierrors.IsConflict(err) {
			return wrap(err, "accepting findings in UpdatePlan %s", target)
		}
		return err
	})
	return accepted, err
}

// discardTimeout bounds the deletion of a one-off plan, which is tried even
// when the command's own time is up.
const discardTimeout = 10 * time.Second

// discard deletes the plan of target if it is a one-off check's, and says
// whether it did. The deletion is conditional on the uid read, so that a
// plan someone created again meanwhile is left alone.
func (r *runner) discard(ctx context.Context, target string) (bool, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), discardTimeout)
	defer cancel()
	plan, err := r.plans.Get(ctx, target, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, wrap(err, "reading UpdatePlan %s to delete it", target)
	case plan.Labels[insightsv1alpha1.OneOffCheckLabel] != "true":
		return false, nil
	}
	err = r.plans.Delete(ctx, target, metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions(string(plan.UID))})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return false, nil
	}
	return err == nil, wrap(err, "deleting UpdatePlan %s", target)
}

// wait reads the plan until done says the operator caught up, with a line
// on stderr each time what is awaited changes.
func (r *runner) wait(ctx context.Context, target string, timeout time.Duration, done func(*insightsv1alpha1.UpdatePlan) (bool, string)) (*insightsv1alpha1.UpdatePlan, error) {
	start := r.clock.Now()
	var last string
	var uid types.UID
	for {
		plan, err := r.plans.Get(ctx, target, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return nil, r.deleted(ctx, target, uid)
		case err != nil && ctx.Err() == nil:
			return nil, wrap(err, "reading UpdatePlan %s", target)
		case err == nil:
			uid = plan.UID
			ok, awaited := done(plan)
			if ok {
				return plan, nil
			}
			if awaited != last && !r.quiet {
				fmt.Fprintf(r.errOut, "UpdatePlan %s: waiting for %s (%s)\n", target, awaited, r.clock.Since(start).Truncate(time.Second))
			}
			last = awaited
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				if last == "" {
					last = "the plan to be readable"
				}
				return nil, fmt.Errorf("gave up on UpdatePlan %s after %s (--timeout) waiting for %s", target, timeout, last)
			}
			return nil, ctx.Err()
		case <-r.clock.After(pollInterval):
		}
	}
}

// deleted says why a plan was deleted while the command waited for it: the
// operator records an Event on a plan it prunes, before it deletes it. No
// such Event means someone else deleted it. uid is the plan's, when it was
// read.
func (r *runner) deleted(ctx context.Context, target string, uid types.UID) error {
	// The field selector narrows the list on the server; the same fields are
	// checked here too, so that a server that ignores it is no matter.
	selector := fields.Set{"involvedObject.kind": "UpdatePlan", "involvedObject.name": target, "reason": updateplan.ReasonPruned}
	events, err := r.events.List(ctx, metav1.ListOptions{FieldSelector: selector.AsSelector().String()})
	if err != nil {
		return output.OneLine(fmt.Errorf("UpdatePlan %s was deleted while waiting for it, and why cannot be told: listing its Events: %w", target, err))
	}
	var pruned *corev1.Event
	for i := range events.Items {
		e := &events.Items[i]
		if e.InvolvedObject.Kind != "UpdatePlan" || e.InvolvedObject.Name != target || e.Reason != updateplan.ReasonPruned ||
			(uid != "" && e.InvolvedObject.UID != uid) {
			continue
		}
		if pruned == nil || e.LastTimestamp.After(pruned.LastTimestamp.Time) {
			pruned = e
		}
	}
	if pruned == nil {
		return fmt.Errorf("UpdatePlan %s was deleted while waiting for it, not by the operator (no %s Event): run pre-checks again", target, updateplan.ReasonPruned)
	}
	return output.OneLine(fmt.Errorf("UpdatePlan %s was deleted by the operator while waiting for it: %s", target, pruned.Message))
}

// wrap says what failed, on one line.
func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return output.OneLine(fmt.Errorf(format+": %w", append(args, err)...))
}
