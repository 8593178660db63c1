package hostedclusters

import (
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// Input is what a hosted cluster's control plane update is assessed from.
type Input struct {
	HostedCluster *hypershift.HostedCluster
	// Components are the ControlPlaneComponents of its control-plane namespace (hypershift.ControlPlaneNamespace).
	Components []*hypershift.ControlPlaneComponent
	// NodePools are the assessed statuses of the cluster's NodePools (for the NodePoolsSummary counts and to name the worst NodePool problem).
	NodePools []insightsv1alpha1.NodePoolProgressInsightStatus
	// Previous is the insight's status as last written, nil at first.
	Previous *insightsv1alpha1.HostedClusterProgressInsightStatus
	Now      time.Time
}

// Reasons of the Updating and Healthy conditions beyond the assessments,
// which are the Updating reasons while the update runs. They follow the
// ClusterVersion insight's (ClusterVersionCannotDetermineUpdating,
// AsExpected).
const (
	reasonNoVersionStatus       = "NoVersionStatus"
	reasonNoUpdateHistory       = "NoUpdateHistory"
	reasonUnknownUpdateState    = "UnknownUpdateState"
	reasonAsExpected            = "AsExpected"
	reasonCannotDetermineHealth = "CannotDetermineHealth"
)

// Assess returns the desired status of the HostedClusterProgressInsight of
// in.HostedCluster.
func Assess(in Input) insightsv1alpha1.HostedClusterProgressInsightStatus {
	prev := in.Previous
	if prev == nil {
		prev = &insightsv1alpha1.HostedClusterProgressInsightStatus{}
	}
	now := in.Now.Truncate(time.Second)
	hc := in.HostedCluster
	a := assessor{hc: hc, prev: prev, now: now, where: "HostedCluster " + hc.Namespace + "/" + hc.Name}

	status := insightsv1alpha1.HostedClusterProgressInsightStatus{Assessment: insightsv1alpha1.HostedClusterAssessmentUnknown}
	updating := metav1.Condition{Type: insightsv1alpha1.HostedProgressInsightUpdating, Status: metav1.ConditionUnknown}

	a.blocking = a.isBlocking()
	v := hc.Status.Version
	switch {
	case v == nil:
		updating.Reason = reasonNoVersionStatus
		updating.Message = "The HostedCluster has no status.version yet: HyperShift has not reported what the control plane runs"
	case len(v.History) == 0:
		status.Versions.Target.Version = text.Truncate(v.Desired.Version, insightsv1alpha1.VersionMaxLength)
		updating.Reason = reasonNoUpdateHistory
		updating.Message = "The HostedCluster's status.version has no history: HyperShift has not reported an update"
	default:
		a.assessVersion(&status, &updating)
	}

	status.NodePools = summarize(in.NodePools, status.Versions.Target.Version)
	problems := a.problems(&status, in.Components)
	healthy := healthyCondition(problems, status.Assessment)
	if np, ok := worstNodePoolProblem(in.NodePools); ok {
		problems = append(problems, np)
	}
	status.Problems = bound(problems)
	status.Conditions = []metav1.Condition{
		withTransitionTime(updating, prev.Conditions, now),
		withTransitionTime(healthy, prev.Conditions, now),
	}
	return status
}

// assessor carries what every part of one assessment reads.
type assessor struct {
	hc    *hypershift.HostedCluster
	prev  *insightsv1alpha1.HostedClusterProgressInsightStatus
	now   time.Time
	where string

	// blocking says HyperShift refuses to roll out what is asked: its
	// Progressing is False, reason Blocked, while an update is requested
	// or under way (see isBlocking).
	blocking bool
	// remaining is the estimate's remaining time, when there is one.
	remaining *time.Duration
	// hasCount says the completion comes from the operator's count, now
	// or when last written.
	hasCount bool
}

// assessVersion assesses a HostedCluster that has an update history.
// HyperShift copies the guest ClusterVersion's status.desired and history
// up unchanged (control-plane-operator/hostedclusterconfigoperator/
// controllers/hcpstatus/hcpstatus.go reconcile, then hypershift-operator/
// controllers/hostedcluster/hostedcluster_controller.go
// computeClusterVersionStatus), newest entry first.
func (a *assessor) assessVersion(status *insightsv1alpha1.HostedClusterProgressInsightStatus, updating *metav1.Condition) {
	v := a.hc.Status.Version
	last := &v.History[0]
	if a.blocking && last.State == configv1.CompletedUpdate {
		// The requested release was refused before the guest was asked
		// for it: the control plane is still at the completed version,
		// and the requested one's version is not known here (HyperShift
		// reads it from the release image), nor has an update started.
		status.Versions.Previous = &insightsv1alpha1.Version{Version: text.Truncate(last.Version, insightsv1alpha1.VersionMaxLength)}
		status.Assessment = insightsv1alpha1.HostedClusterAssessmentBlocked
		updating.Status, updating.Reason = metav1.ConditionTrue, string(status.Assessment)
		updating.Message = fmt.Sprintf("HyperShift does not roll out the requested release %s: see the problems", text.Truncate(a.hc.ControlPlaneReleaseImage(), 1024))
		return
	}
	status.Versions = versions(v)
	if !last.StartedTime.IsZero() {
		status.StartedAt = timePtr(last.StartedTime.Time)
	}

	switch {
	case last.State == configv1.CompletedUpdate:
		status.Assessment = insightsv1alpha1.HostedClusterAssessmentCompleted
		status.CompletionPercent = 100
		if last.CompletionTime != nil && !last.CompletionTime.IsZero() {
			status.CompletedAt = timePtr(last.CompletionTime.Time)
		}
		updating.Status, updating.Reason = metav1.ConditionFalse, string(insightsv1alpha1.HostedClusterAssessmentCompleted)
		updating.Message = fmt.Sprintf("The control plane completed its update to %s", versionOrImage(last))
		return
	case last.State != configv1.CompletedUpdate && last.State != configv1.PartialUpdate && !a.blocking:
		updating.Reason = reasonUnknownUpdateState
		updating.Message = text.Truncate(fmt.Sprintf("The latest entry of the HostedCluster's status.version.history has state %q, neither Partial nor Completed", last.State), maxMessageLength)
		return
	}

	a.progress(status)
	switch {
	case a.blocking:
		status.Assessment = insightsv1alpha1.HostedClusterAssessmentBlocked
		updating.Message = "HyperShift does not roll out the requested release: see the problems"
	case a.failing() != nil:
		status.Assessment = insightsv1alpha1.HostedClusterAssessmentFailing
		updating.Message = "The guest's cluster-version operator says the update is failing: see the problems"
	case a.stalled():
		status.Assessment = insightsv1alpha1.HostedClusterAssessmentStalled
		updating.Message = fmt.Sprintf("The update to %s has not progressed since %s, long past its estimate", versionOrImage(last), status.LastObservedProgress.UTC().Format(time.RFC3339))
	default:
		status.Assessment = insightsv1alpha1.HostedClusterAssessmentProgressing
		updating.Message = fmt.Sprintf("The control plane is updating to %s", versionOrImage(last))
		if c := meta.FindStatusCondition(a.hc.Status.Conditions, hypershift.ClusterVersionProgressing); c != nil && c.Message != "" {
			updating.Message += ": " + text.Cut(c.Message, maxMessageLength, a.where+" status.conditions["+hypershift.ClusterVersionProgressing+"]")
		}
	}
	updating.Status, updating.Reason = metav1.ConditionTrue, string(status.Assessment)
	updating.Message = text.Truncate(updating.Message, 2*maxMessageLength)
}

// versions reads the target and the previous versions: the target is the
// version the guest desires (its latest entry's, before the cluster-version
// operator has read the release), the previous the latest completed entry
// before the current one. After an installation there is none.
func versions(v *hypershift.ClusterVersionStatus) insightsv1alpha1.ControlPlaneUpdateVersions {
	target := v.Desired.Version
	if target == "" {
		target = v.History[0].Version
	}
	out := insightsv1alpha1.ControlPlaneUpdateVersions{
		Target: insightsv1alpha1.Version{Version: text.Truncate(target, insightsv1alpha1.VersionMaxLength)},
	}
	if len(v.History) == 1 {
		out.Target.Metadata = []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.InstallationMetadata}}
		return out
	}
	for i := range v.History[1:] {
		if h := &v.History[1+i]; h.State == configv1.CompletedUpdate {
			out.Previous = &insightsv1alpha1.Version{Version: text.Truncate(h.Version, insightsv1alpha1.VersionMaxLength)}
			return out
		}
	}
	// No earlier update completed: the previous is the one interrupted,
	// marked so, as the ClusterVersion insight marks it.
	out.Previous = &insightsv1alpha1.Version{
		Version:  text.Truncate(v.History[1].Version, insightsv1alpha1.VersionMaxLength),
		Metadata: []insightsv1alpha1.VersionMetadata{{Key: insightsv1alpha1.PartialMetadata}},
	}
	return out
}

// summarize counts the NodePools by their assessed statuses: updated when
// the NodePool runs the control plane's target, updating while its Updating
// condition is True, degraded while its Healthy condition is False.
func summarize(pools []insightsv1alpha1.NodePoolProgressInsightStatus, target string) insightsv1alpha1.NodePoolsSummary {
	var s insightsv1alpha1.NodePoolsSummary
	for i := range pools {
		p := &pools[i]
		s.Total++
		if target != "" && p.Versions.Current == target {
			s.Updated++
		}
		if meta.IsStatusConditionTrue(p.Conditions, insightsv1alpha1.HostedProgressInsightUpdating) {
			s.Updating++
		}
		if meta.IsStatusConditionFalse(p.Conditions, insightsv1alpha1.HostedProgressInsightHealthy) {
			s.Degraded++
		}
	}
	return s
}

// healthyCondition is False, with the worst error-level problem's reason,
// when the control plane's update has any; Unknown when nothing is known of
// the update, as a pass would claim what was not checked.
func healthyCondition(problems []insightsv1alpha1.HostedProblem, assessment insightsv1alpha1.HostedClusterAssessment) metav1.Condition {
	c := metav1.Condition{Type: insightsv1alpha1.HostedProgressInsightHealthy}
	var serious []insightsv1alpha1.HostedProblem
	for _, p := range sortProblems(problems) {
		if insightsv1alpha1.ImpactLevelRank(p.Level) <= insightsv1alpha1.ImpactLevelRank(insightsv1alpha1.ErrorImpactLevel) {
			serious = append(serious, p)
		}
	}
	switch {
	case len(serious) > 0:
		c.Status, c.Reason, c.Message = metav1.ConditionFalse, serious[0].Reason, serious[0].Message
		if more := len(serious) - 1; more > 0 {
			c.Message += fmt.Sprintf(", and %d more error-level problems", more)
		}
	case assessment == insightsv1alpha1.HostedClusterAssessmentUnknown:
		c.Status, c.Reason = metav1.ConditionUnknown, reasonCannotDetermineHealth
		c.Message = "No error-level problem seen, but the HostedCluster does not say how its update is going"
	default:
		c.Status, c.Reason = metav1.ConditionTrue, reasonAsExpected
		c.Message = "No error-level problem with the control plane update"
	}
	return c
}

// withTransitionTime keeps the transition time of the previous condition of
// the same type when its status did not change, and sets now otherwise.
func withTransitionTime(c metav1.Condition, previous []metav1.Condition, now time.Time) metav1.Condition {
	c.LastTransitionTime = metav1.NewTime(now)
	if p := meta.FindStatusCondition(previous, c.Type); p != nil && p.Status == c.Status && !p.LastTransitionTime.IsZero() {
		c.LastTransitionTime = p.LastTransitionTime
	}
	return c
}

func versionOrImage(h *configv1.UpdateHistory) string {
	s := h.Version
	if s == "" {
		s = h.Image
	}
	if s == "" {
		s = "an unnamed release"
	}
	return text.Truncate(s, insightsv1alpha1.VersionMaxLength)
}

func timePtr(t time.Time) *metav1.Time {
	mt := metav1.NewTime(t)
	return &mt
}
