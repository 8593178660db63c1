// Package recordedtest holds what the tests over the recorded clusters
// share: the clock the reference output was computed at, and golden files.
package recordedtest

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
)

var update = flag.Bool("update", false, "rewrite the golden files from the current results")

// ReferenceNow is the clock the reference output of a recorded cluster was
// computed at: the latest condition transition of its ClusterVersions and
// ClusterOperators + 368975ns.
func ReferenceNow(versions []*configv1.ClusterVersion, operators []*configv1.ClusterOperator) time.Time {
	var latest time.Time
	consider := func(conditions []configv1.ClusterOperatorStatusCondition) {
		for _, c := range conditions {
			if c.LastTransitionTime.After(latest) {
				latest = c.LastTransitionTime.Time
			}
		}
	}
	for _, cv := range versions {
		consider(cv.Status.Conditions)
	}
	for _, co := range operators {
		consider(co.Status.Conditions)
	}
	return latest.Add(368975 * time.Nanosecond)
}

// CheckGolden compares got with the golden file at path, after rewriting
// the file with got when the test runs with -update.
func CheckGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (create it with -update): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-golden +got):\n%s", path, diff)
	}
}
