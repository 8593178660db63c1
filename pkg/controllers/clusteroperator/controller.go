// Package clusteroperator maintains one ClusterOperatorProgressInsight per
// payload ClusterOperator.
package clusteroperator

import (
	"context"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/payload"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/queue"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

const (
	controllerName = "ClusterOperatorProgressInsightController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "ClusterOperator"

	resyncInterval = 10 * time.Minute
)

// Controller maintains the ClusterOperatorProgressInsights.
type Controller struct {
	operators       configlisters.ClusterOperatorLister
	clusterVersions configlisters.ClusterVersionLister
	deployments     appslisters.DeploymentNamespaceLister
	insights        insightslisters.ClusterOperatorProgressInsightLister
	writer          *insightwrite.Writer[*insightsv1alpha1.ClusterOperatorProgressInsight, insightsv1alpha1.ClusterOperatorProgressInsightStatus]
	topology        hosted.Topology
	clock           clock.PassiveClock
}

// Options are what the controller needs to know of the cluster.
type Options struct {
	// Topology says whether the control plane is hosted, which decides the
	// ClusterOperators that get an insight (controlplane.Counts).
	Topology hosted.Topology
}

// New returns the controller, registered with the informers it reads. The
// informers must not have started yet; deployments must cover the
// machine-config-operator namespace, and is nil where there is no
// machine-config operator (a hosted control plane's cluster).
func New(
	clusterOperators configinformers.ClusterOperatorInformer,
	clusterVersions configinformers.ClusterVersionInformer,
	deployments appsinformers.DeploymentInformer,
	insights insightinformers.ClusterOperatorProgressInsightInformer,
	client insightsclient.ClusterOperatorProgressInsightsGetter,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	clock clock.PassiveClock,
	options Options,
) (factory.Controller, error) {
	c := &Controller{
		operators:       clusterOperators.Lister(),
		clusterVersions: clusterVersions.Lister(),
		insights:        insights.Lister(),
		writer:          insightwrite.ClusterOperatorProgressInsights(client).ChangedWhen(controlplane.ClusterOperatorProgressChanged),
		topology:        options.Topology,
		clock:           clock,
	}
	syncCtx := factory.NewSyncContext(controllerName, recorder)
	if _, err := clusterVersions.Informer().AddEventHandler(c.targetVersionHandler(syncCtx.Queue().Add)); err != nil {
		return nil, err
	}
	if deployments != nil {
		c.deployments = deployments.Lister().Deployments(names.MachineConfigOperatorNamespace)
		if _, err := deployments.Informer().AddEventHandler(payload.MachineConfigOperatorHandler(func() { syncCtx.Queue().Add(names.MachineConfigOperator) })); err != nil {
			return nil, err
		}
	}
	// The machine-config-operator Deployment is not waited for: a cluster
	// without the machine-config operator (or that does not let this
	// operator read its namespace) would keep every insight from being
	// written. Until it is read, machine-config is judged by its version
	// alone; once it is, its handler queues machine-config again.
	tracker.WaitsFor(Name, map[string]cache.InformerSynced{
		"clusteroperators":                clusterOperators.Informer().HasSynced,
		"clusterversions":                 clusterVersions.Informer().HasSynced,
		"clusteroperatorprogressinsights": insights.Informer().HasSynced,
	})
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(Name, c.sync)).
		WithInformersQueueKeysFunc(queue.ByName, clusterOperators.Informer(), insights.Informer()).
		WithBareInformers(clusterVersions.Informer()).
		ResyncEvery(resyncInterval).
		ToController(controllerName, recorder), nil
}

// targetVersionHandler queues every ClusterOperator when the ClusterVersion's
// target version changes, the one ClusterVersion change that matters here.
func (c *Controller) targetVersionHandler(enqueue func(any)) cache.ResourceEventHandler {
	queueAll := func() {
		operators, err := c.operators.List(labels.Everything())
		if err != nil {
			klog.ErrorS(err, "Listing ClusterOperators")
			return
		}
		for _, co := range operators {
			enqueue(co.Name)
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) { queueAll() },
		UpdateFunc: func(oldObj, newObj any) {
			oldCV, ok1 := oldObj.(*configv1.ClusterVersion)
			newCV, ok2 := newObj.(*configv1.ClusterVersion)
			if ok1 && ok2 && oldCV.Status.Desired.Version != newCV.Status.Desired.Version {
				queueAll()
			}
		},
		DeleteFunc: func(any) { queueAll() },
	}
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	name := syncCtx.QueueKey()
	if name == factory.DefaultQueueKey {
		return c.queueEverything(syncCtx)
	}
	co, err := c.operators.Get(name)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	insight, err := c.insights.Get(name)
	if apierrors.IsNotFound(err) {
		insight, err = nil, nil
	}
	if err != nil {
		return err
	}

	// An operator that does not count, a hosted cluster's synthetic ones
	// among them, has no insight: see controlplane.Counts.
	if co == nil || !controlplane.Counts(c.topology, co) {
		if insight == nil {
			return nil
		}
		return c.writer.Delete(ctx, insight, nil)
	}

	var current *insightsv1alpha1.ClusterOperatorProgressInsightStatus
	if insight != nil {
		current = &insight.Status
	}
	desired := controlplane.ClusterOperatorProgress(co, c.targetVersion(), payload.MachineConfigOperatorImage(c.deployments), current, c.clock.Now())
	_, _, err = c.writer.WriteStatus(ctx, metav1.ObjectMeta{Name: name}, insight, desired)
	return err
}

// targetVersion is the version the ClusterVersion desires; empty without one.
func (c *Controller) targetVersion() string {
	cv, err := c.clusterVersions.Get(names.ClusterVersion)
	if err != nil {
		return ""
	}
	return cv.Status.Desired.Version
}

// queueEverything handles the periodic resync: every ClusterOperator, and
// every insight (whose ClusterOperator may be gone), is synced again.
func (c *Controller) queueEverything(syncCtx factory.SyncContext) error {
	operators, err := c.operators.List(labels.Everything())
	if err != nil {
		return err
	}
	insights, err := c.insights.List(labels.Everything())
	if err != nil {
		return err
	}
	queue.AddNames(syncCtx, operators)
	queue.AddNames(syncCtx, insights)
	return nil
}
