package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/health"
)

const (
	fromVersion = "4.15.3"
	toVersion   = "4.16.0"
)

var updateStarted = metav1.NewTime(time.Now().Add(-20 * time.Minute).Truncate(time.Second))

// midUpdateStatus is the status of a ClusterVersion 20 minutes into an
// update from 4.15.3 to 4.16.0.
func midUpdateStatus() configv1.ClusterVersionStatus {
	return configv1.ClusterVersionStatus{
		Desired:            configv1.Release{Version: toVersion, Image: "quay.io/release:" + toVersion},
		ObservedGeneration: 1,
		VersionHash:        "hash",
		Conditions: []configv1.ClusterOperatorStatusCondition{
			{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Reason: "ClusterOperatorsUpdating",
				Message: "Working towards " + toVersion, LastTransitionTime: updateStarted},
			{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: updateStarted},
		},
		History: []configv1.UpdateHistory{
			{Version: toVersion, Image: "quay.io/release:" + toVersion, State: configv1.PartialUpdate, StartedTime: updateStarted},
			{Version: fromVersion, Image: "quay.io/release:" + fromVersion, State: configv1.CompletedUpdate,
				StartedTime: metav1.NewTime(updateStarted.Add(-24 * time.Hour)), CompletionTime: &metav1.Time{Time: updateStarted.Add(-23 * time.Hour)}},
		},
	}
}

// createClusterVersion creates the ClusterVersion "version" with the given
// status and deletes it when the test ends. A new ClusterVersion is a new
// cluster: the UpdateRecords an earlier test's operator wrote, which its
// estimates would learn from, go first, and its own go with it.
func createClusterVersion(t testing.TB, annotations map[string]string, status configv1.ClusterVersionStatus) {
	t.Helper()
	ctx := context.Background()
	deleteRecords := func() {
		err := insightsClient.InsightsV1alpha1().UpdateRecords().DeleteCollection(context.Background(), metav1.DeleteOptions{}, metav1.ListOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting the UpdateRecords: %v", err)
		}
	}
	deleteRecords()
	t.Cleanup(deleteRecords)
	cv := &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version", Annotations: annotations},
		Spec:       configv1.ClusterVersionSpec{ClusterID: "6a1f1bd0-5a8c-4e5b-8f0e-0b0a6a1c2d3e"},
	}
	created, err := configClient.ConfigV1().ClusterVersions().Create(ctx, cv, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating the ClusterVersion: %v", err)
	}
	t.Cleanup(func() {
		err := configClient.ConfigV1().ClusterVersions().Delete(context.Background(), "version", metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting the ClusterVersion: %v", err)
		}
	})
	setClusterVersionStatus(t, created, status)
}

func setClusterVersionStatus(t testing.TB, cv *configv1.ClusterVersion, status configv1.ClusterVersionStatus) {
	t.Helper()
	cv = cv.DeepCopy()
	cv.Status = status
	if _, err := configClient.ConfigV1().ClusterVersions().UpdateStatus(context.Background(), cv, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the ClusterVersion status: %v", err)
	}
}

func getClusterVersion(t testing.TB) *configv1.ClusterVersion {
	t.Helper()
	cv, err := configClient.ConfigV1().ClusterVersions().Get(context.Background(), "version", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cv
}

// createClusterOperators creates payload ClusterOperators at the given
// operator versions and deletes them when the test ends.
func createClusterOperators(t testing.TB, versions map[string]string) {
	t.Helper()
	ctx := context.Background()
	for name, version := range versions {
		co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Annotations: map[string]string{"include.release.openshift.io/self-managed-high-availability": "true"},
		}}
		created, err := configClient.ConfigV1().ClusterOperators().Create(ctx, co, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("creating ClusterOperator %s: %v", name, err)
		}
		t.Cleanup(func() {
			if err := configClient.ConfigV1().ClusterOperators().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting ClusterOperator %s: %v", name, err)
			}
		})
		setOperatorVersion(t, created, version)
	}
}

func setOperatorVersion(t testing.TB, co *configv1.ClusterOperator, version string) *configv1.ClusterOperator {
	t.Helper()
	co = co.DeepCopy()
	co.Status.Versions = []configv1.OperandVersion{{Name: "operator", Version: version}}
	updated, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(context.Background(), co, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("writing ClusterOperator %s status: %v", co.Name, err)
	}
	return updated
}

// waitFor polls get until ok accepts what it returns: the object, or nil
// while it does not exist.
func waitFor[T any](t testing.TB, timeout time.Duration, what string, get func(context.Context) (*T, error), ok func(*T) bool) *T {
	t.Helper()
	var last *T
	err := wait.PollUntilContextTimeout(context.Background(), 20*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		o, err := get(ctx)
		if apierrors.IsNotFound(err) {
			o, err = nil, nil
		}
		if err != nil {
			return false, err
		}
		last = o
		return ok(o), nil
	})
	if err != nil {
		t.Fatalf("waiting %s for %s: %v; last seen: %+v", timeout, what, err, last)
	}
	return last
}

// waitForInsight waits until the insight named version satisfies ok.
func waitForInsight(t testing.TB, timeout time.Duration, what string, ok func(*insightsv1alpha1.ClusterVersionProgressInsight) bool) *insightsv1alpha1.ClusterVersionProgressInsight {
	t.Helper()
	return waitFor(t, timeout, "the insight to be "+what, func(ctx context.Context) (*insightsv1alpha1.ClusterVersionProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().ClusterVersionProgressInsights().Get(ctx, "version", metav1.GetOptions{})
	}, ok)
}

func TestInsightFollowsAClusterVersionMidUpdate(t *testing.T) {
	op := startOperator(t)
	createClusterOperators(t, map[string]string{"etcd": toVersion, "dns": fromVersion, "network": fromVersion, "console": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())

	insight := waitForInsight(t, eventually, "Progressing at 25%", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing && i.Status.CompletionPercent == 25
	})
	s := insight.Status
	if s.Versions.Target.Version != toVersion || s.Versions.Previous == nil || s.Versions.Previous.Version != fromVersion {
		t.Errorf("versions %+v, want %s from %s", s.Versions, toVersion, fromVersion)
	}
	if s.StartedAt == nil || !s.StartedAt.Equal(&updateStarted) || s.EstimatedCompletedAt == nil || s.LastObservedProgress == nil {
		t.Errorf("times: started %v (want %v), estimate %v, last progress %v", s.StartedAt, updateStarted, s.EstimatedCompletedAt, s.LastObservedProgress)
	}

	t.Run("an operator version bump moves completion", func(t *testing.T) {
		dns, err := configClient.ConfigV1().ClusterOperators().Get(context.Background(), "dns", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		setOperatorVersion(t, dns, toVersion)
		waitForInsight(t, eventually, "at 50%", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			return i != nil && i.Status.CompletionPercent == 50
		})
	})

	t.Run("an operator change that is not a version change writes nothing", func(t *testing.T) {
		// The previous change's writes may trail its completion (a write
		// retried after a conflict, say): start from an insight at rest.
		var before *insightsv1alpha1.ClusterVersionProgressInsight
		var since time.Time
		waitForInsight(t, eventually, "at rest for a second", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			if i == nil || before == nil || i.ResourceVersion != before.ResourceVersion {
				before, since = i, time.Now()
				return false
			}
			return time.Since(since) >= time.Second
		})
		network, err := configClient.ConfigV1().ClusterOperators().Get(context.Background(), "network", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		network.Status.Conditions = append(network.Status.Conditions, configv1.ClusterOperatorStatusCondition{
			Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Reason: "Rolling", Message: "Rolling out", LastTransitionTime: metav1.Now(),
		})
		if _, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(context.Background(), network, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		// The operator reacts to relevant changes within milliseconds; two
		// seconds without a write shows it ignored this one.
		time.Sleep(2 * time.Second)
		after, err := insightsClient.InsightsV1alpha1().ClusterVersionProgressInsights().Get(context.Background(), "version", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if after.ResourceVersion != before.ResourceVersion {
			t.Errorf("the insight was written (resourceVersion %s -> %s) after a change that cannot affect it", before.ResourceVersion, after.ResourceVersion)
		}
	})

	t.Run("the update completes", func(t *testing.T) {
		status := midUpdateStatus()
		status.Conditions[0].Status = configv1.ConditionFalse
		status.History[0].State = configv1.CompletedUpdate
		status.History[0].CompletionTime = &metav1.Time{Time: time.Now().Truncate(time.Second)}
		setClusterVersionStatus(t, getClusterVersion(t), status)
		done := waitForInsight(t, eventually, "Completed", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentCompleted
		})
		if done.Status.CompletionPercent != 100 || done.Status.CompletedAt == nil || done.Status.EstimatedCompletedAt != nil {
			t.Errorf("completed status %+v, want 100%%, a completion time and no estimate", done.Status)
		}
	})

	t.Run("deleting the ClusterVersion deletes the insight", func(t *testing.T) {
		if err := configClient.ConfigV1().ClusterVersions().Delete(context.Background(), "version", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		waitForInsight(t, eventually, "deleted", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool { return i == nil })
	})

	if out := op.output.String(); strings.Contains(out, "is invalid") {
		t.Errorf("the API server rejected a write of the operator:\n%s", out)
	}
}

func TestForcedHealthInsightFollowsTheAnnotation(t *testing.T) {
	startOperator(t)
	createClusterVersion(t, map[string]string{health.ForceInsightAnnotation: "true"}, midUpdateStatus())
	insight := waitForInsight(t, eventually, "present", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool { return i != nil })

	healthInsights := func() []insightsv1alpha1.UpdateHealthInsight {
		list, err := insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(context.Background(), metav1.ListOptions{LabelSelector: "insight-manager=clusterversion"})
		if err != nil {
			t.Fatal(err)
		}
		return list.Items
	}
	var items []insightsv1alpha1.UpdateHealthInsight
	if err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		items = healthInsights()
		return len(items) == 1 && !items[0].Status.StartedAt.IsZero(), nil
	}); err != nil {
		t.Fatalf("the forced health insight did not appear: %v (have %d)", err, len(items))
	}
	forced := items[0]
	if !strings.HasPrefix(forced.Name, "cv-") || forced.Status.Impact.Level != insightsv1alpha1.InfoImpactLevel {
		t.Errorf("forced insight %s at level %s, want a cv- name at Info", forced.Name, forced.Status.Impact.Level)
	}
	if len(forced.OwnerReferences) != 1 || forced.OwnerReferences[0].UID != insight.UID {
		t.Errorf("owner references %+v, want the ClusterVersionProgressInsight %s", forced.OwnerReferences, insight.UID)
	}

	cv := getClusterVersion(t)
	delete(cv.Annotations, health.ForceInsightAnnotation)
	if _, err := configClient.ConfigV1().ClusterVersions().Update(context.Background(), cv, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		return len(healthInsights()) == 0, nil
	}); err != nil {
		t.Fatalf("the forced health insight outlived the annotation: %v", err)
	}
}

// TestEveryUnknownUpdatingCaseIsWritten drives the ClusterVersion through
// each state in which the spec calls Updating Unknown, and checks that the
// API server accepts what the operator writes for it.
func TestEveryUnknownUpdatingCaseIsWritten(t *testing.T) {
	op := startOperator(t)
	createClusterOperators(t, map[string]string{"etcd": toVersion, "dns": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())
	waitForInsight(t, eventually, "Progressing", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing
	})

	completion := &metav1.Time{Time: time.Now().Truncate(time.Second)}
	testCases := []struct {
		name    string
		mutate  func(*configv1.ClusterVersionStatus)
		message string
	}{
		{name: "no Progressing condition", message: "ClusterVersion has no Progressing condition",
			mutate: func(s *configv1.ClusterVersionStatus) { s.Conditions = s.Conditions[1:] }},
		{name: "empty history", message: "ClusterVersion has no update history",
			mutate: func(s *configv1.ClusterVersionStatus) { s.History = nil }},
		{name: "Progressing=True but the latest entry is Completed", message: `state "Completed" and a completion time`,
			mutate: func(s *configv1.ClusterVersionStatus) {
				s.History[0].State, s.History[0].CompletionTime = configv1.CompletedUpdate, completion
			}},
		{name: "Progressing=True but the latest entry has a completion time", message: `state "Partial" and a completion time`,
			mutate: func(s *configv1.ClusterVersionStatus) { s.History[0].CompletionTime = completion }},
		{name: "Progressing=False but the latest entry is Partial", message: `state "Partial" and no completion time`,
			mutate: func(s *configv1.ClusterVersionStatus) { s.Conditions[0].Status = configv1.ConditionFalse }},
		{name: "Progressing=False but the latest entry has no completion time", message: `state "Completed" and no completion time`,
			mutate: func(s *configv1.ClusterVersionStatus) {
				s.Conditions[0].Status, s.History[0].State = configv1.ConditionFalse, configv1.CompletedUpdate
			}},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			status := midUpdateStatus()
			tc.mutate(&status)
			setClusterVersionStatus(t, getClusterVersion(t), status)
			got := waitForInsight(t, eventually, "Unknown: "+tc.message, func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
				if i == nil || i.Status.Assessment != insightsv1alpha1.ClusterVersionAssessmentUnknown || len(i.Status.Conditions) == 0 {
					return false
				}
				return strings.Contains(i.Status.Conditions[0].Message, tc.message)
			})
			if got.Status.EstimatedCompletedAt != nil {
				t.Errorf("an Unknown update has an estimate: %v", got.Status.EstimatedCompletedAt)
			}
			// Back to a sane state: the operator converges.
			setClusterVersionStatus(t, getClusterVersion(t), midUpdateStatus())
			waitForInsight(t, eventually, "Progressing again", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
				return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing
			})
		})
	}
	if out := op.output.String(); strings.Contains(out, "is invalid") {
		t.Errorf("the API server rejected a write of the operator:\n%s", out)
	}
}

// TestOnlyTheLeaderWrites runs two replicas and checks from their logs that
// only the one holding the lease ever writes an insight (writes are logged
// at -v=4).
func TestOnlyTheLeaderWrites(t *testing.T) {
	first := startOperator(t, "-v=4")
	first.waitForOutput(t, "operator started", eventually)
	second := startOperator(t, "-v=4")
	second.waitForOutput(t, "Attempting to acquire leader lease", eventually)

	createClusterOperators(t, map[string]string{"etcd": fromVersion, "dns": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())
	waitForInsight(t, eventually, "present", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool { return i != nil })
	etcd, err := configClient.ConfigV1().ClusterOperators().Get(context.Background(), "etcd", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	setOperatorVersion(t, etcd, toVersion)
	waitForInsight(t, eventually, "at 50%", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.CompletionPercent == 50
	})

	for _, write := range []string{`"Created insight" kind="ClusterVersionProgressInsight"`, `"Updated insight status" kind="ClusterVersionProgressInsight"`} {
		if !strings.Contains(first.output.String(), write) {
			t.Errorf("the leader's log lacks %q", write)
		}
		if strings.Contains(second.output.String(), write) {
			t.Errorf("the standby logged %q", write)
		}
	}
}

// TestOversizedInputStillGivesAValidInsight feeds the operator a
// ClusterVersion with a huge Progressing message and a garbage version too
// long for the insight API, and checks that it still writes an insight the
// API server accepts, with both cut to fit.
func TestOversizedInputStillGivesAValidInsight(t *testing.T) {
	op := startOperator(t)
	status := midUpdateStatus()
	status.Conditions[0].Message = strings.Repeat("Working towards the target… ", 4000)
	garbage := strings.Repeat("4.16.0-garbage", 30)
	status.Desired.Version = garbage
	status.History[0].Version = garbage
	createClusterVersion(t, nil, status)

	insight := waitForInsight(t, eventually, "Progressing", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing
	})
	if msg := insight.Status.Conditions[0].Message; len(msg) > 4500 || !strings.HasSuffix(msg, "…'") {
		t.Errorf("Updating message of %d bytes ending %q, want the quoted message cut near 4 KiB", len(msg), msg[len(msg)-10:])
	}
	if v := insight.Status.Versions.Target.Version; len(v) > 256 || !strings.HasPrefix(garbage, strings.TrimSuffix(v, "…")) {
		t.Errorf("target version %q (%d bytes), want the garbage cut to at most 256", v, len(v))
	}
	if out := op.output.String(); strings.Contains(out, "is invalid") {
		t.Errorf("the API server rejected a write of the operator:\n%s", out)
	}
}
