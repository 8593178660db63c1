package updateplan

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"sync"
	"time"

	apiserverv1 "github.com/openshift/api/apiserver/v1"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
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
	// machineOSConfigs and machineOSBuilds are none where the cluster
	// serves no MachineOSConfigs.
	machineOSConfigs []*machineconfigurationv1.MachineOSConfig
	machineOSBuilds  []*machineconfigurationv1.MachineOSBuild
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
	if c.pools != nil {
		if s.pools, err = c.pools.List(labels.Everything()); err != nil {
			return s, err
		}
	}
	if c.machineOSConfigs != nil {
		if s.machineOSConfigs, err = c.machineOSConfigs.List(labels.Everything()); err != nil {
			return s, err
		}
		// A cluster whose pools have no MachineOSConfig has no build to
		// look at.
		if len(s.machineOSConfigs) > 0 {
			s.machineOSBuilds, err = c.machineOSBuilds.List(labels.Everything())
		}
	}
	return s, err
}

// checksInput is what the pre-checks look at. Of the pods, only those of
// budgets that may refuse an eviction on their own (drain.MayRefuse) are
// read, from the API server: the operator caches no pods. Not ready while an API the cluster serves has
// not been read yet.
func (c *Controller) checksInput(ctx context.Context, target string, cluster clusterState, now time.Time) (precheck.Input, bool, error) {
	in := precheck.Input{
		ClusterVersion:   cluster.clusterVersion,
		Target:           target,
		ClusterOperators: cluster.clusterOperators,
		Nodes:            cluster.nodes,
		Pools:            cluster.pools,
		MachineOSConfigs: cluster.machineOSConfigs,
		MachineOSBuilds:  cluster.machineOSBuilds,
		Topology:         c.topology,
		PerNode:          map[string]time.Duration{},
		PerNodeP90:       map[string]time.Duration{},
		Now:              now,
	}
	ready, err := c.readGates(&in)
	if err != nil || !ready {
		return in, ready, err
	}
	budgets, err := c.budgets.List(labels.Everything())
	if err != nil {
		return in, false, err
	}
	for _, b := range budgets {
		budget := precheck.Budget{PodDisruptionBudget: b}
		if selector, ok := drain.Selector(b); ok && drain.MayRefuse(b) {
			pods, err := c.pods.Pods(b.Namespace).List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
			if err != nil {
				return in, false, fmt.Errorf("listing the pods of PodDisruptionBudget %s/%s: %w", b.Namespace, b.Name, err)
			}
			for i := range pods.Items {
				budget.Pods = append(budget.Pods, &pods.Items[i])
			}
		}
		in.Budgets = append(in.Budgets, budget)
	}
	if c.perNode != nil {
		for _, p := range cluster.pools {
			in.PerNode[p.Name] = c.perNode.Expected(p.Name)
			if _, p90, ok := c.perNode.Learned(p.Name); ok {
				in.PerNodeP90[p.Name] = p90
			}
		}
		// A hosted cluster's pools are its nodes' NodePools.
		for _, nodePool := range precheck.NodePoolsOfNodes(cluster.nodes) {
			in.PerNode[nodePool] = c.perNode.Expected(nodePool)
		}
	}
	in.Alerts, in.AlertsUnreadable = c.alerts.read(ctx)
	return in, true, nil
}

// readGates reads what the gates of a minor update are checked against:
// the admin gates and acknowledgements, the API requests, the
// CloudCredential. Not ready while an API the cluster serves has not been
// read yet.
func (c *Controller) readGates(in *precheck.Input) (bool, error) {
	var err error
	if in.AdminGates, err = c.adminGates.Get(names.AdminGates); apierrors.IsNotFound(err) {
		in.AdminGates, err = nil, nil
	}
	if err != nil {
		return false, err
	}
	if in.AdminAcks, err = c.adminAcks.Get(names.AdminAcks); apierrors.IsNotFound(err) {
		in.AdminAcks, err = nil, nil
	}
	if err != nil {
		return false, err
	}
	counts, countsReady, countsOff := c.apiRequestCounts.read()
	credentials, credentialsReady, credentialsOff := c.cloudCredentials.read()
	if !countsReady || !credentialsReady {
		return false, nil
	}
	if in.APIRequestCountsUnreadable = countsOff; countsOff == nil {
		if in.APIRequestCounts, err = counts.List(labels.Everything()); err != nil {
			return false, err
		}
	}
	if in.CloudCredentialUnreadable = credentialsOff; credentialsOff == nil {
		if in.CloudCredential, err = credentials.Get(names.CloudCredential); apierrors.IsNotFound(err) {
			in.CloudCredential, err = nil, nil
		}
		if err != nil {
			return false, err
		}
	}
	return true, nil
}

// builtinAnswers are the findings of the built-in informers other than the
// operator's own pre-checks. One whose API the cluster does not serve has
// none (a cluster without OLM has nothing to say of it); one whose findings
// could not be made has, instead, the operator's own finding that says
// why. Not ready while a served API's caches have not synced.
func (c *Controller) builtinAnswers(cv *configv1.ClusterVersion, target string, now time.Time) (answers []updatestatus.Answer, unchecked []insightsv1alpha1.UpdateInsight, ready bool) {
	for _, b := range c.builtins {
		planner, ready, off := b.Planner.read()
		switch {
		case !ready:
			return nil, nil, false
		case isNotServed(off):
			continue
		case off != nil:
			unchecked = append(unchecked, b.Unchecked(target, off, now))
			continue
		}
		a, err := planner.Plan(precheck.CurrentRelease(cv), target, now)
		if err != nil {
			unchecked = append(unchecked, b.Unchecked(target, err, now))
			continue
		}
		answers = append(answers, a)
	}
	return answers, unchecked, true
}

// builtinAnswer is the operator's own findings, as the built-in informer's.
func builtinAnswer(in precheck.Input) updatestatus.Answer {
	return updatestatus.Answer{Informer: updatestatus.BuiltinInformer, Insights: precheck.Run(in)}
}

// workerPools are the names of the pools whose findings have a place of
// their own, and the pool of each node: the worker MachineConfigPools, or
// on a hosted control plane the nodes' NodePools.
func (c *Controller) workerPools(cluster clusterState) ([]string, map[string]string) {
	if c.topology == hosted.Hosted {
		nodePools := precheck.NodePoolsOfNodes(cluster.nodes)
		return slices.Sorted(maps.Keys(set(maps.Values(nodePools)))), nodePools
	}
	var out []string
	for _, p := range cluster.pools {
		if nodes.ScopeType(p.Name) == insightsv1alpha1.ScopeTypeWorkerPool {
			out = append(out, p.Name)
		}
	}
	return out, precheck.NodePools(cluster.nodes, cluster.pools)
}

func set(values iter.Seq[string]) map[string]bool {
	out := map[string]bool{}
	for v := range values {
		out[v] = true
	}
	return out
}

// alertsCache reads the alerts at most every alertsMaxAge.
type alertsCache struct {
	source alerts.Source
	clock  clock.PassiveClock

	mu     sync.Mutex
	readAt time.Time
	alerts []alerts.Alert
	err    error
}

func newAlertsCache(source alerts.Source, clock clock.PassiveClock) *alertsCache {
	return &alertsCache{source: source, clock: clock}
}

// errNoAlertsAddress is why no alerts are read by an operator told not to:
// the pre-checks say so, rather than pass an alert check that did not run.
var errNoAlertsAddress = errors.New("the operator has no address to read the alerts from (its --alerts-url is empty)")

// read returns the firing alerts, or why they were not read.
func (a *alertsCache) read(ctx context.Context) ([]alerts.Alert, error) {
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

// StripAPIRequestCount keeps of an APIRequestCount what the pre-checks
// read, to cache: the last 24 hours' requests by user and verb of a
// resource to be removed, the totals of the others. A cluster has hundreds
// of them, each with up to 24 hours of requests by node and user.
func StripAPIRequestCount(obj any) (any, error) {
	c, ok := obj.(*apiserverv1.APIRequestCount)
	if !ok {
		return obj, nil
	}
	c.ManagedFields = nil
	c.Status.Conditions = nil
	c.Status.CurrentHour = apiserverv1.PerResourceAPIRequestLog{}
	if c.Status.RemovedInRelease == "" {
		c.Status.Last24h = nil
	}
	for h := range c.Status.Last24h {
		for n := range c.Status.Last24h[h].ByNode {
			for u := range c.Status.Last24h[h].ByNode[n].ByUser {
				c.Status.Last24h[h].ByNode[n].ByUser[u].UserAgent = ""
			}
		}
	}
	return c, nil
}
