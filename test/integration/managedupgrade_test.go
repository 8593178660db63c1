package integration

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// muoInformerName is the UpdateInformer of the managed-upgrade informer.
const muoInformerName = "managed-upgrade"

// The steps of the OSD upgrader this test's UpgradeConfigs record, in
// the order it runs them.
const (
	stepStarted     = upgradev1alpha1.StartedNotificationSent
	stepUpgradable  = upgradev1alpha1.IsClusterUpgradable
	stepHealthy     = upgradev1alpha1.ClusterHealthyBeforeUpgrade
	stepExternals   = upgradev1alpha1.ExternalDependenciesAvailable
	stepCPWindow    = upgradev1alpha1.ControlPlaneMaintenanceWindowCreated
	stepCommenced   = upgradev1alpha1.UpgradeCommenced
	stepCPUpgraded  = upgradev1alpha1.ControlPlaneUpgraded
	stepCPWindowOff = upgradev1alpha1.ControlPlaneMaintenanceWindowRemoved
	stepWorkWindow  = upgradev1alpha1.WorkersMaintenanceWindowCreated
	stepWorkers     = upgradev1alpha1.WorkerNodesUpgraded
)

// muoTime is a time as the Managed Upgrade Operator records it.
func muoTime(t time.Time) *metav1.Time {
	return ptr.To(metav1.NewTime(t.UTC().Truncate(time.Second)))
}

// stepsDone are the conditions of steps the operator completed, one
// second apart from start, newest first as it records them.
func stepsDone(start time.Time, steps ...upgradev1alpha1.UpgradeConditionType) []upgradev1alpha1.UpgradeCondition {
	var out []upgradev1alpha1.UpgradeCondition
	for i, s := range steps {
		at := start.Add(time.Duration(i) * time.Second)
		out = append([]upgradev1alpha1.UpgradeCondition{{
			Type: s, Status: metav1.ConditionTrue, Reason: string(s) + " done", Message: string(s) + " is completed",
			StartTime: muoTime(at), CompleteTime: muoTime(at.Add(time.Second)), LastTransitionTime: muoTime(at.Add(time.Second)),
		}}, out...)
	}
	return out
}

// stepRunning is the condition of the step the operator is on.
func stepRunning(step upgradev1alpha1.UpgradeConditionType, start time.Time) upgradev1alpha1.UpgradeCondition {
	return upgradev1alpha1.UpgradeCondition{Type: step, Status: metav1.ConditionFalse, Reason: string(step) + " not done",
		Message: string(step) + " still in progress", StartTime: muoTime(start), LastTransitionTime: muoTime(start)}
}

// managedUpdate is the UpgradeConfig of an OSD update to version at
// upgradeAt, with the history entry of that version, if any.
func managedUpdate(version string, upgradeAt time.Time, history *upgradev1alpha1.UpgradeHistory) *upgradev1alpha1.UpgradeConfig {
	uc := &upgradev1alpha1.UpgradeConfig{
		ObjectMeta: metav1.ObjectMeta{Name: upgradev1alpha1.DefaultName},
		Spec: upgradev1alpha1.UpgradeConfigSpec{
			Type: upgradev1alpha1.UpgradeTypeOSD, UpgradeAt: upgradeAt.UTC().Format(time.RFC3339), PDBForceDrainTimeout: 60,
			Desired: upgradev1alpha1.Update{Version: version, Channel: "stable-4.16"},
		},
	}
	if history != nil {
		history.Version = version
		uc.Status.History = []upgradev1alpha1.UpgradeHistory{*history}
	}
	return uc
}

// completedAt is the status of a ClusterVersion at rest at toVersion,
// updated from fromVersion.
func completedAt() configv1.ClusterVersionStatus {
	s := midUpdateStatus()
	s.History[0].State = configv1.CompletedUpdate
	s.History[0].CompletionTime = ptr.To(metav1.Now())
	s.Conditions[0] = configv1.ClusterOperatorStatusCondition{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse,
		Message: "Cluster version is " + toVersion, LastTransitionTime: *s.History[0].CompletionTime}
	return s
}

// TestManagedUpgradeThroughTheOperator follows managed updates from their
// UpgradeConfigs through `informer managed-upgrade`, the operator's calls
// of it, UpdateStatus and the `status` command: scheduled, held by its
// pre-update health check, upgrading its control plane and then its
// workers, failed, out of its window and deleted; then the informer
// killed and started again, and its certificate rotated, with nothing
// lost on the way.
func TestManagedUpgradeThroughTheOperator(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	ns := createTestNamespace(t, "muo-e2e-")
	createMUOConfigMap(t, ns)
	installUpgradeConfigCRD(t)
	configs := upgradeConfigsIn(ns)

	// A cluster at rest at fromVersion, with a worker pool of one node
	// where the worker phase's insight has its place.
	startNodeOperator(t, informerInterval)
	setClusterVersionStatus(t, getClusterVersion(t), completedStatus())
	createNode(t, "worker-0", atRest(oldWorkerConfig), nodes.WorkerPool)
	informer := startMUOInformer(t, ns)
	createInformer(t, &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: muoInformerName},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			URL: ptr.To(informer.url()), CABundle: informer.ca.PEM,
		}},
	})
	waitFor(t, eventually, "the informer heard, with no UpgradeConfig, and the worker pool in UpdateStatus", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		r := reported(s, muoInformerName)
		return r != nil && !r.Stale && len(r.Insights) == 0 && len(s.Status.WorkerPools) == 1 &&
			conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdatePending) == "False "+updatestatus.ReasonReleaseReconciled
	})
	waitForInformer(t, "no UpgradeConfig", muoInformerName, []string{}, false, "True/Called")

	// 1. Scheduled three hours from now: the control plane awaits the
	// window.
	upgradeAt := time.Now().Add(3 * time.Hour).UTC().Truncate(time.Second)
	at := regexp.QuoteMeta(upgradeAt.Format(time.RFC3339))
	changeAndWait(t, "scheduled", func() {
		configs.write(t, managedUpdate(toVersion, upgradeAt, &upgradev1alpha1.UpgradeHistory{Phase: upgradev1alpha1.PhaseNew}))
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		i, stale := informerInsight(s, muoInformerName, "", "awaiting-window")
		return i != nil && !stale && i.Impact.Level == insightsv1alpha1.StatusInsightLevel &&
			i.Impact.Type == insightsv1alpha1.AwaitingWindowImpactType && i.Remediation.EstimatedFinish.Equal(ptr.To(metav1.NewTime(upgradeAt))) &&
			conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdatePending) == "True "+updatestatus.ReasonUpdateScheduled &&
			conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdateActive) == "False "+insightsv1alpha1.UpdateAwaitingWindow
	}, []string{
		`(?m)^An update is scheduled, as managed-upgrade reports: Managed update to ` + regexp.QuoteMeta(toVersion) + ` scheduled for ` + at + `, in \S+ \(window opens at ` + at + `\)\.$`,
	}, []string{`The cluster is not updating`})

	// 2. Started, and held by its pre-update health check: a warning
	// before the ClusterVersion has the update, which clears once the
	// check passes.
	started := time.Now().Add(-5 * time.Minute)
	healthCheck := func(check upgradev1alpha1.UpgradeCondition, done ...upgradev1alpha1.UpgradeConditionType) *upgradev1alpha1.UpgradeConfig {
		return managedUpdate(toVersion, started, &upgradev1alpha1.UpgradeHistory{
			Phase: upgradev1alpha1.PhaseUpgrading, PrecedingVersion: fromVersion, StartTime: muoTime(started),
			Conditions: append([]upgradev1alpha1.UpgradeCondition{check}, stepsDone(started, done...)...),
		})
	}
	// The runner's shape of a step that failed: its reason stays, its
	// message is the error (pkg/upgradesteps/runner.go).
	failing := stepRunning(stepHealthy, started.Add(10*time.Second))
	failing.Message = "critical alert(s) firing: KubePersistentVolumeErrors"
	changeAndWait(t, "failed pre-upgrade health check", func() {
		configs.write(t, healthCheck(failing, stepStarted, stepUpgradable))
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		warning, _ := informerInsight(s, muoInformerName, "", "step-failing")
		awaiting, _ := informerInsight(s, muoInformerName, "", "awaiting-window")
		return awaiting == nil && warning != nil && warning.Impact.Level == insightsv1alpha1.WarningInsightLevel &&
			warning.Impact.Summary == "Managed update step ClusterHealthyBeforeUpgrade: critical alert(s) firing: KubePersistentVolumeErrors" &&
			conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdatePending) == "True "+updatestatus.ReasonUpdateScheduled &&
			conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdateActive) == "False "+insightsv1alpha1.UpdateAwaitingWindow
	}, []string{
		`(?m)^An update is starting, as managed-upgrade reports: Managed update to ` + regexp.QuoteMeta(toVersion) + `: ClusterHealthyBeforeUpgrade \(step 4 of 17\), running for \S+\. The control plane has not begun to update\.$`,
		`(?m)^= Update Health =$`,
		`(?m)^\S+ +Warning +Update Stalled +Managed update step ClusterHealthyBeforeUpgrade: critical alert\(s\) firing: KubePersistentVolumeErrors \(managed-upgrade\)$`,
	}, []string{`The cluster is not updating`})
	changeAndWait(t, "health check passed", func() {
		configs.write(t, healthCheck(stepRunning(stepExternals, started.Add(time.Minute)), stepStarted, stepUpgradable, stepHealthy))
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		warning, _ := informerInsight(s, muoInformerName, "", "step-failing")
		step, _ := informerInsight(s, muoInformerName, "", "step")
		return warning == nil && step != nil && strings.Contains(step.Impact.Summary, "ExternalDependenciesAvailable (step 5 of 17)")
	}, []string{
		`(?m)^An update is starting, as managed-upgrade reports: Managed update to ` + regexp.QuoteMeta(toVersion) + `: ExternalDependenciesAvailable \(step 5 of 17\), running for \S+\. The control plane has not begun to update\.$`,
	}, []string{`critical alert\(s\) firing`, `= Update Health =`, `The cluster is not updating`})

	// 3. Commenced: the ClusterVersion updates to toVersion while the
	// operator waits for the control plane, then for the workers.
	preChecks := []upgradev1alpha1.UpgradeConditionType{stepStarted, stepUpgradable, stepHealthy, stepExternals, stepCPWindow, stepCommenced}
	upgrading := func(history upgradev1alpha1.UpgradeHistory) *upgradev1alpha1.UpgradeConfig {
		history.Phase, history.PrecedingVersion, history.StartTime = upgradev1alpha1.PhaseUpgrading, fromVersion, muoTime(started)
		return managedUpdate(toVersion, started, &history)
	}
	changeAndWait(t, "upgrading the control plane", func() {
		setClusterVersionStatus(t, getClusterVersion(t), midUpdateStatus())
		configs.write(t, upgrading(upgradev1alpha1.UpgradeHistory{
			Conditions: append([]upgradev1alpha1.UpgradeCondition{stepRunning(stepCPUpgraded, started.Add(2*time.Minute))}, stepsDone(started, preChecks...)...),
		}))
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		step, _ := informerInsight(s, muoInformerName, "", "step")
		return step != nil && strings.Contains(step.Impact.Summary, "ControlPlaneUpgraded (step 9 of 17)") &&
			conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdatePending) == "True "+updatestatus.ReasonReleaseNotReconciled &&
			conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdateActive) == "True "+updatestatus.ReasonUpdating
	}, []string{
		`(?m)^= Control Plane =$`,
		`(?m)^Informers: +Managed update to ` + regexp.QuoteMeta(toVersion) + `: ControlPlaneUpgraded \(step 9 of 17\), running for \S+ \(managed-upgrade\)$`,
	}, nil)
	// An earlier update's worker phase of an hour gives the estimate.
	earlierStart := started.Add(-30 * 24 * time.Hour)
	earlier := upgradev1alpha1.UpgradeHistory{Version: fromVersion, Phase: upgradev1alpha1.PhaseUpgraded,
		WorkerStartTime: muoTime(earlierStart), WorkerCompleteTime: muoTime(earlierStart.Add(time.Hour))}
	workersStarted := time.Now().Add(-2 * time.Minute)
	changeAndWait(t, "upgrading the workers", func() {
		uc := upgrading(upgradev1alpha1.UpgradeHistory{
			WorkerStartTime: muoTime(workersStarted),
			Conditions: append([]upgradev1alpha1.UpgradeCondition{stepRunning(stepWorkers, workersStarted)},
				stepsDone(started, append(preChecks, stepCPUpgraded, stepCPWindowOff, stepWorkWindow)...)...),
		})
		uc.Status.History = append(uc.Status.History, earlier)
		configs.write(t, uc)
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		step, _ := informerInsight(s, muoInformerName, "", "step")
		workers, _ := informerInsight(s, muoInformerName, nodes.WorkerPool, "workers")
		misplaced, _ := informerInsight(s, muoInformerName, "", "workers")
		return step != nil && strings.Contains(step.Impact.Summary, "WorkerNodesUpgraded (step 12 of 17)") && misplaced == nil &&
			workers != nil && workers.Remediation.EstimatedFinish.Equal(muoTime(workersStarted.Add(time.Hour)))
	}, []string{
		`(?m)^Informers: +Managed update to ` + regexp.QuoteMeta(toVersion) + `: WorkerNodesUpgraded \(step 12 of 17\), running for \S+ \(managed-upgrade\)$`,
		`(?m)^Worker Pool Informers: worker$`,
		`(?m)^Managed update to ` + regexp.QuoteMeta(toVersion) + `: worker nodes updating for \S+ \(managed-upgrade, Est\. Time Remaining: [^)]+\)$`,
	}, nil)

	// 4. Failed: the OSD upgrader gave up an update that had not commenced
	// within its window. The phase is all it writes: the FailedUpgrade
	// condition it builds is never saved (pkg/upgraders/osdupgrader.go).
	changeAndWait(t, "failed", func() {
		configs.write(t, managedUpdate(toVersion, started, &upgradev1alpha1.UpgradeHistory{
			Phase: upgradev1alpha1.PhaseFailed, PrecedingVersion: fromVersion, StartTime: muoTime(started),
			Conditions: append([]upgradev1alpha1.UpgradeCondition{failing}, stepsDone(started, stepStarted, stepUpgradable)...),
		}))
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		e, _ := informerInsight(s, muoInformerName, "", "failed")
		step, _ := informerInsight(s, muoInformerName, "", "step")
		warning, _ := informerInsight(s, muoInformerName, "", "step-failing")
		return step == nil && warning == nil && e != nil && e.Impact.Level == insightsv1alpha1.ErrorInsightLevel &&
			e.Impact.Summary == "Managed update to "+toVersion+" failed: it did not commence within its upgrade window"
	}, []string{
		`(?m)^\S+ +Error +Update Stalled +Managed update to ` + regexp.QuoteMeta(toVersion) + ` failed: it did not commence within its upgrade window \(managed-upgrade\)$`,
	}, []string{`step 12 of 17`, `retries`})

	// 5. Rescheduled three hours ago and still Pending: the operator
	// starts a late update however late, so it is reported due, not
	// given up.
	dueAt := time.Now().Add(-3 * time.Hour).UTC().Truncate(time.Second)
	changeAndWait(t, "due, not started", func() {
		configs.write(t, managedUpdate(toVersion, dueAt, &upgradev1alpha1.UpgradeHistory{Phase: upgradev1alpha1.PhasePending}))
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		w, _ := informerInsight(s, muoInformerName, "", "due")
		failed, _ := informerInsight(s, muoInformerName, "", "failed")
		return failed == nil && w != nil && w.Impact.Level == insightsv1alpha1.WarningInsightLevel
	}, []string{
		`(?m)^\S+ +Warning +Update Stalled +Managed update to ` + regexp.QuoteMeta(toVersion) + `, due since ` + regexp.QuoteMeta(dueAt.Format(time.RFC3339)) + `, has not started \(managed-upgrade\)$`,
	}, []string{`failed`, `will not start`})

	// 6. Deleted: the informer answers with nothing, and once the
	// ClusterVersion completes no update is pending.
	changeAndWait(t, "UpgradeConfig deleted", func() {
		configs.delete(t, upgradev1alpha1.DefaultName)
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		r := reported(s, muoInformerName)
		return r != nil && !r.Stale && len(r.Insights) == 0 &&
			conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdatePending) == "True "+updatestatus.ReasonReleaseNotReconciled
	}, []string{`(?m)^= Control Plane =$`}, []string{`managed-upgrade`})
	changeAndWait(t, "ClusterVersion completed", func() {
		setClusterVersionStatus(t, getClusterVersion(t), completedAt())
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		return conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdatePending) == "False "+updatestatus.ReasonReleaseReconciled
	}, []string{`(?m)^Update to ` + regexp.QuoteMeta(toVersion) + ` successfully completed at `}, []string{`managed-upgrade`})

	// 7. The informer killed while it reports an update scheduled: the
	// operator keeps the insight, stale, and has it fresh again once the
	// informer is back on its port.
	nextAt := time.Now().Add(2 * time.Hour).UTC().Truncate(time.Second)
	changeAndWait(t, "scheduled again", func() {
		configs.write(t, managedUpdate("4.16.1", nextAt, nil))
	}, func(s *insightsv1alpha1.UpdateStatus) bool {
		i, stale := informerInsight(s, muoInformerName, "", "awaiting-window")
		return i != nil && !stale && conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdatePending) == "True "+updatestatus.ReasonUpdateScheduled
	}, []string{`window opens at ` + regexp.QuoteMeta(nextAt.Format(time.RFC3339))}, nil)
	awaiting, _ := informerInsight(mustUpdateStatus(t), muoInformerName, "", "awaiting-window")
	uid := awaiting.UID
	// Through the restart the insight may go stale, never missing.
	watch := watchInsight(t, uid, false)

	killed := time.Now()
	informer.kill()
	waitFor(t, eventually, "the killed informer's insight kept, stale", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		i, stale := informerInsight(s, muoInformerName, "", "awaiting-window")
		return i != nil && i.UID == uid && stale &&
			conditionState(s.Status.Conditions, updatestatus.ConditionInformersAnswered) == "False InformersOffline" &&
			conditionState(s.Status.ControlPlane.Conditions, insightsv1alpha1.UpdateActive) == "False "+insightsv1alpha1.UpdateAwaitingWindow
	})
	// Nothing listens on its port: unreachable.
	waitFor(t, eventually, "the killed informer offline", getInformer(muoInformerName), func(i *insightsv1alpha1.UpdateInformer) bool {
		return onlineReason(i) == "False/"+insightsv1alpha1.InformerUnreachable
	})
	t.Logf("informer killed: stale and offline in UpdateStatus after %s", time.Since(killed).Round(time.Millisecond))
	statusOutput(t, "the informer killed", []string{
		`(?m)window opens at ` + regexp.QuoteMeta(nextAt.Format(time.RFC3339)) + `, stale: the informer's last call failed\)$`,
	}, nil)

	restarted := time.Now()
	informer.start(t)
	waitFor(t, eventually, "the restarted informer's insight fresh", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		i, stale := informerInsight(s, muoInformerName, "", "awaiting-window")
		return i != nil && i.UID == uid && !stale &&
			conditionState(s.Status.Conditions, updatestatus.ConditionInformersAnswered) == "True AllAnswered"
	})
	waitFor(t, eventually, "the restarted informer online", getInformer(muoInformerName), func(i *insightsv1alpha1.UpdateInformer) bool {
		return onlineReason(i) == "True/Called"
	})
	t.Logf("informer restarted: fresh in UpdateStatus after %s", time.Since(restarted).Round(time.Millisecond))
	if lost := watch.missed(); len(lost) > 0 {
		t.Errorf("UpdateStatus lost the insight %s while the informer restarted, at %v", uid, lost)
	}

	// 8. Its serving certificate rotated: a new leaf of the same CA, served
	// at once, and the operator never loses the informer nor its insight.
	watch = watchInsight(t, uid, true)
	before, err := informer.servedSerial()
	if err != nil {
		t.Fatal(err)
	}
	rotated := time.Now()
	serial := informer.rotate(t)
	if serial.Cmp(before) == 0 {
		t.Fatalf("the rotated certificate has the serial %s of the one it replaces", serial)
	}
	waitForServedSerial(t, informer, serial)
	t.Logf("certificate rotated: the new leaf served after %s", time.Since(rotated).Round(time.Millisecond))
	// The operator is answered after the rotation: the window moved since
	// reaches UpdateStatus.
	movedAt := nextAt.Add(time.Hour)
	configs.write(t, managedUpdate("4.16.1", movedAt, nil))
	waitFor(t, eventually, "an answer after the rotation", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		i, stale := informerInsight(s, muoInformerName, "", "awaiting-window")
		return i != nil && i.UID == uid && !stale && i.Remediation.EstimatedFinish != nil && i.Remediation.EstimatedFinish.Time.Equal(movedAt)
	})
	if lost := watch.missed(); len(lost) > 0 {
		t.Errorf("UpdateStatus lost the insight %s, or the informer went offline, during the rotation, at %v", uid, lost)
	}
	t.Logf("certificate rotated: %d samples of UpdateStatus and the UpdateInformer, none without the insight", watch.count())
}

func mustUpdateStatus(t *testing.T) *insightsv1alpha1.UpdateStatus {
	t.Helper()
	s, err := getUpdateStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func waitForServedSerial(t *testing.T, i *muoInformer, serial interface{ String() string }) {
	t.Helper()
	var got string
	waitFor(t, eventually, "the informer to serve the certificate of serial "+serial.String(), func(context.Context) (*string, error) {
		s, err := i.servedSerial()
		if err != nil {
			got = err.Error()
			return nil, nil
		}
		got = s.String()
		return &got, nil
	}, func(s *string) bool { return s != nil && *s == serial.String() })
}
