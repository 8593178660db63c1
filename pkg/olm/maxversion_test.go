package olm

import (
	"strings"
	"testing"

	"github.com/blang/semver/v4"
	"github.com/google/go-cmp/cmp"

	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
)

// TestMaxOpenShiftVersion follows maxOpenShiftVersion's cases in OLM's
// pkg/controller/operators/openshift/helpers_test.go.
func TestMaxOpenShiftVersion(t *testing.T) {
	v := func(major, minor uint64) *semver.Version { return &semver.Version{Major: major, Minor: minor} }
	testCases := []struct {
		name    string
		options []csvOption
		want    *semver.Version
		// wantErr is the error's message, or its start when it ends
		// with "...".
		wantErr string
	}{
		{name: "no properties annotation", want: nil},
		{
			name: "the property in olm.properties only, which OLM does not read",
			options: []csvOption{func(csv *operatorsv1alpha1.ClusterServiceVersion) {
				csv.Annotations["olm.properties"] = `[{"type":"olm.maxOpenShiftVersion","value":"4.10"}]`
			}},
			want: nil,
		},
		{name: "annotation not JSON", options: []csvOption{withProperties(`not json`)}, wantErr: "failed to unmarshal properties annotation: ..."},
		{name: "annotation a list, not an object", options: []csvOption{withProperties(`[{"type":"olm.package"}]`)}, wantErr: "failed to unmarshal properties annotation: ..."},
		{name: "empty properties", options: []csvOption{withProperties(`{"properties":[]}`)}, want: nil},
		{
			name:    "other properties only",
			options: []csvOption{withProperties(`{"properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}},{"type":"olm.gvk","value":{"group":"g","kind":"K","version":"v1"}}]}`)},
			want:    nil,
		},
		{name: "string 4.17", options: []csvOption{withMax(`"4.17"`)}, want: v(4, 17)},
		{name: "number 4.17", options: []csvOption{withMax(`4.17`)}, want: v(4, 17)},
		{name: "number 4.10 is 4.10, not 4.1", options: []csvOption{withMax(`4.10`)}, want: v(4, 10)},
		{name: "string 4.10", options: []csvOption{withMax(`"4.10"`)}, want: v(4, 10)},
		{name: "patch zero", options: []csvOption{withMax(`"4.17.0"`)}, want: v(4, 17)},
		{name: "v prefix", options: []csvOption{withMax(`"v4.17"`)}, want: v(4, 17)},
		{name: "build metadata ignored", options: []csvOption{withMax(`"1.0.0+build"`)}, want: v(1, 0)},
		{
			name: "a patch version", options: []csvOption{withMax(`"4.17.1"`)},
			wantErr: "property olm.maxOpenShiftVersion must specify only <major>.<minor> version, got invalid value 4.17.1",
		},
		{
			name: "a prerelease", options: []csvOption{withMax(`"1.1.0-pre"`)},
			wantErr: "property olm.maxOpenShiftVersion must specify only <major>.<minor> version, got invalid value 1.1.0-pre",
		},
		{name: "a short prerelease", options: []csvOption{withMax(`"4.17-rc"`)}, wantErr: `failed to parse "4.17-rc" as semver: ...`},
		{name: "not a version", options: []csvOption{withMax(`"bad_version"`)}, wantErr: `failed to parse "bad_version" as semver: ...`},
		{name: "empty string", options: []csvOption{withMax(`""`)}, wantErr: `value cannot be "" (an empty string)`},
		{
			name:    "two equal declarations",
			options: []csvOption{withProperties(`{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.17"},{"type":"olm.maxOpenShiftVersion","value":"4.17"}]}`)},
			wantErr: `defining more than one "olm.maxOpenShiftVersion" property is not allowed`,
		},
		{
			name:    "two different declarations",
			options: []csvOption{withProperties(`{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.16"},{"type":"olm.maxOpenShiftVersion","value":"4.17"}]}`)},
			wantErr: `defining more than one "olm.maxOpenShiftVersion" property is not allowed`,
		},
		{
			name:    "two declarations, one invalid: the duplicate is the error",
			options: []csvOption{withProperties(`{"properties":[{"type":"olm.maxOpenShiftVersion","value":"bad"},{"type":"olm.maxOpenShiftVersion","value":"4.17"}]}`)},
			wantErr: `defining more than one "olm.maxOpenShiftVersion" property is not allowed`,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MaxOpenShiftVersion(newCSV("operators", "op.v1", tc.options...))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("got %v, want error %q", got, tc.wantErr)
			case strings.HasSuffix(tc.wantErr, "..."):
				if prefix := strings.TrimSuffix(tc.wantErr, "..."); !strings.HasPrefix(err.Error(), prefix) {
					t.Errorf("error %q, want it to start with %q", err, prefix)
				}
			case tc.wantErr != "":
				if err.Error() != tc.wantErr {
					t.Errorf("error %q, want %q", err, tc.wantErr)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("version (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNextMinor follows TestIncompatibleOperators' cases OCP4.22 to OCP5.1
// in OLM's pkg/controller/operators/openshift/helpers_test.go, and adds a
// max of 4.24, which OLM's table leaves out: on 4.22 it is not below the
// next minor, 4.23, which OLM does not normalize.
func TestNextMinor(t *testing.T) {
	maxes := []string{"4.23", "4.24", "5.0", "5.1"}
	testCases := []struct {
		running string
		blocked []string
	}{
		{running: "4.22.0"},
		{running: "4.23.0", blocked: []string{"4.23", "4.24", "5.0"}},
		{running: "5.0.0", blocked: []string{"4.23", "4.24", "5.0"}},
		{running: "5.1.0", blocked: []string{"4.23", "4.24", "5.0", "5.1"}},
	}
	for _, tc := range testCases {
		t.Run(tc.running, func(t *testing.T) {
			next := nextMinor(semver.MustParse(tc.running))
			var blocked []string
			for _, m := range maxes {
				if normalize(semver.MustParse(m + ".0")).LT(next) {
					blocked = append(blocked, m)
				}
			}
			if diff := cmp.Diff(tc.blocked, blocked); diff != "" {
				t.Errorf("maxes OLM blocks (-want +got):\n%s", diff)
			}
		})
	}
}
