package integration

import (
	"context"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// waitForHealthInsights waits until the control plane's health insights about
// ClusterOperators satisfy ok.
func waitForHealthInsights(t testing.TB, what string, ok func([]insightsv1alpha1.UpdateHealthInsight) bool) []insightsv1alpha1.UpdateHealthInsight {
	t.Helper()
	var items []insightsv1alpha1.UpdateHealthInsight
	err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		list, err := insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{LabelSelector: "insight-manager=clusterversion"})
		if err != nil {
			return false, err
		}
		items = nil
		for _, i := range list.Items {
			if len(i.Status.Scope.Resources) == 1 && i.Status.Scope.Resources[0].Resource == "clusteroperators" {
				items = append(items, i)
			}
		}
		return ok(items), nil
	})
	if err != nil {
		t.Fatalf("waiting for the operator health insights to be %s: %v; have %+v", what, err, items)
	}
	return items
}

func setDegraded(t testing.TB, name string, status configv1.ConditionStatus, since time.Time) {
	t.Helper()
	ctx := context.Background()
	co, err := configClient.ConfigV1().ClusterOperators().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	co.Status.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue, LastTransitionTime: metav1.NewTime(since.Add(-time.Hour))},
		{Type: configv1.OperatorDegraded, Status: status, Reason: "MembersUnhealthy", Message: "2 of 3 members are available", LastTransitionTime: metav1.NewTime(since)},
	}
	if _, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(ctx, co, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// thresholdHeadroom is how long before a threshold a test dates a problem's
// start: long enough to check, on a loaded machine, that nothing is reported
// yet, and short enough to wait for.
const thresholdHeadroom = 8 * time.Second

// justUnder returns the start, to the second as conditions record it, of a
// problem that reaches age threshold about thresholdHeadroom from now.
func justUnder(threshold time.Duration) time.Time {
	return time.Now().Add(-threshold + thresholdHeadroom).Truncate(time.Second)
}

// TestDegradedOperatorIsReportedOnTimeEscalatesAndClears degrades an operator
// just short of each threshold, so that the insight must appear (and
// escalate) when the threshold expires, with no event to prompt it.
func TestDegradedOperatorIsReportedOnTimeEscalatesAndClears(t *testing.T) {
	startOperator(t)
	createClusterOperators(t, map[string]string{"etcd": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())
	waitForInsight(t, eventually, "Progressing", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing
	})

	// Degraded for just under 5 minutes: nothing yet, a Warning when they
	// are up.
	setDegraded(t, "etcd", configv1.ConditionTrue, justUnder(5*time.Minute))
	// The operator reacts within milliseconds; a second later there is still
	// nothing to report.
	time.Sleep(time.Second)
	if items := waitForHealthInsights(t, "listed", func([]insightsv1alpha1.UpdateHealthInsight) bool { return true }); len(items) != 0 {
		t.Fatalf("reported before 5 minutes: %+v", items[0].Status.Impact)
	}
	warning := waitForHealthInsights(t, "a Warning", func(i []insightsv1alpha1.UpdateHealthInsight) bool {
		return len(i) == 1 && i[0].Status.Impact.Level == insightsv1alpha1.WarningImpactLevel
	})[0]
	if s := warning.Status.Impact.Summary; s != "Cluster Operator etcd is degraded (MembersUnhealthy)" {
		t.Errorf("summary %q", s)
	}

	// Degraded for just under 40 minutes: an Error when they are up, the
	// same object.
	setDegraded(t, "etcd", configv1.ConditionTrue, justUnder(40*time.Minute))
	escalated := waitForHealthInsights(t, "an Error", func(i []insightsv1alpha1.UpdateHealthInsight) bool {
		return len(i) == 1 && i[0].Status.Impact.Level == insightsv1alpha1.ErrorImpactLevel
	})[0]
	if escalated.UID != warning.UID {
		t.Errorf("escalating created a new object (%s, was %s): the same problem must stay the same object", escalated.UID, warning.UID)
	}
	// Not Healthy, and still Progressing: oc assesses an update by its
	// estimate, whatever its problems.
	unhealthy := waitForInsight(t, eventually, "Progressing and not Healthy", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing && i.Status.Conditions[1].Status == metav1.ConditionFalse
	})
	if c := unhealthy.Status.Conditions[1]; c.Type != "Healthy" || c.Status != metav1.ConditionFalse || c.Reason != "ClusterOperatorDegraded" {
		t.Errorf("control plane condition %s=%s(%s), want Healthy=False(ClusterOperatorDegraded)", c.Type, c.Status, c.Reason)
	}

	// Recovered: the insight goes and the control plane is healthy again.
	setDegraded(t, "etcd", configv1.ConditionFalse, time.Now())
	waitForHealthInsights(t, "gone", func(i []insightsv1alpha1.UpdateHealthInsight) bool { return len(i) == 0 })
	waitForInsight(t, eventually, "Progressing and Healthy", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing && i.Status.Conditions[1].Status == metav1.ConditionTrue
	})
}
