package node

import (
	"context"
	"fmt"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/controllers/healthinsights"
	"github.com/update-insights/update-insights-operator/pkg/controllers/queue"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

// syncNode brings a node's insight and health insights up to date, and
// queues its pool when what the pool counts of the node changed.
func (c *Controller) syncNode(ctx context.Context, syncCtx factory.SyncContext, name string) error {
	key := nodeKeyPrefix + name
	node, err := c.nodes.Get(name)
	if apierrors.IsNotFound(err) {
		node, err = nil, nil
	}
	if err != nil {
		return err
	}
	insight, err := c.nodeInsights.Get(name)
	if apierrors.IsNotFound(err) {
		insight, err = nil, nil
	}
	if err != nil {
		return err
	}
	s, err := c.state()
	if err != nil {
		return err
	}

	var pool *machineconfigurationv1.MachineConfigPool
	if node != nil {
		pool = s.pools.Of(node.Labels)
	}
	if pool == nil {
		return c.deleteNodeInsight(ctx, syncCtx, name, insight)
	}

	var previous *insightsv1alpha1.NodeProgressInsightStatus
	if insight != nil {
		previous = &insight.Status
	}
	a := assess(s, node, pool, c.perNode.Expected(pool.Name), previous)

	if insight == nil {
		created, err := c.client.NodeProgressInsights().Create(ctx, &insightsv1alpha1.NodeProgressInsight{
			ObjectMeta: metav1.ObjectMeta{Name: name},
		}, metav1.CreateOptions{})
		if queue.RequeueIfRaced(syncCtx, key, err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("creating NodeProgressInsight %s: %w", name, err)
		}
		klog.V(4).InfoS("Created NodeProgressInsight", "name", name)
		insight = created
	}

	if !apiequality.Semantic.DeepEqual(insight.Status, a.Status) {
		updated := insight.DeepCopy()
		updated.Status = a.Status
		written, err := c.client.NodeProgressInsights().UpdateStatus(ctx, updated, metav1.UpdateOptions{})
		if queue.RequeueIfRaced(syncCtx, key, err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("writing the status of NodeProgressInsight %s: %w", name, err)
		}
		if a.Finished > 0 {
			c.perNode.Observe(pool.Name, a.Finished)
		}
		if countedDifferently(previous, &a.Status) {
			syncCtx.Queue().Add(poolKeyPrefix + pool.Name)
			if previous != nil && previous.PoolResource.Name != pool.Name {
				syncCtx.Queue().Add(poolKeyPrefix + previous.PoolResource.Name)
			}
		}
		klog.V(4).InfoS("Updated NodeProgressInsight", "name", name, "phase", meta.FindStatusCondition(a.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating).Reason)
		insight = written
	}

	healthInsights, next := health.ForNode(&a, s.now)
	err = c.health.Sync(ctx, healthinsights.OwnerReference("NodeProgressInsight", insight.Name, insight.UID), healthInsights)
	if queue.RequeueIfRaced(syncCtx, key, err) {
		return nil
	}
	if err != nil {
		return err
	}
	if a.Status.EstimatedToComplete != nil {
		syncCtx.Queue().AddAfter(key, estimateRefresh)
	}
	if !next.IsZero() {
		syncCtx.Queue().AddAfter(key, next.Sub(s.now))
	}
	return nil
}

func assess(s *state, node *corev1.Node, pool *machineconfigurationv1.MachineConfigPool, perNode time.Duration, previous *insightsv1alpha1.NodeProgressInsightStatus) nodes.Assessment {
	return nodes.Assess(nodes.Input{
		Node:     node,
		Pool:     pool,
		Versions: s.versions,
		Target:   s.target,
		Previous: previous,
		PerNode:  perNode,
		Now:      s.now,
	})
}

// countedDifferently says whether the pool insight would count the node
// differently: another pool, phase, availability or degradation.
func countedDifferently(previous, current *insightsv1alpha1.NodeProgressInsightStatus) bool {
	if previous == nil || previous.PoolResource != current.PoolResource {
		return true
	}
	for _, t := range []string{insightsv1alpha1.NodeProgressInsightUpdating, insightsv1alpha1.NodeProgressInsightDegraded, insightsv1alpha1.NodeProgressInsightAvailable} {
		p, c := meta.FindStatusCondition(previous.Conditions, t), meta.FindStatusCondition(current.Conditions, t)
		if (p == nil) != (c == nil) || p != nil && (p.Status != c.Status || p.Reason != c.Reason) {
			return true
		}
	}
	return false
}

// deleteNodeInsight removes the insight of a node that is gone or in no
// pool, with its health insights, and has its former pool recounted.
func (c *Controller) deleteNodeInsight(ctx context.Context, syncCtx factory.SyncContext, name string, insight *insightsv1alpha1.NodeProgressInsight) error {
	if insight == nil {
		return nil
	}
	// Garbage collection would delete the health insights with their
	// owner, but only eventually; a node that comes back in the meantime
	// must not inherit them.
	if err := c.health.Sync(ctx, healthinsights.OwnerReference("NodeProgressInsight", name, insight.UID), nil); err != nil {
		return err
	}
	err := c.client.NodeProgressInsights().Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &insight.UID}})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting NodeProgressInsight %s: %w", name, err)
	}
	syncCtx.Queue().Add(poolKeyPrefix + insight.Status.PoolResource.Name)
	klog.V(2).InfoS("Deleted NodeProgressInsight of a node gone or in no pool", "name", name)
	return nil
}

// syncPool brings a pool's insight and health insights up to date from a
// fresh assessment of its nodes.
func (c *Controller) syncPool(ctx context.Context, syncCtx factory.SyncContext, name string) error {
	key := poolKeyPrefix + name
	insight, err := c.poolInsights.Get(name)
	if apierrors.IsNotFound(err) {
		insight, err = nil, nil
	}
	if err != nil {
		return err
	}
	s, err := c.state()
	if err != nil {
		return err
	}
	pool := s.pools.Get(name)
	if pool == nil {
		return c.deletePoolInsight(ctx, name, insight)
	}

	allNodes, err := c.nodes.List(labels.Everything())
	if err != nil {
		return err
	}
	// One expected per-node time for the whole pool, not one lookup per node.
	perNode := c.perNode.Expected(name)
	var members []*insightsv1alpha1.NodeProgressInsightStatus
	for _, node := range allNodes {
		if p := s.pools.Of(node.Labels); p == nil || p.Name != name {
			continue
		}
		var previous *insightsv1alpha1.NodeProgressInsightStatus
		if i, err := c.nodeInsights.Get(node.Name); err == nil {
			previous = &i.Status
		}
		a := assess(s, node, pool, perNode, previous)
		members = append(members, &a.Status)
	}

	var previous *insightsv1alpha1.MachineConfigPoolProgressInsightStatus
	if insight != nil {
		previous = &insight.Status
	}
	status := nodes.Pool(pool, members, previous, s.now)

	if insight == nil {
		created, err := c.client.MachineConfigPoolProgressInsights().Create(ctx, &insightsv1alpha1.MachineConfigPoolProgressInsight{
			ObjectMeta: metav1.ObjectMeta{Name: name},
		}, metav1.CreateOptions{})
		if queue.RequeueIfRaced(syncCtx, key, err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("creating MachineConfigPoolProgressInsight %s: %w", name, err)
		}
		klog.V(2).InfoS("Created MachineConfigPoolProgressInsight", "name", name)
		insight = created
	}
	if !apiequality.Semantic.DeepEqual(insight.Status, status) {
		updated := insight.DeepCopy()
		updated.Status = status
		written, err := c.client.MachineConfigPoolProgressInsights().UpdateStatus(ctx, updated, metav1.UpdateOptions{})
		if queue.RequeueIfRaced(syncCtx, key, err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("writing the status of MachineConfigPoolProgressInsight %s: %w", name, err)
		}
		klog.V(2).InfoS("Updated MachineConfigPoolProgressInsight", "name", name, "assessment", status.Assessment, "completion", status.CompletionPercent)
		insight = written
	}
	err = c.health.Sync(ctx, healthinsights.OwnerReference("MachineConfigPoolProgressInsight", insight.Name, insight.UID), health.ForPool(&status))
	if queue.RequeueIfRaced(syncCtx, key, err) {
		return nil
	}
	return err
}

func (c *Controller) deletePoolInsight(ctx context.Context, name string, insight *insightsv1alpha1.MachineConfigPoolProgressInsight) error {
	if insight == nil {
		return nil
	}
	if err := c.health.Sync(ctx, healthinsights.OwnerReference("MachineConfigPoolProgressInsight", name, insight.UID), nil); err != nil {
		return err
	}
	err := c.client.MachineConfigPoolProgressInsights().Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &insight.UID}})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting MachineConfigPoolProgressInsight %s: %w", name, err)
	}
	klog.V(2).InfoS("Deleted MachineConfigPoolProgressInsight of a pool gone or without a valid node selector", "name", name)
	return nil
}
