package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/test/internal/docexamples"
)

// playManaged schedules a managed update of the idle cluster to the
// recorded target, shows the window, and at the window plays the Managed
// Upgrade Operator's steps around the recorded update; with --check, it
// fails unless UpdateStatus and the status command showed what they
// should. Without it, the cluster keeps running until ctx ends.
func playManaged(ctx context.Context, o options, cfg *rest.Config, c *clients, m *operatorMetrics, s *scenario, seen *observer, stopDisplay func(), walk walkthrough) error {
	muo, err := newManagedUpgradeOperator(cfg, o.step)
	if err != nil {
		return err
	}
	// Scheduled once the operator has heard the informer: asked first
	// after the window opened, it would never show it.
	online := func(_ managedSeen, online map[string]string) bool {
		return online[managedInformerName] == string(metav1.ConditionTrue)
	}
	if !seen.status.waitFor(ctx, time.Now().Add(time.Minute), online) {
		if ctx.Err() != nil {
			say("interrupted")
			return nil
		}
		return fmt.Errorf("UpdateInformer %s did not go Online=True within a minute", managedInformerName)
	}

	// A minute: time to watch the window, and for the operator to ask the
	// informer and show it, and the status command to print it, on a busy
	// machine too.
	upgradeAt := windowIn(time.Minute)
	if err := muo.schedule(ctx, s.target(), s.cv.Spec.Channel, s.from(), upgradeAt); err != nil {
		return err
	}
	say("UpgradeConfig %s/%s: an %s update to %s at %s, in %s", upgradev1alpha1.DefaultNamespace, upgradev1alpha1.DefaultName,
		upgradev1alpha1.UpgradeTypeOSD, s.target(), upgradeAt.Local().Format("15:04:05"), time.Until(upgradeAt).Round(time.Second))

	// The status command, once, as soon as UpdateStatus shows the window;
	// with --check, it must print what docs/managed-upgrade.md shows.
	statusShowedWindow := false
	awaiting := func(m managedSeen, _ map[string]string) bool { return m.awaitingWindow }
	if seen.status.waitFor(ctx, upgradeAt, awaiting) {
		args := []string{"status"}
		out, code, err := walk.run(ctx, args)
		if err != nil && ctx.Err() == nil {
			return err
		}
		statusShowedWindow = strings.Contains(out, fmt.Sprintf("Managed update to %s scheduled for", s.target()))
		if o.check && ctx.Err() == nil {
			docs, err := documentedAs(docexamples.Managed, [][]string{args})
			if err != nil {
				return err
			}
			if err := matches(docs[0], out, code); err != nil {
				return err
			}
		}
	}
	if o.check && statusShowedWindow {
		// What --check wants of the wait has been shown: the window is
		// brought forward rather than waited for.
		upgradeAt = windowIn(time.Second)
		if err := muo.reschedule(ctx, upgradeAt); err != nil {
			return err
		}
		say("UpgradeConfig %s/%s: brought forward to %s", upgradev1alpha1.DefaultNamespace, upgradev1alpha1.DefaultName, upgradeAt.Local().Format("15:04:05"))
	}
	if !sleep(ctx, time.Until(upgradeAt)) {
		say("interrupted")
		return nil
	}
	beforeWindow := seen.status.managedSoFar()

	if err := playManagedUpdate(ctx, muo, s, c, seen.status); err != nil && ctx.Err() == nil {
		return err
	}
	end := settle(ctx, c, m, seen, s, stopDisplay)
	if o.check {
		if err := end.check(seen, s.target()); err != nil {
			return err
		}
		if ok, saw := managedChecked(beforeWindow, seen.status.managedSoFar(), statusShowedWindow); !ok {
			return fmt.Errorf("want UpdateStatus to show UpdateActive=False/AwaitingWindow before the window, the status command the window, UpdateStatus the pre-update health check's warning and then no more, and a step of the managed update; saw %s", saw)
		}
		say("check passed: UpdateStatus showed the window before it opened and the status command printed it as the documentation shows, the pre-update health check's warning came and went, a step of the managed update was shown, the insight went from Progressing to Completed, every pool completed and shows no configuration rollout, and the operator reports itself healthy")
		return nil
	}
	if ctx.Err() == nil {
		say("the managed update is complete; the local cluster keeps running:")
		say("  KUBECONFIG=%s kubectl -n %s get upgradeconfig %s -o yaml", shown(walk.kubeconfig), upgradev1alpha1.DefaultNamespace, upgradev1alpha1.DefaultName)
		say("Ctrl-C stops everything")
		<-ctx.Done()
	}
	if ctx.Err() != nil {
		say("interrupted")
	}
	return nil
}

// windowIn is a window at least d from now: the UpgradeConfig's time has
// whole seconds, so it is rounded up.
func windowIn(d time.Duration) time.Time {
	return time.Now().Add(d + time.Second - 1).Truncate(time.Second)
}

// playManagedUpdate plays the OSD upgrader's steps from the window on: the
// pre-update checks, the health check failing on critical alerts for a few
// steps, the ClusterVersion's update (the recorded one played forward)
// with the control plane and worker steps following it, and the steps
// after it.
func playManagedUpdate(ctx context.Context, m *managedUpgradeOperator, s *scenario, c *clients, status *statusObserver) error {
	say("the window opens: the Managed Upgrade Operator starts the update to %s", s.target())
	if err := m.start(ctx); err != nil {
		return err
	}
	if err := m.run(ctx, upgradev1alpha1.StartedNotificationSent, upgradev1alpha1.IsClusterUpgradable); err != nil {
		return err
	}
	if err := m.healthCheck(ctx, status); err != nil {
		return err
	}
	if err := m.run(ctx, upgradev1alpha1.ExternalDependenciesAvailable, upgradev1alpha1.ComputeCapacityReserved,
		upgradev1alpha1.ControlPlaneMaintenanceWindowCreated); err != nil {
		return err
	}

	if err := m.begin(ctx, upgradev1alpha1.UpgradeCommenced); err != nil {
		return err
	}
	say("the Managed Upgrade Operator sets the ClusterVersion's desired update to %s", s.target())
	if err := s.commence(ctx, c); err != nil {
		return err
	}
	if err := m.finish(ctx); err != nil {
		return err
	}
	if err := m.begin(ctx, upgradev1alpha1.ControlPlaneUpgraded); err != nil {
		return err
	}
	workers := func() error {
		if err := m.finish(ctx); err != nil {
			return err
		}
		if err := m.run(ctx, upgradev1alpha1.ControlPlaneMaintenanceWindowRemoved, upgradev1alpha1.WorkersMaintenanceWindowCreated); err != nil {
			return err
		}
		m.history().WorkerStartTime = ptr.To(metav1.Now())
		return m.begin(ctx, upgradev1alpha1.WorkerNodesUpgraded)
	}
	if err := s.play(ctx, c, m.step, playHooks{beforeWorkers: workers}); err != nil || ctx.Err() != nil {
		return err
	}
	m.history().WorkerCompleteTime = ptr.To(metav1.Now())
	if err := m.finish(ctx); err != nil {
		return err
	}
	if err := m.run(ctx, upgradev1alpha1.ComputeCapacityRemoved, upgradev1alpha1.WorkersMaintenanceWindowRemoved,
		upgradev1alpha1.ClusterHealthyAfterUpgrade, upgradev1alpha1.PostUpgradeTasksCompleted, upgradev1alpha1.CompletedNotificationSent); err != nil {
		return err
	}
	say("the Managed Upgrade Operator records the update to %s Upgraded", s.target())
	return m.complete(ctx)
}

// healthCheck fails the pre-update health check for a few steps, and until
// UpdateStatus has shown its warning (at most a minute: a fast play on a
// busy machine would otherwise pass it before the informer was asked),
// then passes it, as it does once the alerts stop firing.
func (m *managedUpgradeOperator) healthCheck(ctx context.Context, status *statusObserver) error {
	if err := m.begin(ctx, upgradev1alpha1.ClusterHealthyBeforeUpgrade); err != nil {
		return err
	}
	if err := m.fail(ctx, healthCheckError); err != nil {
		return err
	}
	if !sleep(ctx, healthCheckSteps*m.step) {
		return ctx.Err()
	}
	shown := func(seen managedSeen, _ map[string]string) bool { return seen.healthWarning }
	if !status.waitFor(ctx, time.Now().Add(time.Minute), shown) && ctx.Err() == nil {
		say("the health check's warning did not reach UpdateStatus within a minute; passing the check anyway")
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	say("managed update: the critical alerts stopped firing")
	return m.finish(ctx)
}
