package nodepool

import (
	"context"

	"github.com/openshift/library-go/pkg/controller/factory"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodepools"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// syncNode queues the NodePool of a node, and the one its insight named if
// it moved; it deletes the insight of a node that is gone or in no NodePool
// (a node that has just joined, before the hosted-cluster-config-operator
// labels it).
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
	if insight != nil && !hosted.IsNodePool(&insight.Status.PoolResource) {
		// Not a NodePool's node insight: not this controller's.
		insight = nil
	}

	pool := ""
	if node != nil {
		pool = node.Labels[hosted.NodePoolLabel]
	}
	if pool != "" {
		syncCtx.Queue().Add(poolKeyPrefix + pool)
	} else {
		// Gone, or in no NodePool: no NodePool's sync judges its drain.
		c.drains.Forget(name)
	}
	if insight == nil || insight.Status.PoolResource.Name == pool {
		return nil
	}
	// The node left the NodePool its insight names: that NodePool counts
	// it no more.
	syncCtx.Queue().Add(poolKeyPrefix + insight.Status.PoolResource.Name)
	if pool != "" {
		// Its new NodePool's sync rewrites the insight.
		return nil
	}
	return c.nodeWriter.Delete(ctx, insight, c.health)
}

// syncPool assesses a NodePool with all its nodes and brings their insights
// and health insights up to date; it deletes the insight of a NodePool
// that has no node left.
func (c *Controller) syncPool(ctx context.Context, syncCtx factory.SyncContext, name string) error {
	insight, err := c.poolInsights.Get(name)
	if apierrors.IsNotFound(err) {
		insight, err = nil, nil
	}
	if err != nil {
		return err
	}
	// A MachineConfigPool's insight of the same name is not this
	// controller's to write or delete; the NodePool's nodes still get
	// theirs.
	foreign := insight != nil && !hosted.IsNodePool(insight.Status.Resource)
	if foreign {
		klog.InfoS("A MachineConfigPool's insight has the name of a NodePool: the NodePool gets no pool insight", "nodePool", name)
		insight = nil
	}
	objs, err := c.nodeIndexer.ByIndex(poolIndex, name)
	if err != nil {
		return err
	}
	members := make([]*corev1.Node, 0, len(objs))
	for _, o := range objs {
		if n, ok := o.(*corev1.Node); ok {
			members = append(members, n)
		}
	}
	if len(members) == 0 {
		if insight == nil || foreign {
			return nil
		}
		return c.poolWriter.Delete(ctx, insight, c.health)
	}

	now := c.clock.Now()
	// Each node the drainer is asked to drain has its pods followed, until
	// a sync sees the drain applied.
	drained := map[string]*nodes.DrainObjects{}
	for _, n := range members {
		if objs := c.drains.Objects(n); objs != nil {
			drained[n.Name] = objs
		}
	}
	in := nodepools.Input{NodePool: name, Nodes: members, ControlPlane: c.controlPlaneKubernetes(), Now: now, PerNode: c.perNode.Expected(name), Drains: drained,
		PreviousNode: func(node string) *insightsv1alpha1.NodeProgressInsightStatus {
			if i, err := c.nodeInsights.Get(node); err == nil {
				return &i.Status
			}
			return nil
		}}
	if insight != nil {
		in.PreviousPool = &insight.Status
	}
	r := nodepools.Assess(in)

	// One node's failed write does not keep the others', or the
	// NodePool's, from being written.
	var errs []error
	for i := range r.Nodes {
		err := c.writeNode(ctx, &r.Nodes[i])
		if err == nil && r.Nodes[i].Finished > 0 {
			// Once written, the next sync does not see it finish again.
			c.perNode.Observe(name, r.Nodes[i].Finished)
		}
		errs = append(errs, err)
	}
	if !foreign {
		errs = append(errs, c.writePool(ctx, insight, &r))
	}
	if !r.Next.IsZero() {
		syncCtx.Queue().AddAfter(poolKeyPrefix+name, r.Next.Sub(now))
	}
	return utilerrors.NewAggregate(errs)
}

func (c *Controller) writePool(ctx context.Context, current *insightsv1alpha1.MachineConfigPoolProgressInsight, r *nodepools.Result) error {
	insight, _, err := c.poolWriter.WriteStatus(ctx, metav1.ObjectMeta{Name: r.Pool.Name}, current, r.Pool)
	if err != nil {
		return err
	}
	return c.health.Sync(ctx, c.poolWriter.OwnerReference(insight), r.PoolHealth)
}

func (c *Controller) writeNode(ctx context.Context, r *nodepools.NodeResult) error {
	current, err := c.nodeInsights.Get(r.Status.Name)
	if apierrors.IsNotFound(err) {
		current, err = nil, nil
	}
	if err != nil {
		return err
	}
	insight, _, err := c.nodeWriter.WriteStatus(ctx, metav1.ObjectMeta{Name: r.Status.Name}, current, r.Status)
	if err != nil {
		return err
	}
	return c.health.Sync(ctx, c.nodeWriter.OwnerReference(insight), r.Health)
}
