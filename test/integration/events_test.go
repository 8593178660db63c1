package integration

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/util/wait"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// completedStatus is the status of a ClusterVersion at rest at fromVersion,
// which it was updated to from an earlier version.
func completedStatus() configv1.ClusterVersionStatus {
	s := midUpdateStatus()
	s.Desired = configv1.Release{Version: fromVersion, Image: "quay.io/release:" + fromVersion}
	earlier := configv1.UpdateHistory{Version: "4.15.2", Image: "quay.io/release:4.15.2", State: configv1.CompletedUpdate,
		StartedTime: metav1.NewTime(updateStarted.Add(-48 * time.Hour)), CompletionTime: &metav1.Time{Time: updateStarted.Add(-47 * time.Hour)}}
	s.History = append(s.History[1:], earlier)
	s.Conditions[0] = configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse,
		Message: "Cluster version is " + fromVersion, LastTransitionTime: *s.History[0].CompletionTime}
	return s
}

// insightEvents are the Events about the ClusterVersion insight whose UID is
// uid, as "type reason: message", oldest first.
func insightEvents(t testing.TB, uid string) []string {
	t.Helper()
	// Events about a cluster-scoped object are kept in namespace default.
	list, err := kubeClient.CoreV1().Events(metav1.NamespaceDefault).List(context.Background(), metav1.ListOptions{
		FieldSelector: fields.Set{"involvedObject.uid": uid}.String(),
	})
	if err != nil {
		t.Fatal(err)
	}
	items := list.Items
	sort.SliceStable(items, func(i, j int) bool { return items[i].FirstTimestamp.Before(&items[j].FirstTimestamp) })
	var out []string
	for _, e := range items {
		if e.InvolvedObject.Kind != "ClusterVersionProgressInsight" || e.InvolvedObject.APIVersion != insightsv1alpha1.SchemeGroupVersion.String() {
			t.Errorf("event %s involves %s %s, want a ClusterVersionProgressInsight", e.Name, e.InvolvedObject.APIVersion, e.InvolvedObject.Kind)
		}
		out = append(out, e.Type+" "+e.Reason+": "+e.Message)
	}
	return out
}

// waitForEventsWhere waits until the Events on the insight satisfy ok, and
// returns them.
func waitForEventsWhere(t testing.TB, uid string, ok func([]string) bool) ([]string, error) {
	t.Helper()
	var got []string
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		got = insightEvents(t, uid)
		return ok(got), nil
	})
	return got, err
}

// waitForEvents waits until the Events on the insight are want.
func waitForEvents(t testing.TB, uid string, want []string) {
	t.Helper()
	got, err := waitForEventsWhere(t, uid, func(got []string) bool { return cmp.Equal(want, got) })
	if err != nil {
		t.Fatalf("events on the insight (-want +got):\n%s", cmp.Diff(want, got))
	}
}

// An update starting, going wrong and completing is told in Events on the
// ClusterVersion insight, once each.
func TestUpdateEventsOnTheInsight(t *testing.T) {
	// An insight an earlier test left would change under the operator's
	// eyes: start from none.
	err := insightsClient.InsightsV1alpha1().ClusterVersionProgressInsights().Delete(context.Background(), "version", metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	createClusterOperators(t, map[string]string{"etcd": fromVersion, "dns": fromVersion})
	createClusterVersion(t, nil, completedStatus())
	op := startOperator(t)
	insight := waitForInsight(t, eventually, "Completed at "+fromVersion, func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted && i.Status.Versions.Target.Version == fromVersion
	})
	uid := string(insight.UID)
	// What was already so when the operator started is not news. The
	// update must start only once the events controller has seen the
	// insight at rest, or it would see it first updating.
	op.waitForOutput(t, `"Following a ClusterVersion insight for update events" name="version" assessment="Completed"`, eventually)
	waitForEvents(t, uid, nil)

	setClusterVersionStatus(t, getClusterVersion(t), midUpdateStatus())
	started := []string{"Normal UpdateStarted: Started updating the control plane from " + fromVersion + " to " + toVersion}
	waitForEvents(t, uid, started)

	setDegraded(t, "etcd", configv1.ConditionTrue, time.Now().Add(-41*time.Minute))
	errorEvent := "Warning ErrorHealthInsight: Health insight "
	got, err := waitForEventsWhere(t, uid, func(events []string) bool { return len(events) == 2 })
	if err != nil {
		t.Fatalf("waiting for an ErrorHealthInsight event: events on the insight are %q", got)
	}
	if got[0] != started[0] || !strings.HasPrefix(got[1], errorEvent) {
		t.Fatalf("events %q, want %q then one starting %q", got, started, errorEvent)
	}
	if want := "Cluster Operator etcd is degraded (MembersUnhealthy)"; !strings.Contains(got[1], want) {
		t.Errorf("the error event %q does not name the insight's summary %q", got[1], want)
	}

	completed := midUpdateStatus()
	completed.History[0].State = configv1.CompletedUpdate
	completed.History[0].CompletionTime = &metav1.Time{Time: updateStarted.Add(72 * time.Minute)}
	completed.Conditions[0] = configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse,
		Message: "Cluster version is " + toVersion, LastTransitionTime: *completed.History[0].CompletionTime}
	setClusterVersionStatus(t, getClusterVersion(t), completed)
	waitForEvents(t, uid, append(got, "Normal UpdateCompleted: Completed the control plane update to "+toVersion+" in 1h12m"))
}
