package hostedclusters

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	clusterassessment "github.com/update-insights/update-insights-operator/pkg/assessment/hostedclusters"
	poolassessment "github.com/update-insights/update-insights-operator/pkg/assessment/hostednodepools"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// syncCluster assesses the HostedCluster namespace/name and its NodePools,
// writes their insights, and deletes those of NodePools, or of a cluster,
// that are gone.
func (c *Controller) syncCluster(ctx context.Context, namespace, name string) error {
	obj, exists, err := c.caches.hostedClusters.GetByKey(namespace + "/" + name)
	if err != nil {
		return err
	}
	if !exists {
		return c.deleteCluster(ctx, namespace, name)
	}
	hc, ok := obj.(*hypershift.HostedCluster)
	if !ok {
		return c.writeUnreadable(ctx, obj)
	}
	now := c.clock.Now()
	var errs []error
	var pools []insightsv1alpha1.NodePoolProgressInsightStatus
	kept := map[string]bool{}
	nodePools, err := c.caches.nodePools.ByIndex(byCluster, namespace+"/"+name)
	if err != nil {
		return err
	}
	var unreadable []*hypershift.Malformed
	for _, o := range nodePools {
		np, ok := o.(*hypershift.NodePool)
		if !ok {
			// Its insight's schema needs what cannot be read (its
			// upgrade type): the cluster's insight says it is left out.
			unreadable = append(unreadable, malformed([]any{o})...)
			continue
		}
		kept[np.Name] = true
		status, err := c.syncNodePool(ctx, hc, np, now)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		pools = append(pools, status)
	}
	if err := c.deleteNodePools(ctx, namespace, name, kept); err != nil {
		errs = append(errs, err)
	}

	components, err := c.components(hc)
	if err != nil {
		return err
	}
	current, err := c.clusterInsights.HostedClusterProgressInsights(namespace).Get(name)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	var previous *insightsv1alpha1.HostedClusterProgressInsightStatus
	if current != nil {
		previous = &current.Status
	}
	desired := clusterassessment.Assess(clusterassessment.Input{
		HostedCluster: hc, Components: components, NodePools: pools, Previous: previous, Now: now,
	})
	desired.Problems = withUnreadableNodePools(desired.Problems, unreadable, previous, now)
	writer := insightwrite.HostedClusterProgressInsights(c.client, namespace).ChangedWhen(clusterassessment.Changed)
	if _, _, err := writer.WriteStatus(ctx, insightMeta(hc.ObjectMeta, "HostedCluster"), current, desired); err != nil {
		errs = append(errs, c.refusedWrite(err, "HostedClusterProgressInsight", namespace, name))
	}
	return errors.Join(errs...)
}

// syncNodePool assesses np with the Cluster API objects annotated with it
// and writes its insight, returning the status assessed.
func (c *Controller) syncNodePool(ctx context.Context, hc *hypershift.HostedCluster, np *hypershift.NodePool, now time.Time) (insightsv1alpha1.NodePoolProgressInsightStatus, error) {
	key := np.Namespace + "/" + np.Name
	in := poolassessment.Input{NodePool: np, HostedCluster: hc, Now: now}
	unreadable, err := c.nodePoolObjects(key, &in)
	if err != nil {
		return insightsv1alpha1.NodePoolProgressInsightStatus{}, err
	}
	current, err := c.poolInsights.NodePoolProgressInsights(np.Namespace).Get(np.Name)
	if err != nil && !apierrors.IsNotFound(err) {
		return insightsv1alpha1.NodePoolProgressInsightStatus{}, err
	}
	if current != nil {
		in.Previous = &current.Status
	}
	desired := poolassessment.Assess(in)
	desired.Problems = withUnreadable(desired.Problems, unreadable, now)
	writer := insightwrite.NodePoolProgressInsights(c.client, np.Namespace).ChangedWhen(poolassessment.Changed)
	if _, _, err := writer.WriteStatus(ctx, insightMeta(np.ObjectMeta, "NodePool"), current, desired); err != nil {
		return desired, c.refusedWrite(err, "NodePoolProgressInsight", np.Namespace, np.Name)
	}
	return desired, nil
}

// nodePoolObjects fills in the MachineDeployment, MachineSets and Machines
// annotated with the NodePool key, and returns those that could not be
// read.
func (c *Controller) nodePoolObjects(key string, in *poolassessment.Input) ([]*hypershift.Malformed, error) {
	var unreadable []*hypershift.Malformed
	deployments, err := c.caches.machineDeployments.ByIndex(byNodePool, key)
	if err != nil {
		return nil, err
	}
	for _, o := range deployments {
		if md, ok := o.(*hypershift.MachineDeployment); ok {
			in.MachineDeployment = md
		}
	}
	unreadable = append(unreadable, malformed(deployments)...)
	sets, err := c.caches.machineSets.ByIndex(byNodePool, key)
	if err != nil {
		return nil, err
	}
	in.MachineSets = typed[hypershift.MachineSet](sets)
	unreadable = append(unreadable, malformed(sets)...)
	machines, err := c.caches.machines.ByIndex(byNodePool, key)
	if err != nil {
		return nil, err
	}
	in.Machines = typed[hypershift.Machine](machines)
	unreadable = append(unreadable, malformed(machines)...)
	return unreadable, nil
}

// typed keeps the objects that were read as a T, in name order: the others
// are hypershift.Malformed.
func typed[T any](objs []any) []*T {
	var out []*T
	for _, o := range objs {
		if t, ok := o.(*T); ok {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *T) int {
		return strings.Compare(any(a).(metav1.Object).GetName(), any(b).(metav1.Object).GetName())
	})
	return out
}

func malformed(objs []any) []*hypershift.Malformed {
	var out []*hypershift.Malformed
	for _, o := range objs {
		if m, ok := o.(*hypershift.Malformed); ok {
			out = append(out, m)
		}
	}
	return out
}

// components are the ControlPlaneComponents of hc's control-plane
// namespace; none where the cluster serves none, whose HyperShift judges
// no rollout by them either.
func (c *Controller) components(hc *hypershift.HostedCluster) ([]*hypershift.ControlPlaneComponent, error) {
	if c.caches.components == nil {
		return nil, nil
	}
	objs, err := c.caches.components.ByIndex(cache.NamespaceIndex, hypershift.ControlPlaneNamespace(hc.Namespace, hc.Name))
	if err != nil {
		return nil, err
	}
	return typed[hypershift.ControlPlaneComponent](objs), nil
}

// refusedWrite says which insight the API server refused, and which
// fields, so that a status the operator should never write is found.
func (c *Controller) refusedWrite(err error, kind, namespace, name string) error {
	if fields := insightwrite.InvalidFields(err); len(fields) > 0 {
		return fmt.Errorf("the API server refused %s %s/%s (fields %v): %w", kind, namespace, name, fields, err)
	}
	return err
}

// insightMeta is the metadata of the insight of object, of kind: the same
// namespace and name, and owned by the object so that garbage collection
// deletes the insight with it even while the operator does not run. The
// owner's deletion is not blocked.
func insightMeta(object metav1.ObjectMeta, kind string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Namespace: object.Namespace,
		Name:      object.Name,
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: hypershift.HostedClusters.GroupVersion().String(), Kind: kind, Name: object.Name, UID: object.UID,
		}},
	}
}

// deleteCluster deletes the insights of a HostedCluster that is gone, and
// its NodePools'.
func (c *Controller) deleteCluster(ctx context.Context, namespace, name string) error {
	var errs []error
	if err := c.deleteNodePools(ctx, namespace, name, nil); err != nil {
		errs = append(errs, err)
	}
	if current, err := c.clusterInsights.HostedClusterProgressInsights(namespace).Get(name); err == nil {
		if err := insightwrite.HostedClusterProgressInsights(c.client, namespace).Delete(ctx, current, nil); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// deleteNodePools deletes the NodePool insights of the cluster
// namespace/name whose NodePool is not kept.
func (c *Controller) deleteNodePools(ctx context.Context, namespace, name string, kept map[string]bool) error {
	insights, err := c.poolInsights.NodePoolProgressInsights(namespace).List(labels.Everything())
	if err != nil {
		return err
	}
	var errs []error
	for _, i := range insights {
		if i.Status.HostedCluster != name || kept[i.Name] {
			continue
		}
		if err := insightwrite.NodePoolProgressInsights(c.client, namespace).Delete(ctx, i, nil); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// queueOrphans queues the clusters of insights whose HostedCluster may be
// gone, which no HostedCluster's key would sync.
func (c *Controller) queueOrphans(add func(any)) error {
	clusters, err := c.clusterInsights.List(labels.Everything())
	if err != nil {
		return err
	}
	for _, i := range clusters {
		add(i.Namespace + "/" + i.Name)
	}
	pools, err := c.poolInsights.List(labels.Everything())
	if err != nil {
		return err
	}
	for _, i := range pools {
		if key, ok := insightCluster(i); ok {
			add(key)
		}
	}
	return nil
}
