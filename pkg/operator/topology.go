package operator

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// topologyRetry is how often the operator asks again for the
// Infrastructure when the API server could not answer.
const topologyRetry = 5 * time.Second

// readTopology tells how the cluster's control plane runs from its
// Infrastructure, which never changes it: once per process. Without an
// Infrastructure (a plain Kubernetes cluster) the control plane is the
// cluster's own. While the API server cannot answer it asks again, as
// every controller's choice depends on the answer; it returns ctx's error
// if ctx ends first.
func (s *starter) readTopology(ctx context.Context) (hosted.Topology, error) {
	var topology hosted.Topology
	err := wait.PollUntilContextCancel(ctx, topologyRetry, true, func(ctx context.Context) (bool, error) {
		infra, err := s.clients.config.ConfigV1().Infrastructures().Get(ctx, names.Infrastructure, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			topology = hosted.Standalone
			klog.InfoS("The cluster has no Infrastructure: following a control plane of its own", "infrastructure", names.Infrastructure)
			return true, nil
		case err != nil:
			klog.InfoS("Cannot read the Infrastructure yet: the control plane's topology decides what the operator follows", "err", err)
			return false, nil
		}
		topology = hosted.TopologyOf(infra)
		klog.InfoS("Read the cluster's topology", "topology", topology, "controlPlaneTopology", infra.Status.ControlPlaneTopology)
		return true, nil
	})
	return topology, err
}
