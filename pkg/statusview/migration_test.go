package statusview_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// TestArchitectureMigrationHasNoEstimate: a migration to the
// multi-architecture payload is not estimated, and the text says so as the
// reference does, even for an insight that carries an estimate (written by
// an operator that estimated migrations).
func TestArchitectureMigrationHasNoEstimate(t *testing.T) {
	started := metav1.NewTime(now.Add(-6*time.Minute - 55*time.Second))
	past := metav1.NewTime(started.Add(time.Minute))
	ahead := metav1.NewTime(now.Add(30 * time.Minute))
	multi := insightsv1alpha1.Version{Version: "4.18.0-ec.3", Metadata: []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.ArchitectureMetadata, Value: "multi"}}}
	testCases := []struct {
		name     string
		target   insightsv1alpha1.Version
		estimate *metav1.Time
		want     string
	}{
		{name: "migrating, no estimate", target: multi,
			want: "Duration:        6m55s (Est. Time Remaining: N/A for Multi-Architecture Migration)\n"},
		{name: "migrating, an estimate already past", target: multi, estimate: &past,
			want: "Duration:        6m55s (Est. Time Remaining: N/A for Multi-Architecture Migration)\n"},
		{name: "updating, an estimate", target: insightsv1alpha1.Version{Version: "4.18.0-ec.3"}, estimate: &ahead,
			want: "Duration:        6m55s (Est. Time Remaining: 30m)\n"},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			in := &statusview.Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{clusterVersion(insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Assessment:           insightsv1alpha1.ClusterVersionAssessmentProgressing,
				Versions:             insightsv1alpha1.ControlPlaneUpdateVersions{Target: tc.target, Previous: &insightsv1alpha1.Version{Version: "4.18.0-ec.3"}},
				StartedAt:            &started,
				EstimatedCompletedAt: tc.estimate,
			})}}
			s, err := statusview.Build(in, now)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := statusview.WriteText(&out, s, statusview.Details{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), tc.want) {
				t.Errorf("got:\n%s\nwant a line %q", out.String(), tc.want)
			}
		})
	}
}

// TestMidMigrationCluster renders what analyze computes for a recorded
// cluster part way through a migration (see recordedtest.MidMigration), and
// checks it against its golden file (regenerate with
// `go test ./pkg/statusview -run TestMidMigrationCluster -update`).
func TestMidMigrationCluster(t *testing.T) {
	s, err := statusview.Build(insightsOf(t, analyze.Insights(recordedtest.MidMigration(t), recordedtest.MigrationNow)), recordedtest.MigrationNow)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := statusview.WriteText(&out, s, statusview.Details{Operators: true, Nodes: true, Health: true}); err != nil {
		t.Fatal(err)
	}
	recordedtest.CheckGolden(t, recordedtest.Golden("status/migration/"+recordedtest.MigrationBase+"-to-multi-arch.detailed-output"), out.Bytes())
	for _, want := range []string{
		"Target Version:  4.14.1 to Multi-Architecture\n",
		"Updating:        machine-config\n",
		"Completion:      97% (32 operators updated, 1 updating, 0 waiting)\n",
		"Duration:        25m (Est. Time Remaining: N/A for Multi-Architecture Migration)\n",
		"worker        Progressing   0% (0/3)     2 Available, 1 Progressing, 1 Draining\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the status does not say %q:\n%s", want, out.String())
		}
	}
}
