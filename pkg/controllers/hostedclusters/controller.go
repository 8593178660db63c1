// Package hostedclusters maintains, on a HyperShift management cluster, a
// HostedClusterProgressInsight per HostedCluster and a
// NodePoolProgressInsight per NodePool, beside them in their namespace:
// how each hosted cluster's control plane update is going, as HyperShift
// copies the guest ClusterVersion's status into its HostedCluster, and how
// each NodePool's machines are, from the Cluster API objects behind it. It
// reads what the management cluster holds only: never a hosted cluster's
// kubeconfig.
package hostedclusters

import (
	"context"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

const (
	controllerName = "HostedClusterProgressInsightController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "HostedClusters"

	// resyncInterval assesses every hosted cluster again: an estimate
	// passes and an update stalls with nothing changing on the objects.
	resyncInterval = time.Minute
)

// Controller maintains the hosted clusters' and NodePools' insights. Its
// queue holds HostedCluster keys (namespace/name): a cluster is assessed
// with all its NodePools, whose count its insight carries.
type Controller struct {
	caches          caches
	clusterInsights insightslisters.HostedClusterProgressInsightLister
	poolInsights    insightslisters.NodePoolProgressInsightLister
	client          insightsclient.InsightsV1alpha1Interface
	tracker         *tracker.Tracker
	clock           clock.PassiveClock
}

// New returns the controller, registered with the informers it reads,
// which must not have started yet.
func New(
	informers Informers,
	clusterInsights insightinformers.HostedClusterProgressInsightInformer,
	poolInsights insightinformers.NodePoolProgressInsightInformer,
	client insightsclient.InsightsV1alpha1Interface,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	clock clock.PassiveClock,
) (factory.Controller, error) {
	c := &Controller{
		caches:          informers.caches(),
		clusterInsights: clusterInsights.Lister(),
		poolInsights:    poolInsights.Lister(),
		client:          client,
		tracker:         tracker,
		clock:           clock,
	}
	syncCtx := factory.NewSyncContext(controllerName, recorder)
	q := syncCtx.Queue()
	handlers := map[string]cache.ResourceEventHandler{
		hypershift.HostedClusters.Resource:         c.handler(q.Add, ownKey),
		hypershift.NodePools.Resource:              c.handler(q.Add, nodePoolsCluster),
		hypershift.ControlPlaneComponents.Resource: c.handler(q.Add, c.componentsCluster),
		hypershift.Machines.Resource:               c.handler(q.Add, c.nodePoolObjectsCluster),
		hypershift.MachineSets.Resource:            c.handler(q.Add, c.nodePoolObjectsCluster),
		hypershift.MachineDeployments.Resource:     c.handler(q.Add, c.nodePoolObjectsCluster),
	}
	synced := map[string]cache.InformerSynced{}
	var bare []factory.Informer
	for resource, informer := range informers.all() {
		if _, err := informer.AddEventHandler(handlers[resource]); err != nil {
			return nil, fmt.Errorf("handling the events of %s: %w", resource, err)
		}
		synced[resource] = informer.HasSynced
		bare = append(bare, informer)
	}
	// An insight deleted by someone else is written again.
	for resource, informer := range map[string]cache.SharedIndexInformer{
		"hostedclusterprogressinsights": clusterInsights.Informer(), "nodepoolprogressinsights": poolInsights.Informer(),
	} {
		if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: func(obj any) {
			if key, ok := insightCluster(obj); ok {
				q.Add(key)
			}
		}}); err != nil {
			return nil, fmt.Errorf("handling the events of %s: %w", resource, err)
		}
		synced[resource] = informer.HasSynced
		bare = append(bare, informer)
	}
	tracker.WaitsFor(Name, synced)
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(Name, c.sync)).
		WithBareInformers(bare...).
		ResyncEvery(resyncInterval).
		ToController(controllerName, recorder), nil
}

// handler queues the HostedCluster keys that clusters finds for an object
// that was added, changed or deleted.
func (c *Controller) handler(add func(any), clusters func(obj any) []string) cache.ResourceEventHandler {
	queue := func(obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		for _, key := range clusters(obj) {
			add(key)
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    queue,
		UpdateFunc: func(_, obj any) { queue(obj) },
		DeleteFunc: queue,
	}
}

func ownKey(obj any) []string {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return nil
	}
	return []string{key}
}

func nodePoolsCluster(obj any) []string {
	keys, _ := clusterOf(obj)
	return keys
}

// componentsCluster finds the HostedCluster whose control-plane namespace
// holds a ControlPlaneComponent.
func (c *Controller) componentsCluster(obj any) []string {
	o, ok := obj.(interface{ GetNamespace() string })
	if !ok {
		return nil
	}
	return c.clustersOf(c.caches.hostedClusters.ByIndex(byControlPlaneNamespace, o.GetNamespace()))
}

// nodePoolObjectsCluster finds the HostedCluster of the NodePool a Cluster
// API object is annotated with.
func (c *Controller) nodePoolObjectsCluster(obj any) []string {
	pools, _ := nodePoolOf(obj)
	var keys []string
	for _, pool := range pools {
		np, ok, err := c.caches.nodePools.GetByKey(pool)
		if err != nil || !ok {
			continue
		}
		k, _ := clusterOf(np)
		keys = append(keys, k...)
	}
	return keys
}

func (c *Controller) clustersOf(objs []any, err error) []string {
	if err != nil {
		return nil
	}
	var keys []string
	for _, obj := range objs {
		keys = append(keys, ownKey(obj)...)
	}
	return keys
}

// insightCluster is the HostedCluster key of an insight.
func insightCluster(obj any) (string, bool) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	switch i := obj.(type) {
	case *insightsv1alpha1.HostedClusterProgressInsight:
		return i.Namespace + "/" + i.Name, true
	case *insightsv1alpha1.NodePoolProgressInsight:
		return i.Namespace + "/" + i.Status.HostedCluster, i.Status.HostedCluster != ""
	}
	return "", false
}

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	key := syncCtx.QueueKey()
	if key == factory.DefaultQueueKey {
		for _, k := range c.caches.hostedClusters.ListKeys() {
			syncCtx.Queue().Add(k)
		}
		return c.queueOrphans(syncCtx.Queue().Add)
	}
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		klog.ErrorS(err, "Ignoring an unknown queue key", "key", key)
		return nil
	}
	return c.syncCluster(ctx, namespace, name)
}
