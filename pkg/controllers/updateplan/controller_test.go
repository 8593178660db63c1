package updateplan

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	apiserverv1 "github.com/openshift/api/apiserver/v1"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	apiserverlisters "github.com/openshift/client-go/apiserver/listers/apiserver/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	machineconfigurationlisters "github.com/openshift/client-go/machineconfiguration/listers/machineconfiguration/v1"
	operatorlisters "github.com/openshift/client-go/operator/listers/operator/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/names"
	olmpkg "github.com/update-insights/update-insights-operator/pkg/olm"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// fakeAsker answers as the test says, once the test lets it.
type fakeAsker struct {
	mu      sync.Mutex
	answers map[string]updatestatus.Answer
	asked   []string
	release chan struct{}
}

func (a *fakeAsker) AskPlan(_ context.Context, informer *insightsv1alpha1.UpdateInformer, _ *configv1.ClusterVersion, target string) updatestatus.Answer {
	a.mu.Lock()
	a.asked = append(a.asked, informer.Name+"@"+target)
	a.mu.Unlock()
	<-a.release
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.answers[informer.Name]
}

func (a *fakeAsker) calls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.asked)
}

// waitCalls waits until the informers were asked n times in all, and
// returns the calls. It returns as soon as they were; its limit only has
// to hold on a busy machine.
func (a *fakeAsker) waitCalls(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for len(a.calls()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("informers asked %v, want %d calls", a.calls(), n)
		}
		time.Sleep(time.Millisecond)
	}
	return a.calls()
}

// noAlerts is an alerts address where none fires.
type noAlerts struct{}

func (noAlerts) Alerts(context.Context) ([]alerts.Alert, error) { return []alerts.Alert{}, nil }

// harness runs the controller's sync against fake clientsets, with
// indexers standing in for the informers' caches.
type harness struct {
	t                                            *testing.T
	controller                                   *Controller
	client                                       *fake.Clientset
	kube                                         *kubefake.Clientset
	asker                                        *fakeAsker
	clock                                        *clocktesting.FakeClock
	queue                                        controllertest.SyncContext
	plans, informers, cvs, nodes, pools, budgets cache.Indexer
	// configMaps, apiRequestCounts and cloudCredentials hold what the
	// gates of a minor update are checked against: an empty admin-gates
	// and admin-acks, and a CloudCredential in the default mode, as a
	// cluster has them.
	configMaps, apiRequestCounts, cloudCredentials cache.Indexer
}

func newHarness(t *testing.T) *harness {
	indexer := func() cache.Indexer { return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}) }
	h := &harness{
		t: t, client: fake.NewSimpleClientset(), kube: kubefake.NewSimpleClientset(),
		asker: &fakeAsker{answers: map[string]updatestatus.Answer{}, release: make(chan struct{})},
		clock: clocktesting.NewFakeClock(now), queue: controllertest.NewSyncContext(""),
		plans: indexer(), informers: indexer(), cvs: indexer(), nodes: indexer(), pools: indexer(), budgets: indexer(),
		configMaps: indexer(), apiRequestCounts: indexer(), cloudCredentials: indexer(),
	}
	t.Cleanup(h.queue.Q.ShutDown)
	// Informers still asked answer when the test ends: no goroutine of its
	// outlives it.
	t.Cleanup(func() { close(h.asker.release) })
	h.controller = &Controller{
		plans:            insightslisters.NewUpdatePlanLister(h.plans),
		informers:        insightslisters.NewUpdateInformerLister(h.informers),
		clusterVersions:  configlisters.NewClusterVersionLister(h.cvs),
		clusterOperators: configlisters.NewClusterOperatorLister(indexer()),
		nodes:            corelisters.NewNodeLister(h.nodes),
		pools:            machineconfigurationlisters.NewMachineConfigPoolLister(h.pools),
		budgets:          policylisters.NewPodDisruptionBudgetLister(h.budgets),
		adminGates:       corelisters.NewConfigMapLister(h.configMaps).ConfigMaps(names.ConfigManagedNamespace),
		adminAcks:        corelisters.NewConfigMapLister(h.configMaps).ConfigMaps(names.ConfigNamespace),
		apiRequestCounts: &Optional[apiserverlisters.APIRequestCountLister]{lister: apiserverlisters.NewAPIRequestCountLister(h.apiRequestCounts)},
		cloudCredentials: &Optional[operatorlisters.CloudCredentialLister]{lister: operatorlisters.NewCloudCredentialLister(h.cloudCredentials)},
		pods:             h.kube.CoreV1(),
		events:           h.kube.CoreV1(),
		alerts:           newAlertsCache(noAlerts{}, h.clock),
		asker:            h.asker,
		client:           h.client.InsightsV1alpha1(),
		ttl:              DefaultTTL,
		clock:            h.clock,
		ctx:              context.Background(),
		queue:            h.queue.Q,
		rounds:           map[string]*round{},
	}
	h.add(h.cvs, &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: configv1.ClusterVersionStatus{
			Desired:          configv1.Release{Version: "4.16.3"},
			History:          []configv1.UpdateHistory{{Version: "4.16.3", State: configv1.CompletedUpdate}},
			Conditions:       []configv1.ClusterOperatorStatusCondition{{Type: "Failing", Status: configv1.ConditionFalse}},
			AvailableUpdates: []configv1.Release{{Version: "4.17.2"}},
		},
	})
	h.add(h.configMaps, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: names.ConfigManagedNamespace, Name: names.AdminGates}})
	h.add(h.configMaps, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: names.ConfigNamespace, Name: names.AdminAcks}})
	h.add(h.cloudCredentials, &operatorv1.CloudCredential{ObjectMeta: metav1.ObjectMeta{Name: names.CloudCredential}})
	h.add(h.pools, &machineconfigurationv1.MachineConfigPool{ObjectMeta: metav1.ObjectMeta{Name: "worker"},
		Spec: machineconfigurationv1.MachineConfigPoolSpec{NodeSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/worker": ""}}}})
	h.add(h.nodes, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "worker-0", Labels: map[string]string{"node-role.kubernetes.io/worker": ""}},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}}})
	return h
}

func (h *harness) add(indexer cache.Indexer, obj any) {
	h.t.Helper()
	if err := indexer.Update(obj); err != nil {
		h.t.Fatal(err)
	}
}

// createPlan creates the plan for target, as the pre-checks command does.
func (h *harness) createPlan(target, request string) {
	h.t.Helper()
	plan := &insightsv1alpha1.UpdatePlan{
		ObjectMeta: metav1.ObjectMeta{Name: target, UID: "uid-4.17.2", CreationTimestamp: metav1.NewTime(now)},
		Spec:       insightsv1alpha1.UpdatePlanSpec{TargetRelease: target, EvaluationRequest: request},
	}
	created, err := h.client.InsightsV1alpha1().UpdatePlans().Create(context.Background(), plan, metav1.CreateOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	h.add(h.plans, created)
}

// planInformer is an informer that discovery says handles plans.
func (h *harness) planInformer(name string, enabled bool) {
	h.add(h.informers, &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       insightsv1alpha1.UpdateInformerSpec{Enabled: ptr.To(enabled)},
		Status:     insightsv1alpha1.UpdateInformerStatus{Handlers: []insightsv1alpha1.InformerHandler{{Name: insightsv1alpha1.PlanHandler, TimeoutSeconds: 30}}},
	})
}

// sync syncs the plan and refreshes the plans' cache from the clientset.
func (h *harness) sync(name string) {
	h.t.Helper()
	sc := controllertest.SyncContext{Key: name, Q: h.queue.Q}
	if err := h.controller.sync(context.Background(), sc); err != nil {
		h.t.Fatal(err)
	}
	list, err := h.client.InsightsV1alpha1().UpdatePlans().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	controllertest.Replace(h.t, h.plans, list.Items)
}

// answered lets the informers answer, and waits for their answers to queue
// the plan (as waitCalls waits).
func (h *harness) answered(informers int) {
	h.t.Helper()
	for range informers {
		h.asker.release <- struct{}{}
	}
	deadline := time.Now().Add(time.Minute)
	for h.queue.Q.Len() < informers {
		if time.Now().After(deadline) {
			h.t.Fatalf("%d answers did not queue the plan", informers)
		}
		time.Sleep(time.Millisecond)
	}
	h.queue.Drain()
}

func (h *harness) plan(name string) *insightsv1alpha1.UpdatePlan {
	h.t.Helper()
	p, err := h.client.InsightsV1alpha1().UpdatePlans().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

// view is what a test checks of a plan: its findings' identities (with
// stale ones marked) and its conditions' reasons.
type view struct {
	Findings   []string
	Conditions map[string]string
}

func viewOf(p *insightsv1alpha1.UpdatePlan) view {
	v := view{Conditions: map[string]string{}}
	add := func(informers []insightsv1alpha1.InformerPlanInsights) {
		for _, i := range informers {
			for _, f := range i.Insights {
				id := f.Identity
				if i.Stale {
					id += " (stale)"
				}
				v.Findings = append(v.Findings, id)
			}
		}
	}
	add(p.Status.ControlPlane.Informers)
	for _, pool := range p.Status.WorkerPools {
		add(pool.Informers)
	}
	for _, c := range p.Status.Conditions {
		v.Conditions[c.Type] = string(c.Status) + "/" + c.Reason
	}
	return v
}

// answeredHarness has plan 4.17.2, for request r1, answered by informer
// mco with finding drain.
func answeredHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.createPlan("4.17.2", "r1")
	h.planInformer("mco", true)
	h.asker.answers["mco"] = mcoAnswer("drain")
	h.sync("4.17.2")
	h.answered(1)
	h.sync("4.17.2")
	return h
}

func mcoAnswer(uid string) updatestatus.Answer {
	return updatestatus.Answer{Informer: "mco", Insights: []insightsv1alpha1.UpdateInsight{{
		UID:    uid,
		Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeWorkerPool, Resources: []insightsv1alpha1.InsightResource{{Kind: "Node", Name: "worker-0"}}},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel, Summary: "worker-0 will drain slowly"},
	}}}
}

const durationID = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/duration"

// In a bubble (testing/synctest), so that the test can wait for the
// goroutines asking informers to be idle: an informer not asked by then is
// not going to be.
func TestAPlanWaitsForItsInformersThenHoldsTheirFindings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t)
		h.createPlan("4.17.2", "r1")
		h.planInformer("mco", true)
		h.planInformer("disabled", false)
		h.asker.answers["mco"] = mcoAnswer("drain")

		h.sync("4.17.2")
		want := view{Findings: []string{durationID}, Conditions: map[string]string{
			updateplan.ConditionAnswered: "False/" + updateplan.ReasonWaitingForInformers,
			updateplan.ConditionAccepted: "True/" + updateplan.ReasonNothingToAccept,
		}}
		if diff := cmp.Diff(want, viewOf(h.plan("4.17.2"))); diff != "" {
			t.Errorf("before the informer answered (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"mco@4.17.2"}, h.asker.waitCalls(t, 1)); diff != "" {
			t.Errorf("informers asked (-want +got):\n%s", diff)
		}

		h.answered(1)
		h.sync("4.17.2")
		want = view{Findings: []string{durationID, "mco/WorkerPool/Node/worker-0/drain"}, Conditions: map[string]string{
			updateplan.ConditionAnswered: "True/" + updateplan.ReasonAllAnswered,
			updateplan.ConditionAccepted: "False/" + updateplan.ReasonNotAccepted,
		}}
		got := h.plan("4.17.2")
		if diff := cmp.Diff(want, viewOf(got)); diff != "" {
			t.Errorf("after it answered (-want +got):\n%s", diff)
		}
		if got.Status.ObservedEvaluationRequest != "r1" || got.Status.EvaluatedAt == nil || !got.Status.EvaluatedAt.Time.Equal(now) {
			t.Errorf("observed %q at %v, want r1 at %v", got.Status.ObservedEvaluationRequest, got.Status.EvaluatedAt, now)
		}
		if d, ok := h.queue.Q.AddedAfter["4.17.2"]; !ok || d != InformerRefresh {
			t.Errorf("the plan is queued again in %v (queued: %t), want %v for the next round", d, ok, InformerRefresh)
		}

		// Nothing changed: nothing is written, and no one is asked again, as
		// the asking goroutines show once idle.
		h.client.ClearActions()
		h.sync("4.17.2")
		synctest.Wait()
		if writes := controllertest.Writes(h.client.Actions()); len(writes) != 0 {
			t.Errorf("a sync that changed nothing wrote %v", writes)
		}
		if len(h.asker.calls()) != 1 {
			t.Errorf("informers asked %v, want once", h.asker.calls())
		}
	})
}

func TestAFreshEvaluationAsksAgainAndWaits(t *testing.T) {
	h := answeredHarness(t)

	p := h.plan("4.17.2")
	p.Spec.EvaluationRequest = "r2"
	h.add(h.plans, p)
	h.sync("4.17.2")
	if got := viewOf(h.plan("4.17.2")); got.Conditions[updateplan.ConditionAnswered] != "False/"+updateplan.ReasonWaitingForInformers || slices.Contains(got.Findings, "mco/WorkerPool/Node/worker-0/drain") {
		t.Errorf("after a fresh evaluation was asked: %+v, want waiting without the old findings", got)
	}
	h.asker.answers["mco"] = mcoAnswer("drain-again")
	h.answered(1)
	h.sync("4.17.2")
	got := h.plan("4.17.2")
	if !slices.Contains(viewOf(got).Findings, "mco/WorkerPool/Node/worker-0/drain-again") || got.Status.ObservedEvaluationRequest != "r2" {
		t.Errorf("after the fresh evaluation: %+v observing %q, want the new finding, observing r2", viewOf(got), got.Status.ObservedEvaluationRequest)
	}
}

// An informer that cannot be heard for a fresh evaluation keeps the
// findings it gave the former one, stale, beside the operator's finding
// that it did not answer; once it answers, its new findings replace them.
func TestAFreshEvaluationKeepsAnUnheardInformersFindingsStale(t *testing.T) {
	h := answeredHarness(t)

	p := h.plan("4.17.2")
	p.Spec.EvaluationRequest = "r2"
	h.add(h.plans, p)
	h.asker.answers["mco"] = updatestatus.Answer{Informer: "mco", Offline: "Failure", Problem: "the informer answered Failure"}
	h.sync("4.17.2")
	h.answered(1)
	h.sync("4.17.2")
	want := view{Findings: []string{mcoUnansweredID, durationID, "mco/WorkerPool/Node/worker-0/drain (stale)"}, Conditions: map[string]string{
		updateplan.ConditionAnswered: "False/" + updateplan.ReasonInformersOffline,
		updateplan.ConditionAccepted: "False/" + updateplan.ReasonNotAccepted,
	}}
	if diff := cmp.Diff(want, viewOf(h.plan("4.17.2"))); diff != "" {
		t.Errorf("after the informer could not be heard for r2 (-want +got):\n%s", diff)
	}
	summary := ""
	for _, f := range h.plan("4.17.2").Status.ControlPlane.Informers {
		for _, i := range f.Insights {
			if i.Identity == mcoUnansweredID {
				summary = i.Impact.Summary
			}
		}
	}
	if !strings.Contains(summary, "its findings are from its last answer") {
		t.Errorf("the finding about mco says %q, want that its findings are from its last answer", summary)
	}

	p = h.plan("4.17.2")
	p.Spec.EvaluationRequest = "r3"
	h.add(h.plans, p)
	h.asker.answers["mco"] = mcoAnswer("drain-again")
	h.sync("4.17.2")
	h.answered(1)
	h.sync("4.17.2")
	if got := viewOf(h.plan("4.17.2")).Findings; !slices.Equal(got, []string{durationID, "mco/WorkerPool/Node/worker-0/drain-again"}) {
		t.Errorf("after mco answered r3: %v, want its new finding only", got)
	}
}

// A periodic round keeps the findings while the informer is asked again;
// an informer that cannot be heard keeps its last ones, stale.
func TestARefreshKeepsFindingsAndAnOfflineInformersGoStale(t *testing.T) {
	h := answeredHarness(t)

	h.clock.Step(InformerRefresh)
	h.asker.answers["mco"] = updatestatus.Answer{Informer: "mco", Offline: "Unreachable", Problem: "connection refused"}
	h.sync("4.17.2")
	if got := viewOf(h.plan("4.17.2")); !slices.Contains(got.Findings, "mco/WorkerPool/Node/worker-0/drain") {
		t.Errorf("while asked again: %+v, want the last findings kept", got)
	}
	h.answered(1)
	h.sync("4.17.2")
	want := view{Findings: []string{mcoUnansweredID, durationID, "mco/WorkerPool/Node/worker-0/drain (stale)"}, Conditions: map[string]string{
		updateplan.ConditionAnswered: "False/" + updateplan.ReasonInformersOffline,
		updateplan.ConditionAccepted: "False/" + updateplan.ReasonNotAccepted,
	}}
	if diff := cmp.Diff(want, viewOf(h.plan("4.17.2"))); diff != "" {
		t.Errorf("after the informer could not be heard (-want +got):\n%s", diff)
	}
	if calls := h.asker.waitCalls(t, 2); len(calls) != 2 {
		t.Errorf("informer asked %v, want twice", calls)
	}
}

// mcoUnansweredID is the operator's finding that mco did not answer.
const mcoUnansweredID = "update-insights-operator/ControlPlane/UpdateInformer.openshift.muller.dev/mco/informer/mco"

// A restarted operator resumes a round from the plan's status: an informer
// that did not answer stays not heard, and the finding about it, accepted,
// stays accepted.
func TestAnUnansweredInformerStaysUnansweredAcrossARestart(t *testing.T) {
	h := newHarness(t)
	h.planInformer("mco", true)
	h.asker.answers["mco"] = updatestatus.Answer{Informer: "mco", Offline: "Unreachable"}
	h.createPlan("4.17.2", "r1")
	h.sync("4.17.2")
	h.answered(1)
	h.sync("4.17.2")
	p := h.plan("4.17.2").DeepCopy()
	p.Spec.AcceptedInsights = []insightsv1alpha1.AcceptedInsight{{UpdateInformer: updatestatus.BuiltinInformer, UID: mcoUnansweredID, Accepted: true}}
	if _, err := h.client.InsightsV1alpha1().UpdatePlans().Update(context.Background(), p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.add(h.plans, p)

	h.controller.rounds = map[string]*round{}
	h.sync("4.17.2")
	want := view{Findings: []string{mcoUnansweredID, durationID}, Conditions: map[string]string{
		updateplan.ConditionAnswered: "False/" + updateplan.ReasonInformersOffline,
		updateplan.ConditionAccepted: "True/" + updateplan.ReasonAllAccepted,
	}}
	if diff := cmp.Diff(want, viewOf(h.plan("4.17.2"))); diff != "" {
		t.Errorf("after a restart (-want +got):\n%s", diff)
	}
}

// An operator with no alerts address says that the plan's alert checks did
// not run, a finding to accept as oc's recommend makes a failed read of the
// alerts an issue to accept: the update does not start on a check that was
// not made until someone looked by hand.
func TestWithoutAnAlertsAddressThePlanSaysTheAlertChecksDidNotRun(t *testing.T) {
	h := newHarness(t)
	h.controller.alerts = newAlertsCache(nil, h.clock)
	h.createPlan("4.17.2", "")
	h.sync("4.17.2")
	var got []string
	for _, i := range h.plan("4.17.2").Status.ControlPlane.Informers {
		for _, f := range i.Insights {
			if f.UID == "alerts-unchecked" {
				got = append(got, string(f.Impact.Level)+": "+f.Impact.Summary)
			}
		}
	}
	want := []string{"warning: The alert checks did not run: " + errNoAlertsAddress.Error()}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("alerts finding (-want +got):\n%s", diff)
	}
	if accepted := viewOf(h.plan("4.17.2")).Conditions[updateplan.ConditionAccepted]; accepted != "False/"+updateplan.ReasonNotAccepted {
		t.Errorf("Accepted %s, want False/%s", accepted, updateplan.ReasonNotAccepted)
	}
}

func TestADisabledInformersFindingsLeave(t *testing.T) {
	h := answeredHarness(t)

	h.planInformer("mco", false)
	h.sync("4.17.2")
	want := view{Findings: []string{durationID}, Conditions: map[string]string{
		updateplan.ConditionAnswered: "True/" + updateplan.ReasonAllAnswered,
		updateplan.ConditionAccepted: "True/" + updateplan.ReasonNothingToAccept,
	}}
	if diff := cmp.Diff(want, viewOf(h.plan("4.17.2"))); diff != "" {
		t.Errorf("after the informer was disabled (-want +got):\n%s", diff)
	}
}

// A restarted operator resumes a plan from its status instead of asking
// every informer again and saying it waits meanwhile. In a bubble, as
// TestAPlanWaitsForItsInformersThenHoldsTheirFindings.
func TestARestartResumesFromThePlansStatus(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := answeredHarness(t)
		before := h.plan("4.17.2")

		h.controller.rounds = map[string]*round{}
		h.clock.Step(time.Minute)
		h.client.ClearActions()
		h.sync("4.17.2")
		if writes := controllertest.Writes(h.client.Actions()); len(writes) != 0 {
			t.Errorf("a restarted controller wrote %v, want nothing: the status answered the evaluation", writes)
		}
		// The asking would happen in a goroutine: once every goroutine is
		// idle, it would have been.
		synctest.Wait()
		if calls := h.asker.calls(); len(calls) != 1 {
			t.Errorf("informer asked %v, want once: before the restart only", calls)
		}
		if diff := cmp.Diff(before.Status, h.plan("4.17.2").Status); diff != "" {
			t.Errorf("status changed across the restart (-before +after):\n%s", diff)
		}
	})
}

// Only the pods of budgets that may refuse an eviction on their own are
// read: one that allows no disruption, or whose status the disruption
// controller has not computed for its spec.
func TestThePodsOfBlockingBudgetsAreRead(t *testing.T) {
	h := newHarness(t)
	h.createPlan("4.17.2", "r1")
	for _, b := range []struct {
		name       string
		allowed    int32
		generation int64
	}{{"blocking", 0, 0}, {"fine", 1, 0}, {"changed", 1, 1}} {
		h.add(h.budgets, &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: b.name, Generation: b.generation},
			Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": b.name}}},
			Status:     policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: b.allowed},
		})
	}
	if _, err := h.kube.CoreV1().Pods("app").Create(context.Background(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "db-0", Labels: map[string]string{"app": "blocking"}},
		Spec:       corev1.PodSpec{NodeName: "worker-0"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.kube.ClearActions()
	h.sync("4.17.2")
	var lists []string
	for _, a := range h.kube.Actions() {
		if a.GetVerb() == "list" {
			lists = append(lists, a.GetNamespace()+" "+a.(clienttesting.ListAction).GetListRestrictions().Labels.String())
		}
	}
	slices.Sort(lists)
	if diff := cmp.Diff([]string{"app app=blocking", "app app=changed"}, lists); diff != "" {
		t.Errorf("pod lists (-want +got):\n%s", diff)
	}
	if got := viewOf(h.plan("4.17.2")); !slices.Contains(got.Findings, "update-insights-operator/WorkerPool/Node/worker-0,PodDisruptionBudget.policy/app/blocking/pdb/app/blocking") {
		t.Errorf("findings %v lack the blocking budget", got.Findings)
	}
}

func TestPlansArePruned(t *testing.T) {
	evaluated := now.Add(-2 * time.Hour)
	completed := func(version string, at time.Time) *configv1.ClusterVersion {
		return &configv1.ClusterVersion{Status: configv1.ClusterVersionStatus{History: []configv1.UpdateHistory{
			{Version: version, State: configv1.CompletedUpdate, CompletionTime: &metav1.Time{Time: at}},
		}}}
	}
	updating := &configv1.ClusterVersion{Status: configv1.ClusterVersionStatus{History: []configv1.UpdateHistory{
		{Version: "4.17.2", State: configv1.PartialUpdate}, {Version: "4.16.3", State: configv1.CompletedUpdate, CompletionTime: &metav1.Time{Time: now.Add(-48 * time.Hour)}},
	}}}
	touched := func(ago time.Duration, subresource string) metav1.ManagedFieldsEntry {
		return metav1.ManagedFieldsEntry{Manager: "m", Time: &metav1.Time{Time: now.Add(-ago)}, Subresource: subresource}
	}
	answeredWith := func(reason string) []metav1.Condition {
		return []metav1.Condition{{Type: updateplan.ConditionAnswered, Status: metav1.ConditionTrue, Reason: reason}}
	}
	tests := []struct {
		name     string
		cv       *configv1.ClusterVersion
		target   string
		created  time.Duration
		fields   []metav1.ManagedFieldsEntry
		answered []metav1.Condition
		observed string
		oneOff   bool
		want     string
	}{
		{name: "a one-off check's plan, untouched for an hour, answered or not", cv: completed("4.16.3", now.Add(-time.Hour)), target: "4.17.9", created: time.Hour,
			oneOff: true, observed: "r0",
			want: "pre-checks made it for a one-off check of a release not offered, and no one touched it since 2026-11-22T09:00:00Z, over 1h0m0s ago"},
		{name: "a one-off check's plan, touched since", cv: completed("4.16.3", now.Add(-time.Hour)), target: "4.17.9", created: 2 * time.Hour,
			oneOff: true, fields: []metav1.ManagedFieldsEntry{touched(time.Minute, "")}},
		{name: "the cluster reached the target after the evaluation", cv: completed("4.17.2", now.Add(-time.Hour)), target: "4.17.2",
			want: "the cluster completed its update to 4.17.2 at 2026-11-22T09:00:00Z, at or past the plan's target, after the plan was evaluated"},
		{name: "the cluster passed the target after the evaluation", cv: completed("4.17.3", now.Add(-time.Hour)), target: "4.17.2",
			want: "the cluster completed its update to 4.17.3 at 2026-11-22T09:00:00Z, at or past the plan's target, after the plan was evaluated"},
		{name: "a plan for the release the cluster ran when it was evaluated", cv: completed("4.17.2", now.Add(-3*time.Hour)), target: "4.17.2"},
		{name: "a plan for an older release", cv: completed("4.17.2", now.Add(-3*time.Hour)), target: "4.16.1"},
		{name: "a completion the history does not date", cv: completed("4.17.2", time.Time{}), target: "4.17.2"},
		{name: "the cluster updates to the target", cv: updating, target: "4.17.2"},
		{name: "a target that is not a version", cv: completed("4.17.2", now.Add(-time.Hour)), target: "candidate"},
		{name: "untouched for the time to live", cv: completed("4.16.3", now.Add(-time.Hour)), target: "4.17.2", created: DefaultTTL,
			want: "no one touched it since 2026-10-23T10:00:00Z, over 720h0m0s ago"},
		{name: "only the controller wrote it since", cv: completed("4.16.3", now.Add(-time.Hour)), target: "4.17.2", created: DefaultTTL + time.Hour,
			fields: []metav1.ManagedFieldsEntry{touched(time.Hour, "status")}, want: "no one touched it since 2026-10-23T09:00:00Z, over 720h0m0s ago"},
		{name: "touched since", cv: completed("4.16.3", now.Add(-time.Hour)), target: "4.17.2", created: DefaultTTL + time.Hour,
			fields: []metav1.ManagedFieldsEntry{touched(DefaultTTL, ""), touched(time.Hour, "")}},
		{name: "no ClusterVersion", target: "4.17.2"},
		{name: "not answered: waiting for informers", cv: completed("4.17.2", now.Add(-time.Hour)), target: "4.17.2", created: DefaultTTL,
			answered: []metav1.Condition{{Type: updateplan.ConditionAnswered, Status: metav1.ConditionFalse, Reason: updateplan.ReasonWaitingForInformers}}},
		{name: "not answered: a newer request", cv: completed("4.17.2", now.Add(-time.Hour)), target: "4.17.2", created: DefaultTTL, observed: "r0"},
		{name: "answered with informers offline", cv: completed("4.17.2", now.Add(-time.Hour)), target: "4.17.2",
			answered: []metav1.Condition{{Type: updateplan.ConditionAnswered, Status: metav1.ConditionFalse, Reason: updateplan.ReasonInformersOffline}},
			want:     "the cluster completed its update to 4.17.2 at 2026-11-22T09:00:00Z, at or past the plan's target, after the plan was evaluated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.answered == nil {
				tt.answered = answeredWith(updateplan.ReasonAllAnswered)
			}
			if tt.observed == "" {
				tt.observed = "r1"
			}
			if tt.cv != nil && tt.cv.Status.History[0].CompletionTime != nil && tt.cv.Status.History[0].CompletionTime.IsZero() {
				tt.cv.Status.History[0].CompletionTime = nil
			}
			plan := &insightsv1alpha1.UpdatePlan{
				ObjectMeta: metav1.ObjectMeta{Name: tt.target, CreationTimestamp: metav1.NewTime(now.Add(-tt.created)), ManagedFields: tt.fields},
				Spec:       insightsv1alpha1.UpdatePlanSpec{TargetRelease: tt.target, EvaluationRequest: "r1"},
				Status: insightsv1alpha1.UpdatePlanStatus{
					EvaluatedAt: &metav1.Time{Time: evaluated}, ObservedEvaluationRequest: tt.observed, Conditions: tt.answered,
				},
			}
			if tt.oneOff {
				plan.Labels = map[string]string{insightsv1alpha1.OneOffCheckLabel: "true"}
			}
			if got := pruneReason(plan, tt.cv, now, DefaultTTL); got != tt.want {
				t.Errorf("prune reason %q, want %q", got, tt.want)
			}
		})
	}
}

// A plan for the release the cluster runs is answered, not deleted unread.
func TestAPlanForTheRunningReleaseIsAnswered(t *testing.T) {
	h := newHarness(t)
	h.createPlan("4.16.3", "r1")
	h.sync("4.16.3")
	h.sync("4.16.3")
	got := viewOf(h.plan("4.16.3"))
	if !slices.Contains(got.Findings, "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/already-at-target") ||
		got.Conditions[updateplan.ConditionAnswered] != "True/"+updateplan.ReasonAllAnswered {
		t.Errorf("plan %+v, want answered that the cluster runs 4.16.3", got)
	}
}

// A plan whose target the cluster reached after it was evaluated is
// deleted, and an Event on it says why, written before it goes.
func TestAPrunedPlanIsDeletedWithWhy(t *testing.T) {
	h := newHarness(t)
	h.createPlan("4.17.2", "r1")
	h.sync("4.17.2")
	uid := h.plan("4.17.2").UID

	h.clock.Step(time.Hour)
	completed := metav1.NewTime(h.clock.Now().Add(-time.Minute))
	h.add(h.cvs, &configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: configv1.ClusterVersionStatus{Desired: configv1.Release{Version: "4.17.2"},
			History: []configv1.UpdateHistory{{Version: "4.17.2", State: configv1.CompletedUpdate, CompletionTime: &completed}}},
	})
	h.kube.ClearActions()
	h.sync("4.17.2")
	if _, err := h.client.InsightsV1alpha1().UpdatePlans().Get(context.Background(), "4.17.2", metav1.GetOptions{}); err == nil {
		t.Fatal("the plan whose target the cluster reached was not deleted")
	}
	events, err := h.kube.CoreV1().Events(metav1.NamespaceDefault).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type seenEvent struct{ Kind, Name, UID, Reason, Message string }
	var got []seenEvent
	for _, e := range events.Items {
		got = append(got, seenEvent{e.InvolvedObject.Kind, e.InvolvedObject.Name, string(e.InvolvedObject.UID), e.Reason, e.Message})
	}
	want := []seenEvent{{"UpdatePlan", "4.17.2", string(uid), updateplan.ReasonPruned,
		"Deleted, as the cluster completed its update to 4.17.2 at 2026-11-22T10:59:00Z, at or past the plan's target, after the plan was evaluated"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// The gates of a minor update are checked against the admin gates and
// acknowledgements, the API requests and the CloudCredential.
func TestTheGatesOfAMinorUpdateAreChecked(t *testing.T) {
	h := newHarness(t)
	h.add(h.configMaps, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: names.ConfigManagedNamespace, Name: names.AdminGates},
		Data: map[string]string{"ack-4.16-kube-1.30-api-removals-in-4.17": "Kubernetes 1.30 removes APIs.", "ack-4.16-acked": "Acknowledged."}})
	h.add(h.configMaps, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: names.ConfigNamespace, Name: names.AdminAcks},
		Data: map[string]string{"ack-4.16-acked": "true"}})
	h.add(h.apiRequestCounts, &apiserverv1.APIRequestCount{ObjectMeta: metav1.ObjectMeta{Name: "flowschemas.v1beta3.flowcontrol.apiserver.k8s.io"},
		Status: apiserverv1.APIRequestCountStatus{RemovedInRelease: "1.30", Last24h: []apiserverv1.PerResourceAPIRequestLog{{RequestCount: 3, ByNode: []apiserverv1.PerNodeAPIRequestLog{{
			NodeName: "master-0", RequestCount: 3, ByUser: []apiserverv1.PerUserAPIRequestCount{{UserName: "alice", RequestCount: 3}},
		}}}}}})
	h.add(h.cloudCredentials, &operatorv1.CloudCredential{ObjectMeta: metav1.ObjectMeta{Name: names.CloudCredential},
		Spec: operatorv1.CloudCredentialSpec{CredentialsMode: operatorv1.CloudCredentialsModeManual}})
	h.createPlan("4.17.2", "r1")
	h.sync("4.17.2")
	want := []string{
		"update-insights-operator/ControlPlane/ConfigMap/openshift-config-managed/admin-gates/admin-gate/ack-4.16-kube-1.30-api-removals-in-4.17",
		"update-insights-operator/ControlPlane/CloudCredential.operator.openshift.io/cluster/cloud-credentials/upgradeable-to",
		"update-insights-operator/ControlPlane/APIRequestCount.apiserver.openshift.io/flowschemas.v1beta3.flowcontrol.apiserver.k8s.io/removed-api/flowschemas.v1beta3.flowcontrol.apiserver.k8s.io",
		durationID,
	}
	if diff := cmp.Diff(want, viewOf(h.plan("4.17.2")).Findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// An API the cluster does not serve is not read: the checks that need it
// say they could not run.
func TestAnAPINotServedIsSaidSo(t *testing.T) {
	h := newHarness(t)
	h.controller.apiRequestCounts.Off("the cluster does not serve apirequestcounts.apiserver.openshift.io/v1", true)
	h.controller.cloudCredentials.Off("the cluster does not serve cloudcredentials.operator.openshift.io/v1", true)
	h.createPlan("4.17.2", "r1")
	h.sync("4.17.2")
	want := []string{
		"update-insights-operator/ControlPlane/CloudCredential.operator.openshift.io/cluster/cloud-credentials-unchecked",
		"update-insights-operator/ControlPlane/ClusterOperator.config.openshift.io/kube-apiserver/removed-apis-unchecked",
		durationID,
	}
	if diff := cmp.Diff(want, viewOf(h.plan("4.17.2")).Findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// A plan is not evaluated while a served API's cache has not synced: it
// would say the API could not be read, and then take it back.
func TestAPlanWaitsForAServedAPIsCache(t *testing.T) {
	h := newHarness(t)
	synced := false
	h.controller.apiRequestCounts.synced = func() bool { return synced }
	h.createPlan("4.17.2", "r1")
	h.sync("4.17.2")
	if p := h.plan("4.17.2"); p.Status.EvaluatedAt != nil {
		t.Errorf("evaluated before the APIRequestCounts' cache synced: %+v", viewOf(p))
	}
	synced = true
	h.sync("4.17.2")
	if diff := cmp.Diff([]string{durationID}, viewOf(h.plan("4.17.2")).Findings); diff != "" {
		t.Errorf("findings once synced (-want +got):\n%s", diff)
	}
}

func TestStripAPIRequestCount(t *testing.T) {
	hour := apiserverv1.PerResourceAPIRequestLog{RequestCount: 3, ByNode: []apiserverv1.PerNodeAPIRequestLog{{
		NodeName: "master-0", RequestCount: 3, ByUser: []apiserverv1.PerUserAPIRequestCount{{UserName: "alice", UserAgent: "kubectl/1.30", RequestCount: 3,
			ByVerb: []apiserverv1.PerVerbAPIRequestCount{{Verb: "get", RequestCount: 3}}}},
	}}}
	count := func(removed string) *apiserverv1.APIRequestCount {
		return &apiserverv1.APIRequestCount{
			ObjectMeta: metav1.ObjectMeta{Name: "r", ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kube-apiserver"}}},
			Status: apiserverv1.APIRequestCountStatus{RemovedInRelease: removed, RequestCount: 3, CurrentHour: hour, Last24h: []apiserverv1.PerResourceAPIRequestLog{hour},
				Conditions: []metav1.Condition{{Type: "Failing"}}},
		}
	}
	stripped := hour.DeepCopy()
	stripped.ByNode[0].ByUser[0].UserAgent = ""
	tests := []struct {
		name string
		in   *apiserverv1.APIRequestCount
		want apiserverv1.APIRequestCountStatus
	}{
		{name: "to be removed", in: count("1.30"), want: apiserverv1.APIRequestCountStatus{RemovedInRelease: "1.30", RequestCount: 3, Last24h: []apiserverv1.PerResourceAPIRequestLog{*stripped}}},
		{name: "not to be removed", in: count(""), want: apiserverv1.APIRequestCountStatus{RequestCount: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := StripAPIRequestCount(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got := out.(*apiserverv1.APIRequestCount)
			if diff := cmp.Diff(tt.want, got.Status); diff != "" || got.ManagedFields != nil {
				t.Errorf("status (-want +got):\n%s\nmanaged fields %v", diff, got.ManagedFields)
			}
		})
	}
}

// fakeOLM answers for OLM's operators, saying from which versions it was
// asked, or fails with err.
type fakeOLM struct {
	asked []string
	err   error
}

func (f *fakeOLM) Plan(current, target string, now time.Time) (updatestatus.Answer, error) {
	f.asked = append(f.asked, current+"->"+target)
	if f.err != nil {
		return updatestatus.Answer{}, f.err
	}
	return updatestatus.Answer{Informer: "operator-lifecycle-manager", Insights: []insightsv1alpha1.UpdateInsight{{
		UID: "max-openshift-version/openshift-operators-redhat/elasticsearch-operator.v5.8.2", AcquisitionTime: ptr.To(metav1.NewTime(now)),
		Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.ErrorInsightLevel, Summary: "capped"},
	}}}, nil
}

// OLM's findings sit beside the operator's own, under OLM's informer name,
// asked from the version the cluster runs; a cluster that does not serve
// OLM's API has none, one whose OLM could not be read has the operator's
// finding that says so, and a plan waits for OLM's caches as for any
// served API's.
func TestOLMsFindingsAreThePlansOnceItsAPIIsRead(t *testing.T) {
	olmID := "operator-lifecycle-manager/ControlPlane//max-openshift-version/openshift-operators-redhat/elasticsearch-operator.v5.8.2"
	olmUncheckedID := "update-insights-operator/ControlPlane/ClusterOperator.config.openshift.io/operator-lifecycle-manager/olm-unchecked"
	for _, tc := range []struct {
		name      string
		olm       func(*fakeOLM) *Optional[Planner]
		evaluated bool
		want      []string
		asked     []string
	}{{
		name: "served and synced",
		olm: func(f *fakeOLM) *Optional[Planner] {
			return &Optional[Planner]{lister: f, synced: func() bool { return true }}
		},
		evaluated: true,
		want:      []string{olmID, durationID},
		asked:     []string{"4.16.3->4.17.2"},
	}, {
		name: "its objects unreadable",
		olm: func(f *fakeOLM) *Optional[Planner] {
			f.err = errors.New(`clusterserviceversions.operators.coreos.com is forbidden`)
			return &Optional[Planner]{lister: f, synced: func() bool { return true }}
		},
		evaluated: true,
		want:      []string{olmUncheckedID, durationID},
		asked:     []string{"4.16.3->4.17.2"},
	}, {
		name: "not served",
		olm: func(*fakeOLM) *Optional[Planner] {
			o := NewOptional[Planner]()
			o.Off("the cluster does not serve clusterserviceversions.operators.coreos.com/v1alpha1", true)
			return o
		},
		evaluated: true,
		want:      []string{durationID},
	}, {
		name: "whether it is served cannot be told",
		olm: func(*fakeOLM) *Optional[Planner] {
			o := NewOptional[Planner]()
			o.Off("cannot tell whether the cluster serves operators.coreos.com/v1alpha1: the server is currently unable to handle the request", false)
			return o
		},
		evaluated: true,
		want:      []string{olmUncheckedID, durationID},
	}, {
		name:      "no built-in informer but the operator's own",
		olm:       func(*fakeOLM) *Optional[Planner] { return nil },
		evaluated: true,
		want:      []string{durationID},
	}, {
		name: "served, its caches not synced yet",
		olm: func(f *fakeOLM) *Optional[Planner] {
			return &Optional[Planner]{lister: f, synced: func() bool { return false }}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			olm := &fakeOLM{}
			if planner := tc.olm(olm); planner != nil {
				h.controller.builtins = []BuiltinPlanner{{Planner: planner, Unchecked: olmpkg.Unchecked}}
			}
			h.createPlan("4.17.2", "r1")
			h.sync("4.17.2")
			p := h.plan("4.17.2")
			if evaluated := p.Status.EvaluatedAt != nil; evaluated != tc.evaluated {
				t.Fatalf("evaluated = %t, want %t: %+v", evaluated, tc.evaluated, viewOf(p))
			}
			if diff := cmp.Diff(tc.want, viewOf(p).Findings); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.asked, olm.asked); diff != "" {
				t.Errorf("OLM asked (-want +got):\n%s", diff)
			}
		})
	}
}

// OLM is asked from the release the cluster-version operator reconciles:
// while the cluster updates from 4.16.3 to 4.17.1, a plan for 4.17.2 is a
// patch update, which no olm.maxOpenShiftVersion holds back.
func TestOLMIsAskedFromTheReleaseTheClusterUpdatesTo(t *testing.T) {
	h := newHarness(t)
	cv, err := h.controller.clusterVersions.Get("version")
	if err != nil {
		t.Fatal(err)
	}
	cv = cv.DeepCopy()
	cv.Status.Desired = configv1.Release{Version: "4.17.1"}
	cv.Status.History = append([]configv1.UpdateHistory{{Version: "4.17.1", State: configv1.PartialUpdate}}, cv.Status.History...)
	h.add(h.cvs, cv)
	olm := &fakeOLM{}
	h.controller.builtins = []BuiltinPlanner{{Planner: &Optional[Planner]{lister: olm, synced: func() bool { return true }}, Unchecked: olmpkg.Unchecked}}
	h.createPlan("4.17.2", "r1")
	h.sync("4.17.2")
	if diff := cmp.Diff([]string{"4.17.1->4.17.2"}, olm.asked); diff != "" {
		t.Errorf("OLM asked (-want +got):\n%s", diff)
	}
}
