package precheck

import (
	"github.com/blang/semver/v4"
	configv1 "github.com/openshift/api/config/v1"
)

// CurrentRelease is the release every check compares a plan's target with,
// as the cluster-version operator does: status.desired, the release it
// reconciles, whether its update completed or not. Its preconditions take
// the current version from there (Upgradeable, Rollback and GiantHop in
// pkg/payload/precondition/clusterversion of
// github.com/openshift/cluster-version-operator), and so does
// `oc adm upgrade recommend` (injectUpgradeableAsCondition(
// cv.Status.Desired.Version, ...) in pkg/cli/admin/upgrade/recommend of
// github.com/openshift/oc). While a cluster updates from 4.16.20 to 4.17.3,
// an update to 4.17.5 is a patch update. Empty without a ClusterVersion.
func CurrentRelease(cv *configv1.ClusterVersion) string {
	if cv == nil {
		return ""
	}
	return cv.Status.Desired.Version
}

// newerMinor says whether target is a minor or major update from current,
// as the cluster-version operator's Upgradeable precondition tells
// (pkg/payload/precondition/clusterversion/upgradeable.go): neither a
// release at or below current nor one of the same major.minor. That is
// what Upgradeable=False blocks, and what changes the Kubernetes version.
func newerMinor(current, target semver.Version) bool {
	patchOnly := target.Major == current.Major && target.Minor == current.Minor
	return !target.LTE(current) && !patchOnly
}

// minorUpdateTarget is the target of a minor or major update from the
// cluster's current release, for the checks that only such an update
// needs; false for a patch update, a downgrade, no ClusterVersion, or
// versions that do not parse (notUpgradeable says so where it matters).
func minorUpdateTarget(in *Input) (semver.Version, bool) {
	if in.ClusterVersion == nil {
		return semver.Version{}, false
	}
	current, errCurrent := semver.Parse(CurrentRelease(in.ClusterVersion))
	target, errTarget := semver.Parse(in.Target)
	if errCurrent != nil || errTarget != nil || !newerMinor(current, target) {
		return semver.Version{}, false
	}
	return target, true
}
