package main

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/test/internal/recordedtime"
)

const operatorNamespace = names.OwnNamespace

// scenario is a recorded cluster, moved in time so that the recording's last
// moment is a given time: now, or earlier (see recordedAgo).
type scenario struct {
	cv *configv1.ClusterVersion
	// to is the release the update goes to: the recorded ClusterVersion's
	// desired one.
	to        configv1.Release
	operators []*configv1.ClusterOperator
	nodes     *recordedNodes
	// offers are the releases the ClusterVersion offers once the update
	// completes.
	offers offers
	// moved is how far the recorded times were moved: other objects of
	// the recording's timeline (OLM's) move as far.
	moved time.Duration
}

// loadScenario loads the recorded cluster of prefix, its times moved so that
// the recording's last moment is last.
func loadScenario(prefix string, last time.Time) (*scenario, error) {
	c, err := analyze.Load(analyze.Paths{
		ClusterVersions:    prefix + "-cv.yaml",
		ClusterOperators:   prefix + "-co.yaml",
		MachineConfigPools: prefix + "-mcp.yaml",
		MachineConfigs:     prefix + "-mc.yaml",
		Nodes:              prefix + "-node.yaml",
	})
	if err != nil {
		return nil, err
	}
	if len(c.ClusterVersions) != 1 {
		return nil, fmt.Errorf("%s-cv.yaml: want one ClusterVersion, found %d", prefix, len(c.ClusterVersions))
	}
	s := &scenario{
		cv:        c.ClusterVersions[0],
		to:        c.ClusterVersions[0].Status.Desired,
		operators: c.ClusterOperators,
		nodes:     &recordedNodes{pools: c.MachineConfigPools, configs: c.MachineConfigs, nodes: c.Nodes},
	}
	if s.offers, err = newOffers(s.target(), s.cv.Spec.Channel); err != nil {
		return nil, fmt.Errorf("%s-cv.yaml: %w", prefix, err)
	}
	s.moved = recordedtime.Move(c, last)
	return s, nil
}

func (s *scenario) target() string { return s.to.Version }

// updateStarted is when the recorded update started, as its ClusterVersion
// says.
func (s *scenario) updateStarted() time.Time {
	if len(s.cv.Status.History) == 0 {
		return time.Time{}
	}
	return s.cv.Status.History[0].StartedTime.Time
}

func (s *scenario) describe() string {
	if len(s.cv.Status.History) > 1 {
		return fmt.Sprintf("updating to %s from %s", s.target(), s.cv.Status.History[1].Version)
	}
	return "updating to " + s.target()
}

func (s *scenario) payload() []*configv1.ClusterOperator {
	return controlplane.PayloadOperators(s.operators)
}

func (s *scenario) updated() int {
	n := 0
	for _, co := range s.payload() {
		if v, _ := controlplane.OperatorVersion(co); v == s.target() {
			n++
		}
	}
	return n
}

// create writes the recorded objects to the cluster: metadata as a fresh
// object, then the recorded status through the status subresource.
func (s *scenario) create(ctx context.Context, c *clients) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: operatorNamespace}}
	if _, err := c.kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	for _, co := range s.operators {
		fresh := &configv1.ClusterOperator{ObjectMeta: freshMeta(co.ObjectMeta), Spec: co.Spec}
		created, err := c.config.ConfigV1().ClusterOperators().Create(ctx, fresh, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("creating ClusterOperator %s: %w", co.Name, err)
		}
		created.Status = co.Status
		if _, err := c.config.ConfigV1().ClusterOperators().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("writing ClusterOperator %s status: %w", co.Name, err)
		}
	}
	if err := s.nodes.create(ctx, c); err != nil {
		return err
	}
	fresh := &configv1.ClusterVersion{ObjectMeta: freshMeta(s.cv.ObjectMeta), Spec: s.cv.Spec}
	created, err := c.config.ConfigV1().ClusterVersions().Create(ctx, fresh, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating ClusterVersion: %w", err)
	}
	created.Status = s.cv.Status
	if _, err := c.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing ClusterVersion status: %w", err)
	}
	return nil
}

func freshMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: m.Name, Labels: m.Labels, Annotations: m.Annotations}
}

// playHooks are called as the update is played: midway once half the
// pending operators have updated, beforeCompletion before the
// ClusterVersion completes, beforeWorkers once it has and before the
// worker pools roll, drainAsked once the roll of a worker pool has asked
// for a node's drain, before the drain is done, and imageBuild at each
// stage of the image-mode pool's roll (with it, the pool's first build
// fails and is retried). Any may be nil; an error ends the play.
type playHooks struct {
	midway, beforeCompletion, beforeWorkers func() error
	drainAsked                              func(node string) error
	imageBuild                              func(buildStep) error
}

// play updates the pending payload operators one by one, those already
// progressing first, rolls the control plane nodes, completes the update,
// and then rolls the worker nodes: the ClusterVersion does not wait for
// worker pools.
// play plays the update forward, a step at a time. Before the ClusterVersion
// completes, it waits for beforeCompletion: the demonstration informer
// reports its warning only while the update is pending, and a fast play on
// a busy machine would otherwise complete it before the informer was heard.
func (s *scenario) play(ctx context.Context, c *clients, step time.Duration, hooks playHooks) error {
	var pending []*configv1.ClusterOperator
	for _, co := range s.payload() {
		if v, _ := controlplane.OperatorVersion(co); v != s.target() {
			pending = append(pending, co)
		}
	}
	sort.SliceStable(pending, func(i, j int) bool {
		return v1helpers.IsStatusConditionTrue(pending[i].Status.Conditions, configv1.OperatorProgressing) &&
			!v1helpers.IsStatusConditionTrue(pending[j].Status.Conditions, configv1.OperatorProgressing)
	})
	say("playing the update forward: %d operators, one every %s", len(pending), step)

	for i, co := range pending {
		if i == len(pending)/2 && hooks.midway != nil {
			if err := hooks.midway(); err != nil {
				return err
			}
		}
		if err := s.setProgressing(ctx, c, "waiting on "+co.Name); err != nil {
			return err
		}
		if err := updateOperator(ctx, c, co.Name, func(status *configv1.ClusterOperatorStatus) {
			setCondition(status, configv1.OperatorProgressing, configv1.ConditionTrue, "Working towards "+s.target())
		}); err != nil {
			return err
		}
		if !sleep(ctx, step/2) {
			return nil
		}
		if err := updateOperator(ctx, c, co.Name, func(status *configv1.ClusterOperatorStatus) {
			setCondition(status, configv1.OperatorProgressing, configv1.ConditionFalse, "Updated to "+s.target())
			setVersion(status, s.target())
		}); err != nil {
			return err
		}
		if !sleep(ctx, step/2) {
			return nil
		}
	}

	if err := s.nodes.roll(ctx, c, nodes.MasterPool, s.target(), step, nil); err != nil || ctx.Err() != nil {
		return err
	}
	if hooks.beforeCompletion != nil {
		if err := hooks.beforeCompletion(); err != nil {
			return err
		}
	}
	say("the ClusterVersion reports the update completed")
	if err := s.complete(ctx, c); err != nil {
		return err
	}
	if hooks.beforeWorkers != nil {
		if err := hooks.beforeWorkers(); err != nil {
			return err
		}
	}
	for _, p := range s.nodes.pools {
		if p.Name == nodes.MasterPool {
			continue
		}
		var err error
		if l := s.nodes.layered; l != nil && p.Name == l.name {
			err = l.roll(ctx, c, s.nodes, s.target(), step, hooks.imageBuild)
		} else {
			err = s.nodes.roll(ctx, c, p.Name, s.target(), step, hooks.drainAsked)
		}
		if err != nil || ctx.Err() != nil {
			return err
		}
	}
	return nil
}

// complete marks the update completed, and offers the next releases, as
// the cluster-version operator would once it asked the update service from
// the new version.
func (s *scenario) complete(ctx context.Context, c *clients) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cv, err := c.config.ConfigV1().ClusterVersions().Get(ctx, s.cv.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		cv.Status.History[0].State = configv1.CompletedUpdate
		cv.Status.History[0].CompletionTime = &now
		setCVCondition(&cv.Status, configv1.ConditionFalse, "Cluster version is "+s.target())
		s.offers.apply(&cv.Status)
		_, err = c.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, cv, metav1.UpdateOptions{})
		return err
	})
}

func (s *scenario) setProgressing(ctx context.Context, c *clients, message string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cv, err := c.config.ConfigV1().ClusterVersions().Get(ctx, s.cv.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		setCVCondition(&cv.Status, configv1.ConditionTrue, fmt.Sprintf("Working towards %s: %s", s.target(), message))
		_, err = c.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, cv, metav1.UpdateOptions{})
		return err
	})
}

func updateOperator(ctx context.Context, c *clients, name string, change func(*configv1.ClusterOperatorStatus)) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		co, err := c.config.ConfigV1().ClusterOperators().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(&co.Status)
		_, err = c.config.ConfigV1().ClusterOperators().UpdateStatus(ctx, co, metav1.UpdateOptions{})
		return err
	})
}

func setCondition(status *configv1.ClusterOperatorStatus, t configv1.ClusterStatusConditionType, s configv1.ConditionStatus, message string) {
	status.Conditions = withCondition(status.Conditions, t, s, message)
}

func setCVCondition(status *configv1.ClusterVersionStatus, s configv1.ConditionStatus, message string) {
	status.Conditions = withCondition(status.Conditions, configv1.OperatorProgressing, s, message)
}

// withCondition is v1helpers.SetStatusCondition but for the reason, which it
// keeps: the recorded reasons read better than none.
func withCondition(conditions []configv1.ClusterOperatorStatusCondition, t configv1.ClusterStatusConditionType, s configv1.ConditionStatus, message string) []configv1.ClusterOperatorStatusCondition {
	for i := range conditions {
		if conditions[i].Type == t {
			if conditions[i].Status != s {
				conditions[i].LastTransitionTime = metav1.Now()
			}
			conditions[i].Status, conditions[i].Message = s, message
			return conditions
		}
	}
	return append(conditions, configv1.ClusterOperatorStatusCondition{Type: t, Status: s, Message: message, LastTransitionTime: metav1.Now()})
}

func setVersion(status *configv1.ClusterOperatorStatus, version string) {
	for i := range status.Versions {
		if status.Versions[i].Name == names.OperatorVersion {
			status.Versions[i].Version = version
			return
		}
	}
	status.Versions = append(status.Versions, configv1.OperandVersion{Name: names.OperatorVersion, Version: version})
}

// sleep waits for d, or returns false when ctx ends first.
func sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// idle makes the recorded cluster one that is not updating: the
// ClusterVersion completed at the version the recording updates from, and
// every payload operator at that version, none progressing. The update to
// the recorded target then starts when commence is called, as a managed
// update starts once its window opens.
func (s *scenario) idle() error {
	if len(s.cv.Status.History) < 2 {
		return fmt.Errorf("the recorded ClusterVersion has no version it updates from")
	}
	history := slices.Clone(s.cv.Status.History[1:])
	from := &history[0]
	if from.State != configv1.CompletedUpdate {
		// The recording's earlier update may never have completed; here the
		// cluster settled at it, so that it starts idle.
		from.State = configv1.CompletedUpdate
		if from.CompletionTime == nil {
			from.CompletionTime = ptr.To(from.StartedTime)
		}
	}
	s.cv.Status.History = history
	s.cv.Status.Desired = configv1.Release{Version: from.Version, Image: from.Image, Channels: s.to.Channels}
	s.cv.Spec.DesiredUpdate = &configv1.Update{Version: from.Version, Image: from.Image}
	setCVCondition(&s.cv.Status, configv1.ConditionFalse, "Cluster version is "+from.Version)
	for _, co := range s.payload() {
		setVersion(&co.Status, from.Version)
		if v1helpers.IsStatusConditionTrue(co.Status.Conditions, configv1.OperatorProgressing) {
			setCondition(&co.Status, configv1.OperatorProgressing, configv1.ConditionFalse, "At "+from.Version)
		}
	}
	return nil
}

// from is the version the ClusterVersion last completed.
func (s *scenario) from() string {
	for _, h := range s.cv.Status.History {
		if h.State == configv1.CompletedUpdate {
			return h.Version
		}
	}
	return ""
}

// commence starts the update to the scenario's target as the Managed
// Upgrade Operator does, by setting the ClusterVersion's desired update,
// and as the cluster-version operator then reports it: a partial history
// entry, and Progressing.
func (s *scenario) commence(ctx context.Context, c *clients) error {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cv, err := c.config.ConfigV1().ClusterVersions().Get(ctx, s.cv.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cv.Spec.DesiredUpdate = &configv1.Update{Version: s.to.Version, Image: s.to.Image}
		_, err = c.config.ConfigV1().ClusterVersions().Update(ctx, cv, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("setting the ClusterVersion's desired update: %w", err)
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cv, err := c.config.ConfigV1().ClusterVersions().Get(ctx, s.cv.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		cv.Status.Desired = s.to
		cv.Status.History = append([]configv1.UpdateHistory{{
			State: configv1.PartialUpdate, StartedTime: metav1.Now(), Version: s.to.Version, Image: s.to.Image, Verified: true,
		}}, cv.Status.History...)
		setCVCondition(&cv.Status, configv1.ConditionTrue, "Working towards "+s.to.Version)
		_, err = c.config.ConfigV1().ClusterVersions().UpdateStatus(ctx, cv, metav1.UpdateOptions{})
		return err
	})
}
