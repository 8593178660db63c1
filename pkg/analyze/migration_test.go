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

// TestMidMigrationCluster analyzes a recorded cluster part way through a
// migration to the multi-architecture payload (see
// recordedtest.MidMigration), checks the output against its golden file
// (regenerate with `go test ./pkg/analyze -run TestMidMigrationCluster
// -update`), and checks what a migration must not be mistaken for: done.
func TestMidMigrationCluster(t *testing.T) {
	insights := analyze.Insights(recordedtest.MidMigration(t), recordedtest.MigrationNow)
	list, err := analyze.List(insights)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := output.Write(&out, list, output.YAML); err != nil {
		t.Fatal(err)
	}
	recordedtest.CheckGolden(t, recordedtest.Golden("migration/"+recordedtest.MigrationBase+"-to-multi-arch.yaml"), out.Bytes())

	updating := map[string]string{}
	pools := map[string]string{}
	nodes := map[string]string{}
	var cv *insightsv1alpha1.ClusterVersionProgressInsightStatus
	for _, i := range insights {
		switch o := i.Object.(type) {
		case *insightsv1alpha1.ClusterVersionProgressInsight:
			cv = &o.Status
		case *insightsv1alpha1.ClusterOperatorProgressInsight:
			if c := meta.FindStatusCondition(o.Status.Conditions, insightsv1alpha1.ClusterOperatorProgressInsightUpdating); c.Status == "True" {
				updating[o.Name] = c.Reason
			}
		case *insightsv1alpha1.MachineConfigPoolProgressInsight:
			pools[o.Name] = fmt.Sprintf("%s %d%%", o.Status.Assessment, o.Status.CompletionPercent)
		case *insightsv1alpha1.NodeProgressInsight:
			nodes[o.Name] = meta.FindStatusCondition(o.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating).Reason
		}
	}

	// Every operator reports the target version; machine-config does not
	// run its Deployment's image yet.
	if diff := cmp.Diff(map[string]string{"machine-config": "Progressing"}, updating); diff != "" {
		t.Errorf("updating operators (-want +got):\n%s", diff)
	}
	// 32 of 33, rounded as oc prints it.
	if cv.Assessment != insightsv1alpha1.ClusterVersionAssessmentProgressing || cv.CompletionPercent != 97 {
		t.Errorf("control plane %s at %d%%, want Progressing at 97%%, machine-config counted as updating", cv.Assessment, cv.CompletionPercent)
	}
	if cv.EstimatedCompletedAt != nil {
		t.Errorf("an estimated completion %v during a migration", cv.EstimatedCompletedAt)
	}
	// Every node is at the target version; their configs tell.
	wantNodes := map[string]string{
		"ip-10-0-30-217.us-east-2.compute.internal": "Completed",
		"ip-10-0-53-40.us-east-2.compute.internal":  "Updating",
		"ip-10-0-92-180.us-east-2.compute.internal": "Pending",
		"ip-10-0-20-162.us-east-2.compute.internal": "Draining",
		"ip-10-0-4-159.us-east-2.compute.internal":  "Pending",
		"ip-10-0-99-40.us-east-2.compute.internal":  "Pending",
	}
	if diff := cmp.Diff(wantNodes, nodes); diff != "" {
		t.Errorf("node phases (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"master": "Progressing 33%", "worker": "Progressing 0%"}, pools); diff != "" {
		t.Errorf("pools (-want +got):\n%s", diff)
	}
}
