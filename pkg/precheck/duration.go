package precheck

import (
	"fmt"
	"slices"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/eta"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

const (
	uidDuration = "duration"

	// historyUpdates is how many of the latest completed updates the
	// control plane's estimate is the median of: recent enough to reflect
	// the cluster as it is, enough to smooth out one slow update.
	historyUpdates = 5
)

// duration: how long the update should take, before it starts. The
// control plane takes what its recent updates took; then the worker pools
// update side by side, each in batches of maxUnavailable nodes, an
// image-mode pool's once its OS image is built.
func duration(in *Input) []insightsv1alpha1.UpdateInsight {
	if in.ClusterVersion == nil {
		return nil
	}
	cp, basis := controlPlaneDuration(in.ClusterVersion.Status.History)
	w := workersDuration(in)
	summary := fmt.Sprintf("The update to %s should take %s: the control plane %s (%s)", in.Target, text.About(cp+w.longest), text.Approx(cp), basis)
	if w.total > 0 {
		summary += fmt.Sprintf(", then the workers %s (%s in %s)", text.Approx(w.longest), plural(w.total, "node"), plural(w.pools, "pool"))
	} else {
		summary += ", and no worker node to update"
	}
	switch len(w.unknownBuilds) {
	case 0:
	case 1:
		summary += fmt.Sprintf(", not counting the OS image build of pool %s, whose time is not known", w.unknownBuilds[0])
	default:
		summary += fmt.Sprintf(", not counting the OS image builds of %d pools, whose times are not known", len(w.unknownBuilds))
	}
	description := "The worker pools update at the same time, after the control plane; the estimate assumes no node waits on a drain."
	if w.imageMode {
		description += " An image-mode pool's nodes update only once the machine-config operator has built the pool's new OS image: its line counts the build first, from the pool's past builds."
	}
	if len(w.breakdown) > 0 {
		description += "\n" + strings.Join(w.breakdown, "\n")
	}
	return []insightsv1alpha1.UpdateInsight{finding{
		uid: uidDuration, level: insightsv1alpha1.StatusInsightLevel, impact: insightsv1alpha1.NoneImpactType,
		scope: controlPlane(clusterVersionResource()), summary: summary, description: description,
	}.insight(in.Now)}
}

// hostedDuration: how long a hosted control plane's update should take, as
// duration reckons the control plane's, and how long its NodePools take
// when they are updated, apart: the control plane's update moves no node.
func hostedDuration(in *Input) []insightsv1alpha1.UpdateInsight {
	if in.ClusterVersion == nil {
		return nil
	}
	cp, basis := controlPlaneDuration(in.ClusterVersion.Status.History)
	summary := fmt.Sprintf("The update to %s should take %s: the control plane (%s)", in.Target, text.About(cp), basis)
	description := "The control plane is hosted: its update moves no node."
	if longest, total, pools, breakdown := nodePoolsDuration(in); total > 0 {
		summary += fmt.Sprintf("; its NodePools, updated apart, %s (%s in %s)", text.Approx(longest), plural(total, "node"), plural(pools, "NodePool"))
		description += " Each NodePool is updated apart, when its release is changed on the management cluster, and they may update at the same time. " +
			"A NodePool updates one node at a time unless it is told otherwise (in place, maxUnavailable 1; replaced, maxSurge 1 and maxUnavailable 0: " +
			"hypershift api/hypershift/v1beta1/nodepool_types.go), which the hosted cluster cannot see; the estimate assumes that and no node waiting on a drain." +
			"\n" + strings.Join(breakdown, "\n")
	}
	return []insightsv1alpha1.UpdateInsight{finding{
		uid: uidDuration, level: insightsv1alpha1.StatusInsightLevel, impact: insightsv1alpha1.NoneImpactType,
		scope: controlPlane(clusterVersionResource()), summary: summary, description: description,
	}.insight(in.Now)}
}

// nodePoolsDuration is how long the slowest NodePool takes, one node at a
// time, the nodes and NodePools it counts, and a line per NodePool.
func nodePoolsDuration(in *Input) (longest time.Duration, total, pools int, breakdown []string) {
	for _, p := range nodePoolsOf(in.Nodes) {
		n := p.nodes
		perNode, ok := in.PerNode[p.name]
		if !ok || perNode <= 0 {
			perNode = nodes.DefaultPerNodeTime
		}
		took := time.Duration(n) * perNode
		breakdown = append(breakdown, fmt.Sprintf("NodePool %s: %s, one at a time, %s each: %s.", p.name, plural(n, "node"), text.Approx(perNode), text.Approx(took)))
		longest, total, pools = max(longest, took), total+n, pools+1
	}
	return longest, total, pools, breakdown
}

// controlPlaneDuration is the median of the latest completed updates'
// durations, or eta's default without one, and what it is based on. The
// oldest entry of the history is the installation, not an update.
func controlPlaneDuration(history []configv1.UpdateHistory) (time.Duration, string) {
	var took []time.Duration
	for i := 0; i < len(history)-1 && len(took) < historyUpdates; i++ {
		h := &history[i]
		if h.State != configv1.CompletedUpdate || h.CompletionTime == nil || h.StartedTime.IsZero() {
			continue
		}
		if d := h.CompletionTime.Sub(h.StartedTime.Time); d > 0 {
			took = append(took, d)
		}
	}
	switch len(took) {
	case 0:
		return eta.DefaultBaseline, "a default: the cluster has completed no update"
	case 1:
		return took[0], "as long as its last update"
	}
	slices.Sort(took)
	median := took[len(took)/2]
	if len(took)%2 == 0 {
		median = (took[len(took)/2-1] + median) / 2
	}
	return median, fmt.Sprintf("the median of its last %d updates", len(took))
}

// workers is how long the worker pools take.
type workers struct {
	// longest is the slowest pool's time; total and pools count the worker
	// nodes to update and the pools they are in.
	longest      time.Duration
	total, pools int
	// breakdown is a line per pool saying how its time was reckoned.
	breakdown []string
	// imageMode says a pool is image-mode, and unknownBuilds are those
	// whose build's time is not known, left out of their time.
	imageMode     bool
	unknownBuilds []string
}

// workersDuration is how long the slowest worker pool takes, the worker
// nodes to update and the pools they are in, and a line per pool saying
// how its time was reckoned. A paused pool does not update. An image-mode
// pool's nodes wait on its OS image build, whose expected time comes
// first.
func workersDuration(in *Input) workers {
	var w workers
	count := in.members().count
	for _, p := range in.Pools {
		n := count[p.Name]
		if n == 0 || p.Spec.Paused || nodes.ScopeType(p.Name) != insightsv1alpha1.ScopeTypeWorkerPool {
			continue
		}
		perNode, ok := in.PerNode[p.Name]
		if !ok || perNode <= 0 {
			perNode = nodes.DefaultPerNodeTime
		}
		atOnce := maxUnavailable(p.Spec.MaxUnavailable, n)
		batches := (n + atOnce - 1) / atOnce
		build := in.imageBuildOf(p)
		took := build.took + time.Duration(batches)*perNode
		each, span := text.Approx(perNode)+" each", text.Approx(took)
		if p90, ok := in.PerNodeP90[p.Name]; ok && p90 > perNode {
			// The recorded nodes disagree: the slow tenth gives the range's
			// other end.
			each = fmt.Sprintf("%s to %s each (the median and 90th percentile of its nodes in the last recorded update)", text.Approx(perNode), text.Approx(p90))
			span += " to " + text.Approx(build.took+time.Duration(batches)*p90)
		} else if ok {
			each += " (its nodes' median in the last recorded update)"
		}
		if build.imageMode {
			w.imageMode = true
			if !build.known {
				span += " and the build"
				w.unknownBuilds = append(w.unknownBuilds, p.Name)
			}
		}
		w.breakdown = append(w.breakdown, fmt.Sprintf("Pool %s: %s%d nodes, %d at a time, %s: %s.", p.Name, build.words, n, atOnce, each, span))
		w.longest, w.total, w.pools = max(w.longest, took), w.total+n, w.pools+1
	}
	return w
}

// maxUnavailable is how many of a pool's n nodes update at once: the
// pool's maxUnavailable (a number, or a percentage rounded down), at least
// one, as the machine-config controller reads it; one when unset or
// malformed.
func maxUnavailable(v *intstr.IntOrString, n int) int {
	if v == nil {
		return 1
	}
	got, err := intstr.GetScaledValueFromIntOrPercent(v, n, false)
	if err != nil || got < 1 {
		return 1
	}
	return got
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
