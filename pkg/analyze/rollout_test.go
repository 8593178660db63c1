package analyze_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/output"
)

// TestConfigurationRolloutIsNotAnUpdate analyzes recorded clusters whose
// worker pool rolls out a MachineConfig change after an ordinary update and
// after a completed migration to the multi-architecture payload (whose
// history still shows the migration), checks the output against golden
// files (regenerate with `go test ./pkg/analyze -run
// TestConfigurationRolloutIsNotAnUpdate -update`), and checks that nothing
// calls the rollout an update: every node and pool completed, the worker
// pool saying which configuration it rolls out and how far.
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
			insights := analyze.Insights(tc.cluster, recordedtest.RolloutNow)
			list, err := analyze.List(insights)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := output.Write(&out, list, output.YAML); err != nil {
				t.Fatal(err)
			}
			recordedtest.CheckGolden(t, recordedtest.Golden("rollout/"+recordedtest.MigrationBase+"-"+tc.name+".yaml"), out.Bytes())

			var cv string
			pools := map[string]string{}
			nodes := map[string]string{}
			var healthLevels []insightsv1alpha1.InsightImpactLevel
			for _, i := range insights {
				switch o := i.Object.(type) {
				case *insightsv1alpha1.ClusterVersionProgressInsight:
					cv = fmt.Sprintf("%s %d%%", o.Status.Assessment, o.Status.CompletionPercent)
				case *insightsv1alpha1.MachineConfigPoolProgressInsight:
					c := meta.FindStatusCondition(o.Status.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating)
					pools[o.Name] = fmt.Sprintf("%s %d%% Updating=%s/%s: %s", o.Status.Assessment, o.Status.CompletionPercent, c.Status, c.Reason, c.Message)
				case *insightsv1alpha1.NodeProgressInsight:
					c := meta.FindStatusCondition(o.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
					nodes[o.Name] = fmt.Sprintf("%s/%s", c.Status, c.Reason)
				case *insightsv1alpha1.UpdateHealthInsight:
					healthLevels = append(healthLevels, o.Status.Impact.Level)
				}
			}
			if cv != "Completed 100%" {
				t.Errorf("control plane %s, want Completed 100%%", cv)
			}
			wantPools := map[string]string{
				"master": "Completed 100% Updating=False/Completed: All 3 nodes are updated",
				"worker": "Completed 100% Updating=False/RollingOutConfiguration: Rolling out configuration " + tc.config + ", not an update: 1 of 3 nodes done",
			}
			if diff := cmp.Diff(wantPools, pools); diff != "" {
				t.Errorf("pools (-want +got):\n%s", diff)
			}
			for name, updating := range nodes {
				if updating != "False/Completed" {
					t.Errorf("node %s is %s, want False/Completed: it is at the version the cluster runs", name, updating)
				}
			}
			if len(nodes) != 6 {
				t.Errorf("%d node insights, want 6", len(nodes))
			}
			if len(healthLevels) != 0 {
				t.Errorf("health insights of levels %v, want none: the rollout is going as it should", healthLevels)
			}
		})
	}
}
