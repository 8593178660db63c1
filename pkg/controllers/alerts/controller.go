// Package alerts reports the cluster's firing alerts that matter to an
// update as health insights, read from the platform's Prometheus API while an
// update is in progress.
package alerts

import (
	"context"
	"fmt"
	"time"

	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/healthinsights"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

const (
	controllerName = "AlertsController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "Alerts"

	// healthInsightManager labels the health insights this controller owns.
	healthInsightManager = "alerts"

	// source names the alerts among the controller's problems.
	source = "alerts"

	// DefaultInterval is how often the alerts are read while an update is in
	// progress: an alert is reported within half a minute of firing, at the
	// cost of one request to the Thanos querier.
	DefaultInterval = 30 * time.Second
)

// Controller keeps one health insight for each firing alert instance that
// matters to the update in progress, owned by the ClusterVersion's insight.
//
// Its state is the last read of the alerts: it runs with one worker, so
// only one sync reads or writes it at a time.
type Controller struct {
	clusterVersions configlisters.ClusterVersionLister
	pools           insightslisters.MachineConfigPoolProgressInsightLister
	insights        insightslisters.ClusterVersionProgressInsightLister
	owners          *insightwrite.Writer[*insightsv1alpha1.ClusterVersionProgressInsight, insightsv1alpha1.ClusterVersionProgressInsightStatus]
	health          *healthinsights.Syncer
	source          alerts.Source
	tracker         *tracker.Tracker
	interval        time.Duration
	clock           clock.PassiveClock

	// readFor is the start of the update the alerts were last read (or
	// tried) for, nextRead when to read them again.
	readFor, nextRead time.Time
	// desired are the insights of the last good read, for the update that
	// started at desiredFor; known says whether there was one.
	desired    []health.Insight
	desiredFor time.Time
	known      bool
	// failing says whether the last read failed, so that a failure and a
	// recovery are logged once each.
	failing bool
}

// New returns the controller, registered with the informers it reads. The
// informers must not have started yet.
func New(
	clusterVersions configinformers.ClusterVersionInformer,
	pools insightinformers.MachineConfigPoolProgressInsightInformer,
	insights insightinformers.ClusterVersionProgressInsightInformer,
	healthInsights insightinformers.UpdateHealthInsightInformer,
	client insightsclient.InsightsV1alpha1Interface,
	source alerts.Source,
	interval time.Duration,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	clock clock.PassiveClock,
) (factory.Controller, error) {
	if err := healthinsights.AddIndexers(healthInsights.Informer()); err != nil {
		return nil, fmt.Errorf("indexing health insights: %w", err)
	}
	c := &Controller{
		clusterVersions: clusterVersions.Lister(),
		pools:           pools.Lister(),
		insights:        insights.Lister(),
		owners:          insightwrite.ClusterVersionProgressInsights(client),
		health:          healthinsights.NewSyncer(healthInsightManager, client, healthInsights.Informer().GetIndexer(), clock),
		source:          source,
		tracker:         tracker,
		interval:        interval,
		clock:           clock,
	}
	tracker.WaitsFor(Name, map[string]cache.InformerSynced{
		"clusterversions":                   clusterVersions.Informer().HasSynced,
		"machineconfigpoolprogressinsights": pools.Informer().HasSynced,
		"clusterversionprogressinsights":    insights.Informer().HasSynced,
		"updatehealthinsights":              healthInsights.Informer().HasSynced,
	})
	// Everything this controller does is about the one ClusterVersion: an
	// update starting or ending, a pool finishing, the owner appearing, or
	// one of its insights changed by someone else.
	version := func(runtime.Object) []string { return []string{names.ClusterVersion} }
	return factory.New().
		WithSync(tracker.Sync(Name, c.sync)).
		WithInformersQueueKeysFunc(version, clusterVersions.Informer(), pools.Informer(), insights.Informer()).
		WithFilteredEventsInformersQueueKeysFunc(version, managed, healthInsights.Informer()).
		ToController(controllerName, recorder), nil
}

// managed says whether a health insight is this controller's.
func managed(obj any) bool {
	o, err := meta.Accessor(obj)
	return err == nil && o.GetLabels()[healthinsights.ManagerLabel] == healthInsightManager
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	cv, err := c.clusterVersions.Get(names.ClusterVersion)
	if apierrors.IsNotFound(err) {
		cv, err = nil, nil
	}
	if err != nil {
		return err
	}
	owner, err := c.insights.Get(names.ClusterVersion)
	if apierrors.IsNotFound(err) {
		owner, err = nil, nil
	}
	if err != nil {
		return err
	}
	pools, err := c.pools.List(labels.Everything())
	if err != nil {
		return err
	}
	statuses := make([]*insightsv1alpha1.MachineConfigPoolProgressInsightStatus, 0, len(pools))
	for _, p := range pools {
		statuses = append(statuses, &p.Status)
	}

	var started time.Time
	updating := false
	if cv != nil {
		started, updating = health.UpdateStart(cv, statuses)
	}
	if !updating {
		// No update, no alert matters to one: nothing is read, and nothing
		// is unreachable.
		c.readFor, c.nextRead, c.desired, c.desiredFor, c.known, c.failing = time.Time{}, time.Time{}, nil, time.Time{}, true, false
		c.tracker.ReadSource(Name, source, nil)
		return c.syncInsights(ctx, owner)
	}

	now := c.clock.Now()
	if !started.Equal(c.readFor) || !now.Before(c.nextRead) {
		c.read(ctx, started)
		c.readFor, c.nextRead = started, now.Add(c.interval)
	}
	syncCtx.Queue().AddAfter(names.ClusterVersion, c.nextRead.Sub(now))
	if !c.known || !c.desiredFor.Equal(started) {
		// Without a good read for this update, the insights there are stay
		// as they are: an unreachable Prometheus says nothing of the alerts.
		return nil
	}
	return c.syncInsights(ctx, owner)
}

// read reads the alerts for the update that started at started.
func (c *Controller) read(ctx context.Context, started time.Time) {
	firing, err := c.source.Alerts(ctx)
	if err != nil {
		c.tracker.ReadSource(Name, source, err)
		if !c.failing {
			klog.InfoS("Cannot read the cluster's alerts; their insights stay as they are until a read succeeds", "err", err)
		}
		c.failing = true
		return
	}
	c.tracker.ReadSource(Name, source, nil)
	if c.failing {
		klog.InfoS("Reading the cluster's alerts again")
	}
	c.failing = false
	c.desired, c.desiredFor, c.known = health.ForAlerts(firing, started), started, true
	klog.V(4).InfoS("Read the cluster's alerts", "alerts", len(firing), "reported", len(c.desired))
}

// syncInsights makes the alert insights the desired ones, once the
// ClusterVersion's insight that owns them exists.
func (c *Controller) syncInsights(ctx context.Context, owner *insightsv1alpha1.ClusterVersionProgressInsight) error {
	if owner == nil {
		// Its creation queues this controller again.
		return nil
	}
	return c.health.Sync(ctx, c.owners.OwnerReference(owner), c.desired)
}
