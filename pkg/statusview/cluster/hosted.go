package cluster

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/hostedview"
)

// ErrNoHostedInsights: the cluster does not serve the hosted clusters'
// insights, so it is no management cluster this operator reports on.
var ErrNoHostedInsights = errors.New("the cluster does not serve HostedClusterProgressInsights: it is not a HyperShift management cluster the operator reports on, or its operator predates them")

// ListHosted reads the HostedCluster and NodePool insights of every
// namespace, and nothing else: the fleet's view needs no more.
func ListHosted(ctx context.Context, cs Clients) (*hostedview.Insights, error) {
	c := cs.Insights.InsightsV1alpha1()
	clusters, err := c.HostedClusterProgressInsights(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if apierrors.IsNotFound(err) {
		return nil, ErrNoHostedInsights
	}
	if err != nil {
		return nil, listError("HostedClusterProgressInsights", err)
	}
	pools, err := c.NodePoolProgressInsights(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, listError("NodePoolProgressInsights", err)
	}
	return &hostedview.Insights{Clusters: clusters.Items, Pools: pools.Items}, nil
}
