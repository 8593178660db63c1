package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
)

// buildStage is a moment of the image-mode pool's roll at which the
// operator, and its status command, have something new to say.
type buildStage string

const (
	// stageBuilding: the pool's new MachineOSBuild builds; the nodes wait.
	stageBuilding buildStage = "building"
	// stageFailed: the build failed; the nodes still wait.
	stageFailed buildStage = "failed"
	// stageRebuilding: the rebuild annotation replaced the failed build
	// with a new one, which builds.
	stageRebuilding buildStage = "rebuilding"
	// stageRolling: the build succeeded, the MachineOSConfig took its
	// image, and a node is given the configuration and the image.
	stageRolling buildStage = "rolling"
	// stageCompleted: every node of the pool runs both.
	stageCompleted buildStage = "completed"
)

// buildStep is what the roll tells of a stage.
type buildStep struct {
	stage buildStage
	// build is the MachineOSBuild of the pool's new configuration,
	// rendered that configuration and from the one its nodes run before.
	build, rendered, from string
	// pod is the build's last failed pod and words what its build
	// container left as its termination message (stageFailed).
	pod, words string
	// node is the node that rolls (stageRolling).
	node string
	// image is the image the nodes take (stageRolling, stageCompleted).
	image string
}

// imageBuild is one build of the pool's configuration: its MachineOSBuild
// and its Job, and the Job's pods, oldest first.
type imageBuild struct {
	name, rendered string
	job            *batchv1.Job
	pods           []*corev1.Pod
}

// roll plays the image-mode pool's update to version, as the
// machine-config operator's controllers carry it out: the render
// controller points the pool at its new rendered configuration; the build
// controller creates its MachineOSBuild and build Job, which prepares and
// then builds, while the node controller gives no node the configuration
// (isLayeredPoolBuilding in pkg/controller/node/status.go); once the build
// succeeded and the MachineOSConfig took its image, the nodes roll one at a
// time with the configuration and the image. With watch, the first build
// fails (its Job's pods fail to push, jobMaxRetries+1 times) and the
// administrator applies the rebuild annotation, which replaces the failed
// build by a new one of the same name, which succeeds; watch is called at
// each stage and may hold the roll there.
func (l *layeredPool) roll(ctx context.Context, c *clients, n *recordedNodes, version string, step time.Duration, watch func(buildStep) error) error {
	pause := func() bool { return sleep(ctx, step) }
	pool, err := c.machineConfiguration.MachineconfigurationV1().MachineConfigPools().Get(ctx, l.name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	from := pool.Spec.Configuration.Name
	rendered, err := render(ctx, c, l.name, version)
	if err != nil {
		return err
	}
	if err := l.syncStatus(ctx, c); err != nil {
		return err
	}
	say("the render controller points the %s pool at %s: its nodes take it only once the build controller has built its OS image", l.name, rendered)
	b, err := l.startBuild(ctx, c, rendered)
	if err != nil {
		return err
	}
	if !pause() {
		return nil
	}
	if err := l.runPod(ctx, c, b); err != nil {
		return err
	}
	s := buildStep{build: b.name, rendered: rendered, from: from}
	if watch != nil {
		s.stage = stageBuilding
		if err := watch(s); err != nil {
			return err
		}
		for attempt := 1; ; attempt++ {
			if err := l.failPod(ctx, c, b); err != nil {
				return err
			}
			if attempt > jobMaxRetries {
				break
			}
			if !pause() {
				return nil
			}
			if err := l.runPod(ctx, c, b); err != nil {
				return err
			}
		}
		if err := l.failBuild(ctx, c, b); err != nil {
			return err
		}
		last := b.pods[len(b.pods)-1]
		s.stage, s.pod, s.words = stageFailed, last.Name, last.Status.InitContainerStatuses[0].State.Terminated.Message
		say("MachineOSBuild %s is Failed: the pods of its Job %s/%s failed %d times, the last, %s, with: %s",
			b.name, imagemode.Namespace, b.job.Name, len(b.pods), last.Name, lastLine(s.words))
		if err := watch(s); err != nil {
			return err
		}
		if b, err = l.rebuild(ctx, c, b); err != nil {
			return err
		}
		if !pause() {
			return nil
		}
		if err := l.runPod(ctx, c, b); err != nil {
			return err
		}
		s.stage, s.pod, s.words = stageRebuilding, "", ""
		if err := watch(s); err != nil {
			return err
		}
	}
	if !pause() {
		return nil
	}
	if err := l.succeed(ctx, c, b); err != nil {
		return err
	}
	s.image = l.digested(b.name)
	say("MachineOSBuild %s Succeeded: MachineOSConfig %s takes its image %s, and the node controller gives the %s pool's nodes %s with it", b.name, l.name, s.image, l.name, rendered)
	first := true
	drainAsked := func(node string) error {
		if watch == nil || !first {
			return nil
		}
		first = false
		s.stage, s.node = stageRolling, node
		return watch(s)
	}
	if err := n.rollNodes(ctx, c, l.name, rendered, s.image, step, drainAsked); err != nil || ctx.Err() != nil {
		return err
	}
	if watch != nil {
		s.stage, s.node = stageCompleted, ""
		return watch(s)
	}
	return nil
}

// startBuild is the build controller's start of a build for the pool's new
// rendered configuration (createNewMachineOSBuildOrReuseExisting and
// startBuild in pkg/controller/build/reconciler.go): the MachineOSBuild,
// then its Job (jobimagebuilder.go, start), whose UID the MachineOSBuild's
// job-uid annotation records, then the MachineOSBuild's first status,
// Prepared, and the MachineOSConfig's current-machine-os-build annotation
// naming it (updateMachineOSConfigStatus, which leaves the status to a
// succeeded build).
func (l *layeredPool) startBuild(ctx context.Context, c *clients, rendered string) (*imageBuild, error) {
	mcfg := c.machineConfiguration.MachineconfigurationV1()
	mosc, err := mcfg.MachineOSConfigs().Get(ctx, l.name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	mosb, err := l.createBuild(ctx, c, mosc, rendered)
	if err != nil {
		return nil, err
	}
	b := &imageBuild{name: mosb.Name, rendered: rendered}
	if b.job, err = c.kube.BatchV1().Jobs(imagemode.Namespace).Create(ctx, l.jobFor(mosb), metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("creating the build Job of MachineOSBuild %s: %w", b.name, err)
	}
	if err := l.updateBuild(ctx, c, b.name, func(mosb *machineconfigurationv1.MachineOSBuild) {
		mosb.Annotations[jobUIDAnnotation] = string(b.job.UID)
	}, nil); err != nil {
		return nil, err
	}
	now := time.Now()
	if err := l.updateBuild(ctx, c, b.name, nil, func(status *machineconfigurationv1.MachineOSBuildStatus) {
		status.BuildStart = &metav1.Time{Time: now}
		status.Builder = jobReference(b.name)
		setBuildConditions(status, imagemode.Prepared, now)
	}); err != nil {
		return nil, err
	}
	if err := l.annotate(ctx, c, func(a map[string]string) { a[imagemode.CurrentBuildAnnotation] = b.name }); err != nil {
		return nil, err
	}
	say("the build controller creates MachineOSBuild %s for %s, and its build Job %s/%s: the build is Prepared", b.name, rendered, imagemode.Namespace, b.job.Name)
	return b, l.syncStatus(ctx, c)
}

// updateBuild changes a MachineOSBuild's metadata (meta) or status.
func (l *layeredPool) updateBuild(ctx context.Context, c *clients, name string, meta func(*machineconfigurationv1.MachineOSBuild), status func(*machineconfigurationv1.MachineOSBuildStatus)) error {
	builds := c.machineConfiguration.MachineconfigurationV1().MachineOSBuilds()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		mosb, err := builds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if meta != nil {
			if mosb.Annotations == nil {
				mosb.Annotations = map[string]string{}
			}
			meta(mosb)
			_, err = builds.Update(ctx, mosb, metav1.UpdateOptions{})
			return err
		}
		status(&mosb.Status)
		_, err = builds.UpdateStatus(ctx, mosb, metav1.UpdateOptions{})
		return err
	})
}

var (
	fixtureRendered = regexp.MustCompile(`rendered-worker-[0-9a-f]{32}`)
	fixtureBuild    = regexp.MustCompile(`worker-[0-9a-f]{32}`)
	fixtureTime     = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
)

// forBuild is the fixture's build pod made the pod of build b: the names
// the build controller derives from the MachineOSBuild, its rendered
// configuration and its pool (the ConfigMaps and Secrets it mounts, the
// image tag, the digest ConfigMap's labels, the push's words) are b's.
func (l *layeredPool) forBuild(b *imageBuild) (*corev1.Pod, error) {
	data, err := json.Marshal(l.pod)
	if err != nil {
		return nil, err
	}
	s := fixtureRendered.ReplaceAllString(string(data), b.rendered)
	s = fixtureBuild.ReplaceAllString(s, b.name)
	s = strings.NewReplacer("machine-os-config=worker", "machine-os-config="+l.name, "target-machine-config-pool=worker", "target-machine-config-pool="+l.name).Replace(s)
	var pod corev1.Pod
	if err := json.Unmarshal([]byte(s), &pod); err != nil {
		return nil, err
	}
	pod.Spec.NodeName = l.buildNode
	return &pod, nil
}

// jobFor is the build Job of a MachineOSBuild as the build controller
// creates it (podToJob and toBuildahPod in pkg/controller/build/
// buildrequest/buildrequest.go): the build request's labels and
// annotations, owned by the MachineOSBuild, backoffLimit jobMaxRetries,
// one completion, and the build pod's spec as its template, without what
// the pod's admission and scheduling added. The API server adds the Job's
// selector and its template's labels.
func (l *layeredPool) jobFor(mosb *machineconfigurationv1.MachineOSBuild) *batchv1.Job {
	pod, err := l.forBuild(&imageBuild{name: mosb.Name, rendered: mosb.Spec.MachineConfig.Name})
	if err != nil {
		// The fixture was decoded into a Pod, which encodes again.
		panic(err)
	}
	spec := pod.Spec
	spec.NodeName, spec.ImagePullSecrets, spec.Tolerations, spec.SecurityContext, spec.DeprecatedServiceAccount = "", nil, nil, nil, ""
	isToken := func(name string) bool { return strings.HasPrefix(name, "kube-api-access-") }
	var volumes []corev1.Volume
	for _, v := range spec.Volumes {
		if !isToken(v.Name) {
			volumes = append(volumes, v)
		}
	}
	spec.Volumes = volumes
	for _, containers := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range containers {
			var mounts []corev1.VolumeMount
			for _, m := range containers[i].VolumeMounts {
				if !isToken(m.Name) {
					mounts = append(mounts, m)
				}
			}
			containers[i].VolumeMounts = mounts
		}
	}
	labels := map[string]string{
		ephemeralBuildObjectLabel: "", onClusterLayeringLabel: "",
		renderedConfigLabel:  mosb.Spec.MachineConfig.Name,
		targetPoolLabel:      l.name,
		machineOSConfigLabel: mosb.Spec.MachineOSConfig.Name,
		machineOSBuildLabel:  mosb.Name,
	}
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{
			Name: "build-" + mosb.Name, Namespace: imagemode.Namespace, Labels: labels,
			Annotations:     map[string]string{machineOSConfigLabel: mosb.Spec.MachineOSConfig.Name, machineOSBuildLabel: mosb.Name},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(mosb, machineconfigurationv1.SchemeGroupVersion.WithKind("MachineOSBuild"))},
		},
		Spec: batchv1.JobSpec{
			BackoffLimit: ptr.To[int32](jobMaxRetries),
			Completions:  ptr.To[int32](1),
			Template:     corev1.PodTemplateSpec{Spec: spec},
		},
	}
}

// runPod is the Job controller's next pod of the build's Job, which the
// scheduler binds and whose build container the kubelet starts: the pod
// is Pending while its init container builds (the kubelet's status:
// pkg/kubelet/status/generate.go). The Job counts it active, and the
// build controller's MachineOSBuild is Building (MapJobStatusToBuildStatus
// in imagebuilder/jobimagebuilder.go). A retry's pod is created in a later
// second than the pod before it, as the Job controller's backoff has it
// (ten seconds and more): the pods' creation times tell which is last.
func (l *layeredPool) runPod(ctx context.Context, c *clients, b *imageBuild) error {
	if len(b.pods) > 0 {
		previous := b.pods[len(b.pods)-1].CreationTimestamp.Time
		for !time.Now().Truncate(time.Second).After(previous) {
			if !sleep(ctx, 50*time.Millisecond) {
				return ctx.Err()
			}
		}
	}
	template, err := l.forBuild(b)
	if err != nil {
		return err
	}
	pods := c.kube.CoreV1().Pods(imagemode.Namespace)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: b.job.Name + "-", Namespace: imagemode.Namespace, Labels: b.job.Spec.Template.Labels,
			Annotations:     template.Annotations,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(b.job, batchv1.SchemeGroupVersion.WithKind("Job"))},
		},
		Spec: template.Spec,
	}
	created, err := pods.Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating a pod of Job %s/%s: %w", imagemode.Namespace, b.job.Name, err)
	}
	now := metav1.Now()
	created.Status = corev1.PodStatus{
		Phase: corev1.PodPending, HostIP: template.Status.HostIP, HostIPs: template.Status.HostIPs, PodIP: template.Status.PodIP, PodIPs: template.Status.PodIPs,
		StartTime: &now, QOSClass: corev1.PodQOSBestEffort,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.PodInitialized, Status: corev1.ConditionFalse, Reason: "ContainersNotInitialized", Message: "containers with incomplete status: [" + imagemode.BuildContainer + "]", LastTransitionTime: now},
			{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", Message: "containers with unready status: [" + template.Spec.Containers[0].Name + "]", LastTransitionTime: now},
			{Type: corev1.ContainersReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", Message: "containers with unready status: [" + template.Spec.Containers[0].Name + "]", LastTransitionTime: now},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
		},
		InitContainerStatuses: []corev1.ContainerStatus{l.buildContainer(created, corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}, true)},
		ContainerStatuses:     []corev1.ContainerStatus{digestContainer(created, corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "PodInitializing"}})},
	}
	if created, err = pods.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing pod %s/%s status as its kubelet: %w", imagemode.Namespace, created.Name, err)
	}
	b.pods = append(b.pods, created)
	if err := l.jobStatus(ctx, c, b, func(s *batchv1.JobStatus) {
		if s.StartTime == nil {
			s.StartTime = &now
		}
		s.Active, s.Ready, s.Terminating = 1, ptr.To[int32](0), ptr.To[int32](0)
		s.UncountedTerminatedPods = &batchv1.UncountedTerminatedPods{}
	}); err != nil {
		return err
	}
	if len(b.pods) == 1 {
		if err := l.updateBuild(ctx, c, b.name, nil, func(status *machineconfigurationv1.MachineOSBuildStatus) {
			setBuildConditions(status, imagemode.Building, now.Time)
		}); err != nil {
			return err
		}
		say("MachineOSBuild %s is Building: its Job's pod %s/%s builds the image", b.name, imagemode.Namespace, created.Name)
	} else {
		say("the Job %s/%s retries the build in pod %s/%s (%d of %d)", imagemode.Namespace, b.job.Name, imagemode.Namespace, created.Name, len(b.pods), jobMaxRetries+1)
	}
	return l.syncStatus(ctx, c)
}

// buildContainer is the status of the pod's build container in state.
func (l *layeredPool) buildContainer(pod *corev1.Pod, state corev1.ContainerState, started bool) corev1.ContainerStatus {
	fixture := l.pod.Status.InitContainerStatuses[0]
	return corev1.ContainerStatus{
		Name: imagemode.BuildContainer, Image: fixture.Image, ImageID: fixture.ImageID,
		ContainerID: containerID(pod.Name + "/" + imagemode.BuildContainer), Started: ptr.To(started), State: state,
	}
}

// digestContainer is the status of the pod's digest container in state.
func digestContainer(pod *corev1.Pod, state corev1.ContainerState) corev1.ContainerStatus {
	c := pod.Spec.Containers[0]
	s := corev1.ContainerStatus{Name: c.Name, Image: c.Image, Started: ptr.To(state.Running != nil), State: state}
	if state.Waiting == nil {
		s.ImageID, s.ContainerID = c.Image, containerID(pod.Name+"/"+c.Name)
	}
	return s
}

// failPod is the kubelet's account of a pod whose build container failed
// to push the image: the container's exit code and, as
// TerminationMessagePolicy FallbackToLogsOnError has it, the tail of its
// log as its termination message, the fixture's (a real buildah push
// refused by the registry); the pod Failed, its digest container never
// started (build-pod-failed.yaml). The Job counts it failed.
func (l *layeredPool) failPod(ctx context.Context, c *clients, b *imageBuild) error {
	pod := b.pods[len(b.pods)-1]
	fixture := l.pod.Status.InitContainerStatuses[0].State.Terminated
	now := metav1.Now()
	words, err := l.forBuild(b)
	if err != nil {
		return err
	}
	message := fixtureTime.ReplaceAllString(words.Status.InitContainerStatuses[0].State.Terminated.Message, now.UTC().Format(time.RFC3339))
	started := pod.Status.InitContainerStatuses[0].State.Running.StartedAt
	pod.Status.Phase = corev1.PodFailed
	for i := range pod.Status.Conditions {
		cond := &pod.Status.Conditions[i]
		switch cond.Type {
		case corev1.PodReadyToStartContainers:
			cond.Status, cond.LastTransitionTime = corev1.ConditionFalse, now
		case corev1.PodReady, corev1.ContainersReady:
			cond.Reason, cond.Message = "PodFailed", ""
		}
	}
	pod.Status.InitContainerStatuses = []corev1.ContainerStatus{l.buildContainer(pod, corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
		ExitCode: fixture.ExitCode, Reason: fixture.Reason, Message: message, StartedAt: started, FinishedAt: now,
		ContainerID: containerID(pod.Name + "/" + imagemode.BuildContainer),
	}}, false)}
	updated, err := c.kube.CoreV1().Pods(imagemode.Namespace).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("writing pod %s/%s status as its kubelet: %w", imagemode.Namespace, pod.Name, err)
	}
	b.pods[len(b.pods)-1] = updated
	return l.jobStatus(ctx, c, b, func(s *batchv1.JobStatus) {
		s.Active, s.Failed = 0, s.Failed+1
	})
}

// failBuild is the Job controller's verdict once its pods failed past its
// backoff limit (FailureTarget, then Failed: BackoffLimitExceeded), and
// the build controller's: the MachineOSBuild Failed, with its end
// (MapJobStatusToBuildStatus; getMachineOSBuildStatus).
func (l *layeredPool) failBuild(ctx context.Context, c *clients, b *imageBuild) error {
	now := metav1.Now()
	if err := l.jobStatus(ctx, c, b, func(s *batchv1.JobStatus) {
		for _, t := range []batchv1.JobConditionType{batchv1.JobFailureTarget, batchv1.JobFailed} {
			s.Conditions = append(s.Conditions, batchv1.JobCondition{Type: t, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonBackoffLimitExceeded,
				Message: "Job has reached the specified backoff limit", LastProbeTime: now, LastTransitionTime: now})
		}
	}); err != nil {
		return err
	}
	if err := l.updateBuild(ctx, c, b.name, nil, func(status *machineconfigurationv1.MachineOSBuildStatus) {
		if status.BuildEnd == nil {
			status.BuildEnd = buildEnd(status.BuildStart, now)
		}
		setBuildConditions(status, imagemode.Failed, now.Time)
	}); err != nil {
		return err
	}
	return l.syncStatus(ctx, c)
}

// rebuild is the administrator's retry and the build controller's answer
// (rebuildMachineOSConfig and createNewMachineOSBuildForRebuild in
// reconciler.go): the rebuild annotation on the MachineOSConfig; the
// failed MachineOSBuild deleted, which its foregroundDeletion finalizer
// holds until the garbage collector has deleted its Job and the Job's
// pods; once it is gone, a new MachineOSBuild of the same name, started
// as any build is. The rebuild annotation stays until a build succeeds.
func (l *layeredPool) rebuild(ctx context.Context, c *clients, b *imageBuild) (*imageBuild, error) {
	if err := l.annotate(ctx, c, func(a map[string]string) { a[imagemode.RebuildAnnotation] = "" }); err != nil {
		return nil, err
	}
	say("the administrator retries the build: oc annotate machineosconfig/%s %s=", l.name, imagemode.RebuildAnnotation)
	builds := c.machineConfiguration.MachineconfigurationV1().MachineOSBuilds()
	if err := builds.Delete(ctx, b.name, metav1.DeleteOptions{}); err != nil {
		return nil, fmt.Errorf("deleting MachineOSBuild %s: %w", b.name, err)
	}
	if err := l.deleteJob(ctx, c, b); err != nil {
		return nil, err
	}
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		mosb, err := builds.Get(ctx, b.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		mosb.Finalizers = nil
		_, err = builds.Update(ctx, mosb, metav1.UpdateOptions{})
		return err
	}); err != nil && !apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("removing MachineOSBuild %s's finalizer as the garbage collector: %w", b.name, err)
	}
	// The build controller waits for the old MachineOSBuild to be gone
	// before it creates the new one, at most 90 seconds.
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 90*time.Second, true, func(ctx context.Context) (bool, error) {
		_, err := builds.Get(ctx, b.name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	}); err != nil {
		return nil, fmt.Errorf("waiting for MachineOSBuild %s to be deleted: %w", b.name, err)
	}
	say("the build controller deleted MachineOSBuild %s, and the garbage collector its Job and pods; it creates the build anew", b.name)
	return l.startBuild(ctx, c, b.rendered)
}

// deleteJob deletes the build's Job in the background, as the build
// controller's cleaner does, and its pods, as the garbage collector then
// does.
func (l *layeredPool) deleteJob(ctx context.Context, c *clients, b *imageBuild) error {
	background := metav1.DeletePropagationBackground
	if err := c.kube.BatchV1().Jobs(imagemode.Namespace).Delete(ctx, b.job.Name, metav1.DeleteOptions{PropagationPolicy: &background}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting Job %s/%s: %w", imagemode.Namespace, b.job.Name, err)
	}
	for _, pod := range b.pods {
		if err := c.kube.CoreV1().Pods(imagemode.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting pod %s/%s as the garbage collector: %w", imagemode.Namespace, pod.Name, err)
		}
	}
	return nil
}

// succeed is a build that pushes its image: the build container completes,
// the digest container writes the digest-<build> ConfigMap
// (create-digest-cm.sh) and completes, the pod Succeeds and the Job
// completes; the build controller reads the digest, marks the
// MachineOSBuild Succeeded with its digested image, cleans up the Job
// (reconciler.go, updateMachineOSBuild) and has the MachineOSConfig take
// the image.
func (l *layeredPool) succeed(ctx context.Context, c *clients, b *imageBuild) error {
	pods := c.kube.CoreV1().Pods(imagemode.Namespace)
	pod := b.pods[len(b.pods)-1]
	started := pod.Status.InitContainerStatuses[0].State.Running.StartedAt
	now := metav1.Now()
	done := func(container string, from metav1.Time) corev1.ContainerState {
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: from, FinishedAt: now,
			ContainerID: containerID(pod.Name + "/" + container)}}
	}
	digester := pod.Spec.Containers[0].Name
	pod.Status.InitContainerStatuses = []corev1.ContainerStatus{l.buildContainer(pod, done(imagemode.BuildContainer, started), false)}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{digestContainer(pod, corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}})}
	pod.Status.Phase = corev1.PodRunning
	for i := range pod.Status.Conditions {
		if cond := &pod.Status.Conditions[i]; cond.Type == corev1.PodInitialized {
			cond.Status, cond.Reason, cond.Message, cond.LastTransitionTime = corev1.ConditionTrue, "", "", now
		}
	}
	pod, err := pods.UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("writing pod %s/%s status as its kubelet: %w", imagemode.Namespace, b.pods[len(b.pods)-1].Name, err)
	}
	digest := l.digested(b.name)
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: imagemode.Namespace, Name: "digest-" + b.name, Labels: b.job.Labels},
		Data:       map[string]string{"digest": digest[strings.LastIndexByte(digest, '@')+1:]},
	}
	if _, err := c.kube.CoreV1().ConfigMaps(imagemode.Namespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating ConfigMap %s/%s as the digest container: %w", imagemode.Namespace, cm.Name, err)
	}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{digestContainer(pod, done(digester, now))}
	pod.Status.Phase = corev1.PodSucceeded
	for i := range pod.Status.Conditions {
		switch cond := &pod.Status.Conditions[i]; cond.Type {
		case corev1.PodReady, corev1.ContainersReady:
			cond.Reason, cond.Message = "PodCompleted", ""
		case corev1.PodReadyToStartContainers:
			cond.Status = corev1.ConditionFalse
		}
	}
	if pod, err = pods.UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing pod %s/%s status as its kubelet: %w", imagemode.Namespace, pod.Name, err)
	}
	b.pods[len(b.pods)-1] = pod
	if err := l.jobStatus(ctx, c, b, func(s *batchv1.JobStatus) {
		s.Active, s.Succeeded = 0, 1
		s.CompletionTime = &now
		for _, t := range []batchv1.JobConditionType{batchv1.JobSuccessCriteriaMet, batchv1.JobComplete} {
			s.Conditions = append(s.Conditions, batchv1.JobCondition{Type: t, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonCompletionsReached,
				Message: "Reached expected number of succeeded pods", LastProbeTime: now, LastTransitionTime: now})
		}
	}); err != nil {
		return err
	}
	if err := l.updateBuild(ctx, c, b.name, nil, func(status *machineconfigurationv1.MachineOSBuildStatus) {
		if status.BuildEnd == nil {
			status.BuildEnd = buildEnd(status.BuildStart, now)
		}
		status.DigestedImagePushSpec = machineconfigurationv1.ImageDigestFormat(digest)
		setBuildConditions(status, imagemode.Succeeded, now.Time)
	}); err != nil {
		return err
	}
	if err := l.deleteJob(ctx, c, b); err != nil {
		return err
	}
	if err := l.takeImage(ctx, c, b.name); err != nil {
		return err
	}
	return l.syncStatus(ctx, c)
}

// jobStatus writes the build Job's status as the Job controller does.
func (l *layeredPool) jobStatus(ctx context.Context, c *clients, b *imageBuild, change func(*batchv1.JobStatus)) error {
	jobs := c.kube.BatchV1().Jobs(imagemode.Namespace)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		job, err := jobs.Get(ctx, b.job.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(&job.Status)
		updated, err := jobs.UpdateStatus(ctx, job, metav1.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("writing Job %s/%s status as the Job controller: %w", imagemode.Namespace, b.job.Name, err)
		}
		b.job = updated
		return nil
	})
}

// containerID is a CRI-O container ID, made up of what it names.
func containerID(of string) string {
	return fmt.Sprintf("cri-o://%x", sha256.Sum256([]byte(of)))
}

// lastLine is the last line of a build log that says something: the error
// a failed build ended on.
func lastLine(words string) string {
	lines := strings.Split(strings.TrimSpace(words), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// buildEnd is when a build played in seconds ends: now, or a second after
// its start when it started within the same second. The API holds buildEnd
// to be after buildStart, in the whole seconds it keeps of them; a real
// build takes minutes.
func buildEnd(start *metav1.Time, now metav1.Time) *metav1.Time {
	if start != nil && !now.Truncate(time.Second).After(start.Truncate(time.Second)) {
		end := metav1.NewTime(start.Truncate(time.Second).Add(time.Second))
		return &end
	}
	return &now
}
