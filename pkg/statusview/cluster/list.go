// Package cluster reads the insights that status renders from a cluster:
// once, or following their changes to redraw the status as they happen. It
// is apart from pkg/statusview so that rendering stays pure (insights and a
// clock in, text out), and apart from the command so that it is tested
// against fake clients rather than through flags.
package cluster

import (
	"context"
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// Clients read the cluster: the insights, the operator's own
// ClusterOperator, and its leader Lease.
type Clients struct {
	Insights versioned.Interface
	Config   configclient.Interface
	Kube     kubernetes.Interface
}

// NewClients returns the Clients of the cluster that config reaches.
func NewClients(config *rest.Config) (Clients, error) {
	insights, err := versioned.NewForConfig(config)
	if err != nil {
		return Clients{}, err
	}
	configClient, err := configclient.NewForConfig(config)
	if err != nil {
		return Clients{}, err
	}
	kube, err := kubernetes.NewForConfig(config)
	if err != nil {
		return Clients{}, err
	}
	return Clients{Insights: insights, Config: configClient, Kube: kube}, nil
}

// List reads the insights from the cluster. A cluster that does not serve
// the ClusterVersion insights has no operator to tell of the update; one
// that does not serve another kind (an older operator) has none of it.
func List(ctx context.Context, cs Clients) (*statusview.Insights, error) {
	c := cs.Insights.InsightsV1alpha1()
	in := &statusview.Insights{}
	cvs, err := c.ClusterVersionProgressInsights().List(ctx, metav1.ListOptions{})
	if apierrors.IsNotFound(err) {
		return nil, statusview.ErrNoClusterVersion
	}
	if err != nil {
		return nil, listError("ClusterVersionProgressInsights", err)
	}
	in.ClusterVersions = pointers(cvs.Items)

	cos, err := c.ClusterOperatorProgressInsights().List(ctx, metav1.ListOptions{})
	if err = ignoreNotServed(err); err != nil {
		return nil, listError("ClusterOperatorProgressInsights", err)
	}
	if cos != nil {
		in.ClusterOperators = pointers(cos.Items)
	}
	pools, err := c.MachineConfigPoolProgressInsights().List(ctx, metav1.ListOptions{})
	if err = ignoreNotServed(err); err != nil {
		return nil, listError("MachineConfigPoolProgressInsights", err)
	}
	if pools != nil {
		in.MachineConfigPools = pointers(pools.Items)
	}
	nodes, err := c.NodeProgressInsights().List(ctx, metav1.ListOptions{})
	if err = ignoreNotServed(err); err != nil {
		return nil, listError("NodeProgressInsights", err)
	}
	if nodes != nil {
		in.Nodes = pointers(nodes.Items)
	}
	health, err := c.UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	if err = ignoreNotServed(err); err != nil {
		return nil, listError("UpdateHealthInsights", err)
	}
	if health != nil {
		in.Health = pointers(health.Items)
	}
	updateStatus, err := c.UpdateStatuses().Get(ctx, insightsv1alpha1.UpdateStatusName, metav1.GetOptions{})
	switch {
	case err == nil:
		in.UpdateStatus = updateStatus
	case apierrors.IsNotFound(err) || apierrors.IsForbidden(err):
		// An operator that does not aggregate informers yet, or a reader
		// who may not see them: the status without the informers.
	default:
		return nil, output.OneLine(fmt.Errorf("reading UpdateStatus %s: %w", insightsv1alpha1.UpdateStatusName, err))
	}
	if in.Operator, err = ownClusterOperator(ctx, cs.Config); err != nil {
		return nil, err
	}
	in.Lease = ReadLease(ctx, cs.Kube)
	return in, nil
}

// ReadLease reads the operator's leader Lease. What keeps it from being
// read (a user's RBAC, a server error) is no error of status: the status
// is told, with a note that whether the operator runs is not known.
func ReadLease(ctx context.Context, client kubernetes.Interface) *statusview.LeaseReading {
	lease, err := client.CoordinationV1().Leases(names.OwnNamespace).Get(ctx, names.OwnLease, metav1.GetOptions{})
	switch {
	case err == nil:
		return &statusview.LeaseReading{Lease: lease}
	case apierrors.IsNotFound(err):
		return &statusview.LeaseReading{}
	default:
		return &statusview.LeaseReading{Err: output.OneLine(err).Error()}
	}
}

// ownClusterOperator reads the operator's ClusterOperator. Without one (the
// operator runs outside a payload), or without the right to read it, the
// status is told without what it would add.
func ownClusterOperator(ctx context.Context, client configclient.Interface) (*configv1.ClusterOperator, error) {
	co, err := client.ConfigV1().ClusterOperators().Get(ctx, names.OwnClusterOperator, metav1.GetOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsForbidden(err) {
		return nil, nil
	}
	if err != nil {
		return nil, output.OneLine(fmt.Errorf("reading ClusterOperator %s: %w", names.OwnClusterOperator, err))
	}
	return co, nil
}

func ignoreNotServed(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func listError(resource string, err error) error {
	return output.OneLine(fmt.Errorf("listing %s: %w", resource, err))
}

func pointers[T any](items []T) []*T {
	out := make([]*T, 0, len(items))
	for i := range items {
		out = append(out, &items[i])
	}
	return out
}
