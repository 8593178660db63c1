package integration

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

// waitForRecord waits until the record of the update to toVersion started
// at updateStarted satisfies ok.
func waitForRecord(t testing.TB, what string, ok func(*insightsv1alpha1.UpdateRecord) bool) *insightsv1alpha1.UpdateRecord {
	t.Helper()
	name := updaterecord.Name(toVersion, updateStarted.Time)
	return waitFor(t, eventually, "the record "+name+" to be "+what, func(ctx context.Context) (*insightsv1alpha1.UpdateRecord, error) {
		return insightsClient.InsightsV1alpha1().UpdateRecords().Get(ctx, name, metav1.GetOptions{})
	}, ok)
}

// recordFromScratch deletes every record now and when the test ends, and
// the ClusterVersion insight now: every test whose operator sees an update
// leaves a record, of the same name when its update is midUpdateStatus's,
// and an insight that an earlier test left Completed would have the next
// operator record that update as completed before it reads the
// ClusterVersion.
func recordFromScratch(t testing.TB) {
	t.Helper()
	err := insightsClient.InsightsV1alpha1().ClusterVersionProgressInsights().Delete(context.Background(), "version", metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	deleteAll := func() {
		if err := insightsClient.InsightsV1alpha1().UpdateRecords().DeleteCollection(context.Background(), metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Error(err)
		}
	}
	deleteAll()
	t.Cleanup(deleteAll)
}

func operatorRecord(r *insightsv1alpha1.UpdateRecord, name string) *insightsv1alpha1.OperatorUpdateRecord {
	for i := range r.Status.ClusterOperators {
		if r.Status.ClusterOperators[i].Name == name {
			return &r.Status.ClusterOperators[i]
		}
	}
	return nil
}

// An update the operator first sees 20 minutes in is recorded with those
// minutes not observed; an operator restarted mid-update continues the
// record, losing and doubling nothing; the record is kept once the update
// completes.
func TestAnUpdateRecordSurvivesARestart(t *testing.T) {
	recordFromScratch(t)
	createClusterOperators(t, map[string]string{"etcd": fromVersion, "dns": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())
	op := startOperator(t)

	first := waitForRecord(t, "Progressing, the start not observed", func(r *insightsv1alpha1.UpdateRecord) bool {
		return r != nil && r.Status.State == insightsv1alpha1.UpdateRecordProgressing &&
			operatorRecord(r, "etcd") != nil && operatorRecord(r, "dns") != nil
	})
	if n := len(first.Status.NotObserved); n != 1 || !first.Status.NotObserved[0].From.Equal(&updateStarted) {
		t.Fatalf("not observed %v, want one span from the update's start %v", first.Status.NotObserved, updateStarted)
	}
	if got := first.Status.From; got == nil || got.Version != fromVersion {
		t.Errorf("from %v, want %s", got, fromVersion)
	}

	setOperatorVersion(t, getOperator(t, "etcd"), toVersion)
	etcdDone := waitForRecord(t, "with etcd updated", func(r *insightsv1alpha1.UpdateRecord) bool {
		o := operatorRecord(r, "etcd")
		return o != nil && o.Updated && o.CompletedAt != nil
	})
	completedAt := *operatorRecord(etcdDone, "etcd").CompletedAt

	op.stop(t, eventually)
	op = startOperator(t)
	setOperatorVersion(t, getOperator(t, "dns"), toVersion)
	dnsDone := waitForRecord(t, "with dns updated", func(r *insightsv1alpha1.UpdateRecord) bool {
		o := operatorRecord(r, "dns")
		return o != nil && o.Updated
	})
	if got := operatorRecord(dnsDone, "etcd").CompletedAt; got == nil || !got.Equal(&completedAt) {
		t.Errorf("etcd's completion %v after the restart, want %v as recorded before it", got, completedAt)
	}
	if n := len(dnsDone.Status.NotObserved); n != 1 {
		t.Errorf("%d spans not observed after a restart within a heartbeat, want the first one only: %v", n, dnsDone.Status.NotObserved)
	}
	if dnsDone.UID != first.UID {
		t.Errorf("the record was recreated (uid %s, was %s)", dnsDone.UID, first.UID)
	}

	completed := midUpdateStatus()
	completed.History[0].State = configv1.CompletedUpdate
	completed.History[0].CompletionTime = &metav1.Time{Time: updateStarted.Add(72 * time.Minute)}
	completed.Conditions[0] = configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse,
		Message: "Cluster version is " + toVersion, LastTransitionTime: *completed.History[0].CompletionTime}
	setClusterVersionStatus(t, getClusterVersion(t), completed)
	done := waitForRecord(t, "Completed", func(r *insightsv1alpha1.UpdateRecord) bool {
		return r.Status.State == insightsv1alpha1.UpdateRecordCompleted
	})
	if d := done.Status.Durations.ControlPlane; d == nil || d.Duration != 72*time.Minute {
		t.Errorf("the control plane's duration %v, want 1h12m, from its start to its completion", d)
	}
}

func getOperator(t testing.TB, name string) *configv1.ClusterOperator {
	t.Helper()
	co, err := configClient.ConfigV1().ClusterOperators().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return co
}

// An update an earlier operator saw the first part of, and that completed
// while no operator ran, is recorded Completed with the span from when the
// earlier operator last saw it to the restart not observed, what it saw
// kept, and an operator that completed unseen undated.
func TestAnUpdateSeenOnlyInItsFirstPartIsRecordedSo(t *testing.T) {
	recordFromScratch(t)
	createClusterOperators(t, map[string]string{"etcd": toVersion, "dns": toVersion})
	completed := midUpdateStatus()
	completion := metav1.NewTime(time.Now().Add(-2 * time.Minute).Truncate(time.Second))
	completed.History[0].State, completed.History[0].CompletionTime = configv1.CompletedUpdate, &completion
	completed.Conditions[0] = configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse,
		Message: "Cluster version is " + toVersion, LastTransitionTime: completion}
	createClusterVersion(t, nil, completed)

	// The record as the earlier operator left it, in the shape
	// updaterecord.Next writes: it saw the update from its start, and etcd
	// complete, until five minutes in.
	lastSeen := metav1.NewTime(updateStarted.Add(5 * time.Minute))
	etcdDone := metav1.NewTime(updateStarted.Add(3 * time.Minute))
	etcdStart := metav1.NewTime(updateStarted.Add(time.Minute))
	earlier := insightsv1alpha1.UpdateRecordStatus{
		From: &insightsv1alpha1.Version{Version: fromVersion}, To: insightsv1alpha1.Version{Version: toVersion},
		State: insightsv1alpha1.UpdateRecordProgressing, StartedAt: updateStarted, ObservedUntil: lastSeen,
		Durations: insightsv1alpha1.UpdateRecordDurations{ControlPlane: &metav1.Duration{Duration: 5 * time.Minute}, Total: &metav1.Duration{Duration: 5 * time.Minute}},
		ClusterOperators: []insightsv1alpha1.OperatorUpdateRecord{
			{Name: "dns"},
			{Name: "etcd", StartedAt: &etcdStart, CompletedAt: &etcdDone, Updated: true},
		},
	}
	records := insightsClient.InsightsV1alpha1().UpdateRecords()
	name := updaterecord.Name(toVersion, updateStarted.Time)
	created, err := records.Create(context.Background(), &insightsv1alpha1.UpdateRecord{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Status = earlier
	if _, err := records.UpdateStatus(context.Background(), created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}

	restarted := time.Now().Truncate(time.Second)
	startOperator(t)
	done := waitForRecord(t, "Completed", func(r *insightsv1alpha1.UpdateRecord) bool {
		return r.Status.State == insightsv1alpha1.UpdateRecordCompleted
	})
	spans := done.Status.NotObserved
	if len(spans) != 1 || !spans[0].From.Equal(&lastSeen) || spans[0].To.Time.Before(restarted) {
		t.Errorf("not observed %v, want one span from when the earlier operator last saw the update (%s) to the restart (%s)", spans, lastSeen, restarted)
	}
	if got := operatorRecord(done, "etcd"); got == nil || got.CompletedAt == nil || !got.CompletedAt.Equal(&etcdDone) {
		t.Errorf("etcd %+v, want its completion at %s kept", got, etcdDone)
	}
	if got := operatorRecord(done, "dns"); got == nil || !got.Updated || got.CompletedAt != nil {
		t.Errorf("dns %+v, want updated, undated: it completed while no operator ran", got)
	}
	if got := done.Status.ControlPlaneCompletedAt; got == nil || !got.Equal(&completion) {
		t.Errorf("the control plane completed at %v, want %s as the ClusterVersion's history says", got, completion)
	}
	printed, err := exec.Command(operatorBinary, "history", name, "--kubeconfig", kubeconfigPath).CombinedOutput()
	if err != nil {
		t.Fatalf("history %s: %v\n%s", name, err, printed)
	}
	out := string(printed)
	for _, want := range []string{"Not Observed:   " + lastSeen.UTC().Format(time.RFC3339), "1 more updated unseen, with no duration to tell"} {
		if !strings.Contains(out, want) {
			t.Errorf("history %s does not say %q:\n%s", name, want, out)
		}
	}
}
