// Package nodepool maintains, on a cluster whose control plane is hosted, a
// NodeProgressInsight per node of a HyperShift NodePool, a pool insight per
// NodePool (status.resource naming the NodePool), and their health insights.
// The guest cannot see NodePools: a NodePool is known by its nodes' label.
// While the HyperShift drainer drains a node for an in-place update, the
// node's pods are watched (pkg/controllers/internal/drains) and the drain
// model names what holds the drain.
package nodepool

import (
	"context"
	"fmt"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	configinformers "github.com/openshift/client-go/config/informers/externalversions/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
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
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/drains"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/healthinsights"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
	insightinformers "github.com/update-insights/update-insights-operator/pkg/generated/informers/externalversions/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

const (
	controllerName = "NodePoolProgressInsightController"

	// Name names the controller in the operator's conditions and metrics.
	Name = "NodePool"

	// healthInsightManager labels the health insights of this controller.
	healthInsightManager = "nodepool"

	// Queue keys. A node's key finds its NodePool, or deletes its insight
	// once it is gone; a NodePool's key assesses the NodePool with all its
	// nodes, whose phases depend on one another (a rollout shows in the
	// newer nodes, an in-place update in the nodes told to update).
	nodeKeyPrefix = drains.NodeKeyPrefix
	poolKeyPrefix = "pool/"

	resyncInterval = 10 * time.Minute

	// poolIndex finds the nodes of a NodePool.
	poolIndex = "nodePool"
)

// Controller maintains the NodePools' node and pool insights.
type Controller struct {
	nodes        corelisters.NodeLister
	nodeIndexer  cache.Indexer
	operators    configlisters.ClusterOperatorLister
	nodeInsights insightslisters.NodeProgressInsightLister
	poolInsights insightslisters.MachineConfigPoolProgressInsightLister
	nodeWriter   *insightwrite.Writer[*insightsv1alpha1.NodeProgressInsight, insightsv1alpha1.NodeProgressInsightStatus]
	poolWriter   *insightwrite.Writer[*insightsv1alpha1.MachineConfigPoolProgressInsight, insightsv1alpha1.MachineConfigPoolProgressInsightStatus]
	health       *healthinsights.Syncer
	drains       *drains.Drains
	// perNode learns, NodePool by NodePool, how long a node takes to
	// update in place.
	perNode *nodes.PerNodeTimes
	clock   clock.PassiveClock
}

// New returns the controller, registered with the informers it reads. The
// informers must not have started yet; the nodes' should strip them with
// StripNode. It watches the pods of the nodes being drained through kube,
// until ctx ends.
func New(
	ctx context.Context,
	kube kubernetes.Interface,
	nodeInformer coreinformers.NodeInformer,
	operators configinformers.ClusterOperatorInformer,
	budgets policyinformers.PodDisruptionBudgetInformer,
	daemonSets appsinformers.DaemonSetInformer,
	nodeInsights insightinformers.NodeProgressInsightInformer,
	poolInsights insightinformers.MachineConfigPoolProgressInsightInformer,
	healthInsights insightinformers.UpdateHealthInsightInformer,
	client insightsclient.InsightsV1alpha1Interface,
	tracker *tracker.Tracker,
	recorder events.Recorder,
	perNode *nodes.PerNodeTimes,
	clock clock.PassiveClock,
) (factory.Controller, error) {
	if err := nodeInformer.Informer().AddIndexers(cache.Indexers{poolIndex: nodePoolOf}); err != nil {
		return nil, fmt.Errorf("indexing nodes: %w", err)
	}
	if err := healthinsights.AddIndexers(healthInsights.Informer()); err != nil {
		return nil, fmt.Errorf("indexing health insights: %w", err)
	}
	c := &Controller{
		nodes:        nodeInformer.Lister(),
		nodeIndexer:  nodeInformer.Informer().GetIndexer(),
		operators:    operators.Lister(),
		nodeInsights: nodeInsights.Lister(),
		poolInsights: poolInsights.Lister(),
		nodeWriter:   insightwrite.NodeProgressInsights(client),
		poolWriter:   insightwrite.MachineConfigPoolProgressInsights(client),
		health:       healthinsights.NewSyncer(healthInsightManager, client, healthInsights.Informer().GetIndexer(), clock),
		perNode:      perNode,
		clock:        clock,
	}

	syncCtx := factory.NewSyncContext(controllerName, recorder)
	q := syncCtx.Queue()
	c.drains = drains.New(kube, budgets.Lister(), daemonSets.Lister(), q.Add)
	go func() {
		<-ctx.Done()
		c.drains.Stop()
	}()
	informers := []struct {
		resource string
		informer cache.SharedIndexInformer
		handler  cache.ResourceEventHandler
	}{
		{"nodes", nodeInformer.Informer(), nodeHandler(q.Add)},
		{"clusteroperators", operators.Informer(), c.controlPlaneHandler(q.Add)},
		{"poddisruptionbudgets", budgets.Informer(), c.drains.BudgetHandler(q.Add)},
		{"daemonsets", daemonSets.Informer(), c.drains.DaemonSetHandler(q.Add)},
		{"nodeprogressinsights", nodeInsights.Informer(), deletionHandler(nodeKeyPrefix, q.Add)},
		{"machineconfigpoolprogressinsights", poolInsights.Informer(), deletionHandler(poolKeyPrefix, q.Add)},
		{"updatehealthinsights", healthInsights.Informer(), nil},
	}
	synced := map[string]cache.InformerSynced{}
	var bare []factory.Informer
	for _, i := range informers {
		if i.handler != nil {
			if _, err := i.informer.AddEventHandler(i.handler); err != nil {
				return nil, fmt.Errorf("handling the events of %s: %w", i.resource, err)
			}
		}
		synced[i.resource] = i.informer.HasSynced
		bare = append(bare, i.informer)
	}
	tracker.WaitsFor(Name, synced)
	return factory.New().
		WithSyncContext(syncCtx).
		WithSync(tracker.Sync(Name, c.sync)).
		WithBareInformers(bare...).
		ResyncEvery(resyncInterval).
		ToController(controllerName, recorder), nil
}

// nodePoolOf indexes a node under its NodePool, if it has one yet.
func nodePoolOf(obj any) ([]string, error) {
	node, ok := obj.(*corev1.Node)
	if !ok || node.Labels[hosted.NodePoolLabel] == "" {
		return nil, nil
	}
	return []string{node.Labels[hosted.NodePoolLabel]}, nil
}

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

// queueEverything handles the periodic resync: every NodePool, and every
// insight of a NodePool (whose node or NodePool may be gone), is synced
// again.
func (c *Controller) queueEverything(add func(any)) error {
	for _, pool := range c.nodeIndexer.ListIndexFuncValues(poolIndex) {
		add(poolKeyPrefix + pool)
	}
	nodeInsights, err := c.nodeInsights.List(labels.Everything())
	if err != nil {
		return err
	}
	for _, i := range nodeInsights {
		if hosted.IsNodePool(&i.Status.PoolResource) {
			add(nodeKeyPrefix + i.Name)
		}
	}
	poolInsights, err := c.poolInsights.List(labels.Everything())
	if err != nil {
		return err
	}
	for _, i := range poolInsights {
		if hosted.IsNodePool(i.Status.Resource) {
			add(poolKeyPrefix + i.Name)
		}
	}
	return nil
}

// controlPlaneKubernetes is the control plane's Kubernetes version, empty
// while the kube-apiserver ClusterOperator does not carry it.
func (c *Controller) controlPlaneKubernetes() string {
	co, err := c.operators.Get(hosted.KubeAPIServer)
	if err != nil {
		return ""
	}
	v, _ := hosted.ControlPlaneKubernetes([]*configv1.ClusterOperator{co})
	return v
}

// nodeHandler queues a node whose assessed fields changed, and the NodePool
// it left when its label changed.
func nodeHandler(add func(any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if o, err := meta.Accessor(obj); err == nil {
				add(nodeKeyPrefix + o.GetName())
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			old, ok1 := oldObj.(*corev1.Node)
			node, ok2 := newObj.(*corev1.Node)
			if !ok1 || !ok2 {
				return
			}
			// The cache holds stripped nodes: an update that changed only
			// what was stripped (a heartbeat, an image list) is no change.
			if !sameAssessedFields(old, node) {
				add(nodeKeyPrefix + node.Name)
			}
			if before := old.Labels[hosted.NodePoolLabel]; before != "" && before != node.Labels[hosted.NodePoolLabel] {
				add(poolKeyPrefix + before)
			}
		},
		DeleteFunc: func(obj any) {
			if o, err := meta.Accessor(tombstoneObject(obj)); err == nil {
				add(nodeKeyPrefix + o.GetName())
			}
		},
	}
}

// sameAssessedFields says whether two stripped nodes differ only in their
// resource version.
func sameAssessedFields(a, b *corev1.Node) bool {
	return apiequality.Semantic.DeepEqual(a.Labels, b.Labels) &&
		apiequality.Semantic.DeepEqual(a.Annotations, b.Annotations) &&
		a.Spec.Unschedulable == b.Spec.Unschedulable &&
		apiequality.Semantic.DeepEqual(a.Spec.Taints, b.Spec.Taints) &&
		apiequality.Semantic.DeepEqual(a.Status, b.Status)
}

// controlPlaneHandler queues every NodePool when the control plane's
// Kubernetes version changes, which every node is judged against.
func (c *Controller) controlPlaneHandler(add func(any)) cache.ResourceEventHandler {
	all := func() {
		for _, pool := range c.nodeIndexer.ListIndexFuncValues(poolIndex) {
			add(poolKeyPrefix + pool)
		}
	}
	version := func(obj any) string {
		if co, ok := obj.(*configv1.ClusterOperator); ok {
			v, _ := hosted.ControlPlaneKubernetes([]*configv1.ClusterOperator{co})
			return v
		}
		return ""
	}
	isKubeAPIServer := func(obj any) bool {
		o, err := meta.Accessor(tombstoneObject(obj))
		return err == nil && o.GetName() == hosted.KubeAPIServer
	}
	return cache.FilteringResourceEventHandler{
		FilterFunc: isKubeAPIServer,
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc: func(any) { all() },
			UpdateFunc: func(oldObj, newObj any) {
				if version(oldObj) != version(newObj) {
					all()
				}
			},
			DeleteFunc: func(any) { all() },
		},
	}
}

// deletionHandler queues the node or NodePool of an insight deleted by
// someone else, so that it comes back. The controller's own writes need no
// sync.
func deletionHandler(prefix string, add func(any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			if o, err := meta.Accessor(tombstoneObject(obj)); err == nil {
				add(prefix + o.GetName())
			}
		},
	}
}

func tombstoneObject(obj any) any {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		return tombstone.Obj
	}
	return obj
}
