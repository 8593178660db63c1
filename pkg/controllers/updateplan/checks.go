package updateplan

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/clock"

	alertsapi "github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/alerts"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/precheck"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// alertsMaxAge is how long one read of the alerts serves every plan's
// evaluation: plans evaluated together under churn read them once.
const alertsMaxAge = 30 * time.Second

// clusterState is what the cluster looks like, from the caches.
type clusterState struct {
	clusterVersion   *configv1.ClusterVersion
	clusterOperators []*configv1.ClusterOperator
	nodes            []*corev1.Node
	pools            []*machineconfigurationv1.MachineConfigPool
}

func (c *Controller) cluster() (clusterState, error) {
	var s clusterState
	var err error
	s.clusterVersion, err = c.clusterVersions.Get(names.ClusterVersion)
	if apierrors.IsNotFound(err) {
		s.clusterVersion, err = nil, nil
	}
	if err != nil {
		return s, err
	}
	if s.clusterOperators, err = c.clusterOperators.List(labels.Everything()); err != nil {
		return s, err
	}
	if s.nodes, err = c.nodes.List(labels.Everything()); err != nil {
		return s, err
	}
	s.pools, err = c.pools.List(labels.Everything())
	return s, err
}

// checksInput is what the pre-checks look at. Of the pods, only those of
// budgets that allow no disruption are read, from the API server: the
// operator caches no pods.
func (c *Controller) checksInput(ctx context.Context, target string, cluster clusterState, now time.Time) (precheck.Input, error) {
	in := precheck.Input{
		ClusterVersion:   cluster.clusterVersion,
		Target:           target,
		ClusterOperators: cluster.clusterOperators,
		Nodes:            cluster.nodes,
		Pools:            cluster.pools,
		PerNode:          map[string]time.Duration{},
		Now:              now,
	}
	budgets, err := c.budgets.List(labels.Everything())
	if err != nil {
		return in, err
	}
	for _, b := range budgets {
		if b.Status.DisruptionsAllowed > 0 || b.Spec.Selector == nil {
			continue
		}
		selector, err := metav1.LabelSelectorAsSelector(b.Spec.Selector)
		if err != nil {
			continue
		}
		pods, err := c.pods.Pods(b.Namespace).List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
		if err != nil {
			return in, fmt.Errorf("listing the pods of PodDisruptionBudget %s/%s: %w", b.Namespace, b.Name, err)
		}
		budget := precheck.Budget{PodDisruptionBudget: b}
		for i := range pods.Items {
			budget.Pods = append(budget.Pods, &pods.Items[i])
		}
		in.Budgets = append(in.Budgets, budget)
	}
	for _, p := range cluster.pools {
		if c.perNode != nil {
			in.PerNode[p.Name] = c.perNode.Expected(p.Name)
		}
	}
	in.Alerts, in.AlertsUnreadable = c.alerts.read(ctx)
	return in, nil
}

// builtinAnswer is the operator's own findings, as the built-in informer's.
func builtinAnswer(in precheck.Input) updatestatus.Answer {
	return updatestatus.Answer{Informer: updatestatus.BuiltinInformer, Insights: precheck.Run(in)}
}

// workerPools are the names of the pools whose findings have a place of
// their own.
func workerPools(pools []*machineconfigurationv1.MachineConfigPool) []string {
	var out []string
	for _, p := range pools {
		if nodes.ScopeType(p.Name) == insightsv1alpha1.ScopeTypeWorkerPool {
			out = append(out, p.Name)
		}
	}
	return out
}

// alertsCache reads the alerts at most every alertsMaxAge.
type alertsCache struct {
	source alerts.Source
	clock  clock.PassiveClock

	mu     sync.Mutex
	readAt time.Time
	alerts []alertsapi.Alert
	err    error
}

func newAlertsCache(source alerts.Source, clock clock.PassiveClock) *alertsCache {
	return &alertsCache{source: source, clock: clock}
}

// errNoAlertsAddress is why no alerts are read by an operator told not to:
// the pre-checks say so, rather than pass an alert check that did not run.
var errNoAlertsAddress = errors.New("the operator has no address to read the alerts from (its --alerts-url is empty)")

// read returns the firing alerts, or why they were not read.
func (a *alertsCache) read(ctx context.Context) ([]alertsapi.Alert, error) {
	if a.source == nil {
		return nil, errNoAlertsAddress
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.readAt.IsZero() && a.clock.Since(a.readAt) < alertsMaxAge {
		return a.alerts, a.err
	}
	a.alerts, a.err = a.source.Alerts(ctx)
	a.readAt = a.clock.Now()
	return a.alerts, a.err
}
