package integration

import (
	"context"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// waitForOperatorInsight waits until the insight of the named ClusterOperator
// satisfies ok (which sees nil while there is none).
func waitForOperatorInsight(t testing.TB, name, what string, ok func(*insightsv1alpha1.ClusterOperatorProgressInsight) bool) *insightsv1alpha1.ClusterOperatorProgressInsight {
	t.Helper()
	return waitFor(t, eventually, "the insight of "+name+" to be "+what, func(ctx context.Context) (*insightsv1alpha1.ClusterOperatorProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().ClusterOperatorProgressInsights().Get(ctx, name, metav1.GetOptions{})
	}, ok)
}

func reason(i *insightsv1alpha1.ClusterOperatorProgressInsight, conditionType string) string {
	if i == nil {
		return ""
	}
	for _, c := range i.Status.Conditions {
		if c.Type == conditionType {
			return c.Reason
		}
	}
	return ""
}

func TestClusterOperatorInsightsFollowTheirOperators(t *testing.T) {
	startOperator(t)
	createClusterVersion(t, nil, midUpdateStatus())
	createClusterOperators(t, map[string]string{"etcd": fromVersion})
	ctx := context.Background()

	etcd, err := configClient.ConfigV1().ClusterOperators().Get(ctx, "etcd", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	etcd.Status.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue, LastTransitionTime: metav1.Now()},
		{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Message: "Rolling out revision 7", LastTransitionTime: metav1.Now()},
	}
	if etcd, err = configClient.ConfigV1().ClusterOperators().UpdateStatus(ctx, etcd, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForOperatorInsight(t, "etcd", "Progressing and Healthy", func(i *insightsv1alpha1.ClusterOperatorProgressInsight) bool {
		return reason(i, "Updating") == insightsv1alpha1.ClusterOperatorProgressing && reason(i, "Healthy") == insightsv1alpha1.ClusterOperatorAsExpected
	})

	etcd = setOperatorVersion(t, etcd, toVersion)
	waitForOperatorInsight(t, "etcd", "Updated", func(i *insightsv1alpha1.ClusterOperatorProgressInsight) bool {
		return reason(i, "Updating") == insightsv1alpha1.ClusterOperatorUpdated
	})

	etcd.Status.Conditions = append(etcd.Status.Conditions, configv1.ClusterOperatorStatusCondition{
		Type: configv1.OperatorDegraded, Status: configv1.ConditionTrue, Message: "2 of 3 members are available", LastTransitionTime: metav1.Now(),
	})
	if etcd, err = configClient.ConfigV1().ClusterOperators().UpdateStatus(ctx, etcd, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	degraded := waitForOperatorInsight(t, "etcd", "Degraded", func(i *insightsv1alpha1.ClusterOperatorProgressInsight) bool {
		return reason(i, "Healthy") == insightsv1alpha1.ClusterOperatorDegraded
	})
	if msg := degraded.Status.Conditions[1].Message; msg != "2 of 3 members are available" {
		t.Errorf("Healthy message %q, want the operator's own", msg)
	}

	// No longer a payload operator: the insight goes.
	etcd.Annotations = nil
	if _, err := configClient.ConfigV1().ClusterOperators().Update(ctx, etcd, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForOperatorInsight(t, "etcd", "deleted", func(i *insightsv1alpha1.ClusterOperatorProgressInsight) bool { return i == nil })
}

func TestClusterOperatorInsightGoesWithItsOperator(t *testing.T) {
	startOperator(t)
	createClusterVersion(t, nil, midUpdateStatus())
	createClusterOperators(t, map[string]string{"dns": toVersion})
	waitForOperatorInsight(t, "dns", "Updated", func(i *insightsv1alpha1.ClusterOperatorProgressInsight) bool {
		return reason(i, "Updating") == insightsv1alpha1.ClusterOperatorUpdated
	})
	if err := configClient.ConfigV1().ClusterOperators().Delete(context.Background(), "dns", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForOperatorInsight(t, "dns", "deleted", func(i *insightsv1alpha1.ClusterOperatorProgressInsight) bool { return i == nil })
}
