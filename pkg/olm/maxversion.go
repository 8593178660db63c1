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

// normalize is OLM's normalizeOCPVersion: OpenShift 4.23 and 5.0 are the
// same release, so an operator that supports 4.23 supports 5.0.
func normalize(v semver.Version) semver.Version {
	if v.Major == 4 && v.Minor == 23 {
		return semver.Version{Major: 5}
	}
	return semver.Version{Major: v.Major, Minor: v.Minor}
}

// required is the release an operator must support, normalized, for OLM
// to let a cluster running current update to target's minor release. OLM
// compares an operator's max with the minor release after the running one
// (nextY of the normalized current), which is the target of a minor
// update, except from 4.23: OLM's next is then 5.1, so an operator
// supporting 4.23 or 5.0 blocks the update to 5.0. A plan names its
// target, which may be further: the later of the two.
func required(current, target semver.Version) semver.Version {
	next := normalize(current)
	next.Minor++
	if t := normalize(target); t.GT(next) {
		return t
	}
	return next
}
