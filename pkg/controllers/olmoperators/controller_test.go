package olmoperators

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	"github.com/openshift/library-go/pkg/controller/factory"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/olm"
	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
	olmlisters "github.com/update-insights/update-insights-operator/pkg/olm/generated/listers/operators/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

var (
	started = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	now     = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
)

type harness struct {
	t          *testing.T
	controller *Controller
	answers    *updatestatus.Store
	clock      *clocktesting.FakeClock
	csvs, cvs  cache.Indexer
}

func newHarness(t *testing.T) *harness {
	indexer := func() cache.Indexer { return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}) }
	h := &harness{t: t, answers: updatestatus.NewStore(), clock: clocktesting.NewFakeClock(now), csvs: indexer(), cvs: indexer()}
	h.controller = &Controller{
		listers: Listers{
			CSVs:          olmlisters.NewClusterServiceVersionLister(h.csvs),
			Subscriptions: olmlisters.NewSubscriptionLister(indexer()),
			InstallPlans:  olmlisters.NewInstallPlanLister(indexer()),
		},
		clusterVersions: configlisters.NewClusterVersionLister(h.cvs),
		answers:         h.answers,
		clock:           h.clock,
	}
	return h
}

func (h *harness) add(indexer cache.Indexer, obj any) {
	h.t.Helper()
	if err := indexer.Update(obj); err != nil {
		h.t.Fatal(err)
	}
}

// clusterVersion is a ClusterVersion updating from 4.16.20 to 4.17.3 since
// started, or done with it.
func clusterVersion(updating bool) *configv1.ClusterVersion {
	cv := &configv1.ClusterVersion{ObjectMeta: metav1.ObjectMeta{Name: "version"}, Status: configv1.ClusterVersionStatus{
		Desired: configv1.Release{Version: "4.17.3"},
		History: []configv1.UpdateHistory{
			{Version: "4.17.3", State: configv1.CompletedUpdate, StartedTime: metav1.NewTime(started), CompletionTime: &metav1.Time{Time: now}},
			{Version: "4.16.20", State: configv1.CompletedUpdate, StartedTime: metav1.NewTime(started.Add(-720 * time.Hour))},
		},
	}}
	if updating {
		cv.Status.History[0].State, cv.Status.History[0].CompletionTime = configv1.PartialUpdate, nil
	}
	return cv
}

// failedCSV is a CSV that left Succeeded at left.
func failedCSV(namespace, name string, left time.Time) *operatorsv1alpha1.ClusterServiceVersion {
	at := func(t time.Time) *metav1.Time { return &metav1.Time{Time: t} }
	return &operatorsv1alpha1.ClusterServiceVersion{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Annotations: map[string]string{operatorsv1alpha1.OperatorNamespaceAnnotation: namespace}},
		Status: operatorsv1alpha1.ClusterServiceVersionStatus{
			Phase: operatorsv1alpha1.CSVPhaseFailed, Reason: "ComponentUnhealthy", LastTransitionTime: at(left),
			Conditions: []operatorsv1alpha1.ClusterServiceVersionCondition{
				{Phase: operatorsv1alpha1.CSVPhaseSucceeded, Reason: "InstallSucceeded", LastTransitionTime: at(started.Add(-48 * time.Hour))},
				{Phase: operatorsv1alpha1.CSVPhaseFailed, Reason: "ComponentUnhealthy", LastTransitionTime: at(left)},
			},
		},
	}
}

func (h *harness) sync() controllertest.SyncContext {
	h.t.Helper()
	sc := controllertest.NewSyncContext(factory.DefaultQueueKey)
	h.t.Cleanup(sc.Q.ShutDown)
	if err := h.controller.sync(context.Background(), sc); err != nil {
		h.t.Fatal(err)
	}
	return sc
}

// uids are the insights of OLM's informer in the store, by level.
func (h *harness) uids() map[string]insightsv1alpha1.UpdateInsightLevel {
	out := map[string]insightsv1alpha1.UpdateInsightLevel{}
	for _, a := range h.answers.Answers() {
		if a.Informer != olm.Informer {
			h.t.Errorf("the store holds an answer of informer %q", a.Informer)
		}
		for _, i := range a.Insights {
			out[i.UID] = i.Impact.Level
		}
	}
	return out
}

func TestTheHealthOfOLMsOperatorsIsInTheStoreWhileTheClusterUpdates(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cv       *configv1.ClusterVersion
		csvs     []*operatorsv1alpha1.ClusterServiceVersion
		want     map[string]insightsv1alpha1.UpdateInsightLevel
		requeued time.Duration
	}{{
		name: "failed during the update",
		cv:   clusterVersion(true),
		csvs: []*operatorsv1alpha1.ClusterServiceVersion{failedCSV("etcd", "etcdoperator.v0.9.4", started.Add(30*time.Minute))},
		want: map[string]insightsv1alpha1.UpdateInsightLevel{"unhealthy/etcd/etcdoperator.v0.9.4": insightsv1alpha1.ErrorInsightLevel},
	}, {
		name: "failed before the update",
		cv:   clusterVersion(true),
		csvs: []*operatorsv1alpha1.ClusterServiceVersion{failedCSV("etcd", "etcdoperator.v0.9.4", started.Add(-time.Hour))},
		want: map[string]insightsv1alpha1.UpdateInsightLevel{"unhealthy/etcd/etcdoperator.v0.9.4": insightsv1alpha1.WarningInsightLevel},
	}, {
		name:     "failed moments ago: looked at again once due",
		cv:       clusterVersion(true),
		csvs:     []*operatorsv1alpha1.ClusterServiceVersion{failedCSV("etcd", "etcdoperator.v0.9.4", now.Add(-4*time.Minute))},
		want:     map[string]insightsv1alpha1.UpdateInsightLevel{},
		requeued: olm.Settle - 4*time.Minute,
	}, {
		name: "no update",
		cv:   clusterVersion(false),
		csvs: []*operatorsv1alpha1.ClusterServiceVersion{failedCSV("etcd", "etcdoperator.v0.9.4", started.Add(30*time.Minute))},
		want: map[string]insightsv1alpha1.UpdateInsightLevel{},
	}, {
		name: "no ClusterVersion",
		csvs: []*operatorsv1alpha1.ClusterServiceVersion{failedCSV("etcd", "etcdoperator.v0.9.4", started.Add(30*time.Minute))},
		want: map[string]insightsv1alpha1.UpdateInsightLevel{},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			// What the store held before this sync goes when no insight is
			// left, rather than stay.
			h.answers.Set(updatestatusAnswer("unhealthy/old/gone.v1"))
			if tc.cv != nil {
				h.add(h.cvs, tc.cv)
			}
			for _, csv := range tc.csvs {
				h.add(h.csvs, csv)
			}
			sc := h.sync()
			if diff := cmp.Diff(tc.want, h.uids()); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
			var requeued time.Duration
			if d, ok := sc.Q.AddedAfter[factory.DefaultQueueKey]; ok {
				requeued = d
			}
			if requeued != tc.requeued {
				t.Errorf("queued again after %s, want %s", requeued, tc.requeued)
			}
		})
	}
}

func TestAnOperatorThatSucceedsAgainLeavesTheStore(t *testing.T) {
	h := newHarness(t)
	h.add(h.cvs, clusterVersion(true))
	csv := failedCSV("etcd", "etcdoperator.v0.9.4", started.Add(30*time.Minute))
	h.add(h.csvs, csv)
	h.sync()
	if len(h.uids()) != 1 {
		t.Fatalf("insights %v, want the failed operator's", h.uids())
	}
	recovered := csv.DeepCopy()
	recovered.Status.Phase, recovered.Status.Reason = operatorsv1alpha1.CSVPhaseSucceeded, "InstallSucceeded"
	h.add(h.csvs, recovered)
	h.sync()
	if got := h.uids(); len(got) != 0 {
		t.Errorf("insights %v once the operator succeeds again, want none", got)
	}
}

func updatestatusAnswer(uid string) updatestatus.Answer {
	return updatestatus.Answer{Informer: olm.Informer, Insights: []insightsv1alpha1.UpdateInsight{{UID: uid}}}
}

func TestOnlyAnUpdateStartingOrEndingQueuesTheSync(t *testing.T) {
	progressing := func(cv *configv1.ClusterVersion, message string) *configv1.ClusterVersion {
		cv.Status.Conditions = []configv1.ClusterOperatorStatusCondition{{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Message: message}}
		return cv
	}
	for _, tc := range []struct {
		name     string
		old, new *configv1.ClusterVersion
		want     int
	}{
		{
			// The cluster-version operator's message as it applies the
			// payload (cluster-version-operator pkg/cvo/status.go).
			name: "the Progressing message moves on",
			old:  progressing(clusterVersion(true), "Working towards 4.17.3: 106 of 863 done (12% complete)"),
			new:  progressing(clusterVersion(true), "Working towards 4.17.3: 107 of 863 done (12% complete)"),
			want: 0,
		},
		{
			name: "the update ends",
			old:  clusterVersion(true),
			new:  clusterVersion(false),
			want: 1,
		},
		{
			name: "an update starts",
			old:  clusterVersion(false),
			new: func() *configv1.ClusterVersion {
				cv := clusterVersion(false)
				cv.Status.Desired.Version = "4.17.4"
				cv.Status.History = append([]configv1.UpdateHistory{{Version: "4.17.4", State: configv1.PartialUpdate, StartedTime: metav1.NewTime(now)}}, cv.Status.History...)
				return cv
			}(),
			want: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			queued := 0
			updateStartHandler(func() { queued++ }).OnUpdate(tc.old, tc.new)
			if diff := cmp.Diff(tc.want, queued); diff != "" {
				t.Errorf("times queued (-want +got):\n%s", diff)
			}
		})
	}
}
