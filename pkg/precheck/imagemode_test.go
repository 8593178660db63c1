package precheck

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
)

// layeredPool is machinePool at the rendered configuration it targets, as
// the machine-config controller sets it.
func layeredPool(name string, paused bool, rendered string) *machineconfigurationv1.MachineConfigPool {
	p := machinePool(name, paused, nil)
	p.Spec.Configuration.Name, p.Status.Configuration.Name = rendered, rendered
	return p
}

// machineOSConfig is the MachineOSConfig of pool, named after it as the
// API requires, with the build controller's current-machine-os-build
// annotation when current is not empty.
func machineOSConfig(pool, current string) *machineconfigurationv1.MachineOSConfig {
	c := &machineconfigurationv1.MachineOSConfig{
		ObjectMeta: metav1.ObjectMeta{Name: pool},
		Spec:       machineconfigurationv1.MachineOSConfigSpec{MachineConfigPool: machineconfigurationv1.MachineConfigPoolReference{Name: pool}},
	}
	if current != "" {
		c.Annotations = map[string]string{imagemode.CurrentBuildAnnotation: current}
	}
	return c
}

// buildConditions are the conditions the build controller writes for a
// build in state (pkg/apihelpers/machineosbuild.go, MachineOSBuild*
// Conditions): all five, the state's True.
func buildConditions(state imagemode.State, at time.Time) []metav1.Condition {
	all := []struct {
		t               machineconfigurationv1.BuildProgress
		state           imagemode.State
		reason, message string
	}{
		{machineconfigurationv1.MachineOSBuildPrepared, imagemode.Prepared, "Prepared", "Build Prepared and Pending"},
		{machineconfigurationv1.MachineOSBuilding, imagemode.Building, "Building", "Image Build In Progress"},
		{machineconfigurationv1.MachineOSBuildFailed, imagemode.Failed, "Failed", "Build Failed"},
		{machineconfigurationv1.MachineOSBuildInterrupted, imagemode.Interrupted, "Interrupted", "Build Interrupted"},
		{machineconfigurationv1.MachineOSBuildSucceeded, imagemode.Succeeded, "Ready", "Build Ready"},
	}
	var out []metav1.Condition
	for _, c := range all {
		status := metav1.ConditionFalse
		if c.state == state {
			status = metav1.ConditionTrue
		}
		out = append(out, metav1.Condition{Type: string(c.t), Status: status, Reason: c.reason, Message: c.message, LastTransitionTime: metav1.NewTime(at)})
	}
	return out
}

// machineOSBuild is a build of MachineOSConfig config for the rendered
// configuration, created days ago, in state, that took took: its
// buildStart a minute after its creation, as the build controller sets it
// once it sees the build's Job, and its buildEnd once the build is over
// (pkg/controller/build/imagebuilder/base.go, getMachineOSBuildStatus).
// A succeeded build has its image's digest.
func machineOSBuild(name, config, rendered string, days int, state imagemode.State, took time.Duration) *machineconfigurationv1.MachineOSBuild {
	created := now.Add(-time.Duration(days) * 24 * time.Hour)
	start := metav1.NewTime(created.Add(time.Minute))
	b := &machineconfigurationv1.MachineOSBuild{
		ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(created)},
		Spec: machineconfigurationv1.MachineOSBuildSpec{
			MachineConfig:   machineconfigurationv1.MachineConfigReference{Name: rendered},
			MachineOSConfig: machineconfigurationv1.MachineOSConfigReference{Name: config},
		},
		Status: machineconfigurationv1.MachineOSBuildStatus{Conditions: buildConditions(state, start.Time), BuildStart: &start},
	}
	if state == imagemode.Succeeded || state == imagemode.Failed || state == imagemode.Interrupted {
		end := metav1.NewTime(start.Add(took))
		b.Status.BuildEnd = &end
		b.Status.Conditions = buildConditions(state, end.Time)
	}
	if state == imagemode.Succeeded {
		b.Status.DigestedImagePushSpec = machineconfigurationv1.ImageDigestFormat("image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:" + strings.Repeat("a", 64))
	}
	return b
}

// reusedBuild is a build whose image the build controller reused from an
// earlier one: succeeded, with no build run and so no times
// (pkg/controller/build/reconciler.go, reuseImageForNewMOSB).
func reusedBuild(name, config, rendered string, days int) *machineconfigurationv1.MachineOSBuild {
	b := machineOSBuild(name, config, rendered, days, imagemode.Succeeded, 0)
	b.Status.BuildStart, b.Status.BuildEnd = nil, nil
	return b
}

func TestImageBuilds(t *testing.T) {
	const rebuilds = "The update to 4.17.2 rebuilds the OS image of pool worker (MachineOSConfig worker) before any of its nodes takes the new release"
	workers := []*corev1.Node{node("worker-0", "worker"), node("worker-1", "worker"), node("worker-2", "worker")}
	tests := []struct {
		name    string
		pools   []*machineconfigurationv1.MachineConfigPool
		configs []*machineconfigurationv1.MachineOSConfig
		builds  []*machineconfigurationv1.MachineOSBuild
		want    []seen
	}{
		{
			name:   "no MachineOSConfig: the pool is not image-mode",
			pools:  []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-3")},
			builds: []*machineconfigurationv1.MachineOSBuild{machineOSBuild("worker-c", "worker", "rendered-worker-3", 1, imagemode.Failed, 5*time.Minute)},
		},
		{
			name:    "a MachineOSConfig of another pool",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-3")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("infra", "")},
		},
		{
			// The current build is past for the update, whose new
			// configuration has none yet: it counts with the others.
			name:    "past builds",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-3")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds: []*machineconfigurationv1.MachineOSBuild{
				machineOSBuild("worker-a", "worker", "rendered-worker-1", 30, imagemode.Succeeded, 40*time.Minute),
				machineOSBuild("worker-b", "worker", "rendered-worker-2", 20, imagemode.Succeeded, 20*time.Minute),
				machineOSBuild("worker-c", "worker", "rendered-worker-3", 10, imagemode.Succeeded, 25*time.Minute),
			},
			want: []seen{{"pool/worker/image-rebuild", "status", rebuilds + ": its last 3 builds took 25m (the median), 40m at the longest"}},
		},
		{
			name:    "one past build: the pool's current one",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-3")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds:  []*machineconfigurationv1.MachineOSBuild{machineOSBuild("worker-c", "worker", "rendered-worker-3", 10, imagemode.Succeeded, 25*time.Minute)},
			want:    []seen{{"pool/worker/image-rebuild", "status", rebuilds + ": its last build took 25m"}},
		},
		{
			name:    "no past build",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-3")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "")},
			want:    []seen{{"pool/worker/image-rebuild", "status", rebuilds + ": it has no past build to tell how long that takes"}},
		},
		{
			name:    "only a build that reused an image, which records no times",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-3")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds:  []*machineconfigurationv1.MachineOSBuild{reusedBuild("worker-c", "worker", "rendered-worker-3", 10)},
			want:    []seen{{"pool/worker/image-rebuild", "status", rebuilds + ": it has no past build to tell how long that takes"}},
		},
		{
			name:    "the last build failed",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-3")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds: []*machineconfigurationv1.MachineOSBuild{
				machineOSBuild("worker-b", "worker", "rendered-worker-2", 20, imagemode.Succeeded, 20*time.Minute),
				machineOSBuild("worker-c", "worker", "rendered-worker-3", 1, imagemode.Failed, 5*time.Minute),
			},
			want: []seen{
				{"pool/worker/image-rebuild", "status", rebuilds + ": its last build took 20m"},
				{"pool/worker/image-build-failed", "warning", "MachineOSBuild worker-c, the last OS image build of pool worker, failed: the same failure would hold all of the pool's nodes in the update"},
			},
		},
		{
			name:    "the last build was interrupted",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-3")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds: []*machineconfigurationv1.MachineOSBuild{
				machineOSBuild("worker-b", "worker", "rendered-worker-2", 20, imagemode.Succeeded, 20*time.Minute),
				machineOSBuild("worker-c", "worker", "rendered-worker-3", 1, imagemode.Interrupted, 5*time.Minute),
			},
			want: []seen{
				{"pool/worker/image-rebuild", "status", rebuilds + ": its last build took 20m"},
				{"pool/worker/image-build-interrupted", "warning", "MachineOSBuild worker-c, the last OS image build of pool worker, was interrupted: the same interruption would hold all of the pool's nodes in the update"},
			},
		},
		{
			// No build is of the pool's configuration yet: the last is
			// the MachineOSConfig's newest.
			name:    "the newest build failed, of an earlier configuration",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-4")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds: []*machineconfigurationv1.MachineOSBuild{
				machineOSBuild("worker-c", "worker", "rendered-worker-3", 1, imagemode.Failed, 5*time.Minute),
				machineOSBuild("worker-b", "worker", "rendered-worker-2", 20, imagemode.Succeeded, 20*time.Minute),
			},
			want: []seen{
				{"pool/worker/image-rebuild", "status", rebuilds + ": its last build took 20m"},
				{"pool/worker/image-build-failed", "warning", "MachineOSBuild worker-c, the last OS image build of pool worker, failed: the same failure would hold all of the pool's nodes in the update"},
			},
		},
		{
			name:    "the last build succeeded after one that failed",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", false, "rendered-worker-3")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")},
			builds: []*machineconfigurationv1.MachineOSBuild{
				machineOSBuild("worker-b", "worker", "rendered-worker-2", 20, imagemode.Failed, 5*time.Minute),
				machineOSBuild("worker-c", "worker", "rendered-worker-3", 10, imagemode.Succeeded, 30*time.Minute),
			},
			want: []seen{{"pool/worker/image-rebuild", "status", rebuilds + ": its last build took 30m"}},
		},
		{
			// pausedPools says its nodes keep their release.
			name:    "a paused layered pool, and one without nodes",
			pools:   []*machineconfigurationv1.MachineConfigPool{layeredPool("worker", true, "rendered-worker-3"), layeredPool("empty", false, "rendered-empty-1")},
			configs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c"), machineOSConfig("empty", "")},
			builds:  []*machineconfigurationv1.MachineOSBuild{machineOSBuild("worker-c", "worker", "rendered-worker-3", 1, imagemode.Failed, 5*time.Minute)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := imageBuilds(&Input{Target: "4.17.2", Pools: tt.pools, Nodes: workers, MachineOSConfigs: tt.configs, MachineOSBuilds: tt.builds, Now: now})
			if diff := cmp.Diff(tt.want, seenOf(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// What a failed build's finding names, and says to do: the pool, the
// build and its MachineOSConfig; the control plane's for the master pool.
func TestImageBuildFailedNamesTheBuild(t *testing.T) {
	got := imageBuilds(&Input{
		Target: "4.17.2",
		Pools:  []*machineconfigurationv1.MachineConfigPool{layeredPool("master", false, "rendered-master-2"), layeredPool("worker", false, "rendered-worker-3")},
		Nodes:  []*corev1.Node{node("master-0", "master"), node("worker-0", "worker")},
		MachineOSConfigs: []*machineconfigurationv1.MachineOSConfig{
			machineOSConfig("master", "master-b"), machineOSConfig("worker", "worker-c"),
		},
		MachineOSBuilds: []*machineconfigurationv1.MachineOSBuild{
			machineOSBuild("master-b", "master", "rendered-master-2", 3, imagemode.Succeeded, 18*time.Minute),
			machineOSBuild("worker-c", "worker", "rendered-worker-3", 1, imagemode.Failed, 5*time.Minute),
		},
		Now: now,
	})
	type shown struct {
		UID         string
		Scope       insightsv1alpha1.UpdateInsightScope
		Description string
		Reference   string
	}
	var gotShown []shown
	for _, i := range got {
		gotShown = append(gotShown, shown{i.UID, i.Scope, i.Impact.Description, i.Remediation.Reference})
	}
	worker := []insightsv1alpha1.InsightResource{poolResource("worker")}
	want := []shown{
		{
			UID:   "pool/master/image-rebuild",
			Scope: controlPlane(poolResource("master"), machineOSConfigResource("master")),
			Description: "The new release brings a new OS base image, so the machine-config operator builds pool master's OS image anew " +
				"(a MachineOSBuild of MachineOSConfig master, run by a build Job in openshift-machine-config-operator); " +
				"the pool's nodes take the new release only once the image is built and pushed, and keep the one they run meanwhile.",
		},
		{
			UID:   "pool/worker/image-rebuild",
			Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, WorkerPool: worker, Resources: []insightsv1alpha1.InsightResource{poolResource("worker"), machineOSConfigResource("worker")}},
			Description: "The new release brings a new OS base image, so the machine-config operator builds pool worker's OS image anew " +
				"(a MachineOSBuild of MachineOSConfig worker, run by a build Job in openshift-machine-config-operator); " +
				"the pool's nodes take the new release only once the image is built and pushed, and keep the one they run meanwhile. " +
				"How long the build takes is not known: MachineOSConfig worker has no earlier successful build with its start and end recorded.",
		},
		{
			UID: "pool/worker/image-build-failed",
			Scope: insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, WorkerPool: worker,
				Resources: []insightsv1alpha1.InsightResource{poolResource("worker"), machineOSBuildResource("worker-c"), machineOSConfigResource("worker")}},
			Description: "The update's build of pool worker runs from the same MachineOSConfig worker (its Containerfile, base image, pull and push secrets and registry), " +
				"and none of the pool's nodes takes the new release until it succeeds. " +
				"Find why MachineOSBuild worker-c failed: oc logs -n openshift-machine-config-operator job/build-worker-c -c image-build, while its pod is left; " +
				"its own condition says only \"Build Failed\". " +
				"It is the build of the pool's current configuration: the pool's nodes already wait on it. " +
				"Once the cause is fixed, have the machine-config operator build again before the update: " +
				"oc annotate machineosconfig/worker machineconfiguration.openshift.io/rebuild=",
			Reference: imageModeDocs,
		},
	}
	if diff := cmp.Diff(want, gotShown); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// The build check runs with the others, and a cluster that serves no
// MachineOSConfigs gets the findings it got before.
func TestImageBuildsRunWithTheOtherChecks(t *testing.T) {
	in := Input{
		ClusterVersion: clusterVersion(), Target: "4.16.5",
		Pools: []*machineconfigurationv1.MachineConfigPool{layeredPool("master", false, "rendered-master-2"), layeredPool("worker", false, "rendered-worker-3")},
		Nodes: []*corev1.Node{node("master-0", "master"), node("worker-0", "worker")},
		Now:   now,
	}
	without := Run(in)
	in.MachineOSConfigs = []*machineconfigurationv1.MachineOSConfig{machineOSConfig("worker", "worker-c")}
	in.MachineOSBuilds = []*machineconfigurationv1.MachineOSBuild{machineOSBuild("worker-c", "worker", "rendered-worker-3", 1, imagemode.Interrupted, time.Minute)}
	with := Run(in)
	var added []string
	for _, i := range with {
		found := false
		for _, j := range without {
			found = found || i.UID == j.UID
		}
		if !found {
			added = append(added, i.UID)
		}
	}
	if diff := cmp.Diff([]string{"pool/worker/image-rebuild", "pool/worker/image-build-interrupted"}, added); diff != "" {
		t.Errorf("findings added by the MachineOSConfig (-want +got):\n%s", diff)
	}
}

// The findings of pools and builds with the longest names the API allows
// make a plan the API accepts.
func TestImageBuildFindingsAreBounded(t *testing.T) {
	pool := strings.Repeat("p", 253)
	build := strings.Repeat("b", 253)
	// A label's name is shorter than a pool's: the pool selects workers.
	long := layeredPool(pool, false, "rendered-"+pool)
	long.Spec.NodeSelector = machinePool("worker", false, nil).Spec.NodeSelector
	got := imageBuilds(&Input{
		Target:           "4.17.2",
		Pools:            []*machineconfigurationv1.MachineConfigPool{long},
		Nodes:            []*corev1.Node{node("worker-0", "worker")},
		MachineOSConfigs: []*machineconfigurationv1.MachineOSConfig{machineOSConfig(pool, build)},
		MachineOSBuilds:  []*machineconfigurationv1.MachineOSBuild{machineOSBuild(build, pool, "rendered-"+pool, 1, imagemode.Failed, time.Minute)},
		Now:              now,
	})
	if len(got) != 2 {
		t.Fatalf("findings: %v, want two", seenOf(got))
	}
	checkPlan(t, apivalidation.Status("UpdatePlan"), "4.17.2", got)
}
