package statusview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	problems "github.com/update-insights/update-insights-operator/pkg/health"
)

// unknown stands for a value the insights do not tell, as in the reference.
const unknown = "?"

// shortDuration prints a duration as the reference does: 1h12m, 28m,
// 1h0m17s, 1m29s, 6s.
func shortDuration(d time.Duration) string {
	s := d.String()
	switch {
	case strings.HasSuffix(s, "h0m0s"):
		return strings.TrimSuffix(s, "0m0s")
	case strings.HasSuffix(s, "m0s"):
		return strings.TrimSuffix(s, "0s")
	}
	return s
}

// roughDuration prints a long duration to the minute and a short one to the
// second, as the reference prints an update's duration and remaining time.
func roughDuration(d time.Duration) string {
	if d > 10*time.Minute {
		return shortDuration(d.Round(time.Minute))
	}
	return shortDuration(d.Round(time.Second))
}

// since prints how long ago t was, in whole seconds truncated as the
// reference's SINCE columns are (health.go's stringSince, and the updating
// operators' table through shortDuration, which drops the fraction): 2m56.7s
// is 2m56s. "now" under a second (or for a time in the future), "-" when t
// is unknown.
func since(t *metav1.Time, now time.Time) string {
	if t == nil || t.IsZero() {
		return "-"
	}
	d := now.Sub(t.Time).Truncate(time.Second)
	if d <= 0 {
		return "now"
	}
	return shortDuration(d)
}

// sinceStart prints how long the update has run, rounded to the second:
// the reference dates its "Update is proceeding well" row by the update's
// duration, which it rounds (status.go's updatingFor), unlike its other
// SINCE cells.
func sinceStart(t *metav1.Time, now time.Time) string {
	if t == nil || t.IsZero() {
		return "-"
	}
	d := now.Sub(t.Time).Round(time.Second)
	if d <= 0 {
		return "now"
	}
	return shortDuration(d)
}

// believedUpTo is the longest time left that an estimate is believed for:
// the curve pkg/eta projects through was fitted on updates of an hour or
// two, and an update that has run for days projects through it to years.
const believedUpTo = 24 * time.Hour

// remaining prints the time left until the estimated completion as the
// reference does (vagueUnder in its controlplane.go): vague under 10
// minutes, and once more than 10 minutes past the estimate, the estimate's
// duration instead; so too for an estimate further ahead than is believed.
// now is when it is printed, not when the estimate was made.
func remaining(cp *ControlPlane, now time.Time) string {
	left := cp.EstimatedCompletedAt.Sub(now)
	unbelievable := left < -10*time.Minute || left > believedUpTo
	switch {
	case unbelievable && cp.StartedAt != nil:
		// The reference prints this duration with its seconds cut off.
		return "N/A; estimate duration was " + shortDuration(cp.EstimatedCompletedAt.Sub(cp.StartedAt.Time).Truncate(time.Minute))
	case unbelievable:
		return "N/A"
	case left < 10*time.Minute:
		return "<10m"
	}
	return roughDuration(left)
}

// assessmentWords are the reference's words for the control plane
// assessments that it words differently (pkg/cli/admin/upgrade/status/
// controlplane.go, assessmentState), and for Degraded, which earlier
// versions wrote where the reference says Stalled.
var assessmentWords = map[insightsv1alpha1.ClusterVersionAssessment]string{
	insightsv1alpha1.ClusterVersionAssessmentProgressingSlow: "Progressing - Slow",
	insightsv1alpha1.ClusterVersionAssessmentDegraded:        "Stalled",
}

func assessmentWord(a insightsv1alpha1.ClusterVersionAssessment) string {
	if word, ok := assessmentWords[a]; ok {
		return word
	}
	return orUnknown(string(a))
}

// targetVersion words the update's versions as the reference does: the
// previous version, incomplete or not, and a migration to the
// multi-architecture payload, whose previous version is the target's own.
func targetVersion(cp *ControlPlane) string {
	target := orUnknown(cp.Target.Version)
	if cp.Previous == nil {
		return target
	}
	previous := orUnknown(cp.Previous.Version)
	_, partial := metadata(cp.Previous, insightsv1alpha1.PartialMetadata)
	switch {
	case partial:
		return fmt.Sprintf("%s (from incomplete %s)", target, previous)
	case isArchitectureMigration(cp):
		return target + " to Multi-Architecture"
	}
	return fmt.Sprintf("%s (from %s)", target, previous)
}

// isArchitectureMigration says whether the update migrates the payload to
// another architecture, keeping its version.
func isArchitectureMigration(cp *ControlPlane) bool {
	_, ok := metadata(&cp.Target, insightsv1alpha1.ArchitectureMetadata)
	return ok
}

func metadata(v *insightsv1alpha1.Version, key insightsv1alpha1.VersionMetadataKey) (string, bool) {
	for _, m := range v.Metadata {
		if m.Key == key {
			return m.Value, true
		}
	}
	return "", false
}

func operatorHealth(h OperatorHealth) string {
	parts := []string{fmt.Sprintf("%d Healthy", h.Healthy)}
	for _, count := range []struct {
		n    int
		word string
	}{{h.Unavailable, "Unavailable"}, {h.Degraded, "Available but degraded"}, {h.Unknown, "Unknown"}} {
		if count.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count.n, count.word))
		}
	}
	return strings.Join(parts, ", ")
}

func poolStatus(c NodeCounts) string {
	s := fmt.Sprintf("%d Available, %d Progressing, %d Draining", c.Available, c.Progressing, c.Draining)
	if c.Excluded > 0 {
		s += fmt.Sprintf(", %d Excluded", c.Excluded)
	}
	if c.Degraded > 0 {
		s += fmt.Sprintf(", %d Degraded", c.Degraded)
	}
	return s
}

func resource(r insightsv1alpha1.ResourceRef) string {
	kind := r.Resource
	if r.Group != "" {
		kind += "." + r.Group
	}
	name := r.Name
	if r.Namespace != "" {
		name = r.Namespace + "/" + name
	}
	return kind + ": " + name
}

// message is a health insight's summary, naming the informer that reported
// it unless it is the operator's own.
func message(h *Health) string {
	if h.Informer == "" {
		return h.Summary
	}
	return fmt.Sprintf("%s (%s)", h.Summary, h.Informer)
}

// reference is a health insight's reference, or what oc prints for an
// alert without a runbook: the only insight this operator writes without a
// reference.
func reference(h *Health) string {
	switch {
	case h.Reference != "":
		return h.Reference
	case slices.ContainsFunc(h.Resources, isAlert):
		return problems.NoRunbook
	default:
		return "-"
	}
}

func isAlert(r insightsv1alpha1.ResourceRef) bool {
	return r.Group == configv1.GroupName && r.Resource == "alerts"
}

// progressNote names an informer's progress insight's informer and says
// until when it should last, and whether it is from a failed informer's
// last good answer.
func progressNote(p *Progress, now time.Time) string {
	note := []string{p.Informer}
	switch finish := p.EstimatedFinish; {
	case finish == nil:
	case p.AwaitingWindow:
		note = append(note, "window opens at "+finish.UTC().Format(time.RFC3339))
	case finish.After(now):
		note = append(note, "Est. Time Remaining: "+roughDuration(finish.Sub(now)))
	default:
		note = append(note, "expected to finish "+roughDuration(now.Sub(finish.Time))+" ago")
	}
	if p.Stale {
		note = append(note, "stale: the informer's last call failed")
	}
	return strings.Join(note, ", ")
}

func orUnknown(s string) string {
	if s == "" {
		return unknown
	}
	return s
}

// cell keeps a value to its table cell: a tab or a line break in it would
// start another.
func cell(s string) string {
	return strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ").Replace(s)
}

// maxReasonLength is how much of a ClusterOperator's Progressing reason the
// updating operators' table shows, as oc does.
const maxReasonLength = 20

// ellipsis cuts s to max characters, the last three of them "...", as oc
// cuts a reason (pkg/cli/admin/upgrade/status/controlplane.go).
func ellipsis(s string, max int) string {
	runes := []rune(s)
	if len(runes) <= max {
		return s
	}
	return string(runes[:max-3]) + "..."
}
