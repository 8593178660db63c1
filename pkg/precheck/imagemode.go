package precheck

import (
	"fmt"
	"slices"
	"strings"
	"time"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/imagemode"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// imageModeDocs is the machine-config operator's page on troubleshooting
// on-cluster image mode builds (docs/onclusterlayering-troubleshooting.md
// in openshift/machine-config-operator).
const imageModeDocs = "https://github.com/openshift/machine-config-operator/blob/main/docs/onclusterlayering-troubleshooting.md"

// imagePool is an image-mode pool's builds: as they are, and as the
// update finds them.
type imagePool struct {
	// current is the pool as imagemode.Of reads it: its Build is that of
	// the pool's present target configuration, and Past the others.
	current *imagemode.Pool
	// update is the pool as the update's new configuration finds it: none
	// of its builds is for that configuration, so every successful build
	// of the MachineOSConfig is a past one, the present target's too.
	update *imagemode.Pool
}

// imagePool is the image-mode state of a pool, nil for a pool without a
// MachineOSConfig or a cluster that serves none: worked out once per pool
// and run, for the build check and the estimate.
func (in *Input) imagePool(pool *machineconfigurationv1.MachineConfigPool) *imagePool {
	if len(in.MachineOSConfigs) == 0 {
		return nil
	}
	if in.imagePools == nil {
		in.imagePools = map[string]*imagePool{}
	}
	if p, ok := in.imagePools[pool.Name]; ok {
		return p
	}
	var p *imagePool
	if current := imagemode.Of(pool, in.MachineOSConfigs, in.MachineOSBuilds); current != nil {
		// None of the pool's builds is for the update's new
		// configuration: every successful one is past, the present
		// target's too.
		update := &imagemode.Pool{Config: current.Config, Past: imagemode.PastBuilds(current.Config.Name, in.MachineOSBuilds)}
		p = &imagePool{current: current, update: update}
	}
	in.imagePools[pool.Name] = p
	return p
}

// imageBuilds: the update rebuilds the OS image of every image-mode pool
// before any of its nodes takes the new release. A release update renders
// a new configuration for every pool, with the release's new OS image, and
// the build controller builds a layered pool anew for a new rendered
// configuration whose OS image, kernel, extensions or kernel arguments
// changed (pkg/controller/build/reconciler.go, reconcilePoolChange, with
// RequiresRebuild of pkg/controller/common/helpers.go); the node
// controller gives none of the pool's nodes the configuration while its
// build is prepared, building or failed, or its image is not yet the
// MachineOSConfig's (pkg/controller/node/status.go, isLayeredPoolBuilding).
// A paused pool does not update, and pausedPools says so.
func imageBuilds(in *Input) []insightsv1alpha1.UpdateInsight {
	count := in.members().count
	var out []insightsv1alpha1.UpdateInsight
	for _, pool := range in.Pools {
		if count[pool.Name] == 0 || pool.Spec.Paused {
			continue
		}
		p := in.imagePool(pool)
		if p == nil {
			continue
		}
		out = append(out, rebuild(in, pool, p.update))
		if f, ok := lastBuildFailed(in, pool, p.current); ok {
			out = append(out, f)
		}
	}
	return out
}

// rebuild is the finding that the update waits on the pool's build, with
// what the pool's past builds took: p is the pool as the update finds it.
func rebuild(in *Input, pool *machineconfigurationv1.MachineConfigPool, p *imagemode.Pool) insightsv1alpha1.UpdateInsight {
	config := p.Config.Name
	summary := fmt.Sprintf("The update to %s rebuilds the OS image of pool %s (MachineOSConfig %s) before any of its nodes takes the new release", in.Target, pool.Name, config)
	description := fmt.Sprintf("The new release brings a new OS base image, so the machine-config operator builds pool %s's OS image anew (a MachineOSBuild of MachineOSConfig %s, "+
		"run by a build Job in %s); the pool's nodes take the new release only once the image is built and pushed, and keep the one they run meanwhile.",
		pool.Name, config, imagemode.Namespace)
	expected, known := p.Expected()
	longest, _ := p.Longest()
	switch {
	case !known:
		summary += ": it has no past build to tell how long that takes"
		description += fmt.Sprintf(" How long the build takes is not known: MachineOSConfig %s has no earlier successful build with its start and end recorded.", config)
	case len(p.Past) == 1:
		summary += fmt.Sprintf(": its last build took %s", text.Minutes(expected))
	default:
		summary += fmt.Sprintf(": its last %d builds took %s (the median), %s at the longest", len(p.Past), text.Minutes(expected), text.Minutes(longest))
	}
	return finding{
		// Status, as the duration is: it says how the update goes, and
		// holds nothing that an administrator would accept.
		uid: "pool/" + pool.Name + "/image-rebuild", level: insightsv1alpha1.StatusInsightLevel, impact: insightsv1alpha1.UpdateSpeedImpactType,
		scope:   nodeScope(pool.Name, poolResource(pool.Name), machineOSConfigResource(config)),
		summary: summary, description: description,
	}.insight(in.Now)
}

// lastBuildFailed: the pool's last build failed or was interrupted. The
// update's build runs from the same MachineOSConfig, so what failed the
// last (its Containerfile, secrets, registry) fails the update's too, and
// a pool's nodes take no configuration whose build failed
// (pkg/controller/node/status.go, isLayeredPoolBuilding); the build
// controller builds again only for a new configuration or the rebuild
// annotation (pkg/controller/build/reconciler.go, reconcilePoolChange and
// rebuildMachineOSConfig). The states are those of
// pkg/controller/common/mos_state.go. The last build is the pool's
// current one (imagemode.Of's: p is the pool as it is), or else the
// MachineOSConfig's newest.
func lastBuildFailed(in *Input, pool *machineconfigurationv1.MachineConfigPool, p *imagemode.Pool) (insightsv1alpha1.UpdateInsight, bool) {
	last := p.Build
	if last == nil {
		last = newestBuild(p.Config, in.MachineOSBuilds)
	}
	state := imagemode.StateOf(last)
	if last == nil || (state != imagemode.Failed && state != imagemode.Interrupted) {
		return insightsv1alpha1.UpdateInsight{}, false
	}
	config, build := p.Config.Name, last.Name
	job := (&imagemode.Pool{Config: p.Config, Build: last}).JobName()
	var d strings.Builder
	f := finding{
		level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UpdateStalledImpactType,
		scope:     nodeScope(pool.Name, poolResource(pool.Name), machineOSBuildResource(build), machineOSConfigResource(config)),
		reference: imageModeDocs,
	}
	if state == imagemode.Failed {
		f.uid = "pool/" + pool.Name + "/image-build-failed"
		f.summary = fmt.Sprintf("MachineOSBuild %s, the last OS image build of pool %s, failed: the same failure would hold all of the pool's nodes in the update", build, pool.Name)
		fmt.Fprintf(&d, "The update's build of pool %s runs from the same MachineOSConfig %s (its Containerfile, base image, pull and push secrets and registry), "+
			"and none of the pool's nodes takes the new release until it succeeds. Find why MachineOSBuild %s failed: oc logs -n %s job/%s -c %s, while its pod is left; "+
			"its own condition says only \"Build Failed\". ", pool.Name, config, build, imagemode.Namespace, job, imagemode.BuildContainer)
	} else {
		f.uid = "pool/" + pool.Name + "/image-build-interrupted"
		f.summary = fmt.Sprintf("MachineOSBuild %s, the last OS image build of pool %s, was interrupted: the same interruption would hold all of the pool's nodes in the update", build, pool.Name)
		fmt.Fprintf(&d, "The build Job %s/%s of MachineOSBuild %s was deleted before it finished, and the machine-config operator does not build it again on its own. "+
			"The update's build of pool %s runs from the same MachineOSConfig %s, and none of the pool's nodes takes the new release until it succeeds. ", imagemode.Namespace, job, build, pool.Name, config)
	}
	if last == p.Build {
		d.WriteString("It is the build of the pool's current configuration: the pool's nodes already wait on it. ")
	}
	fmt.Fprintf(&d, "Once the cause is fixed, have the machine-config operator build again before the update: oc annotate machineosconfig/%s %s=", config, imagemode.RebuildAnnotation)
	f.description = d.String()
	return f.insight(in.Now), true
}

// newestBuild is the MachineOSConfig's most recently created build, nil
// when it has none.
func newestBuild(config *machineconfigurationv1.MachineOSConfig, builds []*machineconfigurationv1.MachineOSBuild) *machineconfigurationv1.MachineOSBuild {
	var own []*machineconfigurationv1.MachineOSBuild
	for _, b := range builds {
		if b.Spec.MachineOSConfig.Name == config.Name {
			own = append(own, b)
		}
	}
	if len(own) == 0 {
		return nil
	}
	return slices.MaxFunc(own, func(a, b *machineconfigurationv1.MachineOSBuild) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(b.Name, a.Name)
	})
}

// buildBasis says what an image-mode pool's expected build time is based
// on, for the estimate's line.
func buildBasis(p *imagemode.Pool) string {
	if len(p.Past) == 1 {
		return "as long as its last build"
	}
	return fmt.Sprintf("the median of its last %d builds", len(p.Past))
}

// imageBuild is what an image-mode pool's line of the estimate adds
// before its nodes: the build's expected time, and the words that say so.
type imageBuild struct {
	imageMode bool
	// known says the pool has past builds to tell the build's time; a
	// pool without one adds no time, and its words say so.
	known bool
	took  time.Duration
	words string
}

// imageBuildOf is what the pool's build adds to its time; nothing for a
// pool that is not image-mode.
func (in *Input) imageBuildOf(pool *machineconfigurationv1.MachineConfigPool) imageBuild {
	ip := in.imagePool(pool)
	if ip == nil {
		return imageBuild{}
	}
	p := ip.update
	if expected, ok := p.Expected(); ok {
		return imageBuild{imageMode: true, known: true, took: expected,
			words: fmt.Sprintf("its OS image build first, %s (%s), then ", text.Approx(expected), buildBasis(p))}
	}
	return imageBuild{imageMode: true,
		words: fmt.Sprintf("its OS image build first, whose time is not known (MachineOSConfig %s has no past build to tell), then ", p.Config.Name)}
}

func machineOSConfigResource(name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: machineconfigurationv1.GroupName, Kind: "MachineOSConfig", Name: name}
}

func machineOSBuildResource(name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: machineconfigurationv1.GroupName, Kind: "MachineOSBuild", Name: name}
}
