// Package node maintains a NodeProgressInsight per Node in a
// MachineConfigPool, a MachineConfigPoolProgressInsight per pool, and their
// health insights.
package node

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	machineconfigurationinformers "github.com/openshift/client-go/machineconfiguration/informers/externalversions/machineconfiguration/v1"
	machineconfigurationlisters "github.com/openshift/client-go/machineconfiguration/listers/machineconfiguration/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	policyinformers "k8s.io/client-go/informers/policy/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/drains"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/healthinsights"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

const (
	controllerName = "NodeProgressInsightController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "Node"

	// healthInsightManager labels the health insights of this controller.
	healthInsightManager = "node"

	// Queue keys: a node's and a pool's work are separate keys, so that
	// workers take them in parallel and no node waits behind another.
	nodeKeyPrefix = drains.NodeKeyPrefix
	poolKeyPrefix = "pool/"

	resyncInterval = 10 * time.Minute

	// configIndex finds the nodes whose current or desired configuration
	// is a given MachineConfig.
	configIndex = "machineConfig"
)

// Controller maintains the node and pool insights.
type Controller struct {
	nodes           corelisters.NodeLister
	nodeIndexer     cache.Indexer
	pools           machineconfigurationlisters.MachineConfigPoolLister
	configs         machineconfigurationlisters.MachineConfigLister
	clusterVersions configlisters.ClusterVersionLister
	nodeInsights    insightslisters.NodeProgressInsightLister
	poolInsights    insightslisters.MachineConfigPoolProgressInsightLister
	nodeWriter      *insightwrite.Writer[*insightsv1alpha1.NodeProgressInsight, insightsv1alpha1.NodeProgressInsightStatus]
	poolWriter      *insightwrite.Writer[*insightsv1alpha1.MachineConfigPoolProgressInsight, insightsv1alpha1.MachineConfigPoolProgressInsightStatus]
	health          *healthinsights.Syncer
	membership      *membership
	drains          *drains.Drains
	perNode         *nodes.PerNodeTimes
	clock           clock.PassiveClock
	// imageMode is nil where the cluster serves no MachineOSConfigs, and
	// machineConfigNodes where it serves no MachineConfigNodes.
	imageMode          *imageMode
	machineConfigNodes machineconfigurationlisters.MachineConfigNodeLister
	// imageModePools are the pools that had a MachineOSConfig since the
	// controller started: one whose MachineOSConfig goes is assessed again.
	imageModePools sync.Map
}

// New returns the controller, registered with the informers it reads. The
// informers must not have started yet. It watches the pods of the nodes
// being drained through kube, until ctx ends.
func New(
	ctx context.Context,
	kube kubernetes.Interface,
	nodeInformer coreinformers.NodeInformer,
	pools machineconfigurationinformers.MachineConfigPoolInformer,
	configs machineconfigurationinformers.MachineConfigInformer,
	clusterVersions configinformers.ClusterVersionInformer,
	budgets policyinformers.PodDisruptionBudgetInformer,
	daemonSets appsinformers.DaemonSetInformer,
	nodeInsights insightinformers.NodeProgressInsightInformer,
	poolInsights insightinformers.MachineConfigPoolProgressInsightInformer,
	healthInsights insightinformers.UpdateHealthInsightInformer,
	client insightsclient.InsightsV1alpha1Interface,
	perNode *nodes.PerNodeTimes,
	optional Optional,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	clock clock.PassiveClock,
) (factory.Controller, error) {
	if err := nodeInformer.Informer().AddIndexers(cache.Indexers{configIndex: configsOfNode}); err != nil {
		return nil, fmt.Errorf("indexing nodes: %w", err)
	}
	if err := healthinsights.AddIndexers(healthInsights.Informer()); err != nil {
		return nil, fmt.Errorf("indexing health insights: %w", err)
	}
	c := &Controller{
		nodes:           nodeInformer.Lister(),
		nodeIndexer:     nodeInformer.Informer().GetIndexer(),
		pools:           pools.Lister(),
		configs:         configs.Lister(),
		clusterVersions: clusterVersions.Lister(),
		nodeInsights:    nodeInsights.Lister(),
		poolInsights:    poolInsights.Lister(),
		nodeWriter:      insightwrite.NodeProgressInsights(client),
		poolWriter:      insightwrite.MachineConfigPoolProgressInsights(client),
		health:          healthinsights.NewSyncer(healthInsightManager, client, healthInsights.Informer().GetIndexer(), clock),
		membership:      newMembership(recorder),
		perNode:         perNode,
		clock:           clock,
	}

	syncCtx := factory.NewSyncContext(controllerName, recorder)
	q := syncCtx.Queue()
	c.drains = drains.New(kube, budgets.Lister(), daemonSets.Lister(), q.Add)
	go func() {
		<-ctx.Done()
		c.drains.Stop()
	}()
	// Every informer the controller reads, once; those of the optional
	// APIs where they are served.
	informers := []watched{
		{"nodes", nodeInformer.Informer(), c.nodeHandler(q.Add)},
		{"machineconfigpools", pools.Informer(), c.poolHandler(q.Add)},
		{"machineconfigs", configs.Informer(), c.configHandler(q.Add)},
		{"clusterversions", clusterVersions.Informer(), c.targetVersionHandler(q.Add)},
		{"poddisruptionbudgets", budgets.Informer(), c.drains.BudgetHandler(q.Add)},
		{"daemonsets", daemonSets.Informer(), c.drains.DaemonSetHandler(q.Add)},
		{"nodeprogressinsights", nodeInsights.Informer(), deletionHandler(nodeKeyPrefix, q.Add)},
		{"machineconfigpoolprogressinsights", poolInsights.Informer(), deletionHandler(poolKeyPrefix, q.Add)},
		{"updatehealthinsights", healthInsights.Informer(), nil},
	}
	if images := optional.ImageMode; images != nil {
		c.imageMode = &imageMode{configs: images.Configs.Lister(), builds: images.Builds.Lister(), pods: images.BuildPods.Lister()}
		handler := c.imageModeHandler(q.Add)
		informers = append(informers, watched{"machineosconfigs", images.Configs.Informer(), handler},
			watched{"machineosbuilds", images.Builds.Informer(), handler}, watched{"pods", images.BuildPods.Informer(), handler})
	}
	if mcns := optional.MachineConfigNodes; mcns != nil {
		c.machineConfigNodes = mcns.Lister()
		informers = append(informers, watched{"machineconfignodes", mcns.Informer(), machineConfigNodeHandler(q.Add)})
	}
	synced := map[string]cache.InformerSynced{}
	var bare []factory.Informer
	for _, i := range informers {
		var informer factory.Informer = i.informer
		if i.handler != nil {
			registration, err := i.informer.AddEventHandler(i.handler)
			if err != nil {
				return nil, fmt.Errorf("handling the events of %s: %w", i.resource, err)
			}
			// The membership is built by the handlers: the controller
			// starts once they have seen every object, not only once the
			// cache has.
			informer = handledInformer{SharedIndexInformer: i.informer, handled: registration}
		}
		synced[i.resource] = informer.HasSynced
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

// watched is an informer the controller reads: resource names it in the
// tracker's WaitsFor, and handler (nil for one read only through its
// lister) queues the work its events change.
type watched struct {
	resource string
	informer cache.SharedIndexInformer
	handler  cache.ResourceEventHandler
}

// handledInformer is an informer that has synced once its events up to
// then have been delivered to this controller's handler.
type handledInformer struct {
	cache.SharedIndexInformer
	handled cache.ResourceEventHandlerRegistration
}

func (i handledInformer) HasSynced() bool { return i.handled.HasSynced() }

func (c *Controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	key := syncCtx.QueueKey()
	switch {
	case key == factory.DefaultQueueKey:
		return c.queueEverything(syncCtx.Queue().Add)
	case strings.HasPrefix(key, nodeKeyPrefix):
		return c.syncNode(ctx, syncCtx, strings.TrimPrefix(key, nodeKeyPrefix))
	case strings.HasPrefix(key, poolKeyPrefix):
		return c.syncPool(ctx, syncCtx, strings.TrimPrefix(key, poolKeyPrefix))
	}
	klog.ErrorS(nil, "Ignoring an unknown queue key", "key", key)
	return nil
}

// state is what every assessment of one sync shares.
type state struct {
	pools     *nodes.Pools
	versions  nodes.Versions
	target    string
	migrating bool
	now       time.Time
}

func (c *Controller) state() (*state, error) {
	s := &state{pools: c.membership.current(), versions: listerVersions{c.configs}, now: c.clock.Now()}
	if cv, err := c.clusterVersions.Get(names.ClusterVersion); err == nil {
		s.target = cv.Status.Desired.Version
		s.migrating = controlplane.IsArchitectureMigrationInProgress(cv)
	} else if !apierrors.IsNotFound(err) {
		return nil, err
	}
	return s, nil
}

// listerVersions reads MachineConfig versions from the informer's cache.
type listerVersions struct {
	configs machineconfigurationlisters.MachineConfigLister
}

func (v listerVersions) Of(config string) (string, bool) {
	if config == "" {
		return "", false
	}
	mc, err := v.configs.Get(config)
	if err != nil {
		return "", false
	}
	return nodes.VersionOf(mc)
}

// queueEverything handles the periodic resync: every node and pool, and
// every insight (whose node or pool may be gone), is synced again.
func (c *Controller) queueEverything(add func(any)) error {
	allNodes, err := c.nodes.List(labels.Everything())
	if err != nil {
		return err
	}
	pools, err := c.pools.List(labels.Everything())
	if err != nil {
		return err
	}
	nodeInsights, err := c.nodeInsights.List(labels.Everything())
	if err != nil {
		return err
	}
	poolInsights, err := c.poolInsights.List(labels.Everything())
	if err != nil {
		return err
	}
	for _, n := range allNodes {
		add(nodeKeyPrefix + n.Name)
	}
	for _, i := range nodeInsights {
		add(nodeKeyPrefix + i.Name)
	}
	for _, p := range pools {
		add(poolKeyPrefix + p.Name)
	}
	for _, i := range poolInsights {
		add(poolKeyPrefix + i.Name)
	}
	return nil
}
