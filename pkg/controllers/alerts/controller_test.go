package alerts

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/healthinsights"
	"github.com/update-insights/update-insights-operator/pkg/controllers/internal/insightwrite"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/tracker"
)

var started = time.Date(2024, 8, 2, 9, 0, 0, 0, time.UTC)

// fakeSource answers with alerts or err, and counts the reads.
type fakeSource struct {
	alerts []alerts.Alert
	err    error
	reads  int
}

func (s *fakeSource) Alerts(context.Context) ([]alerts.Alert, error) {
	s.reads++
	return s.alerts, s.err
}

// harness runs the controller's sync against a fake clientset, with indexers
// standing in for the informers' caches.
type harness struct {
	t          *testing.T
	controller *Controller
	client     *fake.Clientset
	clock      *clocktesting.FakeClock
	tracker    *tracker.Tracker
	source     *fakeSource
	cvs, pools cache.Indexer
	insights   cache.Indexer
	health     cache.Indexer
}

func newHarness(t *testing.T) *harness {
	h := &harness{
		t:        t,
		clock:    clocktesting.NewFakeClock(started.Add(10 * time.Minute)),
		source:   &fakeSource{},
		cvs:      cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		pools:    cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		insights: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		health:   cache.NewIndexer(cache.MetaNamespaceKeyFunc, healthinsights.Indexers()),
	}
	h.client = fake.NewSimpleClientset(&insightsv1alpha1.ClusterVersionProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: "version", UID: types.UID("cvpi-uid")}})
	h.tracker = tracker.New(h.clock, func(string, time.Duration, error) {})
	c := h.client.InsightsV1alpha1()
	h.controller = &Controller{
		clusterVersions: configlisters.NewClusterVersionLister(h.cvs),
		pools:           insightslisters.NewMachineConfigPoolProgressInsightLister(h.pools),
		insights:        insightslisters.NewClusterVersionProgressInsightLister(h.insights),
		owners:          insightwrite.ClusterVersionProgressInsights(c),
		health:          healthinsights.NewSyncer(healthInsightManager, c, h.health, h.clock),
		source:          h.source,
		tracker:         h.tracker,
		interval:        DefaultInterval,
		clock:           h.clock,
	}
	h.refreshCaches()
	return h
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// refreshCaches makes the insight caches hold what the fake server holds,
// as informers would after their watches deliver.
func (h *harness) refreshCaches() {
	ctx := context.Background()
	cvpis, err := h.client.InsightsV1alpha1().ClusterVersionProgressInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	uhis, err := h.client.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{})
	must(h.t, err)
	controllertest.Replace(h.t, h.insights, cvpis.Items)
	controllertest.Replace(h.t, h.health, uhis.Items)
}

// setCV makes the ClusterVersion progressing (or not) in an update that
// started at since.
func (h *harness) setCV(progressing bool, since time.Time) {
	status := configv1.ConditionFalse
	if progressing {
		status = configv1.ConditionTrue
	}
	must(h.t, h.cvs.Add(&configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: configv1.ClusterVersionStatus{
			Conditions: []configv1.ClusterOperatorStatusCondition{{Type: configv1.OperatorProgressing, Status: status, LastTransitionTime: metav1.NewTime(since)}},
			History:    []configv1.UpdateHistory{{State: configv1.PartialUpdate, Version: "4.16.0", StartedTime: metav1.NewTime(since)}},
		},
	}))
}

// sync runs one sync through the tracker, as in the operator, and returns
// when it asked to run again.
func (h *harness) sync() time.Duration {
	h.t.Helper()
	syncCtx := controllertest.NewSyncContext("version")
	defer syncCtx.Q.ShutDown()
	must(h.t, h.tracker.Sync(Name, h.controller.sync)(context.Background(), syncCtx))
	h.refreshCaches()
	return syncCtx.Q.AddedAfter["version"]
}

// reported lists the alert insights' summaries.
func (h *harness) reported() []string {
	var out []string
	for _, obj := range h.health.List() {
		i := obj.(*insightsv1alpha1.UpdateHealthInsight)
		if i.Labels[healthinsights.ManagerLabel] != healthInsightManager || len(i.OwnerReferences) != 1 || i.OwnerReferences[0].UID != "cvpi-uid" {
			h.t.Errorf("insight %s is not labelled as this controller's and owned by the ClusterVersion's insight: %v %v", i.Name, i.Labels, i.OwnerReferences)
		}
		out = append(out, i.Status.Impact.Summary)
	}
	sort.Strings(out)
	return out
}

func firing(name string, activeAt time.Time) alerts.Alert {
	return alerts.Alert{
		Labels:      map[string]string{"alertname": name, "severity": "critical", "namespace": "openshift-monitoring"},
		Annotations: map[string]string{},
		State:       alerts.StateFiring,
		ActiveAt:    activeAt,
	}
}

func TestControllerReportsFiringAlertsWhileUpdating(t *testing.T) {
	h := newHarness(t)
	h.setCV(true, started)
	h.source.alerts = []alerts.Alert{firing("KubePodNotReady", started.Add(time.Minute)), firing("Old", started.Add(-time.Hour))}

	if again := h.sync(); again != DefaultInterval {
		t.Errorf("asked to run again in %s, want %s", again, DefaultInterval)
	}
	if diff := cmp.Diff([]string{"Alert is firing: KubePodNotReady"}, h.reported()); diff != "" {
		t.Errorf("insights (-want +got):\n%s", diff)
	}

	// Events before the interval has passed read nothing.
	h.clock.Step(10 * time.Second)
	if again := h.sync(); again != 20*time.Second {
		t.Errorf("asked to run again in %s, want 20s", again)
	}
	if h.source.reads != 1 {
		t.Errorf("%d reads, want 1 within the interval", h.source.reads)
	}

	// The alert stops, another fires.
	h.clock.Step(20 * time.Second)
	h.source.alerts = []alerts.Alert{firing("PodDisruptionBudgetAtLimit", started.Add(-time.Hour))}
	h.sync()
	if diff := cmp.Diff([]string{"Alert is firing: PodDisruptionBudgetAtLimit"}, h.reported()); diff != "" {
		t.Errorf("after the alerts changed, insights (-want +got):\n%s", diff)
	}

	// The update ends: the alerts' insights go, and no more reads.
	h.setCV(false, started)
	h.clock.Step(time.Hour)
	if again := h.sync(); again != 0 {
		t.Errorf("asked to run again in %s without an update", again)
	}
	if got := h.reported(); len(got) != 0 {
		t.Errorf("insights %v after the update, want none", got)
	}
	if h.source.reads != 2 {
		t.Errorf("%d reads, want 2: none without an update", h.source.reads)
	}
}

// A new update is read for at once, whatever the interval.
func TestControllerReadsWhenAnUpdateStarts(t *testing.T) {
	h := newHarness(t)
	h.setCV(true, started)
	h.sync()
	next := started.Add(15 * time.Minute)
	h.setCV(true, next)
	h.clock.Step(time.Second)
	h.source.alerts = []alerts.Alert{firing("KubePodNotReady", next.Add(-time.Minute))}
	h.sync()
	if h.source.reads != 2 {
		t.Errorf("%d reads, want 2: one for each update", h.source.reads)
	}
	if got := h.reported(); len(got) != 0 {
		t.Errorf("insights %v, want none: the alert fired before this update", got)
	}
}

// An unreachable source changes no insight, is a problem of its own kind for
// the operator, and passes when a read succeeds.
func TestControllerKeepsInsightsWhileTheSourceFails(t *testing.T) {
	h := newHarness(t)
	h.setCV(true, started)
	h.source.alerts = []alerts.Alert{firing("KubePodNotReady", started.Add(time.Minute))}
	h.sync()

	h.source.err = errors.New("dial tcp 10.0.0.9:9091: connect: connection refused")
	h.clock.Step(DefaultInterval)
	if again := h.sync(); again != DefaultInterval {
		t.Errorf("after a failed read, asked to run again in %s, want %s", again, DefaultInterval)
	}
	if diff := cmp.Diff([]string{"Alert is firing: KubePodNotReady"}, h.reported()); diff != "" {
		t.Errorf("after a failed read, insights (-want +got):\n%s", diff)
	}
	problems := h.tracker.Problems()
	if len(problems) != 1 || problems[0].Kind != tracker.SourceUnreachable || problems[0].Detail != h.source.err.Error() {
		t.Errorf("problems %+v, want the source unreachable", problems)
	}

	h.source.err, h.source.alerts = nil, nil
	h.clock.Step(DefaultInterval)
	h.sync()
	if got := h.reported(); len(got) != 0 {
		t.Errorf("insights %v once read again, want none", got)
	}
	if problems := h.tracker.Problems(); len(problems) != 0 {
		t.Errorf("problems %+v once read again, want none", problems)
	}
}

// A restarted operator that cannot read the alerts leaves the insights of
// the previous process alone.
func TestControllerDropsNothingBeforeItsFirstRead(t *testing.T) {
	h := newHarness(t)
	h.setCV(true, started)
	h.source.alerts = []alerts.Alert{firing("KubePodNotReady", started.Add(time.Minute))}
	h.sync()

	restarted := *h.controller
	restarted.readFor, restarted.nextRead, restarted.desired, restarted.known = time.Time{}, time.Time{}, nil, false
	h.controller = &restarted
	h.source.err = errors.New("no route to host")
	h.sync()
	if diff := cmp.Diff([]string{"Alert is firing: KubePodNotReady"}, h.reported()); diff != "" {
		t.Errorf("insights (-want +got):\n%s", diff)
	}
}

// The alerts of workers still updating after the control plane matter too.
func TestControllerReadsWhileWorkersUpdate(t *testing.T) {
	h := newHarness(t)
	h.setCV(false, started)
	must(t, h.pools.Add(&insightsv1alpha1.MachineConfigPoolProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "worker"},
		Status: insightsv1alpha1.MachineConfigPoolProgressInsightStatus{
			ScopeType: insightsv1alpha1.ScopeTypeWorkerPool, CompletionPercent: 50,
			Summaries: []insightsv1alpha1.NodeSummary{{Type: insightsv1alpha1.NodesTotal, Count: 4}},
		},
	}))
	h.source.alerts = []alerts.Alert{firing("PodDisruptionBudgetAtLimit", started.Add(-time.Hour))}
	h.sync()
	if diff := cmp.Diff([]string{"Alert is firing: PodDisruptionBudgetAtLimit"}, h.reported()); diff != "" {
		t.Errorf("insights (-want +got):\n%s", diff)
	}
}

// answer decodes an /api/v1/alerts answer, as the source does.
func answer(t *testing.T, alertsJSON ...string) []alerts.Alert {
	t.Helper()
	firing, err := alerts.Decode(strings.NewReader(`{"status":"success","data":{"alerts":[` + strings.Join(alertsJSON, ",") + `]}}`))
	must(t, err)
	return firing
}

// names lists the alert insights' names by their summaries.
func (h *harness) names() map[string]string {
	out := map[string]string{}
	for _, obj := range h.health.List() {
		i := obj.(*insightsv1alpha1.UpdateHealthInsight)
		out[i.Status.Impact.Summary] = i.Name
	}
	return out
}

// Each firing alert instance is an insight of its own, as oc lists each:
// budgets' alerts that differ in a label, and the two rules of the recorded
// test/testdata/oc-examples/4.15.0-ec2-unavailable-mco-20m-alerts.json that
// give the same labels, one without runbook and description.
func TestControllerReportsEachAlertInstance(t *testing.T) {
	const (
		withRunbook = `{"labels":{"alertname":"PodDisruptionBudgetAtLimit","controller":"alertmanager","namespace":"openshift-monitoring","severity":"warning"},` +
			`"annotations":{"description":"PodDisruptionBudgetAtLimit in namespace <>","runbook_url":"https://<mock_data>/PDB.md","summary":"PodDisruptionBudgetAtLimit for pods <>"},` +
			`"state":"firing","activeAt":"2024-08-01T15:39:33.014999722Z","value":"1e+00"}`
		bare = `{"labels":{"alertname":"PodDisruptionBudgetAtLimit","controller":"alertmanager","namespace":"openshift-monitoring","severity":"warning"},` +
			`"annotations":{"summary":"PodDisruptionBudgetAtLimit for some reason does not have runbook and description"},` +
			`"state":"firing","activeAt":"2024-08-01T15:39:33.014999722Z","value":"1e+00"}`
	)
	budget := func(name string) string {
		return `{"labels":{"alertname":"PodDisruptionBudgetAtLimit","namespace":"openshift-ingress","poddisruptionbudget":"` + name + `","severity":"warning"},` +
			`"annotations":{"summary":"The pod disruption budget is preventing further disruption to pods of ` + name + `."},` +
			`"state":"firing","activeAt":"2024-08-02T09:03:00.5Z","value":"1e+00"}`
	}
	tests := []struct {
		name   string
		alerts []string
		want   []string
	}{
		{
			name:   "two budgets in one namespace",
			alerts: []string{budget("router-default"), budget("router-internal")},
			want: []string{
				"Alert is firing: The pod disruption budget is preventing further disruption to pods of router-default.",
				"Alert is firing: The pod disruption budget is preventing further disruption to pods of router-internal.",
			},
		},
		{
			name:   "two rules giving the same labels",
			alerts: []string{withRunbook, bare},
			want: []string{
				"Alert is firing: PodDisruptionBudgetAtLimit for pods <>",
				"Alert is firing: PodDisruptionBudgetAtLimit for some reason does not have runbook and description",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.setCV(true, started)
			h.source.alerts = answer(t, tt.alerts...)
			h.sync()
			if diff := cmp.Diff(tt.want, h.reported()); diff != "" {
				t.Errorf("insights (-want +got):\n%s", diff)
			}
		})
	}
}

// An alert whose labels change is another alert instance: a new insight
// replaces the old one.
func TestControllerReplacesAnAlertWhoseLabelsChange(t *testing.T) {
	const summary = "Alert is firing: PodDisruptionBudgetAtLimit"
	h := newHarness(t)
	h.setCV(true, started)
	h.source.alerts = answer(t, `{"labels":{"alertname":"PodDisruptionBudgetAtLimit","namespace":"openshift-ingress","poddisruptionbudget":"router-default","severity":"warning"},`+
		`"annotations":{},"state":"firing","activeAt":"2024-08-02T09:03:00Z","value":"1e+00"}`)
	h.sync()
	before := h.names()[summary]

	h.clock.Step(DefaultInterval)
	h.source.alerts = answer(t, `{"labels":{"alertname":"PodDisruptionBudgetAtLimit","namespace":"openshift-ingress","poddisruptionbudget":"router-default","severity":"critical"},`+
		`"annotations":{},"state":"firing","activeAt":"2024-08-02T09:04:00Z","value":"1e+00"}`)
	h.sync()
	after := h.names()
	if len(after) != 1 || after[summary] == "" || after[summary] == before {
		t.Errorf("insights %v after the labels changed, want one insight in place of %s", after, before)
	}
}
