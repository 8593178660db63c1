// Package managedupgradeinformer is the UpdateInformer of managed clusters
// (OpenShift Dedicated, ARO), whose updates the Managed Upgrade Operator
// schedules and runs from an UpgradeConfig: it reads the cluster from
// caches, which watches keep current, and answers the protocol's status
// and plan calls with the insights of package managedupgrade: once they
// have synced, a call costs no API request however often the operator
// calls.
// `update-insights-operator informer managed-upgrade` serves it.
package managedupgradeinformer

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/kubernetes"
	corev1listers "k8s.io/client-go/listers/core/v1"
	policyv1listers "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/listwatch"
	"github.com/update-insights/update-insights-operator/pkg/managedupgrade"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// Sources are where the informer reads the cluster.
type Sources struct {
	// Namespace holds the UpgradeConfigs and the operator's ConfigMap.
	Namespace string
	// Client watches the ConfigMap, and the pods of each node being
	// drained.
	Client kubernetes.Interface
	// Discovery says whether the cluster serves UpgradeConfigs. Its calls
	// take no context: give it a client with a timeout shorter than the
	// handlers'.
	Discovery discovery.ServerResourcesInterface
	// UpgradeConfigs is the store of an informer of the UpgradeConfigs in
	// Namespace, and UpgradeConfigsSynced says it has listed them.
	UpgradeConfigs       cache.Store
	UpgradeConfigsSynced cache.InformerSynced
	// Nodes and Budgets are listers of informers of every node and every
	// PodDisruptionBudget, and CachesSynced says both have listed them.
	Nodes        corev1listers.NodeLister
	Budgets      policyv1listers.PodDisruptionBudgetLister
	CachesSynced cache.InformerSynced
	Clock        clock.PassiveClock
	// Log is where a ConfigMap that cannot be read is reported; klog's
	// logger when unset.
	Log logr.Logger
}

// Informer answers the status and plan calls.
type Informer struct {
	sources     Sources
	configMap   *listwatch.Watched
	drainedPods *nodePods

	mu sync.Mutex
	// configError is the last error of the operator's ConfigMap, logged
	// once for as long as it stays the same.
	configError string
}

var (
	_ informer.StatusInformer = &Informer{}
	_ informer.PlanInformer   = &Informer{}
)

// New returns an informer reading from sources, and from caches of its
// own that Run runs: until it does, the status of a managed update is
// answered Wait.
func New(sources Sources) *Informer {
	if sources.Log.GetSink() == nil {
		sources.Log = klog.Background()
	}
	return &Informer{
		sources:     sources,
		configMap:   newConfigMapWatch(sources.Client, sources.Namespace),
		drainedPods: newNodePods(sources.Client),
	}
}

// Run runs the informer's own caches until ctx ends, and returns once they
// have stopped: the ConfigMap's, and those of drained nodes' pods, which
// calls start.
func (i *Informer) Run(ctx context.Context) {
	defer i.drainedPods.Stop()
	i.configMap.Informer.RunWithContext(ctx)
}

// StatusInsights reports the managed updates of the namespace's
// UpgradeConfigs. It reads caches only (and discovery, until the
// UpgradeConfig cache has listed them); without an UpgradeConfig, nothing
// else.
func (i *Informer) StatusInsights(ctx context.Context, _ *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
	configs, wait, err := i.upgradeConfigs(ctx)
	if err != nil || wait != "" {
		return &protocol.UpdateInsightsResponse{Status: waiting(wait)}, err
	}
	needsDrains := managedupgrade.NeedsDrains(configs)
	if !needsDrains {
		// No update drains nodes (any more): no pods are cached.
		i.drainedPods.forget()
	}
	if len(configs) == 0 {
		return &protocol.UpdateInsightsResponse{}, nil
	}
	in := managedupgrade.Input{UpgradeConfigs: configs, Now: i.sources.Clock.Now()}
	if in.Config, wait, err = i.config(); err != nil || wait != "" {
		return &protocol.UpdateInsightsResponse{Status: waiting(wait)}, err
	}
	if needsDrains {
		if !i.sources.CachesSynced() {
			return &protocol.UpdateInsightsResponse{Status: waiting("the node and PodDisruptionBudget caches are not synced yet")}, nil
		}
		nodes, err := i.sources.Nodes.List(labels.Everything())
		if err != nil {
			return nil, err
		}
		in.WorkerNodes = managedupgrade.WorkerNodes(nodes)
		if in.Drains, wait, err = i.drains(ctx, nodes, in.Now); err != nil || wait != "" {
			return &protocol.UpdateInsightsResponse{Status: waiting(wait)}, err
		}
	}
	return &protocol.UpdateInsightsResponse{Spec: protocol.ResponseSpec{Insights: managedupgrade.StatusInsights(in)}}, nil
}

// PlanInsights reports what the namespace's UpgradeConfigs mean for an
// update to the request's target.
func (i *Informer) PlanInsights(ctx context.Context, req *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
	configs, wait, err := i.upgradeConfigs(ctx)
	if err != nil || wait != "" || len(configs) == 0 {
		return &protocol.UpdatePlanInsightsResponse{Status: waiting(wait)}, err
	}
	in := managedupgrade.Input{UpgradeConfigs: configs, Now: i.sources.Clock.Now()}
	return &protocol.UpdatePlanInsightsResponse{Spec: protocol.ResponseSpec{Insights: managedupgrade.PlanInsights(in, req.Spec.TargetControlPlaneVersion)}}, nil
}

// waiting is a Wait answer's status with that message, or an empty one
// (Success) without.
func waiting(message string) protocol.ResponseStatus {
	if message == "" {
		return protocol.ResponseStatus{}
	}
	return protocol.ResponseStatus{Response: protocol.ResponseWait, Message: message}
}

// upgradeConfigs are the cached UpgradeConfigs, or, before the cache has
// listed them, why to wait; none while the cluster does not serve them.
// The cache's reflector keeps listing while the CRD is absent, so it fills
// once the CRD is created, after its retry backoff.
func (i *Informer) upgradeConfigs(ctx context.Context) ([]*upgradev1alpha1.UpgradeConfig, string, error) {
	if !i.sources.UpgradeConfigsSynced() {
		served, err := i.served(ctx)
		if err != nil || !served {
			return nil, "", err
		}
		return nil, "the UpgradeConfig cache is not synced yet", nil
	}
	var out []*upgradev1alpha1.UpgradeConfig
	for _, o := range i.sources.UpgradeConfigs.List() {
		if c, ok := o.(*upgradev1alpha1.UpgradeConfig); ok {
			out = append(out, c)
		}
	}
	return out, "", nil
}

// served says whether the cluster serves UpgradeConfigs.
func (i *Informer) served(ctx context.Context) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	resources, err := i.sources.Discovery.ServerResourcesForGroupVersion(upgradev1alpha1.SchemeGroupVersion.String())
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("asking whether the cluster serves %s: %w", upgradev1alpha1.SchemeGroupVersion, err)
	}
	for _, r := range resources.APIResources {
		if r.Name == upgradev1alpha1.Resource.Resource {
			return true, nil
		}
	}
	return false, nil
}

// drains are the worker nodes being drained among the cached nodes, from
// the caches of budgets and of the pods of each drained node, which start
// as nodes are drained; until a new one has listed them, why to wait.
func (i *Informer) drains(ctx context.Context, nodes []*corev1.Node, now time.Time) ([]managedupgrade.NodeDrain, string, error) {
	drained := managedupgrade.DrainedNodes(nodes)
	names := make([]string, len(drained))
	for j, n := range drained {
		names[j] = n.Name
	}
	pods, wait, err := i.drainedPods.pods(ctx, names)
	if err != nil || wait != "" || len(drained) == 0 {
		return nil, wait, err
	}
	budgets, err := i.sources.Budgets.List(labels.Everything())
	if err != nil {
		return nil, "", err
	}
	return managedupgrade.Drains(drained, pods, budgets, now), "", nil
}
