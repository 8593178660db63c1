package statusview_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// TestConfigurationRolloutIsNotAnUpdate renders what analyze computes for
// recorded clusters whose worker pool rolls out a MachineConfig change, after
// an ordinary update and after a completed migration, and checks it against
// golden files (regenerate with `go test ./pkg/statusview -run
// TestConfigurationRolloutIsNotAnUpdate -update`): the cluster is not
// updating, as `oc adm upgrade status` says, and one line explains the
// draining nodes.
func TestConfigurationRolloutIsNotAnUpdate(t *testing.T) {
	testCases := []struct {
		name    string
		cluster *analyze.Cluster
		config  string
	}{
		{name: "after-update", cluster: recordedtest.RolloutAfterUpdate(t), config: recordedtest.RolloutWorkerConfig},
		{name: "after-migration", cluster: recordedtest.RolloutAfterMigration(t), config: recordedtest.RolloutAfterMigrationWorkerConfig},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := statusview.Build(insightsOf(t, analyze.Insights(tc.cluster, recordedtest.RolloutNow)), recordedtest.RolloutNow)
			if err != nil {
				t.Fatal(err)
			}
			if s.Updating {
				t.Errorf("the status says an update is in progress")
			}
			var out bytes.Buffer
			if err := statusview.WriteText(&out, s, statusview.Details{Operators: true, Nodes: true, Health: true}); err != nil {
				t.Fatal(err)
			}
			recordedtest.CheckGolden(t, recordedtest.Golden("status/rollout/"+recordedtest.MigrationBase+"-"+tc.name+".output"), out.Bytes())
			want := "The cluster is not updating.\n" +
				"MachineConfigPool worker: Rolling out configuration " + tc.config + ", not an update: 1 of 3 nodes done.\n"
			if diff := cmp.Diff(want, out.String()); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
		})
	}
}
