package health

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// AlertFiring is the kind of problem of a firing alert.
const AlertFiring = "AlertFiring"

// NoRunbook is what tools print for an alert without a runbook_url
// annotation, whose insight has no reference.
const NoRunbook = "<alert does not have a runbook_url annotation>"

// What the insight API accepts in a resource reference and a reference.
const (
	maxResourceNameLength = insightsv1alpha1.ResourceNameMaxLength
	maxNamespaceLength    = insightsv1alpha1.ResourceNamespaceMaxLength
	maxReferenceLength    = insightsv1alpha1.RemediationReferenceMaxLength
)

// updateAlerts are known to affect updates: they count even when they began
// to fire before the update started. A PodDisruptionBudget at its limit
// stops the drain of the nodes its pods run on.
var updateAlerts = map[string]bool{
	"PodDisruptionBudgetLimit":   true,
	"PodDisruptionBudgetAtLimit": true,
}

// referencePattern is the insight API's pattern for a reference.
var referencePattern = regexp.MustCompile(`^https?://[^\s]+$`)

// ForAlerts returns a health insight for each alert instance that matters to
// an update that started at updateStarted, by the rules of
// `oc adm upgrade status`: a firing alert with a name, of severity warning
// or critical, that became active during the update or is known to affect
// updates.
func ForAlerts(firing []alerts.Alert, updateStarted time.Time) []Insight {
	var insights []Insight
	var reported []*alerts.Alert
	for i := range firing {
		if insight, ok := alertInsight(&firing[i], updateStarted); ok {
			insights = append(insights, insight)
			reported = append(reported, &firing[i])
		}
	}
	nameTwins(insights, reported)
	return insights
}

// nameTwins gives a name of its own to each of the alerts that share a label
// set. Prometheus answers one alert per rule and label set, so two rules
// (of two groups, or one group listing a rule twice) that give the same
// labels are two alerts with one identity, told apart only by their
// annotations, and `oc adm upgrade status` lists each. The first, by when it
// became active and then by its annotations, keeps the label set's name, so
// that a twin appearing later renames nothing; the others are numbered.
func nameTwins(insights []Insight, reported []*alerts.Alert) {
	byIdentity := map[string][]int{}
	for i, a := range reported {
		id := a.Identity()
		byIdentity[id] = append(byIdentity[id], i)
	}
	for id, twins := range byIdentity {
		if len(twins) < 2 {
			continue
		}
		slices.SortStableFunc(twins, func(i, j int) int {
			if c := reported[i].ActiveAt.Compare(reported[j].ActiveAt); c != 0 {
				return c
			}
			return strings.Compare(annotationsText(reported[i]), annotationsText(reported[j]))
		})
		for rank, i := range twins[1:] {
			// A NUL cannot occur in a label set's identity, which quotes
			// every name and value: no label set names a twin.
			insights[i].Name = hashName("alert-", nil, fmt.Sprintf("%s\x00%d", id, rank+2))
		}
	}
}

// annotationsText is an alert's annotations in a canonical order.
func annotationsText(a *alerts.Alert) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(a.Annotations)) {
		fmt.Fprintf(&b, "%q=%q,", k, a.Annotations[k])
	}
	return b.String()
}

func alertInsight(a *alerts.Alert, updateStarted time.Time) (Insight, bool) {
	name := a.Name()
	if name == "" || a.State == alerts.StatePending {
		return Insight{}, false
	}
	level, ok := alertLevel(a.Labels["severity"])
	if !ok {
		return Insight{}, false
	}
	duringUpdate := updateStarted.Before(a.ActiveAt)
	var description string
	switch {
	case updateAlerts[name] && duringUpdate:
		description = "Alert known to affect updates started firing during the update."
	case updateAlerts[name]:
		description = "Alert known to affect updates has been firing since before the update started."
	case duringUpdate:
		description = "Alert started firing during the update."
	default:
		// An alert that was firing before the update is not news about it.
		return Insight{}, false
	}
	description += " " + a.Description()

	summary := a.Annotations["summary"]
	if summary == "" {
		summary = name
	}
	resource := alertResource.ref(text.Truncate(name, maxResourceNameLength))
	if ns := a.Labels["namespace"]; len(ns) <= maxNamespaceLength {
		resource.Namespace = ns
	}
	// The API keeps whole seconds: a finer start would differ from the
	// stored one and have the insight written again at every poll.
	var started metav1.Time
	if !a.ActiveAt.IsZero() {
		started = metav1.NewTime(a.ActiveAt.Truncate(time.Second))
	}
	status := insightsv1alpha1.UpdateHealthInsightStatus{
		StartedAt: started,
		// The insight API has no scope for the whole cluster; the alerts
		// are the platform's, as the control plane is.
		Scope: insightsv1alpha1.InsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane, Resources: []insightsv1alpha1.ResourceRef{resource}},
		Impact: insightsv1alpha1.InsightImpact{
			Level:       level,
			Type:        insightsv1alpha1.UnknownImpactType,
			Summary:     text.OneLine("Alert is firing: "+summary, maxSummaryLength),
			Description: text.Cut(description, maxDescriptionLength, "the alert's annotations in Prometheus (the console's Observe > Alerting)"),
		},
		Remediation: insightsv1alpha1.InsightRemediation{Reference: runbook(a.Annotations["runbook_url"])},
	}
	// Each alert instance (each label set) is a problem of its own: the same
	// alert fires for each pod, operator or budget it is about.
	return Insight{Name: hashName("alert-", nil, a.Identity()), Problem: AlertFiring, Status: status}, true
}

// alertLevel maps an alert's severity to a level, and says whether the
// level is worth reporting: warning and critical are, anything else is
// information an update does not need.
func alertLevel(severity string) (insightsv1alpha1.InsightImpactLevel, bool) {
	switch severity {
	case "warning":
		return insightsv1alpha1.WarningImpactLevel, true
	case "critical":
		return insightsv1alpha1.CriticalImpactLevel, true
	default:
		return insightsv1alpha1.InfoImpactLevel, false
	}
}

// runbook returns the reference of an alert whose runbook_url annotation is
// annotation: empty when the annotation is missing, or is not a link the
// insight API accepts (a relative path, a link of over 2048 characters).
func runbook(annotation string) string {
	if len(annotation) > maxReferenceLength || !referencePattern.MatchString(annotation) {
		return ""
	}
	if _, err := url.Parse(annotation); err != nil {
		return ""
	}
	return annotation
}

// UpdateStart says whether an update is in progress, and when it started,
// as `oc adm upgrade status` tells: the ClusterVersion is Progressing, or a
// worker pool still has nodes to update after the control plane is done. It
// started when the newest update in the history did, or else when the
// ClusterVersion began Progressing.
func UpdateStart(cv *configv1.ClusterVersion, pools []*insightsv1alpha1.MachineConfigPoolProgressInsightStatus) (time.Time, bool) {
	progressing := v1helpers.FindStatusCondition(cv.Status.Conditions, configv1.OperatorProgressing)
	if (progressing == nil || progressing.Status != configv1.ConditionTrue) && !slices.ContainsFunc(pools, workersUpdating) {
		return time.Time{}, false
	}
	var started time.Time
	if progressing != nil {
		started = progressing.LastTransitionTime.Time
	}
	if len(cv.Status.History) > 0 {
		started = cv.Status.History[0].StartedTime.Time
	}
	return started, true
}

// workersUpdating says whether a worker pool has nodes and has not updated
// them all.
func workersUpdating(pool *insightsv1alpha1.MachineConfigPoolProgressInsightStatus) bool {
	if pool.ScopeType != insightsv1alpha1.ScopeTypeWorkerPool || pool.CompletionPercent >= 100 {
		return false
	}
	for _, s := range pool.Summaries {
		if s.Type == insightsv1alpha1.NodesTotal {
			return s.Count > 0
		}
	}
	return false
}
