package hosted

import (
	"fmt"
	"strings"

	"github.com/blang/semver/v4"
)

// KubeletMinor parses a Kubernetes version as a kubelet reports it
// (node.status.nodeInfo.kubeletVersion, "v1.31.6+a1b2c3d" on OpenShift) or
// as the kube-apiserver ClusterOperator carries it ("1.31.6").
func KubeletMinor(version string) (semver.Version, error) {
	v, err := semver.ParseTolerant(strings.TrimPrefix(strings.TrimSpace(version), "v"))
	if err != nil {
		return semver.Version{}, fmt.Errorf("not a Kubernetes version: %q", version)
	}
	if v.Major != 1 {
		return semver.Version{}, fmt.Errorf("not a Kubernetes 1.y version: %q", version)
	}
	return v, nil
}

// MinorsBehind is how many minor releases a node's kubelet runs behind the
// control plane's Kubernetes: OpenShift moves one Kubernetes minor with each
// of its minor releases (5.0 after 4.22 included), so this is how many
// OpenShift minor releases the node's NodePool is behind. Negative when the
// node runs ahead.
func MinorsBehind(controlPlane, kubelet string) (int, error) {
	cp, err := KubeletMinor(controlPlane)
	if err != nil {
		return 0, err
	}
	k, err := KubeletMinor(kubelet)
	if err != nil {
		return 0, err
	}
	return int(cp.Minor) - int(k.Minor), nil
}

// SameRelease says whether a kubelet runs the control plane's Kubernetes
// release, build metadata aside.
func SameRelease(controlPlane, kubelet string) bool {
	cp, err := KubeletMinor(controlPlane)
	if err != nil {
		return false
	}
	k, err := KubeletMinor(kubelet)
	if err != nil {
		return false
	}
	cp.Build, k.Build = nil, nil
	return cp.Equals(k)
}

// v5MinorOffset is the 4.y minor OpenShift 5.0 counts as
// (support/supportedversion/version.go v5MinorOffset).
const v5MinorOffset = 23

// ReleaseMinorsBehind is how many OpenShift minor releases a NodePool's
// release runs behind its control plane's, both "4.y.z" or "5.y.z", with 5.y
// counted as 4.(23+y) as HyperShift counts them (support/supportedversion/
// version.go normalizeToV4, ValidateVersionSkew). Negative when the NodePool
// runs ahead.
func ReleaseMinorsBehind(controlPlane, nodePool string) (int, error) {
	cp, err := releaseMinor(controlPlane)
	if err != nil {
		return 0, err
	}
	np, err := releaseMinor(nodePool)
	if err != nil {
		return 0, err
	}
	return cp - np, nil
}

// releaseMinor is an OpenShift release's minor as a 4.y minor.
func releaseMinor(version string) (int, error) {
	v, err := semver.Parse(strings.TrimSpace(version))
	if err != nil || v.Minor > 1000 {
		return 0, fmt.Errorf("not an OpenShift release: %q", version)
	}
	switch v.Major {
	case 4:
		return int(v.Minor), nil
	case 5:
		return int(v.Minor) + v5MinorOffset, nil
	}
	return 0, fmt.Errorf("not an OpenShift 4.y or 5.y release: %q", version)
}

// CompareReleases compares two OpenShift releases as HyperShift does, 5.y
// counted as 4.(23+y) (support/supportedversion/version.go normalizeToV4):
// negative when a is older than b, zero when they are the same release,
// positive when a is newer.
func CompareReleases(a, b string) (int, error) {
	va, err := normalizedRelease(a)
	if err != nil {
		return 0, err
	}
	vb, err := normalizedRelease(b)
	if err != nil {
		return 0, err
	}
	return va.Compare(vb), nil
}

// normalizedRelease is an OpenShift release as a 4.y release.
func normalizedRelease(version string) (semver.Version, error) {
	minor, err := releaseMinor(version)
	if err != nil {
		return semver.Version{}, err
	}
	v, _ := semver.Parse(strings.TrimSpace(version))
	v.Major, v.Minor = 4, uint64(minor)
	return v, nil
}
