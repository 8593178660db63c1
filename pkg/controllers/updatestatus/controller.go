// Package updatestatus keeps the UpdateStatus named cluster current: the
// control plane's and each worker pool's pending and active updates, with
// the insights of every informer, the operator's own among them.
package updatestatus

import (
	"context"
	"errors"
	"fmt"
	"time"

	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/text"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

const (
	controllerName = "UpdateStatusController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "UpdateStatus"

	// Coalesce is the shortest time between two computations of the
	// UpdateStatus: under churn (thousands of nodes changing) it reads every
	// insight and is written at most once a second, not once per change. A
	// change after a quiet second is computed after Settle.
	Coalesce = time.Second

	// Settle is how long the first change after a quiet second waits for
	// the writes it brings along, so that they make one computation.
	Settle = 50 * time.Millisecond
)

// Controller maintains the UpdateStatus.
type Controller struct {
	clusterVersions configlisters.ClusterVersionLister
	controlPlanes   insightslisters.ClusterVersionProgressInsightLister
	pools           insightslisters.MachineConfigPoolProgressInsightLister
	nodes           insightslisters.NodeProgressInsightLister
	health          insightslisters.UpdateHealthInsightLister
	statuses        insightslisters.UpdateStatusLister
	writer          *insightwrite.Writer[*insightsv1alpha1.UpdateStatus, insightsv1alpha1.UpdateStatusStatus]
	answers         *updatestatus.Store
	clock           clock.PassiveClock
	pace            *leadingEdge

	// written is the UpdateStatus as this controller last wrote it, and
	// replaced the resource version it replaced: while the cache still holds
	// that version, it has not seen the write yet, and written is current.
	// The controller runs with one worker, which alone uses them.
	written  *insightsv1alpha1.UpdateStatus
	replaced string

	// refused are the answers whose insights the API server refused, since
	// refusedSince: all are tried again after RetryRefused, for the API
	// server's rules may have changed meanwhile.
	refused      updatestatus.Refusals
	refusedSince time.Time

	// held is the UpdateStatus the API server refused with no informer's
	// insights left to leave out: it is not written again until its
	// inputs change, or RetryRefused has passed.
	held *heldStatus

	// refusals is told, after each sync, whether a refusal leaves anything
	// out of the UpdateStatus, for the operator's own status.
	refusals RefusalReporter
}

// RefusalReporter learns whether the API server refuses what a controller
// writes; tracker.Tracker is one.
type RefusalReporter interface {
	Refused(controller, what string, err error)
}

type heldStatus struct {
	status insightsv1alpha1.UpdateStatusStatus
	at     time.Time
	err    error
}

// RetryRefused is how long an UpdateStatus the API server refused, whose
// inputs did not change since, waits before it is written again, and the
// insights left out for a refusal before they are tried again: the
// refusal may be a rule of the API server that changed meanwhile.
const RetryRefused = 5 * time.Minute

// maxRefusals bounds the writes of one sync that the API server refuses
// for an informer's insights: each leaves out the informers it names, or
// the largest. The next sync goes on from there, after the queue's
// backoff.
const maxRefusals = 3

// maxEventMessage bounds the API server's words in an Event.
const maxEventMessage = 512

// New returns the controller, registered with the informers it reads. The
// informers must not have started yet.
func New(
	clusterVersions configinformers.ClusterVersionInformer,
	insights insightinformers.Interface,
	client insightsclient.InsightsV1alpha1Interface,
	answers *updatestatus.Store,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	clock clock.PassiveClock,
) (factory.Controller, error) {
	c := &Controller{
		clusterVersions: clusterVersions.Lister(),
		controlPlanes:   insights.ClusterVersionProgressInsights().Lister(),
		pools:           insights.MachineConfigPoolProgressInsights().Lister(),
		nodes:           insights.NodeProgressInsights().Lister(),
		health:          insights.UpdateHealthInsights().Lister(),
		statuses:        insights.UpdateStatuses().Lister(),
		writer:          insightwrite.UpdateStatuses(client),
		answers:         answers,
		clock:           clock,
		pace:            newLeadingEdge(),
		refused:         updatestatus.Refusals{},
		refusals:        tracker,
	}
	syncCtx := factory.NewSyncContext(controllerName, recorder)
	handler := c.pace.handler(syncCtx.Queue())
	answers.OnChange(func() { handler.OnAdd(nil, false) })
	informers := map[string]cache.SharedIndexInformer{
		"clusterversions":                   clusterVersions.Informer(),
		"clusterversionprogressinsights":    insights.ClusterVersionProgressInsights().Informer(),
		"machineconfigpoolprogressinsights": insights.MachineConfigPoolProgressInsights().Informer(),
		"nodeprogressinsights":              insights.NodeProgressInsights().Informer(),
		"updatehealthinsights":              insights.UpdateHealthInsights().Informer(),
		"updatestatuses":                    insights.UpdateStatuses().Informer(),
	}
	synced := map[string]cache.InformerSynced{}
	var all []factory.Informer
	for resource, informer := range informers {
		synced[resource] = informer.HasSynced
		all = append(all, informer)
		if _, err := informer.AddEventHandler(handler); err != nil {
			return nil, err
		}
	}
	tracker.WaitsFor(Name, synced)
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(Name, c.sync)).
		WithBareInformers(all...).
		ToController(controllerName, recorder), nil
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	if wait := c.pace.wait(); wait > 0 {
		syncCtx.Queue().AddAfter(syncCtx.QueueKey(), wait)
		return nil
	}
	defer c.pace.ended()
	now := c.clock.Now()
	cv, err := c.clusterVersions.Get(names.ClusterVersion)
	if apierrors.IsNotFound(err) {
		cv, err = nil, nil
	}
	if err != nil {
		return err
	}
	current, err := c.statuses.Get(insightsv1alpha1.UpdateStatusName)
	if apierrors.IsNotFound(err) {
		current, err = nil, nil
	}
	if err != nil {
		return err
	}
	if c.written != nil && ((current == nil && c.replaced == "") || (current != nil && current.ResourceVersion == c.replaced)) {
		// A computation within the cache's lag would otherwise create the
		// UpdateStatus again, or write over the cache's old version, and be
		// refused.
		current = c.written
	}
	own, err := c.ownInsights()
	if err != nil {
		return err
	}
	var previous *insightsv1alpha1.UpdateStatusStatus
	if current != nil {
		previous = &current.Status
	}
	answers := append(c.answers.Answers(), updatestatus.Answer{Informer: updatestatus.BuiltinInformer, Insights: updatestatus.Builtin(own)})
	if !c.refusedSince.IsZero() && now.Sub(c.refusedSince) >= RetryRefused {
		c.refused, c.held, c.refusedSince = updatestatus.Refusals{}, nil, time.Time{}
	}
	var notes map[string]string
	compute := func(now time.Time) insightsv1alpha1.UpdateStatusStatus {
		aggregated := updatestatus.Aggregate(updatestatus.Input{
			ClusterVersion: cv,
			Pools:          own.Pools,
			NodePools:      updatestatus.NodePools(own.Nodes),
			Answers:        c.refused.Apply(answers),
			Previous:       previous,
			Now:            now,
		})
		notes = aggregated.Notes
		for informer, note := range c.refused.Notes() {
			notes[informer] = note
		}
		return aggregated.Status
	}
	// The UpdateStatus held is computed again as of when it was refused:
	// the same means that its inputs did not change, and writing it again
	// is refused again until the API server's rule changes.
	if h := c.held; h != nil && equality.Semantic.DeepEqual(h.status, compute(h.at)) {
		c.reportRefusals(syncCtx, now)
		return nil
	}
	c.held = nil
	desired := compute(now)
	var replaced string
	if current != nil {
		replaced = current.ResourceVersion
	}
	written, changed, err := c.writer.WriteStatus(ctx, metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}, current, desired)
	for attempt := 0; err != nil; attempt++ {
		refused := c.refuse(err, &desired, answers)
		if len(refused) == 0 {
			if updatestatus.ObjectRefused(err) {
				c.hold(syncCtx, desired, err, now)
				return nil
			}
			break
		}
		klog.ErrorS(err, "The API server refused the UpdateStatus for informers' insights: writing it without them", "informers", refused)
		syncCtx.Recorder().Warningf("InsightsRefused", "The API server refused the insights of %v: UpdateStatus is written without them: %s", refused, text.Truncate(err.Error(), maxEventMessage))
		if attempt == maxRefusals {
			break
		}
		if written != nil {
			// Created by the refused write, which failed on its status.
			current = written
		}
		desired = compute(now)
		written, changed, err = c.writer.WriteStatus(ctx, metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}, current, desired)
	}
	if err != nil {
		// Deleted or changed by someone else: the cache will tell.
		c.written = nil
		return err
	}
	if changed {
		c.written, c.replaced = written, replaced
		c.pace.wrote(written.ResourceVersion)
	}
	c.reportRefusals(syncCtx, now)
	c.answers.SetNotes(notes)
	return nil
}

// hold keeps an UpdateStatus the API server refused with no informer's
// insights left to leave out: the sync succeeds, so that the queue does
// not retry the same object forever, and it is written again when its
// inputs change, or after RetryRefused.
func (c *Controller) hold(syncCtx factory.SyncContext, desired insightsv1alpha1.UpdateStatusStatus, err error, now time.Time) {
	c.written = nil
	c.held = &heldStatus{status: desired, at: now, err: err}
	klog.ErrorS(err, "The API server refuses the UpdateStatus even without the insights of any informer: it is written again when its inputs change", "retry", RetryRefused)
	syncCtx.Recorder().Warningf("UpdateStatusRefused", "The API server refuses UpdateStatus even without the insights of any informer: it is written again when its inputs change, or in %s: %s", RetryRefused, text.Truncate(err.Error(), maxEventMessage))
	c.reportRefusals(syncCtx, now)
}

// reportRefusals tells the operator's status what a refusal keeps out of
// the UpdateStatus now: all of it, some informers' insights, or nothing.
// The report stays while the refusal does, however each sync ends, and all
// is tried again once RetryRefused has passed.
func (c *Controller) reportRefusals(syncCtx factory.SyncContext, now time.Time) {
	err := c.refused.Err("UpdateStatus")
	if c.held != nil {
		err = fmt.Errorf("the API server refuses UpdateStatus even without the insights of any informer: %w", c.held.err)
	}
	switch {
	case err == nil:
		c.refusedSince = time.Time{}
	case c.refusedSince.IsZero():
		c.refusedSince = now
	}
	if err != nil {
		syncCtx.Queue().AddAfter(syncCtx.QueueKey(), c.refusedSince.Add(RetryRefused).Sub(now))
	}
	if c.refusals != nil {
		c.refusals.Refused(Name, insightsv1alpha1.UpdateStatusName, err)
	}
}

// refuse records, when the API server refused desired, the answers to
// leave out, and returns their informers: those whose insights hold the
// fields it names as invalid, or else, for a refusal it places in no
// informer's entry (the object too large for etcd, a rule of the whole),
// the largest contributor. None when the write failed for another reason
// (a conflict, an API server away), which writing again mends, or when no
// informer has insights left to leave out.
func (c *Controller) refuse(err error, desired *insightsv1alpha1.UpdateStatusStatus, answers []updatestatus.Answer) []string {
	if !updatestatus.ObjectRefused(err) {
		return nil
	}
	var status apierrors.APIStatus
	errors.As(err, &status)
	message := status.Status().Message
	names := updatestatus.RefusedInformers(insightwrite.InvalidFields(err), updatestatus.InformerAt(desired))
	if len(names) == 0 {
		largest, size, ok := updatestatus.Largest(desired)
		if !ok {
			return nil
		}
		names = []string{largest}
		message = fmt.Sprintf("%s (the API server named no informer: its insights, %d bytes of JSON, were the most of any)", message, size)
	}
	return c.refused.Refuse(answers, names, message)
}

// ownInsights are the insights the operator's other controllers wrote.
func (c *Controller) ownInsights() (updatestatus.Insights, error) {
	var in updatestatus.Insights
	var err error
	if in.ClusterVersions, err = c.controlPlanes.List(labels.Everything()); err != nil {
		return in, err
	}
	if in.Pools, err = c.pools.List(labels.Everything()); err != nil {
		return in, err
	}
	if in.Nodes, err = c.nodes.List(labels.Everything()); err != nil {
		return in, err
	}
	if in.Health, err = c.health.List(labels.Everything()); err != nil {
		return in, err
	}
	return in, nil
}
