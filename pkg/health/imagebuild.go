package health

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// Kinds of image-mode build problems.
const (
	ImageBuildFailed      = "ImageBuildFailed"
	ImageBuildInterrupted = "ImageBuildInterrupted"
	ImageBuildSlow        = "ImageBuildSlow"
)

// imageModeDocs is the machine-config operator's page on on-cluster image
// mode troubleshooting (docs/onclusterlayering-troubleshooting.md in
// openshift/machine-config-operator).
const imageModeDocs = "https://github.com/openshift/machine-config-operator/blob/main/docs/onclusterlayering-troubleshooting.md"

const (
	// slowBuildFactor and slowBuildFloor make a build slow once it has run
	// twice as long as the pool's longest past build, and never before 30
	// minutes: builds vary with the registry and the node they run on, and
	// a false alarm is worse than a late one.
	slowBuildFactor = 2
	slowBuildFloor  = 30 * time.Minute
	// slowBuildWithoutPast is when a build of a pool with no past build to
	// compare is slow: the machine-config operator sets no deadline on the
	// build Job, and a build that runs for hours holds the update for them.
	slowBuildWithoutPast = 2 * time.Hour
)

// ImageBuild is what the health insights of an image-mode pool's build
// are made from.
type ImageBuild struct {
	Pool  *insightsv1alpha1.MachineConfigPoolProgressInsightStatus
	Build *insightsv1alpha1.PoolImageBuild
	// Job is the build's Job in the machine-config operator's namespace.
	Job, Namespace string
	// Pod and Container are the build's failed pod and container, empty
	// when none is known; Words what the container wrote as it failed.
	Pod, Container, Words string
	// PushSecret and PushSpec are where the build pushes its image: the
	// MachineOSConfig's renderedImagePushSecret and renderedImagePushSpec.
	PushSecret, PushSpec string
	// Longest is the pool's longest past build, zero when it has none.
	Longest time.Duration
	// RebuildAnnotation makes the build controller build again.
	RebuildAnnotation string
}

// SlowAfter is how long a build may run before it is slow, given the
// pool's longest past build (zero when it has none).
func SlowAfter(longest time.Duration) time.Duration {
	if longest <= 0 {
		return slowBuildWithoutPast
	}
	return max(slowBuildFactor*longest, slowBuildFloor)
}

// ForImageBuild returns the health insights of an image-mode pool's build,
// and when the build would next turn slow by the passage of time alone
// (zero for never): a failed or interrupted build stops the pool's update
// until it is retried, since the build controller retries neither, and a
// build running far past the pool's past builds holds it.
func ForImageBuild(b ImageBuild, now time.Time) ([]Insight, time.Time) {
	ib := b.Build
	if ib == nil || ib.MachineOSBuild == "" {
		return nil, time.Time{}
	}
	resources := []insightsv1alpha1.ResourceRef{PoolRef(b.Pool), machineOSBuildResource.ref(ib.MachineOSBuild)}
	var since time.Time
	if ib.Since != nil {
		since = ib.Since.Time
	}
	retry := fmt.Sprintf("Once the cause is fixed, have the machine-config operator build again: oc annotate machineosconfig/%s %s=",
		ib.MachineOSConfig, b.RebuildAnnotation)
	switch ib.State {
	case insightsv1alpha1.ImageBuildFailed:
		var d strings.Builder
		fmt.Fprintf(&d, "The OS image build of MachineConfigPool %s failed, so none of its nodes takes its new configuration: they wait on a successful build. ", b.Pool.Name)
		if b.Words != "" {
			fmt.Fprintf(&d, "Its build pod %s/%s said, as its %s container failed:\n%s\n", b.Namespace, b.Pod, b.Container, b.Words)
			fmt.Fprintf(&d, "Read the whole log: oc logs -n %s %s -c %s. ", b.Namespace, b.Pod, b.Container)
		} else {
			fmt.Fprintf(&d, "No failed pod of its build Job %s/%s is left to say why; the MachineOSBuild's own condition says only \"Build Failed\". ", b.Namespace, b.Job)
		}
		if b.PushSecret != "" {
			fmt.Fprintf(&d, "The build pushes to %s with the secret %s/%s (MachineOSConfig %s, spec.renderedImagePushSecret): a push refused for authentication points there. ",
				b.PushSpec, b.Namespace, b.PushSecret, ib.MachineOSConfig)
		}
		d.WriteString(retry)
		return []Insight{nodeInsight(ImageBuildFailed, b.Pool.ScopeType, resources, since, insightsv1alpha1.InsightImpact{
			Level:       insightsv1alpha1.ErrorImpactLevel,
			Type:        insightsv1alpha1.UpdateStalledImpactType,
			Summary:     endOf(fmt.Sprintf("OS image build %s of pool %s failed: ", ib.MachineOSBuild, b.Pool.Name), lastWords(b.Words), maxSummaryLength),
			Description: text.Truncate(d.String(), maxDescriptionLength),
		}, imageModeDocs)}, time.Time{}
	case insightsv1alpha1.ImageBuildInterrupted:
		return []Insight{nodeInsight(ImageBuildInterrupted, b.Pool.ScopeType, resources, since, insightsv1alpha1.InsightImpact{
			Level: insightsv1alpha1.ErrorImpactLevel,
			Type:  insightsv1alpha1.UpdateStalledImpactType,
			Summary: text.OneLine(fmt.Sprintf("OS image build %s of pool %s was interrupted: its build Job was deleted before it finished",
				ib.MachineOSBuild, b.Pool.Name), maxSummaryLength),
			Description: text.Truncate(fmt.Sprintf("The build Job %s/%s of MachineOSBuild %s was deleted before it succeeded or failed, so the machine-config operator marked the build Interrupted. "+
				"None of the pool's nodes takes its new configuration until a build succeeds. %s",
				b.Namespace, b.Job, ib.MachineOSBuild, retry), maxDescriptionLength),
		}, imageModeDocs)}, time.Time{}
	case insightsv1alpha1.ImageBuildPrepared, insightsv1alpha1.ImageBuildBuilding:
		if since.IsZero() {
			return nil, time.Time{}
		}
		after := SlowAfter(b.Longest)
		if now.Sub(since) < after {
			return nil, since.Add(after)
		}
		compared := fmt.Sprintf("no past build of the pool to compare with, and it has run over %s", text.Minutes(after))
		if b.Longest > 0 {
			compared = fmt.Sprintf("its longest past build took %s", text.Minutes(b.Longest))
		}
		return []Insight{nodeInsight(ImageBuildSlow, b.Pool.ScopeType, resources, since, insightsv1alpha1.InsightImpact{
			Level: insightsv1alpha1.WarningImpactLevel,
			Type:  insightsv1alpha1.UpdateSpeedImpactType,
			Summary: text.OneLine(fmt.Sprintf("OS image build %s of pool %s has been %s for %s", ib.MachineOSBuild, b.Pool.Name,
				strings.ToLower(string(ib.State)), text.Minutes(now.Sub(since))), maxSummaryLength),
			Description: text.Truncate(fmt.Sprintf("The OS image build of MachineConfigPool %s has been %s since %s (%s); %s. "+
				"The pool's nodes wait on it. Look at the build Job: oc describe job -n %s %s, and its pod's log: oc logs -n %s job/%s -c image-build.",
				b.Pool.Name, strings.ToLower(string(ib.State)), since.UTC().Format(time.RFC3339), text.Minutes(now.Sub(since)), compared,
				b.Namespace, b.Job, b.Namespace, b.Job), maxDescriptionLength),
		}, imageModeDocs)}, time.Time{}
	}
	return nil, time.Time{}
}

// lastWords is the last line of a build's words that says something,
// which in a build log is the error it ended on.
func lastWords(words string) string {
	lines := strings.Split(strings.TrimSpace(words), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[i]), "…")); l != "" {
			return l
		}
	}
	return "no failed pod says why"
}

// endOf is head and then as much of the end of tail as fits in max bytes
// on one line: an error's cause ends it ("…: unauthorized: authentication
// required"), after the names of what it was doing.
func endOf(head, tail string, max int) string {
	line := strings.Join(strings.Fields(tail), " ")
	if len(head)+len(line) <= max {
		return head + line
	}
	const ellipsis = "…"
	room := max - len(head) - len(ellipsis)
	if room <= 0 {
		return text.Truncate(head, max)
	}
	cut := len(line) - room
	for cut < len(line) && !utf8.RuneStart(line[cut]) {
		cut++
	}
	return head + ellipsis + line[cut:]
}
