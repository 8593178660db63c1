package status_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/status"
)

const (
	examples = "../../test/testdata/oc-examples"
	golden   = "../../test/testdata/golden/status"
)

// recordedCase is a cluster recorded during an update, with what
// `oc adm upgrade status` printed for it.
type recordedCase struct {
	name  string
	paths analyze.Paths
	now   time.Time
	// reference is what the reference printed, by the suffix of its file:
	// .output without details, .detailed-output with --details=all.
	reference map[string]string
}

// outputs are the two renderings the reference recorded, by file suffix.
var outputs = map[string]status.Details{
	".output":          {},
	".detailed-output": {Operators: true, Nodes: true, Health: true},
}

func loadRecordedCases(t *testing.T) []recordedCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examples, "*-cv.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded clusters in %s: %v", examples, err)
	}
	var cases []recordedCase
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), "-cv.yaml")
		file := func(suffix string) string { return filepath.Join(examples, name+suffix) }
		c := recordedCase{name: name, reference: map[string]string{}, paths: analyze.Paths{
			ClusterVersions:    file("-cv.yaml"),
			ClusterOperators:   file("-co.yaml"),
			MachineConfigPools: file("-mcp.yaml"),
			MachineConfigs:     file("-mc.yaml"),
			Nodes:              file("-node.yaml"),
		}}
		cluster, err := analyze.Load(c.paths)
		if err != nil {
			t.Fatal(err)
		}
		c.now = recordedtest.ReferenceNow(cluster.ClusterVersions, cluster.ClusterOperators)
		for suffix := range outputs {
			content, err := os.ReadFile(file(suffix))
			if err != nil {
				t.Fatal(err)
			}
			c.reference[suffix] = string(content)
		}
		cases = append(cases, c)
	}
	return cases
}

// insightsOf returns what analyze computed as the objects status reads.
func insightsOf(t *testing.T, computed []analyze.Insight) *status.Insights {
	t.Helper()
	in := &status.Insights{}
	for _, i := range computed {
		meta := metav1.ObjectMeta{Name: i.Metadata.Name}
		switch s := i.Status.(type) {
		case insightsv1alpha1.ClusterVersionProgressInsightStatus:
			in.ClusterVersions = append(in.ClusterVersions, &insightsv1alpha1.ClusterVersionProgressInsight{ObjectMeta: meta, Status: s})
		case insightsv1alpha1.ClusterOperatorProgressInsightStatus:
			in.ClusterOperators = append(in.ClusterOperators, &insightsv1alpha1.ClusterOperatorProgressInsight{ObjectMeta: meta, Status: s})
		case insightsv1alpha1.MachineConfigPoolProgressInsightStatus:
			in.MachineConfigPools = append(in.MachineConfigPools, &insightsv1alpha1.MachineConfigPoolProgressInsight{ObjectMeta: meta, Status: s})
		case insightsv1alpha1.NodeProgressInsightStatus:
			in.Nodes = append(in.Nodes, &insightsv1alpha1.NodeProgressInsight{ObjectMeta: meta, Status: s})
		case insightsv1alpha1.UpdateHealthInsightStatus:
			in.Health = append(in.Health, &insightsv1alpha1.UpdateHealthInsight{ObjectMeta: meta, Status: s})
		default:
			t.Fatalf("%s %s has a status of type %T", i.Kind, i.Metadata.Name, i.Status)
		}
	}
	return in
}
