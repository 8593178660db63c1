package hostednodepools

import (
	"fmt"
	"strconv"
	"time"

	"github.com/blang/semver/v4"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// Input is what the management cluster shows of one NodePool's update.
type Input struct {
	NodePool *hypershift.NodePool
	// HostedCluster is the NodePool's (spec.clusterName, same namespace);
	// nil when not found.
	HostedCluster *hypershift.HostedCluster
	// MachineDeployment is the Replace NodePool's (nil for InPlace or when
	// absent); MachineSets and Machines are those annotated
	// hypershift.NodePoolAnnotation = "<ns>/<name>" of the NodePool.
	MachineDeployment *hypershift.MachineDeployment
	MachineSets       []*hypershift.MachineSet
	Machines          []*hypershift.Machine
	// PerMachine is how long a machine of this NodePool took to update, as
	// the operator observed earlier machines; 0 when not known.
	PerMachine time.Duration
	Previous   *insightsv1alpha1.NodePoolProgressInsightStatus
	Now        time.Time
}

// Assess is the NodePoolProgressInsight's status of in, within the bounds
// its CRD sets whatever in holds.
func Assess(in Input) insightsv1alpha1.NodePoolProgressInsightStatus {
	if in.NodePool == nil {
		in.NodePool = &hypershift.NodePool{}
	}
	np := in.NodePool
	st := insightsv1alpha1.NodePoolProgressInsightStatus{
		HostedCluster: np.Spec.ClusterName,
		UpgradeType:   insightsv1alpha1.NodePoolUpgradeReplace,
	}
	if np.Spec.Management.UpgradeType == hypershift.UpgradeTypeInPlace {
		st.UpgradeType = insightsv1alpha1.NodePoolUpgradeInPlace
	}
	target := TargetVersion(np, in.HostedCluster, in.MachineDeployment)
	current := np.Status.Version
	cp := controlPlaneVersion(in.HostedCluster)
	st.Versions = insightsv1alpha1.NodePoolVersions{Current: current, Target: target}

	desired := desiredMachines(in)
	c := updatedMachines(in, target)
	config := configRollout(np)
	rolledOut := target != "" && current == target && !updatingVersion(np) && config == nil
	// A new configuration with the release unchanged replaces or updates
	// every machine too, but each machine's release says nothing of it.
	configOnly := config != nil && target != "" && current == target && !updatingVersion(np)
	if configOnly {
		c = configuredMachines(in)
	}
	st.Machines = insightsv1alpha1.MachinesSummary{Desired: desired, Updated: min(c.updated, desired), Source: c.source}
	if rolledOut && !c.known {
		st.Machines.Updated = desired
	}
	switch {
	case desired > 0:
		st.CompletionPercent = int32(int64(st.Machines.Updated) * 100 / int64(desired))
	case rolledOut:
		st.CompletionPercent = 100
	}

	if v := nodePoolVersion(current, target); v != "" && cp != "" {
		if behind, err := hosted.ReleaseMinorsBehind(cp, v); err == nil {
			b := int32(behind)
			st.MinorsBehind = &b
		}
	}

	var problems []insightsv1alpha1.HostedProblem
	for _, v := range uniqueVersions(current, target) {
		if p := skewProblem(np, v, cp); p != nil {
			problems = append(problems, *p)
		}
	}
	problems = append(problems, conditionProblems(np)...)
	if p := inPlaceProblem(in); p != nil {
		problems = append(problems, *p)
	}

	rolling := target != "" && !rolledOut
	if rolling {
		st.HoldingMachine = holdingMachine(in)
		if p := heldProblem(st.HoldingMachine, in); p != nil {
			problems = append(problems, *p)
		}
	}

	st.Assessment = assessment(in, target, current, cp, rolling, c, problems)
	if rolling {
		st.StartedAt = startedAt(in, target)
		st.EstimatedCompletedAt = estimate(in, st, c)
	}
	st.Problems = problems
	st.Conditions = conditions(in, st, target, configOnlyRollout(configOnly, config))
	return bound(st)
}

// maxConfigMessage bounds the NodePool controller's words quoted in the
// Updating condition of a configuration's rollout.
const maxConfigMessage = 512

// configOnlyRollout is the condition of a rollout of a new configuration
// alone, nil when the rollout is of a release or there is none.
func configOnlyRollout(configOnly bool, config *hypershift.NodePoolCondition) *hypershift.NodePoolCondition {
	if !configOnly {
		return nil
	}
	return config
}

// nodePoolVersion is the release the NodePool's nodes run, or, before it
// has any, the one it is to run.
func nodePoolVersion(current, target string) string {
	if current != "" {
		return current
	}
	return target
}

func uniqueVersions(current, target string) []string {
	if current == target || target == "" {
		return []string{current}
	}
	return []string{current, target}
}

// assessment sums the NodePool's update up in one word.
func assessment(in Input, target, current, cp string, rolling bool, c count, problems []insightsv1alpha1.HostedProblem) insightsv1alpha1.PoolAssessment {
	switch {
	case paused(in.NodePool, in.Now):
		return insightsv1alpha1.PoolExcluded
	case hasError(problems):
		return insightsv1alpha1.PoolDegraded
	case target == "":
		return insightsv1alpha1.PoolPending
	case rolling && started(in, target, c):
		return insightsv1alpha1.PoolProgressing
	case rolling:
		return insightsv1alpha1.PoolPending
	}
	if olderThan(current, cp) {
		return insightsv1alpha1.PoolBehind
	}
	return insightsv1alpha1.PoolCompleted
}

// olderThan says whether release v is older than the control plane's cp,
// both known.
func olderThan(v, cp string) bool {
	a, err := semver.Parse(v)
	if err != nil {
		return false
	}
	b, err := semver.Parse(cp)
	return err == nil && a.LT(b)
}

// paused says whether spec.pausedUntil stops the NodePool controller from
// reconciling the NodePool now, so that it rolls nothing out: "true", or an
// RFC 3339 time still to come (support/util/pausereconcile.go
// ProcessPausedUntilField; nodepool_controller.go Reconcile).
func paused(np *hypershift.NodePool, now time.Time) bool {
	if np.Spec.PausedUntil == nil {
		return false
	}
	v := *np.Spec.PausedUntil
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	t, err := time.Parse(time.RFC3339, v)
	return err == nil && now.Before(t)
}

// started says whether anything of the rollout to target has happened: a
// machine at target (joined or not), a machine going, the in-place
// upgrader at work.
func started(in Input, target string, c count) bool {
	if c.updated > 0 || c.source == insightsv1alpha1.MachinesFromInPlaceUpgrader {
		return true
	}
	for _, m := range in.Machines {
		if m == nil {
			continue
		}
		if m.DeletionTimestamp != nil || m.Annotations[hypershift.ReleaseVersionAnnotation] == target {
			return true
		}
	}
	return false
}

func hasError(problems []insightsv1alpha1.HostedProblem) bool {
	for _, p := range problems {
		if p.Level == insightsv1alpha1.ErrorImpactLevel || p.Level == insightsv1alpha1.CriticalImpactLevel {
			return true
		}
	}
	return false
}

// startedAt is when the rollout to target started: when the NodePool
// controller set UpdatingVersion (conditions.go), or as written before for
// the same target when that is earlier, else now. The condition wins over a
// later start written before: the operator may have first seen the
// NodePool before its controller wrote the condition, or after a restart.
func startedAt(in Input, target string) *metav1.Time {
	var started *metav1.Time
	if p := in.Previous; p != nil && p.StartedAt != nil && p.Versions.Target == target {
		started = p.StartedAt.DeepCopy()
	}
	for _, t := range []string{hypershift.NodePoolUpdatingVersion, hypershift.NodePoolUpdatingConfig, hypershift.NodePoolUpdatingPlatformMachineTemplate} {
		if c := in.NodePool.Condition(t); c != nil && c.Status == corev1.ConditionTrue && !c.LastTransitionTime.IsZero() &&
			!c.LastTransitionTime.Time.After(in.Now) && (started == nil || c.LastTransitionTime.Before(started)) {
			started = c.LastTransitionTime.DeepCopy()
		}
	}
	if started == nil {
		started = &metav1.Time{Time: in.Now}
	}
	return started
}

// conditions are Updating, its reason the assessment, and Healthy.
func conditions(in Input, st insightsv1alpha1.NodePoolProgressInsightStatus, target string, config *hypershift.NodePoolCondition) []metav1.Condition {
	var out []metav1.Condition
	if in.Previous != nil {
		for _, c := range in.Previous.Conditions {
			if c.Type == insightsv1alpha1.HostedProgressInsightUpdating || c.Type == insightsv1alpha1.HostedProgressInsightHealthy {
				out = append(out, *c.DeepCopy())
			}
		}
	}
	updating := metav1.Condition{Type: insightsv1alpha1.HostedProgressInsightUpdating, Reason: string(st.Assessment)}
	switch {
	case target == "":
		updating.Status = metav1.ConditionUnknown
		updating.Message = fmt.Sprintf("The version of the NodePool's release image %s is not known yet", in.NodePool.Spec.Release.Image)
	case config != nil && (st.Assessment == insightsv1alpha1.PoolProgressing || st.Assessment == insightsv1alpha1.PoolDegraded && st.StartedAt != nil):
		updating.Status = metav1.ConditionTrue
		updating.Message = fmt.Sprintf("%d of %d machines run the NodePool's new configuration, still at %s (%s: %s)",
			st.Machines.Updated, st.Machines.Desired, target, config.Type, text.OneLine(config.Message, maxConfigMessage))
	case st.Assessment == insightsv1alpha1.PoolProgressing || st.Assessment == insightsv1alpha1.PoolDegraded && st.StartedAt != nil:
		updating.Status = metav1.ConditionTrue
		updating.Message = fmt.Sprintf("%d of %d machines run %s", st.Machines.Updated, st.Machines.Desired, target)
	default:
		updating.Status = metav1.ConditionFalse
		updating.Message = fmt.Sprintf("%d of %d machines run %s", st.Machines.Updated, st.Machines.Desired, target)
	}
	healthy := metav1.Condition{Type: insightsv1alpha1.HostedProgressInsightHealthy, Status: metav1.ConditionTrue, Reason: "AsExpected", Message: "No problems"}
	if len(st.Problems) > 0 {
		healthy.Message = st.Problems[0].Message
		if hasError(st.Problems) {
			healthy.Status, healthy.Reason = metav1.ConditionFalse, "Problems"
		}
	}
	for _, c := range []metav1.Condition{updating, healthy} {
		c.LastTransitionTime = metav1.Time{Time: in.Now}
		meta.SetStatusCondition(&out, c)
	}
	return out
}

// etaJitter is how far an estimate may move before it is worth a write.
const etaJitter = 2 * time.Minute

// Changed says whether desired differs from current enough to be written:
// in anything but the estimate, or in the estimate by more than etaJitter.
func Changed(current, desired *insightsv1alpha1.NodePoolProgressInsightStatus) bool {
	if current == nil || desired == nil {
		return current != desired
	}
	c, d := current.DeepCopy(), desired.DeepCopy()
	ce, de := c.EstimatedCompletedAt, d.EstimatedCompletedAt
	c.EstimatedCompletedAt, d.EstimatedCompletedAt = nil, nil
	if !equality.Semantic.DeepEqual(c, d) {
		return true
	}
	switch {
	case ce == nil || de == nil:
		return ce != de
	case ce.Sub(de.Time) > etaJitter || de.Sub(ce.Time) > etaJitter:
		return true
	}
	return false
}
