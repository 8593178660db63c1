package hostedupgrade

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
)

// NodePool decides an update of np, a NodePool of hc, to target. A NodePool
// runs a release its control plane runs or ran: its pull spec is read from
// the control plane's history, and HyperShift counts a NodePool newer than
// the control plane, or more than three minors behind it, as out of the
// supported skew (hypershift-operator/controllers/nodepool/conditions.go
// supportedVersionSkewCondition).
func NodePool(np *hypershift.NodePool, hc *hypershift.HostedClusterUpdate, target string) Decision {
	var d Decision
	if np.Namespace != hc.Namespace || np.Spec.ClusterName != hc.Name {
		d.Refusals = append(d.Refusals, fmt.Sprintf("NodePool %s/%s belongs to HostedCluster %s/%s, not %s/%s", np.Namespace, np.Name, np.Namespace, np.Spec.ClusterName, hc.Namespace, hc.Name))
		return d
	}
	v := hc.Status.Version
	if v == nil {
		d.Refusals = append(d.Refusals, fmt.Sprintf("HostedCluster %s/%s has no status.version yet: the control plane's release, which bounds its NodePools', is not known", hc.Namespace, hc.Name))
		return d
	}
	image := controlPlaneImage(v, target)
	if image == "" {
		d.Refusals = append(d.Refusals, fmt.Sprintf("%s is not a release the control plane of %s/%s runs or ran (%s): a NodePool runs a release of its control plane; update the control plane first",
			target, hc.Namespace, hc.Name, controlPlaneRelease(v)))
		return d
	}
	if image == np.Spec.Release.Image {
		d.Already = true
		return d
	}
	controlPlane := controlPlaneRelease(v)
	if newer, err := hosted.CompareReleases(target, controlPlane); err == nil && newer > 0 {
		d.Refusals = append(d.Refusals, fmt.Sprintf("%s is newer than %s, the control plane's release: a NodePool cannot run ahead of its control plane", target, controlPlane))
	}
	if behind, err := hosted.ReleaseMinorsBehind(controlPlane, target); err == nil && behind > MaxNodePoolSkew {
		d.Refusals = append(d.Refusals, fmt.Sprintf("%s is %d minor releases behind %s, the control plane's release; HyperShift supports NodePools up to %d behind", target, behind, controlPlane, MaxNodePoolSkew))
	}
	if np.Status.Version != "" {
		if older, err := hosted.ReleaseMinorsBehind(np.Status.Version, target); err == nil && older > 0 {
			d.Refusals = append(d.Refusals, fmt.Sprintf("%s is a minor release older than %s, which the NodePool runs", target, np.Status.Version))
		}
	}
	if len(d.Refusals) == 0 {
		d.Image = image
	}
	return d
}

// controlPlaneRelease is the release HyperShift holds a NodePool's skew
// against: the control plane's last completed one, else its newest, else the
// one it installs (supportedVersionSkewCondition).
func controlPlaneRelease(v *hypershift.OfferedVersionStatus) string {
	if len(v.History) == 0 {
		return v.Desired.Version
	}
	for _, h := range v.History {
		if h.State == configv1.CompletedUpdate {
			return h.Version
		}
	}
	return v.History[0].Version
}

// controlPlaneImage is the pull spec of target among the releases the
// control plane completed.
func controlPlaneImage(v *hypershift.OfferedVersionStatus, target string) string {
	for _, h := range v.History {
		if h.Version == target && h.State == configv1.CompletedUpdate && h.Image != "" {
			return h.Image
		}
	}
	return ""
}
