package updatestatus_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// builtinOf returns the operator's own insights of a recorded cluster, as
// analyze computes them.
func builtinOf(c recordedtest.Case) updatestatus.Insights {
	var in updatestatus.Insights
	for _, i := range analyze.Insights(c.Cluster, c.Now) {
		switch o := i.Object.(type) {
		case *insightsv1alpha1.ClusterVersionProgressInsight:
			in.ClusterVersions = append(in.ClusterVersions, o)
		case *insightsv1alpha1.MachineConfigPoolProgressInsight:
			in.Pools = append(in.Pools, o)
		case *insightsv1alpha1.NodeProgressInsight:
			in.Nodes = append(in.Nodes, o)
		case *insightsv1alpha1.UpdateHealthInsight:
			in.Health = append(in.Health, o)
		}
	}
	return in
}

// On a recorded cluster whose control plane is done and whose 59 workers
// are draining, degraded or waiting, the operator's own insights say so
// where an administrator looks for them: the workers' progress and problems
// under the worker pool, nothing lost, and the status valid for the API.
func TestBuiltinInsightsOfARecordedCluster(t *testing.T) {
	c := recordedtest.CaseNamed(t, "4.16.0-ec2-control-plane-updated-pdb-prohibits-draining")
	own := builtinOf(c)
	status := updatestatus.Compute(updatestatus.Input{
		ClusterVersion: c.Cluster.ClusterVersions[0],
		Pools:          own.Pools,
		NodePools:      updatestatus.NodePools(own.Nodes),
		Answers:        []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer, Insights: updatestatus.Builtin(own)}},
		Now:            c.Now,
	})

	if complete := meta.FindStatusCondition(status.Conditions, updatestatus.ConditionInsightsComplete); complete == nil || complete.Status != metav1.ConditionTrue {
		t.Errorf("InsightsComplete %+v, want True: every insight placed and kept", complete)
	}
	if len(status.WorkerPools) != 1 || status.WorkerPools[0].Resource.Name != "worker" {
		t.Fatalf("worker pools %+v, want worker alone", status.WorkerPools)
	}
	worker := status.WorkerPools[0]
	levels := map[insightsv1alpha1.UpdateInsightLevel]int{}
	var summaries []string
	for _, i := range worker.Informers[0].Insights {
		levels[i.Impact.Level]++
		if strings.HasPrefix(i.UID, "pool/") {
			summaries = append(summaries, i.Impact.Summary)
		}
	}
	// 37 of the 59 workers are not done; 7 are degraded (errors) and one
	// node is not ready (a warning).
	want := map[insightsv1alpha1.UpdateInsightLevel]int{insightsv1alpha1.StatusInsightLevel: 38, insightsv1alpha1.ErrorInsightLevel: 7, insightsv1alpha1.WarningInsightLevel: 1}
	if diff := cmp.Diff(want, levels); diff != "" {
		t.Errorf("the worker pool's insights by level (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Pool worker degraded: 37% of its nodes updated"}, summaries); diff != "" {
		t.Errorf("the pool's progress (-want +got):\n%s", diff)
	}
	if first := worker.Informers[0].Insights[0]; first.Impact.Level != insightsv1alpha1.ErrorInsightLevel {
		t.Errorf("the first insight is %s at %s, want the most serious first", first.UID, first.Impact.Level)
	}
	active := meta.FindStatusCondition(worker.Conditions, insightsv1alpha1.UpdateActive)
	if active == nil || active.Status != metav1.ConditionTrue {
		t.Errorf("the worker pool's UpdateActive %+v, want True: its nodes are being updated", active)
	}
	for _, i := range status.ControlPlane.Informers[0].Insights {
		if strings.HasPrefix(i.UID, "controlplane/") {
			t.Errorf("control plane progress %q reported, but the control plane is done", i.Impact.Summary)
		}
	}
}

// The operator's own insights do not change with the clock alone, so an
// UpdateStatus without news is not written again.
func TestBuiltinInsightsDoNotDependOnTime(t *testing.T) {
	c := recordedtest.CaseNamed(t, "4.16.0-compact")
	first := updatestatus.Builtin(builtinOf(c))
	again := updatestatus.Builtin(builtinOf(c))
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("the same insights gave other built-in insights (-first +again):\n%s", diff)
	}
	var progress *insightsv1alpha1.UpdateInsight
	for i := range first {
		if strings.HasPrefix(first[i].UID, "controlplane/") {
			progress = &first[i]
		}
	}
	if progress == nil || progress.Remediation.EstimatedFinish == nil || progress.Impact.Summary != "Control plane progressing: 91% of its operators updated to 4.17.0-ec.0" {
		t.Errorf("control plane progress %+v, want 91%% with the estimated finish", progress)
	}
}

func TestControlPlaneProgressSaysTheAssessmentInWords(t *testing.T) {
	testCases := []struct {
		assessment insightsv1alpha1.ClusterVersionAssessment
		want       string
	}{
		{assessment: insightsv1alpha1.ClusterVersionAssessmentProgressing, want: "Control plane progressing: 97% of its operators updated to 4.15.0"},
		{assessment: insightsv1alpha1.ClusterVersionAssessmentProgressingSlow, want: "Control plane progressing slowly: 97% of its operators updated to 4.15.0"},
		{assessment: insightsv1alpha1.ClusterVersionAssessmentStalled, want: "Control plane stalled: 97% of its operators updated to 4.15.0"},
		// Written by earlier versions for what they called Stalled.
		{assessment: insightsv1alpha1.ClusterVersionAssessmentDegraded, want: "Control plane stalled: 97% of its operators updated to 4.15.0"},
	}
	for _, tc := range testCases {
		t.Run(string(tc.assessment), func(t *testing.T) {
			cv := &insightsv1alpha1.ClusterVersionProgressInsight{
				ObjectMeta: metav1.ObjectMeta{Name: "version"},
				Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{
					Name: "version", Assessment: tc.assessment, CompletionPercent: 97,
					Versions: insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.15.0"}},
				},
			}
			got := updatestatus.Builtin(updatestatus.Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{cv}})
			if len(got) != 1 || got[0].Impact.Summary != tc.want {
				t.Errorf("got %+v, want one insight %q", got, tc.want)
			}
		})
	}
}
