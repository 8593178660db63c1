package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

const (
	// The worker pool's images: the one its nodes run, and the one the
	// update's build pushes (digests as the machine-config API requires).
	layeredOldImage = "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:1111111111111111111111111111111111111111111111111111111111111111"
	layeredNewImage = "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image@sha256:2222222222222222222222222222222222222222222222222222222222222222"
	layeredBuild    = "worker-3c01bf1ea5a0dbcad5c26b159f570718"
	pushFailure     = `Error: pushing image "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image:worker-3c01" to "docker://image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image:worker-3c01": unauthorized: authentication required`
)

// buildConditions are the conditions the build controller writes for a
// build in state (pkg/apihelpers/machineosbuild.go): all five types, the
// state's True.
func buildConditions(state imagemode.State) []metav1.Condition {
	now := metav1.Now()
	var list []metav1.Condition
	for _, c := range []struct {
		t      machineconfigurationv1.BuildProgress
		reason string
		msg    string
	}{
		{machineconfigurationv1.MachineOSBuildPrepared, "Prepared", "Build Prepared and Pending"},
		{machineconfigurationv1.MachineOSBuilding, "Building", "Image Build In Progress"},
		{machineconfigurationv1.MachineOSBuildFailed, "Failed", "Build Failed"},
		{machineconfigurationv1.MachineOSBuildInterrupted, "Interrupted", "Build Interrupted"},
		{machineconfigurationv1.MachineOSBuildSucceeded, "Ready", "Build Ready"},
	} {
		status := metav1.ConditionFalse
		if string(c.t) == string(state) {
			status = metav1.ConditionTrue
		}
		list = append(list, metav1.Condition{Type: string(c.t), Status: status, Reason: c.reason, Message: c.msg, LastTransitionTime: now})
	}
	return list
}

// createLayeredWorkerPool makes the worker pool image-mode: its
// MachineOSConfig, at rest with the image its nodes run.
func createLayeredWorkerPool(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	c := machineConfigClient(t).MachineconfigurationV1()
	mosc := &machineconfigurationv1.MachineOSConfig{
		ObjectMeta: metav1.ObjectMeta{Name: nodes.WorkerPool},
		Spec: machineconfigurationv1.MachineOSConfigSpec{
			MachineConfigPool:       machineconfigurationv1.MachineConfigPoolReference{Name: nodes.WorkerPool},
			ImageBuilder:            machineconfigurationv1.MachineOSImageBuilder{ImageBuilderType: machineconfigurationv1.JobBuilder},
			RenderedImagePushSecret: machineconfigurationv1.ImageSecretObjectReference{Name: "builder-dockercfg-7lzwl"},
			RenderedImagePushSpec:   "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image:latest",
		},
	}
	created, err := c.MachineOSConfigs().Create(ctx, mosc, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.MachineOSConfigs().Delete(context.Background(), mosc.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Error(err)
		}
	})
	created.Status.CurrentImagePullSpec = layeredOldImage
	if _, err := c.MachineOSConfigs().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// setBuild writes the update's MachineOSBuild in state, creating it first.
func setBuild(t *testing.T, state imagemode.State, digest string) {
	t.Helper()
	ctx := context.Background()
	builds := machineConfigClient(t).MachineconfigurationV1().MachineOSBuilds()
	b, err := builds.Get(ctx, layeredBuild, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		b, err = builds.Create(ctx, &machineconfigurationv1.MachineOSBuild{
			ObjectMeta: metav1.ObjectMeta{Name: layeredBuild},
			Spec: machineconfigurationv1.MachineOSBuildSpec{
				MachineConfig:         machineconfigurationv1.MachineConfigReference{Name: newWorkerConfig},
				MachineOSConfig:       machineconfigurationv1.MachineOSConfigReference{Name: nodes.WorkerPool},
				RenderedImagePushSpec: "image-registry.openshift-image-registry.svc:5000/openshift-machine-config-operator/os-image:worker-3c01",
			},
		}, metav1.CreateOptions{})
		t.Cleanup(func() {
			if err := builds.Delete(context.Background(), layeredBuild, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Error(err)
			}
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	// The build controller sets buildStart once (imagebuilder/base.go), and
	// the schema holds it to that.
	start := metav1.Now()
	if b.Status.BuildStart != nil {
		start = *b.Status.BuildStart
	}
	b.Status = machineconfigurationv1.MachineOSBuildStatus{
		Conditions: buildConditions(state),
		BuildStart: &start,
		Builder: &machineconfigurationv1.MachineOSBuilderReference{ImageBuilderType: machineconfigurationv1.JobBuilder,
			Job: &machineconfigurationv1.ObjectReference{Group: "batch", Resource: "jobs", Namespace: imagemode.Namespace, Name: "build-" + layeredBuild}},
		DigestedImagePushSpec: machineconfigurationv1.ImageDigestFormat(digest),
	}
	if state == imagemode.Succeeded || state == imagemode.Failed {
		end := metav1.NewTime(time.Now().Add(time.Second))
		b.Status.BuildEnd = &end
	}
	if _, err := builds.UpdateStatus(ctx, b, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing MachineOSBuild %s %s: %v", layeredBuild, state, err)
	}
}

// createFailedBuildPod is the build Job's pod whose image-build container
// failed to push, its termination message the tail of its log.
func createFailedBuildPod(t *testing.T) {
	t.Helper()
	ensureNamespace(t, imagemode.Namespace)
	ctx := context.Background()
	pods := kubeClient.CoreV1().Pods(imagemode.Namespace)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "build-" + layeredBuild + "-x7k2q", Labels: map[string]string{imagemode.JobNameLabel: "build-" + layeredBuild, "job-name": "build-" + layeredBuild}},
		Spec:       corev1.PodSpec{InitContainers: []corev1.Container{{Name: imagemode.BuildContainer, Image: "quay.io/buildah/stable"}}, Containers: []corev1.Container{{Name: "create-digest-configmap", Image: "quay.io/openshift/origin-cli"}}, RestartPolicy: corev1.RestartPolicyNever},
	}
	created, err := pods.Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		zero := int64(0)
		if err := pods.Delete(context.Background(), pod.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil && !apierrors.IsNotFound(err) {
			t.Error(err)
		}
	})
	created.Status = corev1.PodStatus{Phase: corev1.PodFailed, InitContainerStatuses: []corev1.ContainerStatus{{Name: imagemode.BuildContainer,
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 125, Reason: "Error", Message: "Copying blob sha256:5f70bf18a086\n" + pushFailure}}}}}
	if _, err := pods.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// imageBuildView is what a test reads of a pool's build.
type imageBuildView struct {
	State    insightsv1alpha1.ImageBuildState
	Build    string
	Image    string
	Updating string
}

func waitForImageBuild(t *testing.T, want imageBuildView) *insightsv1alpha1.MachineConfigPoolProgressInsight {
	t.Helper()
	return waitForView(t, eventually, "the worker pool's image build", func(ctx context.Context) (*insightsv1alpha1.MachineConfigPoolProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().MachineConfigPoolProgressInsights().Get(ctx, nodes.WorkerPool, metav1.GetOptions{})
	}, func(i *insightsv1alpha1.MachineConfigPoolProgressInsight) imageBuildView {
		v := imageBuildView{Updating: conditionState(i.Status.Conditions, insightsv1alpha1.MachineConfigPoolProgressInsightUpdating)}
		if b := i.Status.ImageBuild; b != nil {
			v.State, v.Build, v.Image = b.State, b.MachineOSBuild, b.Image
		}
		return v
	}, want)
}

// TestAnImageModePoolsUpdateWaitsOnItsBuild plays an image-mode worker
// pool through an update on the real API server: its nodes wait while the
// build of its new configuration runs, its failure (in the build pod's
// words) stops the pool and is a health insight the API accepts, and once
// a build succeeds and the MachineOSConfig takes its image the nodes roll
// and the pool completes.
func TestAnImageModePoolsUpdateWaitsOnItsBuild(t *testing.T) {
	installImageModeCRDs(t)
	startNodeOperator(t)
	createLayeredWorkerPool(t)
	createNode(t, "worker-0", withChanges(atRest(oldWorkerConfig), map[string]string{nodes.CurrentImageAnnotation: layeredOldImage, nodes.DesiredImageAnnotation: layeredOldImage}), "worker")
	setPoolTarget(t, nodes.WorkerPool, newWorkerConfig)

	waitForImageBuild(t, imageBuildView{State: insightsv1alpha1.ImageBuildWaiting, Image: layeredOldImage, Updating: "True BuildingImage"})
	setBuild(t, imagemode.Building, "")
	waitForImageBuild(t, imageBuildView{State: insightsv1alpha1.ImageBuildBuilding, Build: layeredBuild, Image: layeredOldImage, Updating: "True BuildingImage"})
	// The node insight follows the build's status as the watch delivers it.
	waiting := "waits for its pool's OS image (MachineOSBuild " + layeredBuild + ", Building)"
	waitForView(t, eventually, "worker-0 waiting on the build", func(ctx context.Context) (*insightsv1alpha1.NodeProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().NodeProgressInsights().Get(ctx, "worker-0", metav1.GetOptions{})
	}, func(i *insightsv1alpha1.NodeProgressInsight) string {
		c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
		if c == nil {
			return "no Updating condition"
		}
		return fmt.Sprintf("%s %s, says it %s: %t", c.Status, c.Reason, waiting, strings.Contains(c.Message, waiting))
	}, "False Pending, says it "+waiting+": true")

	createFailedBuildPod(t)
	setBuild(t, imagemode.Failed, "")
	waitForImageBuild(t, imageBuildView{State: insightsv1alpha1.ImageBuildFailed, Build: layeredBuild, Image: layeredOldImage, Updating: "False ImageBuildStopped"})
	// The summary is one line of the API's 256 characters that keeps the
	// push error's end, its cause; the description holds it whole.
	failed := waitForView(t, eventually, "the failed build's health insight", func(ctx context.Context) (*insightsv1alpha1.UpdateHealthInsightList, error) {
		return insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{LabelSelector: "insight-manager=node"})
	}, func(l *insightsv1alpha1.UpdateHealthInsightList) []string {
		var views []string
		for i := range l.Items {
			v := viewHealth(&l.Items[i])
			views = append(views, fmt.Sprintf("%s %s %s starts=%t ends=%t fits=%t", v.Level, v.Scope, v.Resources,
				strings.HasPrefix(v.Summary, "OS image build "+layeredBuild+" of pool worker failed: "),
				strings.HasSuffix(v.Summary, "unauthorized: authentication required"), len(v.Summary) <= insightsv1alpha1.InsightSummaryMaxLength))
		}
		return views
	}, []string{"Error WorkerPool machineconfigpools/worker,machineosbuilds/" + layeredBuild + " starts=true ends=true fits=true"}).Items
	description := failed[0].Status.Impact.Description
	for _, want := range []string{pushFailure, "oc logs -n openshift-machine-config-operator build-" + layeredBuild + "-x7k2q -c image-build",
		"builder-dockercfg-7lzwl", "oc annotate machineosconfig/worker machineconfiguration.openshift.io/rebuild="} {
		if !strings.Contains(description, want) {
			t.Errorf("the failed build's description does not say %q:\n%s", want, description)
		}
	}

	// The rebuild annotation makes the build controller delete the failed
	// MachineOSBuild, whose Job and pods go with it, and create it anew
	// (pkg/controller/build/reconciler.go, rebuildMachineOSConfig): a
	// Failed build's conditions are immutable, as the API server holds.
	retryBuild(t)
	setBuild(t, imagemode.Building, "")
	waitForImageBuild(t, imageBuildView{State: insightsv1alpha1.ImageBuildBuilding, Build: layeredBuild, Image: layeredOldImage, Updating: "True BuildingImage"})
	waitForHealthInsightsOf(t, "insight-manager=node", nil)

	setBuild(t, imagemode.Succeeded, layeredNewImage)
	setImage(t, layeredNewImage)
	// Built: the update goes on to the nodes, as the machine-config
	// operator's "Pool is waiting for nodes to apply OS image" says.
	waitForImageBuild(t, imageBuildView{State: insightsv1alpha1.ImageBuildSucceeded, Build: layeredBuild, Image: layeredNewImage, Updating: "True Progressing"})

	// The node controller gives the node the configuration and the image
	// together, and the daemon writes both as it finishes.
	setNodeAnnotations(t, "worker-0", map[string]string{nodes.DesiredConfigAnnotation: newWorkerConfig, nodes.DesiredImageAnnotation: layeredNewImage, nodes.StateAnnotation: "Working"})
	waitForImageBuild(t, imageBuildView{State: insightsv1alpha1.ImageBuildSucceeded, Build: layeredBuild, Image: layeredNewImage, Updating: "True Progressing"})
	setNodeAnnotations(t, "worker-0", map[string]string{nodes.CurrentConfigAnnotation: newWorkerConfig, nodes.CurrentImageAnnotation: layeredNewImage, nodes.StateAnnotation: "Done"})
	waitForImageBuild(t, imageBuildView{State: insightsv1alpha1.ImageBuildSucceeded, Build: layeredBuild, Image: layeredNewImage, Updating: "False Completed"})
}

// retryBuild deletes the failed build and its pod, as a rebuild does.
func retryBuild(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	zero := int64(0)
	if err := kubeClient.CoreV1().Pods(imagemode.Namespace).Delete(ctx, "build-"+layeredBuild+"-x7k2q", metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
	if err := machineConfigClient(t).MachineconfigurationV1().MachineOSBuilds().Delete(ctx, layeredBuild, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// setImage is the build controller giving the MachineOSConfig its new
// image once the build succeeded (pkg/controller/build/reconciler.go).
func setImage(t *testing.T, image string) {
	t.Helper()
	ctx := context.Background()
	c := machineConfigClient(t).MachineconfigurationV1().MachineOSConfigs()
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		mosc, err := c.Get(ctx, nodes.WorkerPool, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		mosc.Status.CurrentImagePullSpec = machineconfigurationv1.ImageDigestFormat(image)
		mosc.Status.MachineOSBuild = &machineconfigurationv1.ObjectReference{Group: machineconfigurationv1.GroupName, Resource: "machineosbuilds", Name: layeredBuild}
		_, err = c.UpdateStatus(ctx, mosc, metav1.UpdateOptions{})
		return err == nil, unlessConflict(err)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// unlessConflict passes on errors other than a conflict, which a retry
// resolves.
func unlessConflict(err error) error {
	if apierrors.IsConflict(err) {
		return nil
	}
	return err
}
