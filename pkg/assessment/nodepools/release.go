package nodepools

import (
	"fmt"

	"github.com/blang/semver/v4"

	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// release is a Kubernetes release as a kubelet or the control plane reports
// it, build metadata aside ("v1.31.6+a1b2c3d" is release 1.31.6).
type release struct {
	version semver.Version
	ok      bool
}

func releaseOf(version string) release {
	v, err := hosted.KubeletMinor(version)
	if err != nil {
		return release{}
	}
	v.Build = nil
	return release{version: v, ok: true}
}

// skewNote names a node's kubelet and how far it runs behind the control
// plane, for the node's one-line message.
func skewNote(kubelet string, controlPlane release, controlPlaneVersion string) string {
	k := releaseOf(kubelet)
	switch {
	case kubelet == "":
		return "The kubelet has not reported its version"
	case !k.ok || !controlPlane.ok:
		return "kubelet " + kubelet
	case k.version.GTE(controlPlane.version):
		return fmt.Sprintf("kubelet %s, the control plane's release", kubelet)
	}
	return fmt.Sprintf("kubelet %s, %s", kubelet, behindNote(k, controlPlane, controlPlaneVersion))
}

// behindNote says how far release k runs behind the control plane's.
func behindNote(k, controlPlane release, controlPlaneVersion string) string {
	minors := int(controlPlane.version.Minor) - int(k.version.Minor)
	switch {
	case k.version.Major != controlPlane.version.Major || minors < 0:
		return "behind the control plane's " + controlPlaneVersion
	case minors == 0:
		return "an older patch release than the control plane's " + controlPlaneVersion
	case minors == 1:
		return "1 minor release behind the control plane's " + controlPlaneVersion
	}
	return fmt.Sprintf("%d minor releases behind the control plane's %s", minors, controlPlaneVersion)
}
