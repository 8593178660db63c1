package updaterecord

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openshift/library-go/pkg/operator/events"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

var started = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)

// harness runs the controller's sync against a fake clientset, with indexers
// standing in for the informers' caches; the records' indexer follows the
// clientset, as the records' informer would.
type harness struct {
	t                               *testing.T
	controller                      *Controller
	client                          *fake.Clientset
	clock                           *clocktesting.FakeClock
	cvs, operators, health, records cache.Indexer
	nodes, pools                    cache.Indexer
}

func newHarness(t *testing.T) *harness {
	index := func() cache.Indexer { return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}) }
	h := &harness{t: t, client: fake.NewSimpleClientset(), clock: clocktesting.NewFakeClock(started.Add(10 * time.Minute)),
		cvs: index(), operators: index(), health: index(), records: index(), nodes: index(), pools: index()}
	h.controller = &Controller{
		clusterVersions: insightslisters.NewClusterVersionProgressInsightLister(h.cvs),
		operators:       insightslisters.NewClusterOperatorProgressInsightLister(h.operators),
		health:          insightslisters.NewUpdateHealthInsightLister(h.health),
		nodes:           insightslisters.NewNodeProgressInsightLister(h.nodes),
		pools:           insightslisters.NewMachineConfigPoolProgressInsightLister(h.pools),
		records:         insightslisters.NewUpdateRecordLister(h.records),
		writer:          insightwrite.UpdateRecords(h.client.InsightsV1alpha1()),
		clock:           h.clock,
		written:         map[string]bool{},
	}
	return h
}

func (h *harness) sync() {
	h.t.Helper()
	if err := h.controller.sync(context.Background(), controllertest.NewSyncContext(factoryKey)); err != nil {
		h.t.Fatal(err)
	}
	list, err := h.client.InsightsV1alpha1().UpdateRecords().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	controllertest.Replace(h.t, h.records, list.Items)
}

func (h *harness) record(name string) *insightsv1alpha1.UpdateRecord {
	h.t.Helper()
	r, err := h.client.InsightsV1alpha1().UpdateRecords().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

const factoryKey = "key"

// controlPlane is the ClusterVersion insight of an update to target from
// 4.15.30, started at start, percent complete.
func controlPlane(target string, start time.Time, percent int32) insightsv1alpha1.ClusterVersionProgressInsight {
	s := metav1.NewTime(start)
	eta := metav1.NewTime(start.Add(time.Hour))
	return insightsv1alpha1.ClusterVersionProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: names.ClusterVersion},
		Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{
			Name: names.ClusterVersion, Assessment: insightsv1alpha1.ClusterVersionAssessmentProgressing,
			Versions: insightsv1alpha1.ControlPlaneUpdateVersions{
				Target: insightsv1alpha1.Version{Version: target}, Previous: &insightsv1alpha1.Version{Version: "4.15.30"},
			},
			StartedAt: &s, CompletionPercent: percent, EstimatedCompletedAt: &eta,
		},
	}
}

func TestSyncWritesTheRecordOfTheUpdate(t *testing.T) {
	h := newHarness(t)
	controllertest.Replace(t, h.cvs, []insightsv1alpha1.ClusterVersionProgressInsight{controlPlane("4.16.12", started, 30)})
	controllertest.Replace(t, h.operators, []insightsv1alpha1.ClusterOperatorProgressInsight{{
		ObjectMeta: metav1.ObjectMeta{Name: "etcd"},
		Status: insightsv1alpha1.ClusterOperatorProgressInsightStatus{Name: "etcd", Conditions: []metav1.Condition{{
			Type: insightsv1alpha1.ClusterOperatorProgressInsightUpdating, Status: metav1.ConditionTrue,
			Reason: insightsv1alpha1.ClusterOperatorProgressing, LastTransitionTime: metav1.NewTime(started.Add(time.Minute)),
		}}},
	}})
	controllertest.Replace(t, h.health, []insightsv1alpha1.UpdateHealthInsight{{
		ObjectMeta: metav1.ObjectMeta{Name: "co-degraded"},
		Status: insightsv1alpha1.UpdateHealthInsightStatus{
			StartedAt: metav1.NewTime(started.Add(2 * time.Minute)),
			Scope: insightsv1alpha1.InsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane, Resources: []insightsv1alpha1.ResourceRef{
				{Group: "config.openshift.io", Resource: "clusteroperators", Name: "etcd"},
			}},
			Impact: insightsv1alpha1.InsightImpact{Level: insightsv1alpha1.ErrorImpactLevel, Type: insightsv1alpha1.APIAvailabilityImpactType,
				Summary: "Cluster Operator etcd is degraded (EtcdMembersDegraded)"},
		},
	}})
	h.sync()

	name := updaterecord.Name("4.16.12", started)
	got := h.record(name).Status
	now := metav1.NewTime(h.clock.Now())
	opStart := metav1.NewTime(started.Add(time.Minute))
	stallStart := metav1.NewTime(started.Add(2 * time.Minute))
	eta := metav1.NewTime(started.Add(time.Hour))
	want := insightsv1alpha1.UpdateRecordStatus{
		From: &insightsv1alpha1.Version{Version: "4.15.30"}, To: insightsv1alpha1.Version{Version: "4.16.12"},
		State: insightsv1alpha1.UpdateRecordProgressing, StartedAt: metav1.NewTime(started), ObservedUntil: now,
		Durations:        insightsv1alpha1.UpdateRecordDurations{ControlPlane: &metav1.Duration{Duration: 10 * time.Minute}, Total: &metav1.Duration{Duration: 10 * time.Minute}},
		NotObserved:      []insightsv1alpha1.TimeSpan{{From: metav1.NewTime(started), To: now}},
		ClusterOperators: []insightsv1alpha1.OperatorUpdateRecord{{Name: "etcd", StartedAt: &opStart}},
		Stalls: []insightsv1alpha1.UpdateStall{{
			Name: "co-degraded", Level: insightsv1alpha1.ErrorImpactLevel, Impact: insightsv1alpha1.APIAvailabilityImpactType,
			Scope: insightsv1alpha1.ScopeTypeControlPlane, Summary: "Cluster Operator etcd is degraded (EtcdMembersDegraded)",
			Resources: []insightsv1alpha1.ResourceRef{{Group: "config.openshift.io", Resource: "clusteroperators", Name: "etcd"}},
			StartedAt: &stallStart, FirstSeenAt: now,
		}},
		Estimates: []insightsv1alpha1.EstimateRecord{{Percent: 25, ObservedAt: now, CompletionPercent: 30, EstimatedCompletedAt: &eta}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// The degradation clears a minute later: the stall ends then.
	h.clock.Step(time.Minute)
	controllertest.Replace(t, h.health, []insightsv1alpha1.UpdateHealthInsight{})
	h.sync()
	ended := h.record(name).Status.Stalls[0].EndedAt
	if ended == nil || !ended.Time.Equal(h.clock.Now()) {
		t.Errorf("the stall ended at %v, want %v when it was seen gone", ended, h.clock.Now())
	}
}

func TestSyncAbandonsTheUpdateAnotherReplaced(t *testing.T) {
	h := newHarness(t)
	controllertest.Replace(t, h.cvs, []insightsv1alpha1.ClusterVersionProgressInsight{controlPlane("4.16.12", started, 10)})
	h.sync()

	retarget := started.Add(8 * time.Minute)
	controllertest.Replace(t, h.cvs, []insightsv1alpha1.ClusterVersionProgressInsight{controlPlane("4.16.13", retarget, 0)})
	h.clock.Step(time.Minute)
	h.sync()

	first := h.record(updaterecord.Name("4.16.12", started)).Status
	if first.State != insightsv1alpha1.UpdateRecordAbandoned || first.AbandonedAt == nil || !first.AbandonedAt.Time.Equal(retarget) {
		t.Errorf("the first record is %s, abandoned at %v; want Abandoned at %v, when the next update started", first.State, first.AbandonedAt, retarget)
	}
	if second := h.record(updaterecord.Name("4.16.13", retarget)).Status; second.State != insightsv1alpha1.UpdateRecordProgressing {
		t.Errorf("the second record is %s, want Progressing", second.State)
	}
}

func TestSyncRecordsNoInstallation(t *testing.T) {
	h := newHarness(t)
	install := controlPlane("4.16.12", started, 10)
	install.Status.Versions.Previous = nil
	controllertest.Replace(t, h.cvs, []insightsv1alpha1.ClusterVersionProgressInsight{install})
	h.sync()
	if writes := controllertest.Writes(h.client.Actions()); len(writes) != 0 {
		t.Errorf("an installation was recorded: %v", writes)
	}
}

func TestSyncPrunesBeyondTheRecordsKept(t *testing.T) {
	h := newHarness(t)
	var old []insightsv1alpha1.UpdateRecord
	for i := 0; i < updaterecord.MaxRecords+2; i++ {
		start := started.Add(-time.Duration(i+1) * 24 * time.Hour)
		version := fmt.Sprintf("4.15.%d", 100-i)
		r := insightsv1alpha1.UpdateRecord{
			ObjectMeta: metav1.ObjectMeta{Name: updaterecord.Name(version, start)},
			Status: insightsv1alpha1.UpdateRecordStatus{To: insightsv1alpha1.Version{Version: version}, State: insightsv1alpha1.UpdateRecordCompleted,
				StartedAt: metav1.NewTime(start)},
		}
		if _, err := h.client.InsightsV1alpha1().UpdateRecords().Create(context.Background(), &r, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		old = append(old, r)
	}
	controllertest.Replace(t, h.records, old)
	controllertest.Replace(t, h.cvs, []insightsv1alpha1.ClusterVersionProgressInsight{controlPlane("4.16.12", started, 10)})
	h.client.ClearActions()
	syncCtx := recording{SyncContext: controllertest.NewSyncContext(factoryKey), events: events.NewInMemoryRecorder("test", h.clock)}
	if err := h.controller.sync(context.Background(), syncCtx); err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, w := range controllertest.Writes(h.client.Actions()) {
		if strings.HasPrefix(w, "delete ") {
			deleted = append(deleted, w)
		}
	}
	// The two oldest after the first, 4.15.49, which stays: 4.15.50 and
	// 4.15.51.
	sort.Strings(deleted)
	want := []string{"delete updaterecords " + old[len(old)-2].Name, "delete updaterecords " + old[len(old)-3].Name}
	if diff := cmp.Diff(want, deleted); diff != "" {
		t.Errorf("deletes (-want +got):\n%s", diff)
	}
	if events := syncCtx.events.Events(); len(events) != 2 || events[0].Reason != "UpdateRecordPruned" {
		t.Errorf("events %v, want one UpdateRecordPruned per record deleted", events)
	}
}

// recording is a sync context that keeps the Events the sync records.
type recording struct {
	controllertest.SyncContext
	events events.InMemoryRecorder
}

func (r recording) Recorder() events.Recorder { return r.events }

// workerNode is a Node insight of pool worker whose Updating condition has
// that status and reason since since.
func workerNode(name string, status metav1.ConditionStatus, reason string, since time.Time) insightsv1alpha1.NodeProgressInsight {
	return insightsv1alpha1.NodeProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.NodeProgressInsightStatus{
			Name: name, ScopeType: insightsv1alpha1.ScopeTypeWorkerPool,
			PoolResource: insightsv1alpha1.ResourceRef{Group: "machineconfiguration.openshift.io", Resource: "machineconfigpools", Name: "worker"},
			Conditions: []metav1.Condition{{Type: insightsv1alpha1.NodeProgressInsightUpdating, Status: status, Reason: reason,
				LastTransitionTime: metav1.NewTime(since)}},
		},
	}
}

func TestSyncRecordsThePoolsFromTheNodeInsights(t *testing.T) {
	h := newHarness(t)
	cv := controlPlane("4.16.12", started, 100)
	done := metav1.NewTime(started.Add(5 * time.Minute))
	cv.Status.Assessment, cv.Status.CompletedAt = insightsv1alpha1.ClusterVersionAssessmentCompleted, &done
	controllertest.Replace(t, h.cvs, []insightsv1alpha1.ClusterVersionProgressInsight{cv})
	drainFrom := started.Add(8 * time.Minute)
	controllertest.Replace(t, h.nodes, []insightsv1alpha1.NodeProgressInsight{workerNode("worker-a", metav1.ConditionTrue, insightsv1alpha1.NodeDraining, drainFrom)})
	h.sync()
	name := updaterecord.Name("4.16.12", started)
	if got := h.record(name).Status; got.State != insightsv1alpha1.UpdateRecordProgressing || len(got.Pools) != 1 || len(got.Pools[0].Updating) != 1 {
		t.Fatalf("with the control plane done and a worker draining: state %s, pools %+v; want Progressing, the worker followed", got.State, got.Pools)
	}

	h.clock.Step(10 * time.Minute)
	finished := h.clock.Now().Add(-time.Minute)
	controllertest.Replace(t, h.nodes, []insightsv1alpha1.NodeProgressInsight{workerNode("worker-a", metav1.ConditionFalse, insightsv1alpha1.NodeCompleted, finished)})
	h.sync()
	got := h.record(name).Status
	if got.State != insightsv1alpha1.UpdateRecordCompleted || !got.CompletedAt.Time.Equal(finished) {
		t.Errorf("state %s completed at %v, want Completed at %s, when the last worker finished", got.State, got.CompletedAt, finished)
	}
	if diff := cmp.Diff(&metav1.Duration{Duration: finished.Sub(drainFrom)}, got.Pools[0].NodeTimes.Median); diff != "" {
		t.Errorf("the worker's time (-want +got):\n%s", diff)
	}
}
