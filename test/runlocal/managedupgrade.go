package main

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// The pre-update health check's error, as the Managed Upgrade Operator
// words critical alerts firing (pkg/upgraders/healthcheck_alerts.go), and
// how many steps it lasts at least.
const (
	healthCheckError = "critical alert(s) firing: KubePersistentVolumeErrors"
	healthCheckSteps = 3
)

// managedUpgradeOperator plays the Managed Upgrade Operator's part: it
// writes the UpgradeConfig and its status history, a step at a time, as
// that operator's OSD upgrader does. Nothing else writes the UpgradeConfig,
// so it keeps the object as it last wrote it.
type managedUpgradeOperator struct {
	client dynamic.ResourceInterface
	step   time.Duration
	config *upgradev1alpha1.UpgradeConfig
}

func newManagedUpgradeOperator(cfg *rest.Config, step time.Duration) (*managedUpgradeOperator, error) {
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &managedUpgradeOperator{client: client.Resource(upgradev1alpha1.Resource).Namespace(upgradev1alpha1.DefaultNamespace), step: step}, nil
}

// schedule creates the UpgradeConfig of an OSD update to version at
// upgradeAt, and records it Pending, as the operator does once it has
// validated the schedule.
func (m *managedUpgradeOperator) schedule(ctx context.Context, version, channel, from string, upgradeAt time.Time) error {
	m.config = &upgradev1alpha1.UpgradeConfig{
		TypeMeta:   metav1.TypeMeta{APIVersion: upgradev1alpha1.SchemeGroupVersion.String(), Kind: "UpgradeConfig"},
		ObjectMeta: metav1.ObjectMeta{Name: upgradev1alpha1.DefaultName, Namespace: upgradev1alpha1.DefaultNamespace},
		Spec: upgradev1alpha1.UpgradeConfigSpec{
			Desired:              upgradev1alpha1.Update{Version: version, Channel: channel},
			UpgradeAt:            upgradeAt.UTC().Format(time.RFC3339),
			PDBForceDrainTimeout: 60,
			Type:                 upgradev1alpha1.UpgradeTypeOSD,
		},
	}
	u, err := toUnstructured(m.config)
	if err != nil {
		return err
	}
	created, err := m.client.Create(ctx, u, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating UpgradeConfig %s: %w", upgradev1alpha1.DefaultName, err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(created.Object, m.config); err != nil {
		return err
	}
	m.config.Status.History = []upgradev1alpha1.UpgradeHistory{{Version: version, PrecedingVersion: from, Phase: upgradev1alpha1.PhasePending}}
	return m.write(ctx)
}

// reschedule moves the update to upgradeAt, as OpenShift Cluster Manager
// does when an administrator reschedules it.
func (m *managedUpgradeOperator) reschedule(ctx context.Context, upgradeAt time.Time) error {
	m.config.Spec.UpgradeAt = upgradeAt.UTC().Format(time.RFC3339)
	u, err := toUnstructured(m.config)
	if err != nil {
		return err
	}
	updated, err := m.client.Update(ctx, u, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("rescheduling UpgradeConfig %s: %w", upgradev1alpha1.DefaultName, err)
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(updated.Object, m.config)
}

// history is the entry of the update being played.
func (m *managedUpgradeOperator) history() *upgradev1alpha1.UpgradeHistory {
	return &m.config.Status.History[0]
}

// write stores the status as it is now.
func (m *managedUpgradeOperator) write(ctx context.Context) error {
	u, err := toUnstructured(m.config)
	if err != nil {
		return err
	}
	written, err := m.client.UpdateStatus(ctx, u, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("writing UpgradeConfig %s status: %w", upgradev1alpha1.DefaultName, err)
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(written.Object, m.config)
}

// start moves the update to Upgrading, as the operator does at upgradeAt.
func (m *managedUpgradeOperator) start(ctx context.Context) error {
	h := m.history()
	h.Phase, h.StartTime = upgradev1alpha1.PhaseUpgrading, ptr.To(metav1.Now())
	return m.write(ctx)
}

// begin records a step under way, newest first, as the operator's runner
// does (pkg/upgradesteps/runner.go): False, "<step> not done", "<step> has
// started", then "<step> still in progress" at its next reconcile.
func (m *managedUpgradeOperator) begin(ctx context.Context, step upgradev1alpha1.UpgradeConditionType) error {
	say("managed update: %s", step)
	now := metav1.Now()
	h := m.history()
	h.Conditions = append([]upgradev1alpha1.UpgradeCondition{{
		Type: step, Status: metav1.ConditionFalse, Reason: string(step) + " not done", Message: string(step) + " has started",
		StartTime: &now, LastTransitionTime: &now, LastProbeTime: &now,
	}}, h.Conditions...)
	if err := m.write(ctx); err != nil {
		return err
	}
	return m.probe(ctx, string(step)+" still in progress")
}

// fail records the running step failing, as the runner records a step
// that returned an error: its reason stays, its message is the error. The
// operator runs it again at each reconcile.
func (m *managedUpgradeOperator) fail(ctx context.Context, err string) error {
	say("managed update: %s: %s", m.history().Conditions[0].Type, err)
	return m.probe(ctx, err)
}

// probe records a run of the running step with that message, as the
// runner's SetCondition does: lastProbeTime moves, lastTransitionTime
// stays while the status does.
func (m *managedUpgradeOperator) probe(ctx context.Context, message string) error {
	c := &m.history().Conditions[0]
	c.Message, c.LastProbeTime = message, ptr.To(metav1.Now())
	return m.write(ctx)
}

// finish records the running step done.
func (m *managedUpgradeOperator) finish(ctx context.Context) error {
	now := metav1.Now()
	c := &m.history().Conditions[0]
	c.Status, c.Reason, c.Message = metav1.ConditionTrue, string(c.Type)+" done", string(c.Type)+" is completed"
	c.CompleteTime, c.LastTransitionTime, c.LastProbeTime = &now, &now, &now
	return m.write(ctx)
}

// run runs steps that take one step's time each.
func (m *managedUpgradeOperator) run(ctx context.Context, steps ...upgradev1alpha1.UpgradeConditionType) error {
	for _, step := range steps {
		if err := m.begin(ctx, step); err != nil {
			return err
		}
		if !sleep(ctx, m.step) {
			return ctx.Err()
		}
		if err := m.finish(ctx); err != nil {
			return err
		}
	}
	return nil
}

// complete records the update Upgraded.
func (m *managedUpgradeOperator) complete(ctx context.Context) error {
	h := m.history()
	h.Phase, h.CompleteTime = upgradev1alpha1.PhaseUpgraded, ptr.To(metav1.Now())
	return m.write(ctx)
}

func toUnstructured(c *upgradev1alpha1.UpgradeConfig) (*unstructured.Unstructured, error) {
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(c)
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: obj}, nil
}
