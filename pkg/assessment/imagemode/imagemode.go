// Package imagemode assesses the OS image builds of image-mode (layered)
// MachineConfigPools, those with a MachineOSConfig: the machine-config
// operator builds an OS image for each new rendered configuration of such a
// pool and gives its nodes the configuration only once the image is pushed,
// so an update of the pool first waits on its build.
package imagemode

import (
	"slices"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// What the machine-config operator's build controller writes
// (pkg/controller/build/constants/constants.go).
const (
	// CurrentBuildAnnotation on a MachineOSConfig names its current
	// MachineOSBuild.
	CurrentBuildAnnotation = "machineconfiguration.openshift.io/current-machine-os-build"
	// RebuildAnnotation on a MachineOSConfig makes the build controller
	// delete its current MachineOSBuild and build anew.
	RebuildAnnotation = "machineconfiguration.openshift.io/rebuild"
	// Namespace is where the build controller runs its build Jobs
	// (ctrlcommon.MCONamespace).
	Namespace = "openshift-machine-config-operator"
	// JobNameLabel is the label the Kubernetes Job controller puts on the
	// pods of a Job; the build Job's pod template carries no label of the
	// build controller's own (buildrequest.go, podToJob).
	JobNameLabel = "batch.kubernetes.io/job-name"
	// BuildContainer is the build pod's container that builds and pushes
	// the image (buildrequest.go, toBuildahPod).
	BuildContainer = "image-build"
	// maxPast is how many earlier builds the estimates read.
	maxPast = 5
)

// Pool is what an image-mode pool's update waits on: its MachineOSConfig
// and the MachineOSBuild of its target configuration.
type Pool struct {
	Config *machineconfigurationv1.MachineOSConfig
	// Build is the MachineOSBuild of the pool's target configuration; nil
	// while the build controller has not created one.
	Build *machineconfigurationv1.MachineOSBuild
	// Past are the durations of the MachineOSConfig's earlier successful
	// builds, newest first, at most maxPast.
	Past []time.Duration
}

// Of returns the image-mode state of pool, nil for a pool without a
// MachineOSConfig. It picks the MachineOSConfig and MachineOSBuild as the
// machine-config node controller does (pkg/controller/node/node_controller.go,
// getConfigAndBuild): the first MachineOSConfig naming the pool, then the
// build its current-machine-os-build annotation names if that build is for
// the pool's target configuration, else any build of the MachineOSConfig for
// that configuration. The node controller's fallback to a live read when its
// cache lacks the annotated build is a race of its own caches, not a state
// of the cluster.
func Of(pool *machineconfigurationv1.MachineConfigPool, configs []*machineconfigurationv1.MachineOSConfig, builds []*machineconfigurationv1.MachineOSBuild) *Pool {
	var config *machineconfigurationv1.MachineOSConfig
	for _, c := range sortedConfigs(configs) {
		if c.Spec.MachineConfigPool.Name == pool.Name {
			config = c
			break
		}
	}
	if config == nil {
		return nil
	}
	p := &Pool{Config: config}
	target := pool.Spec.Configuration.Name
	var own []*machineconfigurationv1.MachineOSBuild
	for _, b := range builds {
		// A build being deleted is going: the rebuild annotation deletes
		// the current build and creates it anew under the same name once
		// it is gone (pkg/controller/build/reconciler.go,
		// rebuildMachineOSConfig), and its Job's pods go with it, so it has
		// nothing left to say.
		if b.Spec.MachineOSConfig.Name == config.Name && b.DeletionTimestamp == nil {
			own = append(own, b)
		}
	}
	sortNewestFirst(own)
	if name := config.Annotations[CurrentBuildAnnotation]; name != "" {
		for _, b := range own {
			if b.Name == name && b.Spec.MachineConfig.Name == target {
				p.Build = b
			}
		}
	}
	if p.Build == nil {
		for _, b := range own {
			if b.Spec.MachineConfig.Name == target {
				p.Build = b
				break
			}
		}
	}
	p.Past = pastBuilds(own, p.Build)
	return p
}

// PastBuilds are the durations of a MachineOSConfig's successful builds,
// newest first, at most maxPast: what an update, which renders a new
// configuration for every pool and so builds anew, learns its build's time
// from.
func PastBuilds(config string, builds []*machineconfigurationv1.MachineOSBuild) []time.Duration {
	var own []*machineconfigurationv1.MachineOSBuild
	for _, b := range builds {
		if b.Spec.MachineOSConfig.Name == config {
			own = append(own, b)
		}
	}
	sortNewestFirst(own)
	return pastBuilds(own, nil)
}

// pastBuilds are the durations of the successful builds of own (newest
// first) but except, at most maxPast.
func pastBuilds(own []*machineconfigurationv1.MachineOSBuild, except *machineconfigurationv1.MachineOSBuild) []time.Duration {
	var past []time.Duration
	for _, b := range own {
		if b == except || StateOf(b) != Succeeded {
			continue
		}
		if d, ok := duration(b); ok && len(past) < maxPast {
			past = append(past, d)
		}
	}
	return past
}

// sortNewestFirst orders builds by creation, newest first, then by name.
func sortNewestFirst(builds []*machineconfigurationv1.MachineOSBuild) {
	slices.SortFunc(builds, func(a, b *machineconfigurationv1.MachineOSBuild) int {
		if c := b.CreationTimestamp.Compare(a.CreationTimestamp.Time); c != 0 {
			return c
		}
		return compareNames(a.Name, b.Name)
	})
}

// sortedConfigs orders MachineOSConfigs by name, so that the one a pool
// gets does not depend on the cache's order. The machine-config API allows
// one MachineOSConfig per pool (its name must be the pool's), so the order
// only matters for a cluster that breaks that rule.
func sortedConfigs(configs []*machineconfigurationv1.MachineOSConfig) []*machineconfigurationv1.MachineOSConfig {
	sorted := slices.Clone(configs)
	slices.SortFunc(sorted, func(a, b *machineconfigurationv1.MachineOSConfig) int { return compareNames(a.Name, b.Name) })
	return sorted
}

func compareNames(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// duration is how long a finished build took, from the build controller's
// buildStart and buildEnd (pkg/controller/build/imagebuilder/base.go,
// getMachineOSBuildStatus).
func duration(b *machineconfigurationv1.MachineOSBuild) (time.Duration, bool) {
	s := b.Status
	if s.BuildStart == nil || s.BuildEnd == nil || s.BuildEnd.Before(s.BuildStart) {
		return 0, false
	}
	return s.BuildEnd.Sub(s.BuildStart.Time), true
}

// State is a MachineOSBuild's state.
type State string

const (
	Waiting     State = "Waiting"
	Prepared    State = "Prepared"
	Building    State = "Building"
	Succeeded   State = "Succeeded"
	Failed      State = "Failed"
	Interrupted State = "Interrupted"
)

// StateOf reads a MachineOSBuild's state from its conditions, in the order
// the machine-config node controller tests them
// (pkg/controller/node/status.go, calculateStatus, with the
// MachineOSBuildState predicates of pkg/controller/common/mos_state.go): a
// build with none of them True is in its initial state, waiting to start.
func StateOf(b *machineconfigurationv1.MachineOSBuild) State {
	if b == nil {
		return Waiting
	}
	for _, s := range []struct {
		condition machineconfigurationv1.BuildProgress
		state     State
	}{
		{machineconfigurationv1.MachineOSBuildPrepared, Prepared},
		{machineconfigurationv1.MachineOSBuilding, Building},
		{machineconfigurationv1.MachineOSBuildSucceeded, Succeeded},
		{machineconfigurationv1.MachineOSBuildFailed, Failed},
		{machineconfigurationv1.MachineOSBuildInterrupted, Interrupted},
	} {
		if isTrue(b.Status.Conditions, s.condition) {
			return s.state
		}
	}
	return Waiting
}

// isTrue is the machine-config operator's IsMachineOSBuildConditionTrue
// (pkg/apihelpers/machineosbuild.go): the first condition of the type
// decides.
func isTrue(conditions []metav1.Condition, t machineconfigurationv1.BuildProgress) bool {
	for _, c := range conditions {
		if c.Type == string(t) {
			return c.Status == metav1.ConditionTrue
		}
	}
	return false
}

// State is the state of the pool's build.
func (p *Pool) State() State { return StateOf(p.Build) }

// Since is when the build entered its state: its True condition's
// transition, or, for a build not yet started, its creation. Zero while no
// build exists.
func (p *Pool) Since() time.Time {
	if p.Build == nil {
		return time.Time{}
	}
	if c := meta.FindStatusCondition(p.Build.Status.Conditions, string(p.State())); c != nil && c.Status == metav1.ConditionTrue {
		return c.LastTransitionTime.Time
	}
	if p.State() == Building || p.State() == Prepared {
		if s := p.Build.Status.BuildStart; s != nil {
			return s.Time
		}
	}
	return p.Build.CreationTimestamp.Time
}

// Image is the image the pool's nodes are to run: the MachineOSConfig's
// current image pull spec, the last successful build's.
func (p *Pool) Image() string { return string(p.Config.Status.CurrentImagePullSpec) }

// Ready says the pool's target configuration has its image: the build
// succeeded and the MachineOSConfig took its image. Until then the node
// controller gives no node the configuration (isLayeredPoolBuilding in
// pkg/controller/node/status.go).
func (p *Pool) Ready() bool {
	if p.Build == nil || p.State() != Succeeded {
		return false
	}
	digest := string(p.Build.Status.DigestedImagePushSpec)
	return digest != "" && digest == p.Image()
}

// Blocking says the pool's nodes cannot take its target configuration
// because its build failed or was interrupted: the build controller does
// not retry either on its own.
func (p *Pool) Blocking() bool {
	s := p.State()
	return s == Failed || s == Interrupted
}

// Expected is how long a build of the pool is expected to take: the median
// of its past builds (of an even count, the mean of the middle two), false
// when it has none.
func (p *Pool) Expected() (time.Duration, bool) {
	n := len(p.Past)
	if n == 0 {
		return 0, false
	}
	sorted := slices.Clone(p.Past)
	slices.Sort(sorted)
	if n%2 == 0 {
		return (sorted[n/2-1] + sorted[n/2]) / 2, true
	}
	return sorted[n/2], true
}

// Longest is the longest of the pool's past builds, false when it has none.
func (p *Pool) Longest() (time.Duration, bool) {
	if len(p.Past) == 0 {
		return 0, false
	}
	return slices.Max(p.Past), true
}

// JobName is the build's Job, as the build controller records it in the
// MachineOSBuild's status (imagebuilder/base.go), or as it names it
// (build-<MachineOSBuild>, pkg/controller/build/utils/helpers.go,
// GetBuildJobName) before it does.
func (p *Pool) JobName() string {
	if p.Build == nil {
		return ""
	}
	if b := p.Build.Status.Builder; b != nil && b.Job != nil && b.Job.Name != "" {
		return b.Job.Name
	}
	return "build-" + p.Build.Name
}
