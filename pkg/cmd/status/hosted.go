package status

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/update-insights/update-insights-operator/pkg/hostedview"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/statusview/cluster"
)

// hosted says whether a hosted clusters' view is asked for, and refuses
// flags that view does not take.
func (o *options) hosted() (bool, error) {
	if !o.hostedClusters && o.hostedCluster == "" {
		return false, nil
	}
	switch {
	case o.hostedClusters && o.hostedCluster != "":
		return true, errors.New("--hosted-clusters lists every hosted cluster and --hosted-cluster shows one: take one or the other")
	case o.watch:
		return true, errors.New("--hosted-clusters and --hosted-cluster print once: they do not take --watch")
	case o.details != "none":
		return true, errors.New("--hosted-clusters and --hosted-cluster show no --details: --hosted-cluster NS/NAME shows one cluster in full")
	}
	return true, nil
}

// runHosted prints the management cluster's hosted clusters, or the one
// --hosted-cluster names.
func (o *options) runHosted(cmd *cobra.Command, now time.Time, format output.Format) error {
	var namespace, name string
	if o.hostedCluster != "" {
		var ok bool
		namespace, name, ok = strings.Cut(o.hostedCluster, "/")
		if !ok || namespace == "" || name == "" || strings.Contains(name, "/") {
			return fmt.Errorf("--hosted-cluster %q: want NAMESPACE/NAME, the HostedCluster's", o.hostedCluster)
		}
	}
	in, err := o.hostedInsights(cmd)
	if err != nil {
		return err
	}
	f := hostedview.Build(in.Clusters, in.Pools, now)
	if o.hostedCluster != "" {
		c, ok := f.Find(namespace, name)
		if !ok {
			return fmt.Errorf("no hosted cluster %s/%s: neither a HostedClusterProgressInsight nor a NodePoolProgressInsight names it", namespace, name)
		}
		if format == "" {
			return hostedview.WriteCluster(cmd.OutOrStdout(), c, now)
		}
		f.Clusters = []hostedview.Cluster{*c}
		return output.Write(cmd.OutOrStdout(), f, format)
	}
	if format == "" {
		return hostedview.WriteFleet(cmd.OutOrStdout(), &f)
	}
	return output.Write(cmd.OutOrStdout(), f, format)
}

// hostedInsights reads the hosted clusters' insights from --from, or else
// from the cluster.
func (o *options) hostedInsights(cmd *cobra.Command) (*hostedview.Insights, error) {
	if o.from != "" {
		return hostedview.ReadInsights(o.from)
	}
	c, err := o.clients()
	if err != nil {
		return nil, err
	}
	return cluster.ListHosted(cmd.Context(), c)
}
