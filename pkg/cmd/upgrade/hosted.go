package upgrade

import (
	"context"
	"fmt"
	"io"

	configv1 "github.com/openshift/api/config/v1"
	configclient "github.com/openshift/client-go/config/clientset/versioned"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/planview"
)

// topology reads how the cluster's control plane runs from its
// Infrastructure; a cluster without one (plain Kubernetes) runs its own.
// When the Infrastructure cannot be read the command stops: writing a
// desiredUpdate on a hosted cluster would be erased without a word.
func topology(ctx context.Context, client configclient.Interface) (hosted.Topology, error) {
	infra, err := client.ConfigV1().Infrastructures().Get(ctx, names.Infrastructure, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return hosted.Standalone, nil
	case err != nil:
		return "", output.OneLine(fmt.Errorf("reading Infrastructure %s, which says whether the control plane is hosted: %w", names.Infrastructure, err))
	}
	return hosted.TopologyOf(infra), nil
}

// releaseImage is the pull spec the cluster is offered for target, from
// status.availableUpdates or status.conditionalUpdates.
func releaseImage(cv *configv1.ClusterVersion, target string) string {
	for _, r := range cv.Status.AvailableUpdates {
		if r.Version == target && r.Image != "" {
			return r.Image
		}
	}
	for _, u := range cv.Status.ConditionalUpdates {
		if u.Release.Version == target && u.Release.Image != "" {
			return u.Release.Image
		}
	}
	return ""
}

// explainHosted says how a hosted cluster is updated to target, and returns
// the refusal.
//
// On a hosted control plane the hosted-cluster-config-operator sets the
// ClusterVersion's spec.desiredUpdate to nil on every reconcile
// (openshift/hypershift control-plane-operator/hostedclusterconfigoperator/
// controllers/resources/resources.go, reconcileClusterVersion), so the
// command writes nothing: the cluster-version operator would never see it.
// The control plane follows the HostedCluster's spec.release.image on the
// management cluster (api/hypershift/v1beta1/hostedcluster_types.go,
// HostedClusterSpec.Release and Release.Image; docs/content/how-to/
// upgrades.md), whose name and namespace the hosted cluster cannot see.
// ROSA with hosted control planes updates it through OCM: its rosa CLI
// requires --control-plane for such a cluster and schedules a control plane
// upgrade policy to --version (openshift/rosa cmd/upgrade/cluster/cmd.go).
// NodePools are updated apart, each by its own spec.release
// (api/hypershift/v1beta1/nodepool_types.go NodePoolSpec.Release).
func explainHosted(out io.Writer, cv *configv1.ClusterVersion, target string) error {
	image := releaseImage(cv, target)
	if image == "" {
		fmt.Fprintf(out, "%s is not an update offered to this cluster. %s\n", target, planview.Offers(cv))
		image = fmt.Sprintf("<pull spec of the %s release image>", target)
	}
	fmt.Fprintf(out, `This cluster's control plane is hosted (Infrastructure %s: controlPlaneTopology External). The
hosted-cluster-config-operator resets the ClusterVersion's spec.desiredUpdate, so an update requested here
would be erased: the control plane is updated from the management cluster, through its HostedCluster's
spec.release.image:

  oc patch hostedcluster/<hosted cluster name> -n <hosted cluster namespace> --type=merge -p '{"spec":{"release":{"image":"%s"}}}'

On ROSA with hosted control planes, through OpenShift Cluster Manager:

  rosa upgrade cluster -c <cluster name> --control-plane --version %s

The NodePools are updated separately, each through its own spec.release.image, after the control plane.
`, names.Infrastructure, image, target)
	return fmt.Errorf("refusing to update to %s: the control plane is hosted, and is updated from the management cluster as above", target)
}
