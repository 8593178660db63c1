package nodes

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

const (
	oldImage   = "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:1111111111111111111111111111111111111111111111111111111111111111"
	newImage   = "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:2222222222222222222222222222222222222222222222222222222222222222"
	buildName  = "worker-3c01bf1ea5a0dbcad5c26b159f570718"
	pastBuild  = "worker-0ec39f24a6bc2fc31c5776d1d0854500"
	pushSecret = "builder-dockercfg-7lzwl"
)

// layered is the image-mode state of the worker pool targeting newConfig,
// its build in state since at, its MachineOSConfig's image image, and one
// past build of 12 minutes.
func layered(state imagemode.State, at time.Time, image string) *imagemode.Pool {
	mosc := &machineconfigurationv1.MachineOSConfig{ObjectMeta: metav1.ObjectMeta{Name: WorkerPool}}
	mosc.Spec.MachineConfigPool.Name = WorkerPool
	mosc.Spec.RenderedImagePushSecret.Name = pushSecret
	mosc.Spec.RenderedImagePushSpec = "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image:latest"
	mosc.Status.CurrentImagePullSpec = machineconfigurationv1.ImageDigestFormat(image)
	build := func(name, config string, state imagemode.State, start, end time.Time, digest string) *machineconfigurationv1.MachineOSBuild {
		b := &machineconfigurationv1.MachineOSBuild{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(start)}}
		b.Spec.MachineOSConfig.Name, b.Spec.MachineConfig.Name = WorkerPool, config
		for _, t := range []imagemode.State{imagemode.Prepared, imagemode.Building, imagemode.Failed, imagemode.Interrupted, imagemode.Succeeded} {
			status := metav1.ConditionFalse
			if t == state {
				status = metav1.ConditionTrue
			}
			at := start
			if !end.IsZero() {
				at = end
			}
			b.Status.Conditions = append(b.Status.Conditions, metav1.Condition{Type: string(t), Status: status, LastTransitionTime: metav1.NewTime(at)})
		}
		b.Status.BuildStart = &metav1.Time{Time: start}
		if !end.IsZero() {
			b.Status.BuildEnd = &metav1.Time{Time: end}
		}
		b.Status.DigestedImagePushSpec = machineconfigurationv1.ImageDigestFormat(digest)
		return b
	}
	builds := []*machineconfigurationv1.MachineOSBuild{build(pastBuild, oldConfig, imagemode.Succeeded, now.Add(-72*time.Hour), now.Add(-72*time.Hour+12*time.Minute), oldImage)}
	if state != imagemode.Waiting {
		var end time.Time
		var digest string
		switch state {
		case imagemode.Succeeded:
			end, digest = at, newImage
		case imagemode.Failed, imagemode.Interrupted:
			end = at
		}
		builds = append(builds, build(buildName, newConfig, state, at, end, digest))
	}
	pool := testPool(WorkerPool, false)
	pool.Spec.Configuration.Name = newConfig
	return imagemode.Of(pool, []*machineconfigurationv1.MachineOSConfig{mosc}, builds)
}

// imageAnnotations are a node's configurations and images.
func imageAnnotations(current, desired, state, currentImage, desiredImage string) map[string]string {
	a := mcd(current, desired, state, "uncordon-"+current, "uncordon-"+current, "")
	a[CurrentImageAnnotation], a[DesiredImageAnnotation] = currentImage, desiredImage
	return a
}

// phase is what a test expects of a node's phase.
type phase struct {
	Updating   string
	Version    string
	InProgress bool
}

func TestANodeOfAnImageModePoolWaitsOnItsBuild(t *testing.T) {
	started := now.Add(-4 * time.Minute)
	testCases := []struct {
		name        string
		annotations map[string]string
		image       *imagemode.Pool
		want        phase
		wantMessage string
		atConfig    bool
		// poolTarget is the pool's configuration, newConfig if empty.
		poolTarget string
	}{{
		name:        "building: the node is pending on the build",
		annotations: imageAnnotations(oldConfig, oldConfig, stateDone, oldImage, oldImage),
		image:       layered(imagemode.Building, started, oldImage),
		want:        phase{Updating: "False " + insightsv1alpha1.NodePending, Version: previous},
		wantMessage: "The node is at version " + previous + " and waits for its pool's OS image (MachineOSBuild " + buildName + ", Building) before it is updated to " + target,
	}, {
		name:        "failed: the node says what it waits on",
		annotations: imageAnnotations(oldConfig, oldConfig, stateDone, oldImage, oldImage),
		image:       layered(imagemode.Failed, started, oldImage),
		want:        phase{Updating: "False " + insightsv1alpha1.NodePending, Version: previous},
		wantMessage: "The node is at version " + previous + " and waits for its pool's OS image (MachineOSBuild " + buildName + ", whose build failed) before it is updated to " + target,
	}, {
		name:        "built: told the configuration and the image together, it updates to both",
		annotations: imageAnnotations(oldConfig, newConfig, stateWorking, oldImage, newImage),
		image:       layered(imagemode.Succeeded, started, newImage),
		want:        phase{Updating: "True " + insightsv1alpha1.NodeUpdating, Version: previous, InProgress: true},
		wantMessage: "The node is updating to " + target + " (its pool's OS image " + newImage + ")",
	}, {
		name:        "done: the daemon wrote both, the node is updated and runs its pool's configuration",
		annotations: imageAnnotations(newConfig, newConfig, stateDone, newImage, newImage),
		image:       layered(imagemode.Succeeded, started, newImage),
		want:        phase{Updating: "False " + insightsv1alpha1.NodeCompleted, Version: target},
		wantMessage: "The node is at version " + target,
		atConfig:    true,
	}, {
		name:        "at the target version, rolling to a new image: updated, not at its pool's configuration",
		annotations: imageAnnotations(newConfig, newConfig, stateWorking, oldImage, newImage),
		image:       layered(imagemode.Succeeded, started, newImage),
		want:        phase{Updating: "False " + insightsv1alpha1.NodeCompleted, Version: target},
		wantMessage: "The node is at version " + target,
	}, {
		name:        "before the update reaches the pool, its build is no wait of the update's",
		annotations: imageAnnotations(oldConfig, oldConfig, stateDone, oldImage, oldImage),
		image:       layered(imagemode.Building, started, oldImage),
		poolTarget:  oldConfig,
		want:        phase{Updating: "False " + insightsv1alpha1.NodePending, Version: previous},
		wantMessage: "The node is at version " + previous + " and waits to be updated to " + target,
		atConfig:    true,
	}, {
		name:        "a pool that is not image-mode is as before",
		annotations: mcd(oldConfig, oldConfig, stateDone, "uncordon-"+oldConfig, "uncordon-"+oldConfig, ""),
		want:        phase{Updating: "False " + insightsv1alpha1.NodePending, Version: previous},
		wantMessage: "The node is at version " + previous + " and waits to be updated to " + target,
	}}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			pool := testPool(WorkerPool, false)
			pool.Spec.Configuration.Name = newConfig
			if tc.poolTarget != "" {
				pool.Spec.Configuration.Name = tc.poolTarget
			}
			a := NodeProgress(Input{Node: testNode("worker-0", tc.annotations, healthy(), false), Pool: pool, Versions: versions,
				Target: target, Image: tc.image, Now: now})
			s := summarize(a)
			got := phase{Updating: s.Updating + " " + s.UpdatingReason, Version: s.Version, InProgress: s.InProgress}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if m := meta.FindStatusCondition(a.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating).Message; m != tc.wantMessage {
				t.Errorf("Updating message %q, want %q", m, tc.wantMessage)
			}
			if a.AtPoolConfiguration != tc.atConfig {
				t.Errorf("AtPoolConfiguration = %v, want %v", a.AtPoolConfiguration, tc.atConfig)
			}
		})
	}
}

func TestAnImageModePoolsUpdateWaitsOnItsBuild(t *testing.T) {
	started := now.Add(-4 * time.Minute)
	pending := nodeStatus(insightsv1alpha1.NodePending, false, true)
	testCases := []struct {
		name       string
		image      *imagemode.Pool
		nodes      []*Assessment
		assessment insightsv1alpha1.PoolAssessment
		updating   string
		healthy    string
		problems   []string
		// before says the pool's target configuration is not yet the
		// update's.
		before bool
	}{{
		name: "building: progressing, on the build", image: layered(imagemode.Building, started, oldImage), nodes: repeat(3, pending),
		assessment: insightsv1alpha1.PoolProgressing, updating: "True " + PoolReasonBuildingImage, healthy: "True " + insightsv1alpha1.NodeAsExpected,
	}, {
		name: "no build yet: progressing, waiting for one", image: layered(imagemode.Waiting, started, oldImage), nodes: repeat(3, pending),
		assessment: insightsv1alpha1.PoolProgressing, updating: "True " + PoolReasonBuildingImage, healthy: "True " + insightsv1alpha1.NodeAsExpected,
	}, {
		name: "failed: degraded, stopped, and a health insight", image: layered(imagemode.Failed, started, oldImage), nodes: repeat(3, pending),
		assessment: insightsv1alpha1.PoolDegraded, updating: "False " + PoolReasonImageBuildStopped, healthy: "False " + PoolReasonImageBuildStopped,
		problems: []string{health.ImageBuildFailed},
	}, {
		name: "interrupted: degraded, stopped, and a health insight", image: layered(imagemode.Interrupted, started, oldImage), nodes: repeat(3, pending),
		assessment: insightsv1alpha1.PoolDegraded, updating: "False " + PoolReasonImageBuildStopped, healthy: "False " + PoolReasonImageBuildStopped,
		problems: []string{health.ImageBuildInterrupted},
	}, {
		name: "built and taken: progressing on to the nodes", image: layered(imagemode.Succeeded, started, newImage), nodes: repeat(3, pending),
		assessment: insightsv1alpha1.PoolProgressing, updating: "True " + PoolReasonProgressing, healthy: "True " + insightsv1alpha1.NodeAsExpected,
	}, {
		name: "before the update reaches the pool, a failed build of the configuration its nodes run holds no update", image: layered(imagemode.Failed, started, oldImage),
		nodes: repeat(3, pending), before: true,
		assessment: insightsv1alpha1.PoolPending, updating: "False " + PoolReasonPending, healthy: "True " + insightsv1alpha1.NodeAsExpected,
	}, {
		name: "before the update reaches the pool, a build of its running configuration is no wait", image: layered(imagemode.Building, started, oldImage),
		nodes: repeat(3, pending), before: true,
		assessment: insightsv1alpha1.PoolPending, updating: "False " + PoolReasonPending, healthy: "True " + insightsv1alpha1.NodeAsExpected,
	}, {
		name: "a build failing once every node is updated holds no update", image: layered(imagemode.Failed, started, oldImage),
		nodes:      repeat(3, nodeStatus(insightsv1alpha1.NodeCompleted, false, true)),
		assessment: insightsv1alpha1.PoolCompleted, updating: "False " + PoolReasonCompleted, healthy: "True " + insightsv1alpha1.NodeAsExpected,
	}, {
		name: "running far past its longest past build", image: layered(imagemode.Building, now.Add(-31*time.Minute), oldImage), nodes: repeat(3, pending),
		assessment: insightsv1alpha1.PoolProgressing, updating: "True " + PoolReasonBuildingImage, healthy: "True " + insightsv1alpha1.NodeAsExpected,
		problems: []string{health.ImageBuildSlow},
	}}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			pool := testPool(WorkerPool, false)
			pool.Spec.Configuration.Name = newConfig
			failure := imagemode.Failure{Pod: "build-" + buildName + "-x7k2q", Container: imagemode.BuildContainer, Words: "Error: pushing image: unauthorized: authentication required"}
			status, insights, _ := AssessPool(pool, tc.nodes, NewPoolImage(pool, tc.image, failure, !tc.before, now), nil, now)
			if status.Assessment != tc.assessment {
				t.Errorf("assessment %s, want %s", status.Assessment, tc.assessment)
			}
			for _, c := range []struct{ t, want string }{{insightsv1alpha1.MachineConfigPoolProgressInsightUpdating, tc.updating}, {insightsv1alpha1.MachineConfigPoolProgressInsightHealthy, tc.healthy}} {
				got := meta.FindStatusCondition(status.Conditions, c.t)
				if s := string(got.Status) + " " + got.Reason; s != c.want {
					t.Errorf("%s %s (%s), want %s", c.t, s, got.Message, c.want)
				}
			}
			if status.ImageBuild == nil || status.ImageBuild.State != insightsv1alpha1.ImageBuildState(tc.image.State()) {
				t.Errorf("imageBuild %+v, want state %s", status.ImageBuild, tc.image.State())
			}
			var problems []string
			for _, i := range insights {
				problems = append(problems, i.Problem)
			}
			if diff := cmp.Diff(tc.problems, problems); diff != "" {
				t.Errorf("health insights (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAFailedBuildsInsightSaysHowToReadAndRetryIt(t *testing.T) {
	pool := testPool(WorkerPool, false)
	pool.Spec.Configuration.Name = newConfig
	failure := imagemode.Failure{Pod: "build-" + buildName + "-x7k2q", Container: imagemode.BuildContainer,
		Words: "Copying blob sha256:5f70bf18a086\nError: pushing image: unauthorized: authentication required"}
	failedAt := now.Add(-time.Minute)
	_, insights, _ := AssessPool(pool, repeat(2, nodeStatus(insightsv1alpha1.NodePending, false, true)),
		NewPoolImage(pool, layered(imagemode.Failed, failedAt, oldImage), failure, true, now), nil, now)
	if len(insights) != 1 {
		t.Fatalf("got %d health insights, want the failed build's", len(insights))
	}
	s := insights[0].Status
	if want := "OS image build " + buildName + " of pool worker failed: Error: pushing image: unauthorized: authentication required"; s.Impact.Summary != want {
		t.Errorf("summary %q, want %q", s.Impact.Summary, want)
	}
	if !s.StartedAt.Time.Equal(failedAt) {
		t.Errorf("startedAt %s, want the build's failure at %s", s.StartedAt, failedAt)
	}
	var resources []string
	for _, r := range s.Scope.Resources {
		resources = append(resources, r.Resource+"/"+r.Name)
	}
	if diff := cmp.Diff([]string{"machineconfigpools/worker", "machineosbuilds/" + buildName}, resources); diff != "" {
		t.Errorf("scope (-want +got):\n%s", diff)
	}
	for _, want := range []string{failure.Words, "oc logs -n openshift-machine-config-operator build-" + buildName + "-x7k2q -c image-build",
		pushSecret, "oc annotate machineosconfig/worker machineconfiguration.openshift.io/rebuild="} {
		if !strings.Contains(s.Impact.Description, want) {
			t.Errorf("description does not say %q:\n%s", want, s.Impact.Description)
		}
	}
}

func TestASlowBuildIsReportedWhenItTurnsSlow(t *testing.T) {
	pool := testPool(WorkerPool, false)
	pool.Spec.Configuration.Name = newConfig
	started := now.Add(-10 * time.Minute)
	_, insights, next := AssessPool(pool, repeat(2, nodeStatus(insightsv1alpha1.NodePending, false, true)),
		NewPoolImage(pool, layered(imagemode.Building, started, oldImage), imagemode.Failure{}, true, now), nil, now)
	if len(insights) != 0 {
		t.Errorf("got %d health insights 10 minutes into a build whose past took 12, want none", len(insights))
	}
	// The estimate counts down each minute, before the build turns slow at
	// 30 minutes (twice 12 is less than the floor).
	if want := now.Add(time.Minute); !next.Equal(want) {
		t.Errorf("next look at %s, want %s", next, want)
	}
	if got := health.SlowAfter(12 * time.Minute); got != 30*time.Minute {
		t.Errorf("SlowAfter(12m) = %s, want the 30 minute floor", got)
	}
}
