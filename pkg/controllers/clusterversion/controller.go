// Package clusterversion maintains one ClusterVersionProgressInsight per
// ClusterVersion, and the control plane's health insights.
package clusterversion

import (
	"context"
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/healthinsights"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/payload"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/queue"
	"github.com/update-insights/update-insights-operator/pkg/eta"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

const (
	controllerName = "ClusterVersionProgressInsightController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "ClusterVersion"

	// healthInsightManager labels the health insights this controller owns.
	healthInsightManager = "clusterversion"

	// ResyncInterval is how often every insight is recomputed without any
	// event, which keeps the estimated completion time fresh.
	ResyncInterval = 2 * time.Minute
)

// Controller maintains the ClusterVersionProgressInsights.
type Controller struct {
	clusterVersions configlisters.ClusterVersionLister
	operators       cache.Indexer
	deployments     appslisters.DeploymentNamespaceLister
	insights        insightslisters.ClusterVersionProgressInsightLister
	writer          *insightwrite.Writer[*insightsv1alpha1.ClusterVersionProgressInsight, insightsv1alpha1.ClusterVersionProgressInsightStatus]
	health          *healthinsights.Syncer
	records         insightslisters.UpdateRecordLister
	// learned is the update and the number of records the estimate last
	// learned from, so that the log says when either changes, not at
	// every sync; syncs never overlap (one key, one worker at a time).
	learned  string
	topology hosted.Topology
	clock    clock.PassiveClock
}

// Options are what the controller needs to know of the cluster.
type Options struct {
	// Topology says whether the control plane is hosted, which decides the
	// ClusterOperators that count (controlplane.Counts).
	Topology hosted.Topology
	// Records are the UpdateRecords the estimate learns from; nil for
	// none, when it follows the ClusterVersion's history alone.
	Records insightinformers.UpdateRecordInformer
}

// New returns the controller, registered with the informers it reads. The
// informers must not have started yet; deployments must cover the
// machine-config-operator namespace, and is nil where there is no
// machine-config operator (a hosted control plane's cluster).
func New(
	clusterVersions configinformers.ClusterVersionInformer,
	clusterOperators configinformers.ClusterOperatorInformer,
	deployments appsinformers.DeploymentInformer,
	insights insightinformers.ClusterVersionProgressInsightInformer,
	healthInsights insightinformers.UpdateHealthInsightInformer,
	client insightsclient.InsightsV1alpha1Interface,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	clock clock.PassiveClock,
	options Options,
) (factory.Controller, error) {
	if err := payload.AddIndex(clusterOperators.Informer()); err != nil {
		return nil, fmt.Errorf("indexing payload ClusterOperators: %w", err)
	}
	if err := healthinsights.AddIndexers(healthInsights.Informer()); err != nil {
		return nil, fmt.Errorf("indexing health insights: %w", err)
	}
	c := &Controller{
		clusterVersions: clusterVersions.Lister(),
		operators:       clusterOperators.Informer().GetIndexer(),
		insights:        insights.Lister(),
		writer:          insightwrite.ClusterVersionProgressInsights(client).ChangedWhen(controlplane.ClusterVersionProgressChanged),
		health:          healthinsights.NewSyncer(healthInsightManager, client, healthInsights.Informer().GetIndexer(), clock),
		topology:        options.Topology,
		clock:           clock,
	}

	syncCtx := factory.NewSyncContext(controllerName, recorder)
	if _, err := clusterOperators.Informer().AddEventHandler(operatorEventHandler(options.Topology, syncCtx.Queue().Add)); err != nil {
		return nil, err
	}
	if deployments != nil {
		c.deployments = deployments.Lister().Deployments(names.MachineConfigOperatorNamespace)
		if _, err := deployments.Informer().AddEventHandler(payload.MachineConfigOperatorHandler(func() { syncCtx.Queue().Add(names.ClusterVersion) })); err != nil {
			return nil, err
		}
	}
	// The machine-config-operator Deployment is not waited for, as in the
	// ClusterOperator controller, with which completion must agree: until it
	// is read, machine-config is judged by its version alone.
	synced := map[string]cache.InformerSynced{
		"clusterversions":                clusterVersions.Informer().HasSynced,
		"clusteroperators":               clusterOperators.Informer().HasSynced,
		"clusterversionprogressinsights": insights.Informer().HasSynced,
		"updatehealthinsights":           healthInsights.Informer().HasSynced,
	}
	var bare []factory.Informer
	if options.Records != nil {
		// Read at each sync, never a reason for one: a record changes the
		// estimate only once its update completed, before the next starts.
		c.records = options.Records.Lister()
		synced["updaterecords"] = options.Records.Informer().HasSynced
		bare = append(bare, options.Records.Informer())
	}
	tracker.WaitsFor(Name, synced)
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(Name, c.sync)).
		WithInformersQueueKeysFunc(queue.ByName, clusterVersions.Informer(), insights.Informer()).
		WithInformersQueueKeysFunc(ownerKey, healthInsights.Informer()).
		WithBareInformers(append(bare, clusterOperators.Informer())...).
		ResyncEvery(ResyncInterval).
		ToController(controllerName, recorder), nil
}

// ownerKey queues the ClusterVersion whose insight owns a health insight of
// this controller, so that an insight changed or deleted by someone else is
// put right.
func ownerKey(obj runtime.Object) []string {
	o, err := meta.Accessor(obj)
	if err != nil || o.GetLabels()[healthinsights.ManagerLabel] != healthInsightManager {
		return nil
	}
	var keys []string
	for _, ref := range o.GetOwnerReferences() {
		if ref.Kind == "ClusterVersionProgressInsight" {
			keys = append(keys, ref.Name)
		}
	}
	return keys
}

// operatorEventHandler queues the ClusterVersion when a ClusterOperator that
// counts (controlplane.Counts) appears, goes, stops or starts counting, reports a new
// "operator" version or operator image (the only changes that move
// completion; machine-config reports its image), or changes its Available or
// Degraded condition (which the control plane's health insights report). Anything else a ClusterOperator does, such as its Progressing
// messages, is churn this controller does not need.
func operatorEventHandler(topology hosted.Topology, enqueue func(any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if co, ok := obj.(*configv1.ClusterOperator); ok && controlplane.Counts(topology, co) {
				enqueue(names.ClusterVersion)
			}
		},
		UpdateFunc: func(oldObj, newObj interface{}) {
			oldCO, ok1 := oldObj.(*configv1.ClusterOperator)
			newCO, ok2 := newObj.(*configv1.ClusterOperator)
			if !ok1 || !ok2 {
				return
			}
			wasPayload, isPayload := controlplane.Counts(topology, oldCO), controlplane.Counts(topology, newCO)
			oldVersion, _ := controlplane.OperatorVersion(oldCO)
			newVersion, _ := controlplane.OperatorVersion(newCO)
			oldImage, _ := controlplane.OperatorImage(oldCO)
			newImage, _ := controlplane.OperatorImage(newCO)
			if wasPayload != isPayload || (isPayload && (oldVersion != newVersion || oldImage != newImage || healthChanged(oldCO, newCO))) {
				enqueue(names.ClusterVersion)
			}
		},
		DeleteFunc: func(obj interface{}) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			if co, ok := obj.(*configv1.ClusterOperator); ok && controlplane.Counts(topology, co) {
				enqueue(names.ClusterVersion)
			}
		},
	}
}

// healthChanged says whether the Available or Degraded condition changed.
func healthChanged(oldCO, newCO *configv1.ClusterOperator) bool {
	for _, t := range []configv1.ClusterStatusConditionType{configv1.OperatorAvailable, configv1.OperatorDegraded} {
		o, n := v1helpers.FindStatusCondition(oldCO.Status.Conditions, t), v1helpers.FindStatusCondition(newCO.Status.Conditions, t)
		if (o == nil) != (n == nil) || (o != nil && *o != *n) {
			return true
		}
	}
	return false
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	name := syncCtx.QueueKey()
	if name == factory.DefaultQueueKey {
		return c.queueEverything(syncCtx)
	}

	cv, err := c.clusterVersions.Get(name)
	if apierrors.IsNotFound(err) {
		cv, err = nil, nil
	}
	if err != nil {
		return err
	}
	insight, err := c.insights.Get(name)
	if apierrors.IsNotFound(err) {
		insight, err = nil, nil
	}
	if err != nil {
		return err
	}

	switch {
	case cv == nil && insight == nil:
		return nil
	case cv == nil:
		// The health insights go with it: their owner reference would
		// have the garbage collector do it too, but not where no garbage
		// collector runs.
		return c.writer.Delete(ctx, insight, c.health)
	}

	operators, err := payload.Operators(c.operators)
	if err != nil {
		return err
	}
	now := c.clock.Now()
	var current *insightsv1alpha1.ClusterVersionProgressInsightStatus
	if insight != nil {
		current = &insight.Status
	}
	past, err := c.past(cv)
	if err != nil {
		return err
	}
	desired, healthInsights, next := controlplane.Assess(cv, operators, c.topology, payload.MachineConfigOperatorImage(c.deployments), past, current, now)
	insight, written, err := c.writer.WriteStatus(ctx, metav1.ObjectMeta{Name: name}, insight, desired)
	if err != nil {
		return err
	}
	if written && desired.Assessment == insightsv1alpha1.ClusterVersionAssessmentUnknown {
		// An administrator reading the logs learns why, not only what.
		klog.InfoS("Cannot tell whether the control plane is updating", "clusterVersion", name, "why", desired.Conditions[0].Message)
	}
	if err := c.health.Sync(ctx, c.writer.OwnerReference(insight), healthInsights); err != nil {
		return err
	}
	// A problem that becomes worth reporting (or worse) with time alone is
	// reported on time, not at the next event.
	if !next.IsZero() {
		syncCtx.Queue().AddAfter(name, next.Sub(now))
	}
	return nil
}

// queueEverything handles the periodic resync: every ClusterVersion, and every
// insight (whose ClusterVersion may be gone), is synced again.
func (c *Controller) queueEverything(syncCtx factory.SyncContext) error {
	cvs, err := c.clusterVersions.List(labels.Everything())
	if err != nil {
		return err
	}
	insights, err := c.insights.List(labels.Everything())
	if err != nil {
		return err
	}
	queue.AddNames(syncCtx, cvs)
	queue.AddNames(syncCtx, insights)
	return nil
}

// past is what the cluster's recorded updates say of its control plane for
// the estimate of cv's update; nil without records.
func (c *Controller) past(cv *configv1.ClusterVersion) (*eta.Past, error) {
	if c.records == nil || len(cv.Status.History) < 2 {
		return nil, nil
	}
	records, err := c.records.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	statuses := make([]insightsv1alpha1.UpdateRecordStatus, 0, len(records))
	for _, r := range records {
		statuses = append(statuses, r.Status)
	}
	past, learned := updaterecord.Learn(statuses, cv.Status.History[1].Version, cv.Status.History[0].Version)
	if key := fmt.Sprintf("%s %d", cv.Status.History[0].Version, learned); key != c.learned && cv.Status.History[0].State != configv1.CompletedUpdate {
		c.learned = key
		klog.InfoS("Estimating the control plane's update from the cluster's recorded updates (with none, from its ClusterVersion history)", "records", learned, "update", cv.Status.History[0].Version)
	}
	return past, nil
}
