// Package updatestatus keeps the UpdateStatus named cluster current: the
// control plane's and each worker pool's pending and active updates, with
// the insights of every informer, the operator's own among them.
package updatestatus

import (
	"context"
	"time"

	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

const (
	controllerName = "UpdateStatusController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "UpdateStatus"

	// MinInterval is the shortest time between two computations of the
	// UpdateStatus: under churn (thousands of nodes changing) it reads every
	// insight and is written at most once a second, not once per change.
	MinInterval = time.Second
)

// Controller maintains the UpdateStatus. It runs with one worker: lastSync
// is its own.
type Controller struct {
	clusterVersions configlisters.ClusterVersionLister
	controlPlanes   insightslisters.ClusterVersionProgressInsightLister
	pools           insightslisters.MachineConfigPoolProgressInsightLister
	nodes           insightslisters.NodeProgressInsightLister
	health          insightslisters.UpdateHealthInsightLister
	statuses        insightslisters.UpdateStatusLister
	writer          *insightwrite.Writer[*insightsv1alpha1.UpdateStatus, insightsv1alpha1.UpdateStatusStatus]
	answers         *Store
	clock           clock.PassiveClock

	lastSync time.Time
}

// New returns the controller, registered with the informers it reads. The
// informers must not have started yet.
func New(
	clusterVersions configinformers.ClusterVersionInformer,
	insights insightinformers.Interface,
	client insightsclient.InsightsV1alpha1Interface,
	answers *Store,
	tracker *operatorstatus.Tracker,
	recorder events.Recorder,
	clock clock.PassiveClock,
) factory.Controller {
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
	}
	syncCtx := factory.NewSyncContext(controllerName, recorder)
	answers.OnChange(func() { syncCtx.Queue().Add(insightsv1alpha1.UpdateStatusName) })
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
	}
	tracker.WaitsFor(Name, synced)
	// Every change comes down to the one UpdateStatus.
	singleton := func(runtime.Object) []string { return []string{insightsv1alpha1.UpdateStatusName} }
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(Name, c.sync)).
		WithInformersQueueKeysFunc(singleton, all...).
		ToController(controllerName, recorder)
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	now := c.clock.Now()
	if wait := c.lastSync.Add(MinInterval).Sub(now); wait > 0 {
		syncCtx.Queue().AddAfter(insightsv1alpha1.UpdateStatusName, wait)
		return nil
	}
	c.lastSync = now

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
	own, err := c.ownInsights()
	if err != nil {
		return err
	}
	var previous *insightsv1alpha1.UpdateStatusStatus
	if current != nil {
		previous = &current.Status
	}
	desired := updatestatus.Compute(updatestatus.Input{
		ClusterVersion: cv,
		Pools:          own.Pools,
		NodePools:      updatestatus.NodePools(own.Nodes),
		Answers:        append(c.answers.Answers(), updatestatus.Answer{Informer: updatestatus.BuiltinInformer, Insights: updatestatus.Builtin(own)}),
		Previous:       previous,
		Now:            now,
	})
	_, _, err = c.writer.WriteStatus(ctx, metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}, current, desired)
	return err
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
