package olm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/blang/semver/v4"

	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// maxOpenShiftVersionProperty is the bundle property an operator declares
// the newest OpenShift minor release it supports with.
const maxOpenShiftVersionProperty = "olm.maxOpenShiftVersion"

// property is one entry of the properties annotation. Its value is kept as
// the raw JSON, as OLM keeps it: a string "4.17" and a number 4.17 both
// name 4.17.
type property struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// MaxOpenShiftVersion is the newest OpenShift minor release the operator of
// csv supports, nil when it declares none, or why its declaration is
// invalid, which OLM treats as incompatible with every minor update. The
// rules are OLM's, from maxOpenShiftVersion in
// pkg/controller/operators/openshift/helpers.go of
// github.com/operator-framework/operator-lifecycle-manager:
//   - the property is read from the operatorframework.io/properties
//     annotation only (not olm.properties, which OLM's check never reads),
//     and an annotation that is not a properties list is an error even
//     without the property;
//   - more than one olm.maxOpenShiftVersion is an error, even if equal;
//   - the value, stripped of its quotes, must parse with blang/semver's
//     ParseTolerant and be exactly major.minor: "4.17", "v4.17", "4.17.0"
//     and "4.17.0+build" are 4.17, while "4.17.1", "4.17.0-rc" and "" are
//     errors.
func MaxOpenShiftVersion(csv *operatorsv1alpha1.ClusterServiceVersion) (*semver.Version, error) {
	annotation, ok := csv.Annotations[operatorsv1alpha1.PropertiesAnnotation]
	if !ok {
		return nil, nil
	}
	var properties struct {
		Properties []property `json:"properties"`
	}
	if err := json.Unmarshal([]byte(annotation), &properties); err != nil {
		return nil, fmt.Errorf("failed to unmarshal properties annotation: %w", err)
	}
	var max *string
	for _, p := range properties.Properties {
		if p.Type != maxOpenShiftVersionProperty {
			continue
		}
		if max != nil {
			return nil, fmt.Errorf(`defining more than one "%s" property is not allowed`, maxOpenShiftVersionProperty)
		}
		value := string(p.Value)
		max = &value
	}
	if max == nil {
		return nil, nil
	}
	value := strings.Trim(*max, `"`)
	if value == "" {
		return nil, errors.New(`value cannot be "" (an empty string)`)
	}
	version, err := semver.ParseTolerant(value)
	if err != nil {
		return nil, fmt.Errorf(`failed to parse "%s" as semver: %w`, value, err)
	}
	truncated := semver.Version{Major: version.Major, Minor: version.Minor}
	if !version.EQ(truncated) {
		return nil, fmt.Errorf("property %s must specify only <major>.<minor> version, got invalid value %s", maxOpenShiftVersionProperty, version)
	}
	return &truncated, nil
}

// The rules below are OLM's incompatibleOperators, nextY and
// normalizeOCPVersion, in pkg/controller/operators/openshift/helpers.go of
// github.com/operator-framework/operator-lifecycle-manager, which surprise
// around 4.23:
//   - OLM normalizes the release the cluster runs and the operator's max,
//     4.23 becoming 5.0, but not the next minor it compares the max with:
//     on 4.22 the next minor is 4.23, below every max after 4.22 (4.24
//     included), so nothing capped above 4.22 blocks the update from 4.22,
//     to 4.23 or 5.0 alike;
//   - on 4.23 the next minor is 5.1, so a max of 4.23 or 5.0 (the release
//     the cluster runs) blocks the update from 4.23 to 5.0, and so does a
//     max of 4.24, which OLM counts as before 5.0.
// OLM sets Upgradeable=False from the next minor alone, and the
// cluster-version operator then refuses minor and major updates only.

// normalize is OLM's normalizeOCPVersion: OpenShift 4.23 and 5.0 are the
// same release.
func normalize(v semver.Version) semver.Version {
	if v.Major == 4 && v.Minor == 23 {
		return semver.Version{Major: 5}
	}
	return semver.Version{Major: v.Major, Minor: v.Minor}
}

// nextMinor is what OLM, on a cluster running running, compares an
// operator's normalized max with: nextY of the normalized release, itself
// not normalized.
func nextMinor(running semver.Version) semver.Version {
	n := normalize(running)
	return semver.Version{Major: n.Major, Minor: n.Minor + 1}
}

// lastHop is the release the cluster runs when it starts the last minor
// update to target, when the releases tell: the minor release before it,
// 4.22 before 5.0 (OLM blocks less from 4.22 than from 4.23, and a false
// block is worse than a missed one), none before any other x.0.
func lastHop(target semver.Version) (semver.Version, bool) {
	t := normalize(target)
	switch {
	case t.Minor > 0:
		return semver.Version{Major: t.Major, Minor: t.Minor - 1}, true
	case t.Major == 5:
		return semver.Version{Major: 4, Minor: 22}, true
	}
	return semver.Version{}, false
}

// required is the release OLM compares an operator's normalized max with
// on the cluster's way from current to target: the cluster-version
// operator takes one minor update at a time, and OLM, once the cluster
// runs a release, blocks the next by nextMinor of it. The latest such
// release is the last hop's, which asks the most.
func required(current, target semver.Version) semver.Version {
	need := nextMinor(current)
	if last, ok := lastHop(target); ok && normalize(last).GT(normalize(current)) {
		need = nextMinor(last)
	}
	return need
}

// blockedFrom is the first release on which OLM blocks the next for an
// operator whose max is max: max itself, but 4.23 for a max OLM counts
// from 4.23 to 5.0 (4.23, 4.24 and later 4.x, 5.0), since on 4.22 OLM's
// next minor is 4.23 and on 4.23 it is 5.1.
func blockedFrom(max semver.Version) semver.Version {
	if n := normalize(max); n.GTE(semver.Version{Major: 4, Minor: 23}) && n.LTE(semver.Version{Major: 5}) {
		return semver.Version{Major: 4, Minor: 23}
	}
	return semver.Version{Major: max.Major, Minor: max.Minor}
}
