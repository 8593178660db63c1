package main

import (
	"context"
	"crypto/md5" //nolint:gosec // names, as the machine-config operator makes them, not secrets
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// An image-mode (layered) worker pool played beside the recorded ones: a
// custom MachineConfigPool with a MachineOSConfig, whose OS image the
// machine-config operator's build controller builds for each new rendered
// configuration before its node controller gives any of the pool's nodes
// the configuration (openshift/machine-config-operator,
// pkg/controller/build and pkg/controller/node/node_controller.go). No
// machine-config operator runs on the local cluster: this file and
// imagebuild.go write what its controllers, the Kubernetes Job controller,
// the garbage collector and the kubelet would.
const (
	layeredPoolName = "layered"
	// imageModeCRDs are the machine-config operator's MachineOSConfig,
	// MachineOSBuild and MachineConfigNode CRDs, which a cluster serves
	// from OpenShift 4.19 on.
	imageModeCRDs = "test/testdata/crds/imagemode"
	// imageModeFixtures holds the machine-config operator's objects in the
	// shapes it writes them (its README says which code each follows):
	// the played MachineOSConfig's spec and the build pod's are theirs.
	imageModeFixtures = "test/testdata/imagemode"
	// layeredNodeCount is how many nodes the pool has.
	layeredNodeCount = 2
	// pastBuildTook is how long the MachineOSConfig's last build, of the
	// pool's configuration before the update, took: what the operator
	// estimates the update's build from.
	pastBuildTook = 7*time.Minute + 36*time.Second
	// pastBuildAgo is when that build started.
	pastBuildAgo = 3 * time.Hour
)

// Labels and annotations of the build controller
// (pkg/controller/build/constants/constants.go).
const (
	onClusterLayeringLabel    = "machineconfiguration.openshift.io/on-cluster-layering"
	ephemeralBuildObjectLabel = "machineconfiguration.openshift.io/ephemeral-build-object"
	renderedConfigLabel       = "machineconfiguration.openshift.io/rendered-machine-config"
	targetPoolLabel           = "machineconfiguration.openshift.io/target-machine-config-pool"
	machineOSConfigLabel      = "machineconfiguration.openshift.io/machine-os-config"
	machineOSBuildLabel       = "machineconfiguration.openshift.io/machine-os-build"
	jobUIDAnnotation          = "machineconfiguration.openshift.io/job-uid"
	pushSecretAnnotation      = "machineconfiguration.openshift.io/rendered-image-push-secret"
	// jobMaxRetries is the build Job's backoffLimit: its pods fail
	// jobMaxRetries+1 times before the build is Failed.
	jobMaxRetries = 3
)

// layeredPool is the image-mode pool, its nodes and its MachineOSConfig.
type layeredPool struct {
	name string
	// nodes are the pool's nodes; buildNode the worker its build pods run on.
	nodes     []string
	buildNode string
	// from is the release of its configuration before the update.
	from string
	// config is the MachineOSConfig as a user writes it, without status.
	config *machineconfigurationv1.MachineOSConfig
	// pod is the fixture's failed build pod: the spec every build pod
	// has, and the words of a failed push.
	pod *corev1.Pod
}

// newLayeredPool adds the image-mode pool to the recorded cluster's pools
// and nodes, before its worker pool so that it rolls first: a custom pool
// beside the worker pool, whose configuration is rendered from the same
// MachineConfigs (machineConfigSelector role in [worker, layered]), with
// its own nodes. They carry only the pool's role label: run-local's worker
// pool counts its nodes by its role label, as the machine-config operator
// leaves out of the worker pool the nodes of a custom pool
// (getNodesForPool in pkg/controller/node/node_controller.go).
func newLayeredPool(n *recordedNodes) (*layeredPool, error) {
	i := slices.IndexFunc(n.pools, func(p *machineconfigurationv1.MachineConfigPool) bool { return p.Name == names.WorkerPool })
	if i < 0 {
		return nil, fmt.Errorf("no worker pool to play an image-mode pool beside")
	}
	worker := n.pools[i]
	from := ""
	for _, mc := range n.configs {
		if mc.Name == worker.Spec.Configuration.Name {
			from, _ = nodes.VersionOf(mc)
		}
	}
	if from == "" {
		return nil, fmt.Errorf("the worker pool's configuration %s has no release version", worker.Spec.Configuration.Name)
	}
	var template *corev1.Node
	for _, node := range n.nodes {
		if _, ok := node.Labels["node-role.kubernetes.io/"+names.WorkerPool]; ok {
			template = node
		}
	}
	if template == nil {
		return nil, fmt.Errorf("no worker node to model the image-mode pool's nodes on")
	}
	l := &layeredPool{name: layeredPoolName, from: from, buildNode: template.Name}
	if err := l.loadFixtures(); err != nil {
		return nil, err
	}

	pool := worker.DeepCopy()
	pool.ObjectMeta = metav1.ObjectMeta{Name: l.name, Labels: map[string]string{"pools.operator.machineconfiguration.openshift.io/" + l.name: ""}}
	pool.Spec.Configuration.Name = renderedName(l.name, from)
	pool.Spec.MachineConfigSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
		Key: "machineconfiguration.openshift.io/role", Operator: metav1.LabelSelectorOpIn, Values: []string{names.WorkerPool, l.name},
	}}}
	pool.Spec.NodeSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/" + l.name: ""}}
	pool.Status = machineconfigurationv1.MachineConfigPoolStatus{}
	n.pools = slices.Insert(n.pools, i, pool)

	image := l.digested(l.pastBuildName())
	for _, ip := range []string{"10-0-41-87", "10-0-58-212", "10-0-37-150"}[:layeredNodeCount] {
		node := template.DeepCopy()
		node.ObjectMeta = metav1.ObjectMeta{Name: "ip-" + ip + ".us-east-2.compute.internal",
			Labels: map[string]string{"node-role.kubernetes.io/" + l.name: ""}, Annotations: map[string]string{}}
		for k, v := range template.Annotations {
			node.Annotations[k] = v
		}
		rendered := pool.Spec.Configuration.Name
		node.Annotations[nodes.CurrentConfigAnnotation] = rendered
		node.Annotations[nodes.DesiredConfigAnnotation] = rendered
		node.Annotations[nodes.DesiredDrainAnnotation] = "uncordon-" + rendered
		node.Annotations[nodes.LastAppliedDrainAnnotation] = "uncordon-" + rendered
		node.Annotations[nodes.DesiredImageAnnotation] = image
		node.Annotations[nodes.CurrentImageAnnotation] = image
		n.nodes = append(n.nodes, node)
		l.nodes = append(l.nodes, node.Name)
	}
	n.layered = l
	return l, nil
}

// loadFixtures reads the MachineOSConfig's spec and the build pod from
// imageModeFixtures, for the pool worker they were taken from: the names
// they hold are the fixture's, which each build replaces with its own.
func (l *layeredPool) loadFixtures() error {
	var mosc machineconfigurationv1.MachineOSConfig
	if err := readFixture("machineosconfig.yaml", &mosc); err != nil {
		return err
	}
	mosc.ObjectMeta = metav1.ObjectMeta{Name: l.name}
	mosc.Spec.MachineConfigPool.Name = l.name
	mosc.Status = machineconfigurationv1.MachineOSConfigStatus{}
	l.config = &mosc
	var pod corev1.Pod
	if err := readFixture("build-pod-failed.yaml", &pod); err != nil {
		return err
	}
	if len(pod.Spec.InitContainers) == 0 || pod.Spec.InitContainers[0].Name != imagemode.BuildContainer ||
		len(pod.Status.InitContainerStatuses) == 0 || pod.Status.InitContainerStatuses[0].State.Terminated == nil {
		return fmt.Errorf("%s: want the failed pod's init container %s, terminated", filepath.Join(imageModeFixtures, "build-pod-failed.yaml"), imagemode.BuildContainer)
	}
	l.pod = &pod
	return nil
}

func readFixture(file string, into any) error {
	path := filepath.Join(imageModeFixtures, file)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(data, into); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// buildName is the name the build controller gives the MachineOSBuild of
// the pool's rendered configuration: "<MachineOSConfig>-<md5 hex>"
// (getHashedNameWithConfig in pkg/controller/build/buildrequest/
// machineosbuild.go). It hashes the pool's spec.configuration, the
// MachineOSConfig's spec and the base OS image; the played configurations
// have no content, so their names and the push spec stand in for them.
func (l *layeredPool) buildName(rendered string) string {
	return fmt.Sprintf("%s-%x", l.config.Name, md5.Sum([]byte(rendered+"\n"+string(l.config.Spec.RenderedImagePushSpec)))) //nolint:gosec
}

func (l *layeredPool) pastBuildName() string { return l.buildName(renderedName(l.name, l.from)) }

// digested is the image a build pushes: the push spec's repository at the
// digest of its image, here made up of the build's name
// (getMachineOSBuildStatus in pkg/controller/build/imagebuilder/base.go
// reads it from the build's digest ConfigMap).
func (l *layeredPool) digested(build string) string {
	return fmt.Sprintf("%s@sha256:%x", untagged(string(l.config.Spec.RenderedImagePushSpec)), sha256.Sum256([]byte(build)))
}

// untagged is an image pull spec without its tag.
func untagged(spec string) string {
	if i := strings.LastIndexByte(spec, ':'); i > strings.LastIndexByte(spec, '/') {
		return spec[:i]
	}
	return spec
}

// create writes, once the recorded objects are, what the pool has at rest
// before the update: its rendered configuration, owned by the pool, the
// MachineOSConfig with its current image, and the MachineOSBuild that
// built that image, succeeded, as the build controller leaves them
// (reconciler.go, updateMachineOSConfigStatus), and the pool's status.
func (l *layeredPool) create(ctx context.Context, c *clients) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: imagemode.Namespace}}
	if _, err := c.kube.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	// The build pods' service account, which the machine-config operator
	// creates (manifests/machineosbuilder).
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: imagemode.Namespace, Name: l.pod.Spec.ServiceAccountName}}
	if _, err := c.kube.CoreV1().ServiceAccounts(imagemode.Namespace).Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	mcfg := c.machineConfiguration.MachineconfigurationV1()
	pool, err := mcfg.MachineConfigPools().Get(ctx, l.name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if _, err := mcfg.MachineConfigs().Create(ctx, renderedConfig(pool, l.from), metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the rendered configuration of pool %s: %w", l.name, err)
	}

	past := l.pastBuildName()
	mosc := l.config.DeepCopy()
	mosc.Annotations = map[string]string{imagemode.CurrentBuildAnnotation: past}
	created, err := mcfg.MachineOSConfigs().Create(ctx, mosc, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating MachineOSConfig %s: %w", l.name, err)
	}
	build, err := l.createBuild(ctx, c, created, pool.Spec.Configuration.Name)
	if err != nil {
		return err
	}
	start := time.Now().Add(-pastBuildAgo)
	end := start.Add(pastBuildTook)
	build.Status = machineconfigurationv1.MachineOSBuildStatus{
		BuildStart: &metav1.Time{Time: start},
		BuildEnd:   &metav1.Time{Time: end},
		Builder:    jobReference(past),
	}
	setBuildConditions(&build.Status, imagemode.Prepared, start)
	setBuildConditions(&build.Status, imagemode.Building, start.Add(14*time.Second))
	setBuildConditions(&build.Status, imagemode.Succeeded, end)
	build.Status.DigestedImagePushSpec = machineconfigurationv1.ImageDigestFormat(l.digested(past))
	if _, err := mcfg.MachineOSBuilds().UpdateStatus(ctx, build, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("writing MachineOSBuild %s status: %w", past, err)
	}
	if err := l.takeImage(ctx, c, past); err != nil {
		return err
	}
	return l.syncStatus(ctx, c)
}

// createBuild creates the MachineOSBuild of the pool's rendered
// configuration as the build controller does (NewMachineOSBuild in
// buildrequest/machineosbuild.go, with the owner reference of
// createNewMachineOSBuildOrReuseExisting in reconciler.go): the create's
// status is dropped by the status subresource.
func (l *layeredPool) createBuild(ctx context.Context, c *clients, mosc *machineconfigurationv1.MachineOSConfig, rendered string) (*machineconfigurationv1.MachineOSBuild, error) {
	name := l.buildName(rendered)
	mosb := &machineconfigurationv1.MachineOSBuild{
		ObjectMeta: metav1.ObjectMeta{
			Name: name,
			Labels: map[string]string{
				machineOSConfigLabel: mosc.Name,
				renderedConfigLabel:  rendered,
				targetPoolLabel:      mosc.Spec.MachineConfigPool.Name,
			},
			Annotations:     map[string]string{pushSecretAnnotation: mosc.Spec.RenderedImagePushSecret.Name},
			Finalizers:      []string{metav1.FinalizerDeleteDependents},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(mosc, machineconfigurationv1.SchemeGroupVersion.WithKind("MachineOSConfig"))},
		},
		Spec: machineconfigurationv1.MachineOSBuildSpec{
			MachineConfig:         machineconfigurationv1.MachineConfigReference{Name: rendered},
			MachineOSConfig:       machineconfigurationv1.MachineOSConfigReference{Name: mosc.Name},
			RenderedImagePushSpec: machineconfigurationv1.ImageTagFormat(untagged(string(mosc.Spec.RenderedImagePushSpec)) + ":" + name),
		},
	}
	created, err := c.machineConfiguration.MachineconfigurationV1().MachineOSBuilds().Create(ctx, mosb, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("creating MachineOSBuild %s: %w", name, err)
	}
	return created, nil
}

// jobReference is a MachineOSBuild's status.builder: its Job
// (getMachineOSBuildStatus in imagebuilder/base.go).
func jobReference(build string) *machineconfigurationv1.MachineOSBuilderReference {
	return &machineconfigurationv1.MachineOSBuilderReference{
		ImageBuilderType: machineconfigurationv1.JobBuilder,
		Job:              &machineconfigurationv1.ObjectReference{Group: "batch", Resource: "jobs", Namespace: imagemode.Namespace, Name: "build-" + build},
	}
}

// buildConditionOrder are the MachineOSBuild condition types, each with
// the reason and message the build controller gives it
// (pkg/apihelpers/machineosbuild.go).
var buildConditionOrder = []struct {
	state           imagemode.State
	reason, message string
}{
	{imagemode.Prepared, "Prepared", "Build Prepared and Pending"},
	{imagemode.Building, "Building", "Image Build In Progress"},
	{imagemode.Failed, "Failed", "Build Failed"},
	{imagemode.Interrupted, "Interrupted", "Build Interrupted"},
	{imagemode.Succeeded, "Ready", "Build Ready"},
}

// setBuildConditions sets the conditions of state, as the build
// controller's condition set for it (MachineOSBuildPendingConditions,
// ...RunningConditions, ...FailedConditions, ...SucceededConditions) is
// applied one condition at a time (SetBuildConditions in
// pkg/controller/common/mos_state.go, with SetMachineOSBuildCondition): an
// unchanged condition stays where it is, a changed one moves to the end
// with a new transition time.
func setBuildConditions(status *machineconfigurationv1.MachineOSBuildStatus, state imagemode.State, at time.Time) {
	for _, c := range buildConditionOrder {
		cond := metav1.Condition{Type: string(c.state), Status: metav1.ConditionFalse, Reason: c.reason, Message: c.message, LastTransitionTime: metav1.NewTime(at)}
		if c.state == state {
			cond.Status = metav1.ConditionTrue
		}
		i := slices.IndexFunc(status.Conditions, func(old metav1.Condition) bool { return old.Type == cond.Type })
		if i >= 0 {
			old := status.Conditions[i]
			if old.Status == cond.Status && old.Reason == cond.Reason && old.Message == cond.Message {
				continue
			}
			if old.Status == cond.Status {
				cond.LastTransitionTime = old.LastTransitionTime
			}
			status.Conditions = slices.Delete(status.Conditions, i, i+1)
		}
		status.Conditions = append(status.Conditions, cond)
	}
}

// takeImage has the MachineOSConfig take the image of its succeeded build
// as the build controller does (updateMachineOSConfigStatus in
// reconciler.go): the rebuild annotation cleared, the current build
// annotation set, then status.currentImagePullSpec and
// status.machineOSBuild.
func (l *layeredPool) takeImage(ctx context.Context, c *clients, build string) error {
	moscs := c.machineConfiguration.MachineconfigurationV1().MachineOSConfigs()
	mosb, err := c.machineConfiguration.MachineconfigurationV1().MachineOSBuilds().Get(ctx, build, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := l.annotate(ctx, c, func(a map[string]string) {
		delete(a, imagemode.RebuildAnnotation)
		a[imagemode.CurrentBuildAnnotation] = build
	}); err != nil {
		return err
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		mosc, err := moscs.Get(ctx, l.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		mosc.Status.CurrentImagePullSpec = mosb.Status.DigestedImagePushSpec
		mosc.Status.ObservedGeneration = mosc.Generation
		mosc.Status.MachineOSBuild = &machineconfigurationv1.ObjectReference{Group: machineconfigurationv1.GroupName, Resource: "machineosbuilds", Name: build}
		_, err = moscs.UpdateStatus(ctx, mosc, metav1.UpdateOptions{})
		return err
	})
}

// annotate changes the MachineOSConfig's annotations.
func (l *layeredPool) annotate(ctx context.Context, c *clients, change func(map[string]string)) error {
	moscs := c.machineConfiguration.MachineconfigurationV1().MachineOSConfigs()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		mosc, err := moscs.Get(ctx, l.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if mosc.Annotations == nil {
			mosc.Annotations = map[string]string{}
		}
		change(mosc.Annotations)
		_, err = moscs.Update(ctx, mosc, metav1.UpdateOptions{})
		return err
	})
}

// syncStatus writes the pool's status as the machine-config operator's
// node controller computes it for a layered pool (calculateStatus in
// pkg/controller/node/status.go, without the ImageModeStatusReporting
// feature), with the ImageBuildDegraded condition its build controller
// keeps (updateImageBuildDegradedCondition in reconciler.go).
func (l *layeredPool) syncStatus(ctx context.Context, c *clients) error {
	mcfg := c.machineConfiguration.MachineconfigurationV1()
	mosc, err := mcfg.MachineOSConfigs().Get(ctx, l.name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	var mosb *machineconfigurationv1.MachineOSBuild
	if name := mosc.Annotations[imagemode.CurrentBuildAnnotation]; name != "" {
		switch b, err := mcfg.MachineOSBuilds().Get(ctx, name, metav1.GetOptions{}); {
		case err == nil:
			mosb = b
		case !apierrors.IsNotFound(err):
			return err
		}
	}
	pools := mcfg.MachineConfigPools()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		p, err := pools.Get(ctx, l.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		list, err := c.kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "node-role.kubernetes.io/" + l.name})
		if err != nil {
			return err
		}
		members := make([]*corev1.Node, len(list.Items))
		for i := range list.Items {
			members[i] = &list.Items[i]
		}
		p.Status = layeredPoolStatus(p, members, mosc, mosb, time.Now())
		_, err = pools.UpdateStatus(ctx, p, metav1.UpdateOptions{})
		return err
	})
}

// layeredPoolStatus is calculateStatus of a layered pool: a node is
// updated once its daemon is done with the pool's configuration and the
// MachineOSConfig's image (IsDone in
// pkg/controller/common/layered_node_state.go), and the pool is updated
// only once no build of it is prepared, running, failed, or succeeded with
// an image the MachineOSConfig has not taken (isLayeredPoolBuilding); its
// Updating condition says what the build is at.
func layeredPoolStatus(pool *machineconfigurationv1.MachineConfigPool, members []*corev1.Node, mosc *machineconfigurationv1.MachineOSConfig,
	mosb *machineconfigurationv1.MachineOSBuild, now time.Time) machineconfigurationv1.MachineConfigPoolStatus {
	image := string(mosc.Status.CurrentImagePullSpec)
	var updated, ready, unavailable, degraded int32
	for _, node := range members {
		a := node.Annotations
		done := nodeDone(node) && a[nodes.CurrentImageAnnotation] == a[nodes.DesiredImageAnnotation]
		if done && a[nodes.DesiredConfigAnnotation] == pool.Spec.Configuration.Name && a[nodes.DesiredImageAnnotation] == image &&
			(mosb == nil || a[nodes.DesiredConfigAnnotation] == mosb.Spec.MachineConfig.Name) {
			updated++
			if nodeReady(node) {
				ready++
			}
		}
		if state := a[nodes.StateAnnotation]; state == "Degraded" || state == "Unreconcilable" {
			degraded++
		}
		if unavailableForUpdate(node, done) {
			unavailable++
		}
	}
	total := int32(len(members))
	status := machineconfigurationv1.MachineConfigPoolStatus{
		ObservedGeneration: pool.Generation, MachineCount: total, UpdatedMachineCount: updated, ReadyMachineCount: ready,
		UnavailableMachineCount: unavailable, DegradedMachineCount: degraded, Configuration: pool.Status.Configuration,
		Conditions: append([]machineconfigurationv1.MachineConfigPoolCondition(nil), pool.Status.Conditions...),
	}
	state := imagemode.StateOf(mosb)
	building := mosb != nil && (state == imagemode.Prepared || state == imagemode.Building || state == imagemode.Failed ||
		state == imagemode.Succeeded && mosb.Status.DigestedImagePushSpec != "" && string(mosb.Status.DigestedImagePushSpec) != image)
	line := "MachineConfig " + pool.Spec.Configuration.Name
	if image != "" {
		line += " / Image " + image
	}
	allUpdated := updated == total && ready == total && unavailable == 0 && !building
	if allUpdated {
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdated, corev1.ConditionTrue, "All nodes are updated with "+line, now)
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdating, corev1.ConditionFalse, "", now)
		status.Configuration = pool.Spec.Configuration
	} else {
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdated, corev1.ConditionFalse, "", now)
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdating, corev1.ConditionTrue, "All nodes are updating to "+line, now)
	}
	updating := func(s corev1.ConditionStatus, message string) {
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolUpdating, s, message, now)
	}
	buildDegraded := func(s corev1.ConditionStatus, reason machineconfigurationv1.MachineConfigPoolConditionType, message string) {
		setPoolConditionReason(&status, machineconfigurationv1.MachineConfigPoolImageBuildDegraded, s, string(reason), message, now)
	}
	switch {
	case mosb == nil:
		updating(corev1.ConditionTrue, fmt.Sprintf("Pool is waiting for a new OS image build to start (mosc: %s)", mosc.Name))
	case state == imagemode.Prepared || state == imagemode.Waiting:
		updating(corev1.ConditionTrue, fmt.Sprintf("Pool is waiting for OS image build to start (mosb: %s)", mosb.Name))
		buildDegraded(corev1.ConditionFalse, machineconfigurationv1.MachineConfigPoolBuilding, "Build started for pool "+pool.Name)
	case state == imagemode.Building:
		updating(corev1.ConditionTrue, fmt.Sprintf("Pool is waiting for OS image build to complete (mosb: %s)", mosb.Name))
		buildDegraded(corev1.ConditionFalse, machineconfigurationv1.MachineConfigPoolBuilding, "Build started for pool "+pool.Name)
	case state == imagemode.Succeeded:
		if !allUpdated {
			updating(corev1.ConditionTrue, fmt.Sprintf("Pool is waiting for nodes to apply OS image (mosb: %s)", mosb.Name))
		}
		buildDegraded(corev1.ConditionFalse, machineconfigurationv1.MachineConfigPoolBuildSuccess, "Build succeeded for pool "+pool.Name)
	case state == imagemode.Failed:
		updating(corev1.ConditionFalse, fmt.Sprintf("Pool update stopped due to OS image build failure (mosb: %s)", mosb.Name))
		// getBuildErrorFromMOSB (pkg/controller/build/helpers.go): the
		// Failed condition's reason and message.
		buildDegraded(corev1.ConditionTrue, machineconfigurationv1.MachineConfigPoolBuildFailed,
			fmt.Sprintf("Failed to build OS image for pool %s (MachineOSBuild: %s): Failed: Build Failed", pool.Name, mosb.Name))
	case state == imagemode.Interrupted:
		updating(corev1.ConditionFalse, fmt.Sprintf("Pool update stopped due to OS image build being interrupted (mosb: %s)", mosb.Name))
	}
	setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolNodeDegraded, corev1.ConditionFalse, "", now)
	failed := false
	for _, cond := range status.Conditions {
		if cond.Type == machineconfigurationv1.MachineConfigPoolImageBuildDegraded && cond.Status == corev1.ConditionTrue {
			failed = true
		}
	}
	if failed {
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolDegraded, corev1.ConditionTrue, "Custom OS image build failed", now)
	} else {
		setPoolCondition(&status, machineconfigurationv1.MachineConfigPoolDegraded, corev1.ConditionFalse, "", now)
	}
	return status
}

// setPoolConditionReason is setPoolCondition with a reason.
func setPoolConditionReason(status *machineconfigurationv1.MachineConfigPoolStatus, t machineconfigurationv1.MachineConfigPoolConditionType, s corev1.ConditionStatus, reason, message string, now time.Time) {
	cond := machineconfigurationv1.MachineConfigPoolCondition{Type: t, Status: s, Reason: reason, Message: message, LastTransitionTime: metav1.NewTime(now)}
	var kept []machineconfigurationv1.MachineConfigPoolCondition
	for _, c := range status.Conditions {
		if c.Type != t {
			kept = append(kept, c)
			continue
		}
		if c.Status == s && c.Reason == reason && c.Message == message {
			return
		}
		if c.Status == s {
			cond.LastTransitionTime = c.LastTransitionTime
		}
	}
	status.Conditions = append(kept, cond)
}
