// Package updaterecord keeps an UpdateRecord of every update while it runs,
// from the ClusterVersion and ClusterOperator insights, so that what the
// update took is kept after the insights move on to the next one.
package updaterecord

import (
	"context"
	"errors"
	"fmt"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/queue"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

const (
	controllerName = "UpdateRecordController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "UpdateRecord"
)

// Controller writes the UpdateRecords.
type Controller struct {
	clusterVersions insightslisters.ClusterVersionProgressInsightLister
	operators       insightslisters.ClusterOperatorProgressInsightLister
	health          insightslisters.UpdateHealthInsightLister
	nodes           insightslisters.NodeProgressInsightLister
	pools           insightslisters.MachineConfigPoolProgressInsightLister
	records         insightslisters.UpdateRecordLister
	writer          *insightwrite.Writer[*insightsv1alpha1.UpdateRecord, insightsv1alpha1.UpdateRecordStatus]
	clock           clock.PassiveClock

	// written are the records this process has written: one it has not is
	// resumed, the time since its observedUntil possibly seen by no
	// operator. Every event queues the same key, and the queue never hands
	// a key to two workers at once, so syncs never overlap and written
	// needs no lock.
	written map[string]bool
}

// New returns the controller, registered with the informers it reads.
func New(
	clusterVersions insightinformers.ClusterVersionProgressInsightInformer,
	operators insightinformers.ClusterOperatorProgressInsightInformer,
	health insightinformers.UpdateHealthInsightInformer,
	nodes insightinformers.NodeProgressInsightInformer,
	pools insightinformers.MachineConfigPoolProgressInsightInformer,
	records insightinformers.UpdateRecordInformer,
	client insightsclient.InsightsV1alpha1Interface,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	clock clock.PassiveClock,
) (factory.Controller, error) {
	c := &Controller{
		clusterVersions: clusterVersions.Lister(),
		operators:       operators.Lister(),
		health:          health.Lister(),
		nodes:           nodes.Lister(),
		pools:           pools.Lister(),
		records:         records.Lister(),
		writer:          insightwrite.UpdateRecords(client),
		clock:           clock,
		written:         map[string]bool{},
	}
	tracker.WaitsFor(Name, map[string]cache.InformerSynced{
		"clusterversionprogressinsights":    clusterVersions.Informer().HasSynced,
		"clusteroperatorprogressinsights":   operators.Informer().HasSynced,
		"updatehealthinsights":              health.Informer().HasSynced,
		"nodeprogressinsights":              nodes.Informer().HasSynced,
		"machineconfigpoolprogressinsights": pools.Informer().HasSynced,
		"updaterecords":                     records.Informer().HasSynced,
	})
	syncCtx := factory.NewSyncContext(controllerName, recorder)
	enqueue := func() { syncCtx.Queue().Add(factory.DefaultQueueKey) }
	if _, err := clusterVersions.Informer().AddEventHandler(queue.WhenChanged(recordedUpdate, enqueue)); err != nil {
		return nil, err
	}
	if _, err := operators.Informer().AddEventHandler(queue.WhenChanged(recordedOperator, enqueue)); err != nil {
		return nil, err
	}
	if _, err := health.Informer().AddEventHandler(queue.WhenChanged(recordedStall, enqueue)); err != nil {
		return nil, err
	}
	if _, err := nodes.Informer().AddEventHandler(queue.WhenChanged(recordedNode, enqueue)); err != nil {
		return nil, err
	}
	if _, err := pools.Informer().AddEventHandler(queue.WhenChanged(recordedPool, enqueue)); err != nil {
		return nil, err
	}
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(Name, c.sync)).
		WithBareInformers(clusterVersions.Informer(), operators.Informer(), health.Informer(), nodes.Informer(), pools.Informer()).
		WithInformers(records.Informer()).
		// The heartbeat: a record in progress says until when it was seen.
		ResyncEvery(updaterecord.Heartbeat).
		ToController(controllerName, recorder), nil
}

// updateKey is what a record reads of the ClusterVersion insight. Its
// other changes, the Updating message moving on with every manifest the
// cluster-version operator applies above all, would wake the controller
// for nothing.
type updateKey struct {
	target, previous     string
	started, completedAt int64
	completed            bool
	// quarter is which of the percentages an estimate is kept at the
	// control plane has reached.
	quarter int32
}

func recordedUpdate(i *insightsv1alpha1.ClusterVersionProgressInsight) updateKey {
	k := updateKey{target: i.Status.Versions.Target.Version, completed: i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted,
		quarter: i.Status.CompletionPercent / 25}
	if p := i.Status.Versions.Previous; p != nil {
		k.previous = p.Version
	}
	if i.Status.StartedAt != nil {
		k.started = i.Status.StartedAt.Unix()
	}
	if i.Status.CompletedAt != nil {
		k.completedAt = i.Status.CompletedAt.Unix()
	}
	return k
}

// operatorKey is what a record reads of a ClusterOperator insight: its
// Updating condition.
type operatorKey struct {
	status, reason string
	since          int64
}

func recordedOperator(i *insightsv1alpha1.ClusterOperatorProgressInsight) operatorKey {
	c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.ClusterOperatorProgressInsightUpdating)
	if c == nil {
		return operatorKey{}
	}
	return operatorKey{status: string(c.Status), reason: c.Reason, since: c.LastTransitionTime.Unix()}
}

// nodeKey is what a record reads of a Node insight: its pool and its
// Updating condition, whose reason is the node's phase. Its estimate and
// message, which move on by the minute, are not read.
type nodeKey struct {
	pool, status, reason string
	since                int64
}

func recordedNode(i *insightsv1alpha1.NodeProgressInsight) nodeKey {
	k := nodeKey{pool: i.Status.PoolResource.Name}
	if c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating); c != nil {
		k.status, k.reason, k.since = string(c.Status), c.Reason, c.LastTransitionTime.Unix()
	}
	return k
}

// recordedPool is what a record reads of a pool's insight: whether it is
// excluded from the update.
func recordedPool(i *insightsv1alpha1.MachineConfigPoolProgressInsight) insightsv1alpha1.PoolAssessment {
	return i.Status.Assessment
}

// stallKey is what a record reads of a health insight.
type stallKey struct {
	level, impact, scope, summary string
	started                       int64
	resources                     string
}

func recordedStall(i *insightsv1alpha1.UpdateHealthInsight) stallKey {
	k := stallKey{level: string(i.Status.Impact.Level), impact: string(i.Status.Impact.Type), scope: string(i.Status.Scope.Type),
		summary: i.Status.Impact.Summary, started: i.Status.StartedAt.Unix()}
	for _, r := range i.Status.Scope.Resources[:min(len(i.Status.Scope.Resources), insightsv1alpha1.UpdateRecordMaxStallResources)] {
		k.resources += r.Group + "/" + r.Resource + "/" + r.Namespace + "/" + r.Name + "\n"
	}
	return k
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	cv, err := c.clusterVersions.Get(names.ClusterVersion)
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		return err
	}
	if !updaterecord.Recordable(&cv.Status) {
		return nil
	}
	name := updaterecord.Name(cv.Status.Versions.Target.Version, cv.Status.StartedAt.Time)
	records, err := c.records.List(labels.Everything())
	if err != nil {
		return err
	}
	var errs []error
	var current *insightsv1alpha1.UpdateRecord
	for _, r := range records {
		switch {
		case r.Name == name:
			current = r
		case r.Status.State == insightsv1alpha1.UpdateRecordProgressing && r.Status.StartedAt.Before(cv.Status.StartedAt):
			// Another update started since: this one was left for it.
			errs = append(errs, c.write(ctx, r.Name, r, updaterecord.Abandon(&r.Status, cv.Status.StartedAt.Time)))
		}
	}

	insights, err := c.operators.List(labels.Everything())
	if err != nil {
		return err
	}
	operators := make([]insightsv1alpha1.ClusterOperatorProgressInsightStatus, 0, len(insights))
	for _, o := range insights {
		operators = append(operators, o.Status)
	}
	healthInsights, err := c.health.List(labels.Everything())
	if err != nil {
		return err
	}
	health := make([]insightsv1alpha1.UpdateHealthInsight, 0, len(healthInsights))
	for _, h := range healthInsights {
		health = append(health, *h)
	}
	nodeInsights, err := c.nodes.List(labels.Everything())
	if err != nil {
		return err
	}
	nodes := make([]insightsv1alpha1.NodeProgressInsightStatus, 0, len(nodeInsights))
	for _, n := range nodeInsights {
		nodes = append(nodes, n.Status)
	}
	poolInsights, err := c.pools.List(labels.Everything())
	if err != nil {
		return err
	}
	pools := make([]insightsv1alpha1.MachineConfigPoolProgressInsightStatus, 0, len(poolInsights))
	for _, p := range poolInsights {
		pools = append(pools, p.Status)
	}
	in := updaterecord.Input{ClusterVersion: &cv.Status, Operators: operators, Health: health, Nodes: nodes, Pools: pools,
		Resumed: !c.written[name], Now: c.clock.Now()}
	// A record is created empty and its status written next: one whose
	// write failed has none yet.
	if current != nil && current.Status.State != "" {
		in.Previous = &current.Status
	}
	errs = append(errs, c.write(ctx, name, current, updaterecord.Next(in)))
	errs = append(errs, c.prune(ctx, syncCtx, records))
	return errors.Join(errs...)
}

// prune deletes the records beyond updaterecord.MaxRecords, each with an
// Event saying why it went.
func (c *Controller) prune(ctx context.Context, syncCtx factory.SyncContext, records []*insightsv1alpha1.UpdateRecord) error {
	all := make([]insightsv1alpha1.UpdateRecord, 0, len(records))
	for _, r := range records {
		all = append(all, *r)
	}
	pruned := updaterecord.Pruned(all, updaterecord.MaxRecords)
	var errs []error
	for _, r := range records {
		why, ok := pruned[r.Name]
		if !ok {
			continue
		}
		if err := c.writer.Delete(ctx, r, nil); err != nil {
			errs = append(errs, err)
			continue
		}
		syncCtx.Recorder().Eventf("UpdateRecordPruned", "Deleted the record %s of the update to %s: over %d records are kept, and it was %s",
			r.Name, r.Status.To.Version, updaterecord.MaxRecords, why)
	}
	return errors.Join(errs...)
}

// write writes a record's status, and remembers this process wrote it.
func (c *Controller) write(ctx context.Context, name string, current *insightsv1alpha1.UpdateRecord, desired insightsv1alpha1.UpdateRecordStatus) error {
	if _, _, err := c.writer.WriteStatus(ctx, metav1.ObjectMeta{Name: name}, current, desired); err != nil {
		return fmt.Errorf("the record of the update %s: %w", name, err)
	}
	c.written[name] = true
	return nil
}
