package hostedclusters

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// UnreadableReason is the reason of a problem, and of an Unknown Updating
// condition, saying that an object the insight is made of does not have the
// shape its API declares: nothing is said of it rather than something
// wrong, until it can be read.
const UnreadableReason = "Unreadable"

// writeUnreadable writes the insight of a HostedCluster that cannot be
// read: Unknown, saying why.
func (c *Controller) writeUnreadable(ctx context.Context, obj any) error {
	m, ok := obj.(*hypershift.Malformed)
	if !ok {
		return fmt.Errorf("unexpected %T in the HostedClusters' cache", obj)
	}
	logUnreadable(m)
	current, err := c.clusterInsights.HostedClusterProgressInsights(m.Namespace).Get(m.Name)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	now := metav1.NewTime(c.clock.Now())
	message := text.TruncateCharacters("The HostedCluster cannot be read, so nothing is said of its update: "+m.Err, 4096)
	desired := insightsv1alpha1.HostedClusterProgressInsightStatus{
		Assessment: insightsv1alpha1.HostedClusterAssessmentUnknown,
		Conditions: []metav1.Condition{
			{Type: insightsv1alpha1.HostedProgressInsightUpdating, Status: metav1.ConditionUnknown, Reason: UnreadableReason, Message: message, LastTransitionTime: now},
			{Type: insightsv1alpha1.HostedProgressInsightHealthy, Status: metav1.ConditionUnknown, Reason: UnreadableReason, Message: message, LastTransitionTime: now},
		},
		Problems: []insightsv1alpha1.HostedProblem{{Level: insightsv1alpha1.WarningImpactLevel, Reason: UnreadableReason, Message: message, Since: &now}},
	}
	if current != nil {
		keepSince(&current.Status, &desired)
	}
	writer := insightwrite.HostedClusterProgressInsights(c.client, m.Namespace)
	_, _, err = writer.WriteStatus(ctx, insightMeta(m.ObjectMeta, "HostedCluster"), current, desired)
	return err
}

// keepSince keeps the times of the conditions and problems that did not
// change, so that an unchanged Unknown is not written again.
func keepSince(current, desired *insightsv1alpha1.HostedClusterProgressInsightStatus) {
	for i := range desired.Conditions {
		if c := meta.FindStatusCondition(current.Conditions, desired.Conditions[i].Type); c != nil && c.Status == desired.Conditions[i].Status && c.Reason == desired.Conditions[i].Reason {
			desired.Conditions[i].LastTransitionTime = c.LastTransitionTime
		}
	}
	for i := range desired.Problems {
		for _, p := range current.Problems {
			if p.Reason == desired.Problems[i].Reason && p.Since != nil {
				desired.Problems[i].Since = p.Since
			}
		}
	}
}

// withUnreadable puts a Warning first among problems for each Cluster API
// object of the NodePool that cannot be read: what the NodePool's insight
// says leaves it out. The API's bound on problems is kept.
func withUnreadable(problems []insightsv1alpha1.HostedProblem, unreadable []*hypershift.Malformed, now time.Time) []insightsv1alpha1.HostedProblem {
	if len(unreadable) == 0 {
		return problems
	}
	since := metav1.NewTime(now)
	var out []insightsv1alpha1.HostedProblem
	for _, m := range unreadable {
		logUnreadable(m)
		out = append(out, insightsv1alpha1.HostedProblem{
			Level:    insightsv1alpha1.WarningImpactLevel,
			Reason:   UnreadableReason,
			Message:  text.TruncateCharacters(fmt.Sprintf("%s %s cannot be read, and is left out of what is said of the NodePool: %s", m.Kind, m.Name, m.Err), 4096),
			Resource: &insightsv1alpha1.ResourceRef{Group: hypershift.ClusterAPIGroup, Resource: resourceOf(m.Kind), Namespace: m.Namespace, Name: m.Name},
			Since:    &since,
		})
	}
	out = append(out, problems...)
	if len(out) > maxProblems {
		out = out[:maxProblems]
	}
	return out
}

// withUnreadableNodePools puts a Warning first among a HostedCluster's
// problems for each of its NodePools that cannot be read, which what the
// cluster's insight says leaves out, dated from when it was first said.
func withUnreadableNodePools(problems []insightsv1alpha1.HostedProblem, unreadable []*hypershift.Malformed, previous *insightsv1alpha1.HostedClusterProgressInsightStatus, now time.Time) []insightsv1alpha1.HostedProblem {
	if len(unreadable) == 0 {
		return problems
	}
	var out []insightsv1alpha1.HostedProblem
	for _, m := range unreadable {
		logUnreadable(m)
		message := text.TruncateCharacters(fmt.Sprintf("NodePool %s cannot be read, and is left out of what is said of the hosted cluster and its NodePools: %s", m.Name, m.Err), 4096)
		since := metav1.NewTime(now)
		if previous != nil {
			for _, p := range previous.Problems {
				if p.Reason == UnreadableReason && p.Message == message && p.Since != nil {
					since = *p.Since
				}
			}
		}
		out = append(out, insightsv1alpha1.HostedProblem{
			Level:    insightsv1alpha1.WarningImpactLevel,
			Reason:   UnreadableReason,
			Message:  message,
			Resource: &insightsv1alpha1.ResourceRef{Group: hypershift.Group, Resource: hypershift.NodePools.Resource, Namespace: m.Namespace, Name: m.Name},
			Since:    &since,
		})
	}
	out = append(out, problems...)
	if len(out) > maxProblems {
		out = out[:maxProblems]
	}
	return out
}

// maxProblems is the API's MaxItems of an insight's problems.
const maxProblems = 16

func resourceOf(kind string) string {
	switch kind {
	case "MachineDeployment":
		return hypershift.MachineDeployments.Resource
	case "MachineSet":
		return hypershift.MachineSets.Resource
	}
	return hypershift.Machines.Resource
}

func logUnreadable(obj any) {
	if m, ok := obj.(*hypershift.Malformed); ok {
		klog.V(2).InfoS("An object cannot be read: it is left out of the insights", "kind", m.Kind, "namespace", m.Namespace, "name", m.Name, "err", m.Err)
	}
}
