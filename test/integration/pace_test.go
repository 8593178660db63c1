package integration

import (
	"context"
	"slices"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// updateStartedAgo is the status of a ClusterVersion whose update to
// 4.16.0 started ago, after one that took an hour: with no operator at the
// target, its estimate is that hour, and the update is past it once ago
// is. failing is its Failing condition.
func updateStartedAgo(ago time.Duration, failing configv1.ConditionStatus) configv1.ClusterVersionStatus {
	status := midUpdateStatus()
	started := metav1.NewTime(time.Now().Add(-ago).Truncate(time.Second))
	status.Conditions[0].LastTransitionTime = started
	status.Conditions[1].Status, status.Conditions[1].LastTransitionTime = failing, started
	if failing == configv1.ConditionTrue {
		status.Conditions[1].Reason, status.Conditions[1].Message = "ClusterOperatorDegraded", "Cluster operator etcd is degraded"
	}
	status.History[0].StartedTime = started
	status.History[1].StartedTime = metav1.NewTime(started.Add(-24 * time.Hour))
	status.History[1].CompletionTime = &metav1.Time{Time: started.Add(-23 * time.Hour)}
	return status
}

// TestControlPlaneIsAssessedByItsEstimate holds the assessment to oc's rule
// on the real API server, which must accept its words: Progressing while
// the estimate is ahead, even failing, ProgressingSlow once it passes, with
// no event to prompt it, and Stalled over 10 minutes past it, with no
// health insight of its own.
func TestControlPlaneIsAssessedByItsEstimate(t *testing.T) {
	startOperator(t)
	createClusterOperators(t, map[string]string{"etcd": fromVersion, "dns": fromVersion})

	t.Run("failing with time left: Progressing, the failure a health insight", func(t *testing.T) {
		createClusterVersion(t, nil, updateStartedAgo(20*time.Minute, configv1.ConditionTrue))
		waitForInsight(t, eventually, "Progressing", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing
		})
		waitForControlPlaneHealth(t, "the ClusterVersion failing", func(summaries []string) bool {
			return slices.Equal(summaries, []string{"Cluster Version version is failing to proceed with the update (ClusterOperatorDegraded)"})
		})
		deleteClusterVersion(t)
	})

	t.Run("the estimate passes: ProgressingSlow, woken by the clock", func(t *testing.T) {
		// The hour runs out 20 seconds from now.
		createClusterVersion(t, nil, updateStartedAgo(time.Hour-20*time.Second, configv1.ConditionFalse))
		waitForInsight(t, eventually, "Progressing, the estimate ahead", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing &&
				i.Status.EstimatedCompletedAt != nil && i.Status.EstimatedCompletedAt.After(time.Now())
		})
		slow := waitForInsight(t, eventually, "ProgressingSlow", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressingSlow
		})
		if e := slow.Status.EstimatedCompletedAt; e == nil || !e.Before(&metav1.Time{Time: time.Now()}) {
			t.Errorf("ProgressingSlow with the estimate %v, want one passed", e)
		}
		deleteClusterVersion(t)
	})

	t.Run("over 10 minutes past it: Stalled, no health insight", func(t *testing.T) {
		createClusterVersion(t, nil, updateStartedAgo(2*time.Hour, configv1.ConditionFalse))
		waitForInsight(t, eventually, "Stalled", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentStalled
		})
		// The ClusterVersion was written without its status first: its
		// insights of that moment go with the next sync.
		waitForControlPlaneHealth(t, "none, as nothing is wrong but the time", func(summaries []string) bool { return len(summaries) == 0 })
		deleteClusterVersion(t)
	})
}

// waitForControlPlaneHealth waits until ok accepts the summaries of the
// ClusterVersion controller's health insights, and returns them.
func waitForControlPlaneHealth(t *testing.T, what string, ok func([]string) bool) []string {
	t.Helper()
	var summaries []string
	err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		list, err := insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{LabelSelector: "insight-manager=clusterversion"})
		if err != nil {
			return false, err
		}
		summaries = nil
		for _, i := range list.Items {
			summaries = append(summaries, i.Status.Impact.Summary)
		}
		return ok(summaries), nil
	})
	if err != nil {
		t.Fatalf("waiting for the control plane's health insights to be %s: %v; have %q", what, err, summaries)
	}
	return summaries
}

// deleteClusterVersion deletes the ClusterVersion and waits for its insight
// to go, so that the next subtest starts from none.
func deleteClusterVersion(t *testing.T) {
	t.Helper()
	if err := configClient.ConfigV1().ClusterVersions().Delete(context.Background(), "version", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForInsight(t, eventually, "gone", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool { return i == nil })
}
