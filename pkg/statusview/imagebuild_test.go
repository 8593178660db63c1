package statusview_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// TestAnImageModePoolSaysWhereItsBuildStands checks the line status prints
// under the pools for an image-mode pool with nodes to update, and none
// once the pool is updated or for a pool without a build.
func TestAnImageModePoolSaysWhereItsBuildStands(t *testing.T) {
	since := metav1.NewTime(now.Add(-3*time.Minute - 500*time.Millisecond))
	building := &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "layered", MachineOSBuild: "layered-3c01", State: insightsv1alpha1.ImageBuildBuilding,
		Since: &since, EstimatedToComplete: &metav1.Duration{Duration: 9 * time.Minute},
		Message: "MachineOSBuild layered-3c01 builds the OS image for configuration rendered-layered-new in Job openshift-machine-config-operator/build-layered-3c01"}
	failed := &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "layered", MachineOSBuild: "layered-3c01", State: insightsv1alpha1.ImageBuildFailed,
		Since: &since, Message: "MachineOSBuild layered-3c01 failed: Error: pushing image: unauthorized: authentication required"}
	built := &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "layered", MachineOSBuild: "layered-3c01", State: insightsv1alpha1.ImageBuildSucceeded,
		Since: &since, Message: "MachineOSBuild layered-3c01 built the image; the pool's nodes take it with configuration rendered-layered-new"}
	testCases := []struct {
		name       string
		build      *insightsv1alpha1.PoolImageBuild
		assessment insightsv1alpha1.PoolAssessment
		want       []string
	}{
		{name: "building, with its estimate", build: building, assessment: insightsv1alpha1.PoolProgressing,
			want: []string{"MachineConfigPool layered: OS image build Building since " + since.UTC().Format(time.RFC3339) + " (3m), about 9m left by its past builds: " + building.Message}},
		{name: "failed, in the builder's words", build: failed, assessment: insightsv1alpha1.PoolDegraded,
			want: []string{"MachineConfigPool layered: OS image build Failed since " + since.UTC().Format(time.RFC3339) + " (3m): " + failed.Message}},
		{name: "waiting for a MachineOSBuild", assessment: insightsv1alpha1.PoolProgressing,
			build: &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "layered", State: insightsv1alpha1.ImageBuildWaiting, Message: "No MachineOSBuild yet"},
			want:  []string{"MachineConfigPool layered: OS image build Waiting: No MachineOSBuild yet"}},
		{name: "a completed pool says nothing of its build", build: building, assessment: insightsv1alpha1.PoolCompleted},
		{name: "built before the update reaches the pool: the image its nodes run, no news", build: built, assessment: insightsv1alpha1.PoolPending},
		{name: "built, the nodes taking it", build: built, assessment: insightsv1alpha1.PoolProgressing,
			want: []string{"MachineConfigPool layered: OS image build Succeeded since " + since.UTC().Format(time.RFC3339) + " (3m): " + built.Message}},
		{name: "a pool without a build says nothing", assessment: insightsv1alpha1.PoolProgressing},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			pool := workerPool("layered")
			pool.Status.Assessment, pool.Status.ImageBuild = tc.assessment, tc.build
			in := &statusview.Insights{ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{progressing},
				MachineConfigPools: []*insightsv1alpha1.MachineConfigPoolProgressInsight{pool}, Nodes: []*insightsv1alpha1.NodeProgressInsight{poolNode("layered")}}
			s, err := statusview.Build(in, now)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := statusview.WriteText(&out, s, statusview.Details{}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, line := range strings.Split(out.String(), "\n") {
				if strings.Contains(line, "OS image build") {
					got = append(got, line)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("image build lines (-want +got):\n%s\nwhole text:\n%s", diff, out.String())
			}
		})
	}
}
