package node

import (
	"context"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// syncNode brings a node's insight and health insights up to date, and
// queues its pool when what the pool counts of the node changed.
func (c *Controller) syncNode(ctx context.Context, syncCtx factory.SyncContext, name string) error {
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
		c.drains.Forget(name)
		return c.deleteNodeInsight(ctx, syncCtx, insight)
	}

	var previous *insightsv1alpha1.NodeProgressInsightStatus
	if insight != nil {
		previous = &insight.Status
	}
	in := s.input(node, pool, c.perNode.Expected(pool.Name), previous)
	in.Drain = c.drains.Objects(node)
	if in.Image, err = c.imageMode.of(pool); err != nil {
		return err
	}
	if in.MachineConfigNode, err = c.machineConfigNode(name); err != nil {
		return err
	}
	a, healthInsights, next := nodes.Assess(in)
	insight, written, err := c.nodeWriter.WriteStatus(ctx, metav1.ObjectMeta{Name: name}, insight, a.Status)
	if err != nil {
		return err
	}
	if written {
		if a.Finished > 0 {
			c.perNode.Observe(pool.Name, a.Finished)
		}
		if countedDifferently(previous, &a.Status) {
			syncCtx.Queue().Add(poolKeyPrefix + pool.Name)
			if previous != nil && previous.PoolResource.Name != pool.Name {
				syncCtx.Queue().Add(poolKeyPrefix + previous.PoolResource.Name)
			}
		}
	}

	if err := c.health.Sync(ctx, c.nodeWriter.OwnerReference(insight), healthInsights); err != nil {
		return err
	}
	if !next.IsZero() {
		syncCtx.Queue().AddAfter(nodeKeyPrefix+name, next.Sub(s.now))
	}
	return nil
}

func (s *state) input(node *corev1.Node, pool *machineconfigurationv1.MachineConfigPool, perNode time.Duration, previous *insightsv1alpha1.NodeProgressInsightStatus) nodes.Input {
	return nodes.Input{
		Node:      node,
		Pool:      pool,
		Versions:  s.versions,
		Target:    s.target,
		Migrating: s.migrating,
		Previous:  previous,
		PerNode:   perNode,
		Now:       s.now,
	}
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
func (c *Controller) deleteNodeInsight(ctx context.Context, syncCtx factory.SyncContext, insight *insightsv1alpha1.NodeProgressInsight) error {
	if insight == nil {
		return nil
	}
	if err := c.nodeWriter.Delete(ctx, insight, c.health); err != nil {
		return err
	}
	syncCtx.Queue().Add(poolKeyPrefix + insight.Status.PoolResource.Name)
	return nil
}

// syncPool brings a pool's insight and health insights up to date from a
// fresh assessment of its nodes.
func (c *Controller) syncPool(ctx context.Context, syncCtx factory.SyncContext, name string) error {
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
		if insight == nil {
			return nil
		}
		return c.poolWriter.Delete(ctx, insight, c.health)
	}

	// One expected per-node time and one image-mode state for the whole
	// pool, not one lookup per node.
	perNode := c.perNode.Expected(name)
	image, err := c.imageMode.of(pool)
	if err != nil {
		return err
	}
	var members []*nodes.Assessment
	for _, nodeName := range c.membership.nodesIn(name) {
		node, err := c.nodes.Get(nodeName)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return err
		}
		var previous *insightsv1alpha1.NodeProgressInsightStatus
		if i, err := c.nodeInsights.Get(node.Name); err == nil {
			previous = &i.Status
		}
		in := s.input(node, pool, perNode, previous)
		in.Image = image
		if in.MachineConfigNode, err = c.machineConfigNode(node.Name); err != nil {
			return err
		}
		a := nodes.NodeProgress(in)
		members = append(members, &a)
	}

	var previous *insightsv1alpha1.MachineConfigPoolProgressInsightStatus
	if insight != nil {
		previous = &insight.Status
	}
	poolImage, err := c.imageMode.poolImage(s, pool, image)
	if err != nil {
		return err
	}
	status, healthInsights, next := nodes.AssessPool(pool, members, poolImage, previous, s.now)

	insight, _, err = c.poolWriter.WriteStatus(ctx, metav1.ObjectMeta{Name: name}, insight, status)
	if err != nil {
		return err
	}
	if err := c.health.Sync(ctx, c.poolWriter.OwnerReference(insight), healthInsights); err != nil {
		return err
	}
	if !next.IsZero() {
		syncCtx.Queue().AddAfter(poolKeyPrefix+name, next.Sub(s.now))
	}
	return nil
}
