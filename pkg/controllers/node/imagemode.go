package node

import (
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	machineconfigurationinformers "github.com/openshift/client-go/machineconfiguration/informers/externalversions/machineconfiguration/v1"
	machineconfigurationlisters "github.com/openshift/client-go/machineconfiguration/listers/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

// Optional are the informers of the machine-config APIs that not every
// cluster serves, each nil where it is not served.
type Optional struct {
	ImageMode          *ImageMode
	MachineConfigNodes machineconfigurationinformers.MachineConfigNodeInformer
}

// ImageMode are the informers of image-mode pools: their MachineOSConfigs
// and MachineOSBuilds, and the pods of the build Jobs in the machine-config
// operator's namespace. A cluster that serves no MachineOSConfigs has none,
// and its pools are assessed as before.
type ImageMode struct {
	Configs   machineconfigurationinformers.MachineOSConfigInformer
	Builds    machineconfigurationinformers.MachineOSBuildInformer
	BuildPods coreinformers.PodInformer
}

// imageMode reads the image-mode pools from the informers' caches.
type imageMode struct {
	configs machineconfigurationlisters.MachineOSConfigLister
	builds  machineconfigurationlisters.MachineOSBuildLister
	pods    corelisters.PodLister
}

// of is the image-mode state of a pool, nil for a pool without a
// MachineOSConfig or a cluster that serves none.
func (m *imageMode) of(pool *machineconfigurationv1.MachineConfigPool) (*imagemode.Pool, error) {
	if m == nil {
		return nil, nil
	}
	configs, err := m.configs.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	if len(configs) == 0 {
		return nil, nil
	}
	builds, err := m.builds.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	return imagemode.Of(pool, configs, builds), nil
}

// poolImage is what the pool's assessment reads of its build: the build,
// and, when it failed, its failed pod's words.
func (m *imageMode) poolImage(s *state, pool *machineconfigurationv1.MachineConfigPool, p *imagemode.Pool) (*nodes.PoolImage, error) {
	if p == nil {
		return nil, nil
	}
	var failure imagemode.Failure
	if p.State() == imagemode.Failed {
		pods, err := m.pods.Pods(imagemode.Namespace).List(labels.SelectorFromSet(labels.Set{imagemode.JobNameLabel: p.JobName()}))
		if err != nil {
			return nil, err
		}
		failure = imagemode.FailureOf(p.JobName(), pods)
	}
	forUpdate := false
	if v, ok := s.versions.Of(pool.Spec.Configuration.Name); ok && s.target != "" {
		forUpdate = v == s.target
	}
	return nodes.NewPoolImage(pool, p, failure, forUpdate, s.now), nil
}

// handler queues an image-mode pool, and its nodes, whose MachineOSConfig,
// MachineOSBuild or build pod changed: whether a node waits on the build,
// and what its pool says of it, depend on them. Every pool with a
// MachineOSConfig is queued: there are few, and a build names its pool only
// through its MachineOSConfig, which may be the object that went.
func (c *Controller) imageModeHandler(add func(any)) cache.ResourceEventHandler {
	changed := func(any) {
		configs, err := c.imageMode.configs.List(labels.Everything())
		if err != nil {
			klog.ErrorS(err, "Listing MachineOSConfigs")
			return
		}
		pools := map[string]bool{}
		for _, mosc := range configs {
			pools[mosc.Spec.MachineConfigPool.Name] = true
		}
		c.imageModePools.Range(func(name, _ any) bool {
			pools[name.(string)] = true
			return true
		})
		for name := range pools {
			c.imageModePools.Store(name, true)
			add(poolKeyPrefix + name)
			for _, n := range c.membership.nodesIn(name) {
				add(nodeKeyPrefix + n)
			}
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    changed,
		UpdateFunc: func(_, newObj any) { changed(newObj) },
		DeleteFunc: changed,
	}
}

// StripMachineOSConfig keeps what the assessment reads of a MachineOSConfig:
// its pool, its current build and image, and where its builds push; not
// its Containerfiles.
func StripMachineOSConfig(obj any) (any, error) {
	mosc, ok := obj.(*machineconfigurationv1.MachineOSConfig)
	if !ok {
		return obj, nil
	}
	stripped := &machineconfigurationv1.MachineOSConfig{ObjectMeta: strippedMeta(mosc.ObjectMeta)}
	if b, ok := mosc.Annotations[imagemode.CurrentBuildAnnotation]; ok {
		stripped.Annotations = map[string]string{imagemode.CurrentBuildAnnotation: b}
	}
	stripped.Spec.MachineConfigPool = mosc.Spec.MachineConfigPool
	stripped.Spec.RenderedImagePushSecret = mosc.Spec.RenderedImagePushSecret
	stripped.Spec.RenderedImagePushSpec = mosc.Spec.RenderedImagePushSpec
	stripped.Status.CurrentImagePullSpec = mosc.Status.CurrentImagePullSpec
	return stripped, nil
}

// StripMachineOSBuild keeps a MachineOSBuild's configuration, state, times,
// Job and image.
func StripMachineOSBuild(obj any) (any, error) {
	mosb, ok := obj.(*machineconfigurationv1.MachineOSBuild)
	if !ok {
		return obj, nil
	}
	m := strippedMeta(mosb.ObjectMeta)
	m.CreationTimestamp = mosb.CreationTimestamp
	return &machineconfigurationv1.MachineOSBuild{
		ObjectMeta: m,
		Spec: machineconfigurationv1.MachineOSBuildSpec{
			MachineConfig:   mosb.Spec.MachineConfig,
			MachineOSConfig: mosb.Spec.MachineOSConfig,
		},
		Status: machineconfigurationv1.MachineOSBuildStatus{
			Conditions:            mosb.Status.Conditions,
			Builder:               mosb.Status.Builder,
			BuildStart:            mosb.Status.BuildStart,
			BuildEnd:              mosb.Status.BuildEnd,
			DigestedImagePushSpec: mosb.Status.DigestedImagePushSpec,
		},
	}, nil
}

// StripBuildPod keeps what tells why a build pod failed: its Job, phase and
// its containers' terminations.
func StripBuildPod(obj any) (any, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	m := strippedMeta(pod.ObjectMeta)
	m.Namespace, m.CreationTimestamp = pod.Namespace, pod.CreationTimestamp
	if job, ok := pod.Labels[imagemode.JobNameLabel]; ok {
		m.Labels = map[string]string{imagemode.JobNameLabel: job}
	}
	stripped := &corev1.Pod{ObjectMeta: m}
	stripped.Status.Phase = pod.Status.Phase
	for _, list := range []struct {
		from []corev1.ContainerStatus
		to   *[]corev1.ContainerStatus
	}{{pod.Status.InitContainerStatuses, &stripped.Status.InitContainerStatuses}, {pod.Status.ContainerStatuses, &stripped.Status.ContainerStatuses}} {
		for _, s := range list.from {
			*list.to = append(*list.to, corev1.ContainerStatus{Name: s.Name, State: corev1.ContainerState{Terminated: s.State.Terminated}})
		}
	}
	return stripped, nil
}
