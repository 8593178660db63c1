package imagemode

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

var now = time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)

const (
	oldConfig = "rendered-worker-1a2b"
	newConfig = "rendered-worker-3c4d"
	oldImage  = "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:1111111111111111111111111111111111111111111111111111111111111111"
	newImage  = "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:2222222222222222222222222222222222222222222222222222222222222222"
)

func pool(name, config string) *machineconfigurationv1.MachineConfigPool {
	p := &machineconfigurationv1.MachineConfigPool{ObjectMeta: metav1.ObjectMeta{Name: name}}
	p.Spec.Configuration.Name = config
	return p
}

func config(name, pool, image, current string) *machineconfigurationv1.MachineOSConfig {
	c := &machineconfigurationv1.MachineOSConfig{ObjectMeta: metav1.ObjectMeta{Name: name}}
	c.Spec.MachineConfigPool.Name = pool
	c.Spec.RenderedImagePushSecret.Name = "push-secret"
	c.Status.CurrentImagePullSpec = machineconfigurationv1.ImageDigestFormat(image)
	if current != "" {
		c.Annotations = map[string]string{CurrentBuildAnnotation: current}
	}
	return c
}

// conditions are the condition set the build controller writes for a
// state (pkg/apihelpers/machineosbuild.go): every type, the state's True.
func conditions(state State, at time.Time) []metav1.Condition {
	var list []metav1.Condition
	for _, c := range []struct {
		t      machineconfigurationv1.BuildProgress
		state  State
		reason string
		msg    string
	}{
		{machineconfigurationv1.MachineOSBuildPrepared, Prepared, "Prepared", "Build Prepared and Pending"},
		{machineconfigurationv1.MachineOSBuilding, Building, "Building", "Image Build In Progress"},
		{machineconfigurationv1.MachineOSBuildFailed, Failed, "Failed", "Build Failed"},
		{machineconfigurationv1.MachineOSBuildInterrupted, Interrupted, "Interrupted", "Build Interrupted"},
		{machineconfigurationv1.MachineOSBuildSucceeded, Succeeded, "Ready", "Build Ready"},
	} {
		status := metav1.ConditionFalse
		if c.state == state {
			status = metav1.ConditionTrue
		}
		list = append(list, metav1.Condition{Type: string(c.t), Status: status, Reason: c.reason, Message: c.msg, LastTransitionTime: metav1.NewTime(at)})
	}
	return list
}

func build(name, mosc, mc string, state State, created, start, end time.Time, image string) *machineconfigurationv1.MachineOSBuild {
	b := &machineconfigurationv1.MachineOSBuild{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(created)}}
	b.Spec.MachineOSConfig.Name = mosc
	b.Spec.MachineConfig.Name = mc
	b.Status.Conditions = conditions(state, start)
	if state == Waiting {
		b.Status.Conditions = conditions("", created)
	}
	if !start.IsZero() && state != Waiting {
		b.Status.BuildStart = &metav1.Time{Time: start}
		b.Status.Builder = &machineconfigurationv1.MachineOSBuilderReference{ImageBuilderType: machineconfigurationv1.JobBuilder,
			Job: &machineconfigurationv1.ObjectReference{Group: "batch", Resource: "jobs", Namespace: Namespace, Name: "build-" + name}}
	}
	if !end.IsZero() {
		b.Status.BuildEnd = &metav1.Time{Time: end}
		b.Status.Conditions = conditions(state, end)
	}
	b.Status.DigestedImagePushSpec = machineconfigurationv1.ImageDigestFormat(image)
	return b
}

func TestOfPicksTheBuildOfThePoolsTargetConfiguration(t *testing.T) {
	old := build("worker-old", "worker", oldConfig, Succeeded, now.Add(-48*time.Hour), now.Add(-48*time.Hour), now.Add(-48*time.Hour+12*time.Minute), oldImage)
	older := build("worker-older", "worker", "rendered-worker-0000", Succeeded, now.Add(-96*time.Hour), now.Add(-96*time.Hour), now.Add(-96*time.Hour+20*time.Minute), oldImage)
	failedOld := build("worker-failed", "worker", "rendered-worker-ffff", Failed, now.Add(-72*time.Hour), now.Add(-72*time.Hour), now.Add(-72*time.Hour+3*time.Minute), "")
	building := build("worker-new", "worker", newConfig, Building, now.Add(-5*time.Minute), now.Add(-4*time.Minute), time.Time{}, "")
	otherPool := build("infra-new", "infra", newConfig, Building, now, now, time.Time{}, "")
	builds := []*machineconfigurationv1.MachineOSBuild{old, older, failedOld, building, otherPool}

	tests := []struct {
		name      string
		pool      *machineconfigurationv1.MachineConfigPool
		configs   []*machineconfigurationv1.MachineOSConfig
		wantNil   bool
		wantBuild string
		wantState State
		wantPast  []time.Duration
	}{
		{name: "a pool without a MachineOSConfig is not image-mode", pool: pool("worker", newConfig),
			configs: []*machineconfigurationv1.MachineOSConfig{config("infra", "infra", oldImage, "")}, wantNil: true},
		{name: "the build the annotation names, for the target", pool: pool("worker", newConfig),
			configs:   []*machineconfigurationv1.MachineOSConfig{config("worker", "worker", oldImage, "worker-new")},
			wantBuild: "worker-new", wantState: Building, wantPast: []time.Duration{12 * time.Minute, 20 * time.Minute}},
		{name: "an annotation naming a build of another configuration is stale: the build of the target", pool: pool("worker", newConfig),
			configs:   []*machineconfigurationv1.MachineOSConfig{config("worker", "worker", oldImage, "worker-old")},
			wantBuild: "worker-new", wantState: Building, wantPast: []time.Duration{12 * time.Minute, 20 * time.Minute}},
		{name: "no build yet for the target configuration", pool: pool("worker", "rendered-worker-9999"),
			configs:   []*machineconfigurationv1.MachineOSConfig{config("worker", "worker", oldImage, "worker-old")},
			wantState: Waiting, wantPast: []time.Duration{12 * time.Minute, 20 * time.Minute}},
		{name: "at rest, the pool's build is the succeeded one, not among its past", pool: pool("worker", oldConfig),
			configs:   []*machineconfigurationv1.MachineOSConfig{config("worker", "worker", oldImage, "worker-old")},
			wantBuild: "worker-old", wantState: Succeeded, wantPast: []time.Duration{20 * time.Minute}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Of(tc.pool, tc.configs, builds)
			if tc.wantNil {
				if p != nil {
					t.Fatalf("got %+v, want no image-mode pool", p)
				}
				return
			}
			if p == nil {
				t.Fatal("got no image-mode pool")
			}
			var name string
			if p.Build != nil {
				name = p.Build.Name
			}
			got := struct {
				Build string
				State State
				Past  []time.Duration
			}{name, p.State(), p.Past}
			want := struct {
				Build string
				State State
				Past  []time.Duration
			}{tc.wantBuild, tc.wantState, tc.wantPast}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestStatusSaysWhereTheBuildStands(t *testing.T) {
	start := now.Add(-4 * time.Minute)
	past := build("worker-old", "worker", oldConfig, Succeeded, now.Add(-48*time.Hour), now.Add(-48*time.Hour), now.Add(-48*time.Hour+12*time.Minute), oldImage)
	tests := []struct {
		name    string
		build   *machineconfigurationv1.MachineOSBuild
		image   string
		failure Failure
		want    *insightsv1alpha1.PoolImageBuild
		ready   bool
	}{
		{name: "no MachineOSBuild yet", image: oldImage,
			want: &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "worker", State: insightsv1alpha1.ImageBuildWaiting, Image: oldImage,
				Message: "No MachineOSBuild yet for configuration " + newConfig + "; the machine-config operator builds the pool's OS image before any node takes the configuration"}},
		{name: "created, not started", build: build("worker-new", "worker", newConfig, Waiting, now.Add(-time.Minute), time.Time{}, time.Time{}, ""), image: oldImage,
			want: &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "worker", MachineOSBuild: "worker-new", State: insightsv1alpha1.ImageBuildWaiting,
				Since: &metav1.Time{Time: now.Add(-time.Minute)}, Image: oldImage,
				Message: "MachineOSBuild worker-new for configuration " + newConfig + " has not started"}},
		{name: "building, estimated from the past build", build: build("worker-new", "worker", newConfig, Building, now.Add(-5*time.Minute), start, time.Time{}, ""), image: oldImage,
			want: &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "worker", MachineOSBuild: "worker-new", State: insightsv1alpha1.ImageBuildBuilding,
				Since: &metav1.Time{Time: start}, Image: oldImage, EstimatedToComplete: &metav1.Duration{Duration: 8 * time.Minute},
				Message: "MachineOSBuild worker-new builds the OS image for configuration " + newConfig + " in Job openshift-machine-config-operator/build-worker-new"}},
		{name: "failed, in the builder's words", build: build("worker-new", "worker", newConfig, Failed, now.Add(-5*time.Minute), start, now.Add(-time.Minute), ""), image: oldImage,
			failure: Failure{Pod: "build-worker-new-x7k2p", Container: BuildContainer, Words: "Error: pushing image: unauthorized: authentication required"},
			want: &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "worker", MachineOSBuild: "worker-new", State: insightsv1alpha1.ImageBuildFailed,
				Since: &metav1.Time{Time: now.Add(-time.Minute)}, Image: oldImage,
				Message: "MachineOSBuild worker-new failed: Error: pushing image: unauthorized: authentication required"}},
		{name: "failed, no pod left to say why", build: build("worker-new", "worker", newConfig, Failed, now.Add(-5*time.Minute), start, now.Add(-time.Minute), ""), image: oldImage,
			want: &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "worker", MachineOSBuild: "worker-new", State: insightsv1alpha1.ImageBuildFailed,
				Since: &metav1.Time{Time: now.Add(-time.Minute)}, Image: oldImage,
				Message: "MachineOSBuild worker-new failed; its build Job openshift-machine-config-operator/build-worker-new left no failed pod to say why"}},
		{name: "interrupted", build: build("worker-new", "worker", newConfig, Interrupted, now.Add(-5*time.Minute), start, now.Add(-time.Minute), ""), image: oldImage,
			want: &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "worker", MachineOSBuild: "worker-new", State: insightsv1alpha1.ImageBuildInterrupted,
				Since: &metav1.Time{Time: now.Add(-time.Minute)}, Image: oldImage,
				Message: "MachineOSBuild worker-new was interrupted: its build Job openshift-machine-config-operator/build-worker-new was deleted before it finished"}},
		{name: "succeeded, not yet taken by the MachineOSConfig", build: build("worker-new", "worker", newConfig, Succeeded, now.Add(-5*time.Minute), start, now, newImage), image: oldImage,
			want: &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "worker", MachineOSBuild: "worker-new", State: insightsv1alpha1.ImageBuildSucceeded,
				Since: &metav1.Time{Time: now}, Image: oldImage,
				Message: "MachineOSBuild worker-new succeeded; MachineOSConfig worker has not yet taken its image"}},
		{name: "succeeded and taken: the nodes roll", build: build("worker-new", "worker", newConfig, Succeeded, now.Add(-5*time.Minute), start, now, newImage), image: newImage, ready: true,
			want: &insightsv1alpha1.PoolImageBuild{MachineOSConfig: "worker", MachineOSBuild: "worker-new", State: insightsv1alpha1.ImageBuildSucceeded,
				Since: &metav1.Time{Time: now}, Image: newImage,
				Message: "MachineOSBuild worker-new built the image; the pool's nodes take it with configuration " + newConfig}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			builds := []*machineconfigurationv1.MachineOSBuild{past}
			if tc.build != nil {
				builds = append(builds, tc.build)
			}
			p := Of(pool("worker", newConfig), []*machineconfigurationv1.MachineOSConfig{config("worker", "worker", tc.image, "")}, builds)
			if diff := cmp.Diff(tc.want, Status(p, newConfig, tc.failure, now)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if p.Ready() != tc.ready {
				t.Errorf("Ready() = %v, want %v", p.Ready(), tc.ready)
			}
		})
	}
}

func failedPod(name string, created time.Time, statuses ...corev1.ContainerStatus) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace, CreationTimestamp: metav1.NewTime(created),
			Labels: map[string]string{JobNameLabel: "build-worker-new"}},
		Status: corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: statuses},
	}
}

func terminated(name string, code int32, message string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code, Reason: "Error", Message: message}}}
}

func TestFailureOfReadsTheLastFailedPodsBuildContainer(t *testing.T) {
	tests := []struct {
		name string
		pods []*corev1.Pod
		want Failure
	}{
		{name: "no failed pod", pods: []*corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "build-worker-new-a", Namespace: Namespace,
			Labels: map[string]string{JobNameLabel: "build-worker-new"}}, Status: corev1.PodStatus{Phase: corev1.PodRunning}}}, want: Failure{}},
		{name: "the newest failed pod, its build container before the digest one", pods: []*corev1.Pod{
			failedPod("build-worker-new-old", now.Add(-10*time.Minute), terminated(BuildContainer, 1, "Error: first try")),
			failedPod("build-worker-new-new", now.Add(-2*time.Minute), terminated("create-digest-configmap", 1, "digest failed too"),
				terminated(BuildContainer, 125, "Error: pushing image: unauthorized: authentication required")),
		}, want: Failure{Pod: "build-worker-new-new", Container: BuildContainer, Words: "Error: pushing image: unauthorized: authentication required"}},
		{name: "a container that left no message", pods: []*corev1.Pod{failedPod("build-worker-new-a", now, terminated(BuildContainer, 137, ""))},
			want: Failure{Pod: "build-worker-new-a", Container: BuildContainer, Words: "exited with code 137 (Error), leaving no message"}},
		{name: "another Job's pod is not this build's", pods: []*corev1.Pod{func() *corev1.Pod {
			p := failedPod("build-infra-x", now, terminated(BuildContainer, 1, "no"))
			p.Labels[JobNameLabel] = "build-infra-x"
			return p
		}()}, want: Failure{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, FailureOf("build-worker-new", tc.pods)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestALongLogKeepsItsLastWholeLines(t *testing.T) {
	var log string
	for i := 0; i < 100; i++ {
		log += "STEP 3/9: RUN dnf install -y some-package-with-a-long-name\n"
	}
	const last = "Error: building at STEP \"RUN dnf install -y cowsay\": exit status 1"
	log += last
	words := FailureOf("build-worker-new", []*corev1.Pod{failedPod("build-worker-new-a", now, terminated(BuildContainer, 1, log))}).Words
	kept := strings.TrimPrefix(words, "…")
	if kept == words || len(kept) > maxWords || !strings.HasSuffix(kept, last) || !strings.HasPrefix(kept, "STEP 3/9") {
		t.Errorf("got %d bytes %q, want at most %d bytes after an ellipsis, from a line's start to %q", len(kept), words, maxWords, last)
	}
}
