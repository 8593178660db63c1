package statusview_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

func clusterVersion(s insightsv1alpha1.ClusterVersionProgressInsightStatus) *insightsv1alpha1.ClusterVersionProgressInsight {
	return &insightsv1alpha1.ClusterVersionProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: "version"}, Status: s}
}

var progressing = clusterVersion(insightsv1alpha1.ClusterVersionProgressInsightStatus{Assessment: insightsv1alpha1.ClusterVersionAssessmentProgressing})

// TestPartialInsights renders insights that lack what they usually have: the
// text says what is known, marks the rest ?, and nothing panics.
func TestPartialInsights(t *testing.T) {
	testCases := []struct {
		name string
		in   statusview.Insights
		want string
	}{
		{
			name: "an empty ClusterVersion insight",
			in:   statusview.Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{clusterVersion(insightsv1alpha1.ClusterVersionProgressInsightStatus{})}},
			want: `= Control Plane =
Assessment:      ?
Target Version:  ?
Completion:      0% (0 operators updated, 0 updating, 0 waiting)
Duration:        ?
Operator Health: 0 Healthy

= Update Health =
SINCE   LEVEL   IMPACT   MESSAGE
-       Info    None     Update is proceeding well
`,
		},
		{
			name: "a completed update of unknown times",
			in: statusview.Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{clusterVersion(insightsv1alpha1.ClusterVersionProgressInsightStatus{
				Assessment: insightsv1alpha1.ClusterVersionAssessmentCompleted,
			})}},
			want: "The cluster is not updating.\n",
		},
		{
			name: "an estimate without a start, operators without conditions",
			in: statusview.Insights{
				ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{clusterVersion(insightsv1alpha1.ClusterVersionProgressInsightStatus{
					Assessment:           insightsv1alpha1.ClusterVersionAssessmentProgressing,
					Versions:             insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.16.1"}, Previous: &insightsv1alpha1.Version{}},
					EstimatedCompletedAt: &metav1.Time{Time: now.Add(-time.Hour)},
				})},
				ClusterOperators: []*insightsv1alpha1.ClusterOperatorProgressInsight{{ObjectMeta: metav1.ObjectMeta{Name: "etcd"}}},
			},
			want: `= Control Plane =
Assessment:      Progressing
Target Version:  4.16.1 (from ?)
Completion:      0% (0 operators updated, 0 updating, 1 waiting)
Duration:        ? (Est. Time Remaining: N/A)
Operator Health: 0 Healthy, 1 Unknown

= Update Health =
SINCE   LEVEL   IMPACT   MESSAGE
-       Info    None     Update is proceeding well
`,
		},
		{
			name: "a node without conditions, in a pool without an insight",
			in: statusview.Insights{
				ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{progressing},
				Nodes: []*insightsv1alpha1.NodeProgressInsight{{Status: insightsv1alpha1.NodeProgressInsightStatus{
					Name: "worker-0", PoolResource: insightsv1alpha1.ResourceRef{Name: "worker"}, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
				}}},
			},
			want: `= Control Plane =
Assessment:      Progressing
Target Version:  ?
Completion:      0% (0 operators updated, 0 updating, 0 waiting)
Duration:        ?
Operator Health: 0 Healthy

= Worker Upgrade =

WORKER POOL   ASSESSMENT   COMPLETION   STATUS
worker        ?            0% (0/1)     1 Available, 0 Progressing, 0 Draining

Worker Pool Nodes: worker
NAME       ASSESSMENT   PHASE     VERSION   EST   MESSAGE
worker-0   Unknown      Unknown   ?         ?     

= Update Health =
SINCE   LEVEL   IMPACT   MESSAGE
-       Info    None     Update is proceeding well
`,
		},
		{
			name: "pools without summaries or nodes",
			in: statusview.Insights{
				ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{clusterVersion(insightsv1alpha1.ClusterVersionProgressInsightStatus{
					Assessment: insightsv1alpha1.ClusterVersionAssessmentCompleted,
				})},
				MachineConfigPools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{
					{Status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{Name: "master", ScopeType: insightsv1alpha1.ScopeTypeControlPlane, Assessment: insightsv1alpha1.PoolProgressing}},
					{Status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{Name: "worker", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: insightsv1alpha1.PoolProgressing}},
				},
			},
			want: `= Control Plane =
Update to ? successfully completed at ? (duration: ?)

= Update Health =
SINCE   LEVEL   IMPACT   MESSAGE
-       Info    None     Update is proceeding well
`,
		},
		{
			name: "a health insight with only a level and a summary",
			in: statusview.Insights{
				ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{progressing},
				Health: []*insightsv1alpha1.UpdateHealthInsight{{Status: insightsv1alpha1.UpdateHealthInsightStatus{
					Impact: insightsv1alpha1.InsightImpact{Level: insightsv1alpha1.WarningImpactLevel, Summary: "Something is off"},
				}}},
			},
			want: `= Control Plane =
Assessment:      Progressing
Target Version:  ?
Completion:      0% (0 operators updated, 0 updating, 0 waiting)
Duration:        ?
Operator Health: 0 Healthy

= Update Health =
SINCE   LEVEL     IMPACT   MESSAGE
-       Warning            Something is off

Run with --details=health for additional description and links to related online documentation
`,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := statusview.Build(&tc.in, now)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := statusview.WriteText(&out, s, statusview.Details{}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, out.String()); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if err := statusview.WriteText(&bytes.Buffer{}, s, statusview.Details{Operators: true, Nodes: true, Health: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := json.Marshal(s); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestBuildWithoutClusterVersionInsight(t *testing.T) {
	in := &statusview.Insights{Nodes: []*insightsv1alpha1.NodeProgressInsight{{}}}
	if _, err := statusview.Build(in, now); !errors.Is(err, statusview.ErrNoClusterVersion) {
		t.Errorf("got error %v, want %v", err, statusview.ErrNoClusterVersion)
	}
}

var now = time.Date(2024, 8, 5, 17, 23, 22, 0, time.UTC)
