package updateinformers

import (
	"bytes"
	"context"
	"encoding/pem"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	configlisters "github.com/openshift/client-go/config/listers/config/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/internal/controllertest"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

var now = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// fakeInformer is an informer whose answer the test sets, and which counts
// and records the calls it gets.
type fakeInformer struct {
	mu       sync.Mutex
	answer   *protocol.UpdateInsightsResponse
	calls    int
	requests []protocol.RequestSpec
}

func (f *fakeInformer) StatusInsights(_ context.Context, req *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.requests = append(f.requests, req.Spec)
	answer := *f.answer
	return &answer, nil
}

func (f *fakeInformer) set(response protocol.Response, insights ...protocol.Insight) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answer = &protocol.UpdateInsightsResponse{Spec: protocol.ResponseSpec{Insights: insights}, Status: protocol.ResponseStatus{Response: response, Message: "informer says so"}}
}

func (f *fakeInformer) statusCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func insight(uid string, resolved *bool) protocol.Insight {
	return protocol.Insight{
		UID:         uid,
		Scope:       protocol.Scope{Type: protocol.ScopeControlPlane},
		Impact:      protocol.Impact{Level: protocol.LevelWarning, Type: protocol.ImpactUpdateSpeed, Summary: "about " + uid},
		Remediation: protocol.Remediation{Resolved: resolved},
	}
}

// server serves impl over TLS with a certificate for names (and loopback),
// signed by a CA of its own.
func server(t *testing.T, impl any, names ...string) (*httptest.Server, *informertest.CA) {
	t.Helper()
	handler, err := informer.NewHandler(impl)
	if err != nil {
		t.Fatal(err)
	}
	ca := informertest.NewCA(t)
	return informertest.NewTLSServer(t, handler, ca.Serving(t, names, net.ParseIP("127.0.0.1"))), ca
}

type harness struct {
	t          *testing.T
	controller *Controller
	client     *fake.Clientset
	kube       *kubefake.Clientset
	clock      *clocktesting.FakeClock
	informers  cache.Indexer
	cvs        cache.Indexer
	store      *updatestatus.Store
	// queue is the controller's queue, which the watches of informers'
	// Services add to between syncs.
	queue      *controllertest.Queue
	lastQueued time.Duration
}

func newHarness(t *testing.T, pending bool, informers ...*insightsv1alpha1.UpdateInformer) *harness {
	index := func() cache.Indexer {
		return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	}
	h := &harness{
		t: t, client: fake.NewSimpleClientset(), kube: kubefake.NewSimpleClientset(), clock: clocktesting.NewFakeClock(now),
		informers: index(), cvs: index(), store: updatestatus.NewStore(),
		queue: controllertest.NewSyncContext("").Q,
	}
	t.Cleanup(h.queue.ShutDown)
	for _, i := range informers {
		h.add(i)
	}
	latest := configv1.PartialUpdate
	if !pending {
		latest = configv1.CompletedUpdate
	}
	if err := h.cvs.Add(&configv1.ClusterVersion{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Spec:       configv1.ClusterVersionSpec{ClusterID: "c1d2"},
		Status: configv1.ClusterVersionStatus{
			Desired: configv1.Release{Version: "4.17.1"},
			History: []configv1.UpdateHistory{{Version: "4.17.1", State: latest}, {Version: "4.17.0", State: configv1.CompletedUpdate}},
		},
	}); err != nil {
		t.Fatal(err)
	}
	h.controller = &Controller{
		informers:       insightslisters.NewUpdateInformerLister(h.informers),
		clusterVersions: configlisters.NewClusterVersionLister(h.cvs),
		kube:            h.kube,
		caSources:       h.kube.CoreV1(),
		client:          h.client.InsightsV1alpha1(),
		answers:         h.store,
		interval:        DefaultInterval,
		limit:           client.NewLimit(MaxRequestsInFlight),
		clock:           h.clock,
		early:           newSharedEarly(),
		states:          map[string]*state{},
	}
	return h
}

func (h *harness) add(i *insightsv1alpha1.UpdateInformer) {
	h.t.Helper()
	if _, err := h.client.InsightsV1alpha1().UpdateInformers().Create(context.Background(), i, metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
	if err := h.informers.Add(i); err != nil {
		h.t.Fatal(err)
	}
}

// sync syncs the informer, and puts what it wrote in the cache as the
// informer's watch would.
func (h *harness) sync(name string) *insightsv1alpha1.UpdateInformer {
	h.t.Helper()
	h.queue.AddedAfter = map[any]time.Duration{}
	syncCtx := controllertest.SyncContext{Key: name, Q: h.queue}
	if err := h.controller.sync(h.t.Context(), syncCtx); err != nil {
		h.t.Fatal(err)
	}
	h.lastQueued = syncCtx.Q.AddedAfter[name]
	written, err := h.client.InsightsV1alpha1().UpdateInformers().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	if err := h.informers.Update(written); err != nil {
		h.t.Fatal(err)
	}
	return written
}

// edit replaces the informer, a new generation of it.
func (h *harness) edit(i *insightsv1alpha1.UpdateInformer) {
	h.t.Helper()
	i = i.DeepCopy()
	i.Generation++
	if _, err := h.client.InsightsV1alpha1().UpdateInformers().Update(context.Background(), i, metav1.UpdateOptions{}); err != nil {
		h.t.Fatal(err)
	}
	if err := h.informers.Update(i); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) answer(name string) *updatestatus.Answer {
	for _, a := range h.store.Answers() {
		if a.Informer == name {
			return &a
		}
	}
	return nil
}

func urlInformer(name, u string, ca []byte) *insightsv1alpha1.UpdateInformer {
	return &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name), Generation: 1},
		Spec:       insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{URL: ptr.To(u), CABundle: ca}},
	}
}

func online(i *insightsv1alpha1.UpdateInformer) string {
	return condition(i, insightsv1alpha1.InformerOnline)
}

func discovered(i *insightsv1alpha1.UpdateInformer) string {
	return condition(i, insightsv1alpha1.InformerDiscovered)
}

func condition(i *insightsv1alpha1.UpdateInformer, conditionType string) string {
	c := meta.FindStatusCondition(i.Status.Conditions, conditionType)
	if c == nil {
		return ""
	}
	return string(c.Status) + "/" + c.Reason
}

func uids(a *updatestatus.Answer) []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, i := range a.Insights {
		out = append(out, i.UID)
	}
	return out
}

func TestAnInformerIsAskedWhileAnUpdateIsPendingAndItsLastGoodInsightsOutliveAFailure(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess, insight("a", nil))
	srv, ca := server(t, f)
	h := newHarness(t, true, urlInformer("mco", srv.URL+"/", ca.PEM))

	written := h.sync("mco")
	if diff := cmp.Diff("True/Called", online(written)); diff != "" {
		t.Errorf("Online (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]insightsv1alpha1.InformerHandler{{Name: "status", TimeoutSeconds: 10}}, written.Status.Handlers); diff != "" {
		t.Errorf("handlers (-want +got):\n%s", diff)
	}
	if written.Status.APILevel != protocol.APILevel || written.Status.LastHeartbeatTime == nil || !written.Status.LastHeartbeatTime.Time.Equal(now) {
		t.Errorf("apiLevel %q, lastHeartbeatTime %v; want %q and %s", written.Status.APILevel, written.Status.LastHeartbeatTime, protocol.APILevel, now)
	}
	if diff := cmp.Diff([]protocol.RequestSpec{{ClusterID: "c1d2", ControlPlaneVersion: "4.17.0", TargetControlPlaneVersion: "4.17.1"}}, f.requests); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if got := h.answer("mco"); got == nil || got.Stale || got.Offline != "" || !cmp.Equal(uids(got), []string{"a"}) {
		t.Errorf("answer after success: %+v", got)
	}
	if h.lastQueued != DefaultInterval {
		t.Errorf("queued again after %s, want %s", h.lastQueued, DefaultInterval)
	}

	// Not due yet: no call.
	h.clock.Step(10 * time.Second)
	h.sync("mco")
	if f.statusCalls() != 1 {
		t.Errorf("%d calls before the interval passed, want 1", f.statusCalls())
	}

	f.set(protocol.ResponseFailure)
	h.clock.Step(DefaultInterval)
	written = h.sync("mco")
	if diff := cmp.Diff("False/Failure", online(written)); diff != "" {
		t.Errorf("Online after Failure (-want +got):\n%s", diff)
	}
	got := h.answer("mco")
	if got == nil || !got.Stale || got.Offline != "Failure" || !strings.Contains(got.Problem, "informer says so") || !cmp.Equal(uids(got), []string{"a"}) {
		t.Errorf("answer after Failure: %+v", got)
	}
}

func TestInsightsNoLongerReportedLeaveUnlessMarkedUnresolved(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess, insight("gone", nil), insight("kept", ptr.To(false)), insight("stays", nil))
	srv, ca := server(t, f)
	h := newHarness(t, true, urlInformer("mco", srv.URL, ca.PEM))
	h.sync("mco")

	f.set(protocol.ResponseSuccess, insight("stays", nil))
	h.clock.Step(DefaultInterval)
	h.sync("mco")
	if diff := cmp.Diff([]string{"stays", "kept"}, uids(h.answer("mco"))); diff != "" {
		t.Errorf("insights (-want +got):\n%s", diff)
	}

	// Reported again without resolved: false, it is resolved when it goes.
	f.set(protocol.ResponseSuccess, insight("kept", nil))
	h.clock.Step(DefaultInterval)
	h.sync("mco")
	f.set(protocol.ResponseSuccess)
	h.clock.Step(DefaultInterval)
	h.sync("mco")
	if diff := cmp.Diff([]string(nil), uids(h.answer("mco"))); diff != "" {
		t.Errorf("insights (-want +got):\n%s", diff)
	}
}

func TestAnIdleInformerIsAskedEveryIntervalAndDiscoveredAtTheHeartbeat(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess, insight("scheduled", nil))
	handler, err := informer.NewHandler(f)
	if err != nil {
		t.Fatal(err)
	}
	var discoveries atomic.Int32
	counting := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/discovery") {
			discoveries.Add(1)
		}
		handler.ServeHTTP(w, r)
	})
	ca := informertest.NewCA(t)
	srv := informertest.NewTLSServer(t, counting, ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	h := newHarness(t, false, urlInformer("mco", srv.URL, ca.PEM))

	// No update is pending, and the informer may know of one scheduled:
	// it is asked, about the release the cluster runs.
	written := h.sync("mco")
	if f.statusCalls() != 1 || online(written) != "True/Called" || h.lastQueued != DefaultInterval {
		t.Errorf("idle: %d status calls, Online %s, queued after %s; want 1, True/Called, %s", f.statusCalls(), online(written), h.lastQueued, DefaultInterval)
	}
	if diff := cmp.Diff([]protocol.RequestSpec{{ClusterID: "c1d2", ControlPlaneVersion: "4.17.1", TargetControlPlaneVersion: "4.17.1"}}, f.requests); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"scheduled"}, uids(h.answer("mco"))); diff != "" {
		t.Errorf("idle answer's insights (-want +got):\n%s", diff)
	}

	for range HeartbeatInterval / DefaultInterval {
		h.clock.Step(DefaultInterval)
		h.sync("mco")
	}
	if got, want := f.statusCalls(), int(HeartbeatInterval/DefaultInterval)+1; got != want || discoveries.Load() != 2 {
		t.Errorf("after a heartbeat interval: %d status calls and %d discoveries, want %d and 2", got, discoveries.Load(), want)
	}

	// The informer gets no connection: Online goes False, Unreachable, and
	// it is tried again at the next interval.
	srv.Close()
	h.clock.Step(DefaultInterval)
	written = h.sync("mco")
	if diff := cmp.Diff("False/Unreachable", online(written)); diff != "" {
		t.Errorf("Online after a failed call (-want +got):\n%s", diff)
	}
	if h.lastQueued != DefaultInterval {
		t.Errorf("queued again after %s after a failed call, want %s", h.lastQueued, DefaultInterval)
	}
}

func TestLastHeartbeatTimeMovesAtMostOnceAMinute(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess)
	srv, ca := server(t, f)
	h := newHarness(t, true, urlInformer("mco", srv.URL, ca.PEM))
	h.controller.interval = time.Second
	h.sync("mco")
	h.client.ClearActions()
	for range 30 {
		h.clock.Step(time.Second)
		h.sync("mco")
	}
	if diff := cmp.Diff([]string(nil), controllertest.Writes(h.client.Actions())); diff != "" {
		t.Errorf("writes within a minute of polls (-want +got):\n%s", diff)
	}
	h.clock.Step(HeartbeatWriteInterval)
	if written := h.sync("mco"); !written.Status.LastHeartbeatTime.Time.Equal(h.clock.Now()) {
		t.Errorf("lastHeartbeatTime %s after a minute, want %s", written.Status.LastHeartbeatTime, h.clock.Now())
	}
}

func TestFailuresAndTheirReasons(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess)
	srv, ca := server(t, f)
	otherCA := informertest.NewCA(t)
	notServed := informertest.NewTLSServer(t, http.NotFoundHandler(), ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	// An informer that answers only once the operator has gone, when its
	// budget has run out: its handler then answers Failure, which the
	// operator may still read. It had no answer in time all the same.
	slow := informertest.NewTLSServer(t, untilTheCallerGoes(t, time.Second), ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	for _, tc := range []struct {
		name     string
		informer *insightsv1alpha1.UpdateInformer
		// want is the Online condition, wantDiscovered the Discovered one:
		// a discovery that fails in any way is DiscoveryFailed, but Online
		// says Unreachable when it got no answer.
		want, wantDiscovered string
	}{
		{"a certificate of another CA", urlInformer("mco", srv.URL, otherCA.PEM), "False/Unreachable", "False/DiscoveryFailed"},
		{"discovery not served", urlInformer("mco", notServed.URL, ca.PEM), "False/DiscoveryFailed", "False/DiscoveryFailed"},
		{"no answer within the budget", urlInformer("mco", slow.URL, ca.PEM), "False/Unreachable", "True/Discovered"},
		{"a CA bundle without a certificate", urlInformer("mco", srv.URL, []byte("not PEM")), "False/Unreachable", ""},
		{"a Service that does not exist", serviceInformer("mco", "ns", "missing", nil), "False/Unreachable", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, true, tc.informer)
			written := h.sync("mco")
			if diff := cmp.Diff(tc.want, online(written)); diff != "" {
				t.Errorf("Online (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantDiscovered, discovered(written)); diff != "" {
				t.Errorf("Discovered (-want +got):\n%s", diff)
			}
			if got := h.answer("mco"); got == nil || got.Offline == "" {
				t.Errorf("answer %+v, want one offline", got)
			}
		})
	}
}

// callerKey is the context value of a call's request context, as the
// server saw it before the handler added its budget.
type callerKey struct{}

// untilTheCallerGoes is an informer that announces a status budget of
// budget, and answers a status call only once the caller has gone: with
// Failure, as the informer's handler does whenever its implementation's
// context ends.
func untilTheCallerGoes(t *testing.T, budget time.Duration) http.Handler {
	t.Helper()
	handler, err := informer.NewHandler(informertest.StatusFunc(func(ctx context.Context, _ *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
		<-ctx.Value(callerKey{}).(context.Context).Done()
		return nil, ctx.Err()
	}), informer.WithTimeout(protocol.HandlerStatus, budget))
	if err != nil {
		t.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handler.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, r.Context())))
	})
}

func TestADisabledInformerIsNotCalledAndItsInsightsLeave(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess, insight("a", nil))
	srv, ca := server(t, f)
	i := urlInformer("mco", srv.URL, ca.PEM)
	h := newHarness(t, true, i)
	h.sync("mco")

	disabled := i.DeepCopy()
	disabled.Spec.Enabled = ptr.To(false)
	if err := h.informers.Update(disabled); err != nil {
		t.Fatal(err)
	}
	h.clock.Step(DefaultInterval)
	written := h.sync("mco")
	if diff := cmp.Diff("False/Disabled", online(written)); diff != "" {
		t.Errorf("Online (-want +got):\n%s", diff)
	}
	if f.statusCalls() != 1 || h.answer("mco") != nil {
		t.Errorf("%d calls and answer %+v, want 1 and none", f.statusCalls(), h.answer("mco"))
	}
}

func serviceInformer(name, namespace, service string, path *string) *insightsv1alpha1.UpdateInformer {
	return &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name), Generation: 1},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			Service: &insightsv1alpha1.InformerServiceReference{Namespace: namespace, Name: service, Port: ptr.To[int32](443), Path: path},
		}},
	}
}

func TestAServiceIsReachedAtAReadyEndpointWithItsServiceName(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess, insight("a", nil))
	handler, err := informer.NewHandler(f)
	if err != nil {
		t.Fatal(err)
	}
	ca := informertest.NewCA(t)
	// Only the Service's name is in the certificate: the client must send
	// it, whatever address it dials.
	srv := informertest.NewTLSServer(t, http.StripPrefix("/informer", handler), ca.Serving(t, []string{"mco-informer.ns.svc"}))
	port, err := strconv.Atoi(must(url.Parse(srv.URL)).Port())
	if err != nil {
		t.Fatal(err)
	}

	i := serviceInformer("mco", "ns", "mco-informer", ptr.To("/informer"))
	i.Spec.ClientConfig.CABundle = ca.PEM
	h := newHarness(t, true, i)
	ctx := context.Background()
	if _, err := h.kube.CoreV1().Services("ns").Create(ctx, mcoService(), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	written := h.sync("mco")
	if diff := cmp.Diff("False/Unreachable", online(written)); diff != "" {
		t.Errorf("Online without endpoints (-want +got):\n%s", diff)
	}
	if h.lastQueued != DefaultInterval {
		t.Errorf("queued again after %s, want %s", h.lastQueued, DefaultInterval)
	}

	// Endpoints that appear are read at the next sync: the watch that
	// queues it at once is tested against a real API server, whose watches
	// miss nothing between their list and their watch, as the fake's do.
	for _, s := range []*discoveryv1.EndpointSlice{
		endpointSlice("a-not-ready", "mco-informer", "https", int32(port), endpoint("127.0.0.2", false)),
		endpointSlice("b-other-port", "mco-informer", "metrics", int32(port), endpoint("127.0.0.3", true)),
		endpointSlice("c-ready", "mco-informer", "https", int32(port), endpoint("127.0.0.1", true)),
	} {
		if _, err := h.kube.DiscoveryV1().EndpointSlices("ns").Create(ctx, s, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	h.clock.Step(DefaultInterval)
	written = h.sync("mco")
	if diff := cmp.Diff("True/Called", online(written)); diff != "" {
		t.Errorf("Online (-want +got):\n%s\n%+v", diff, written.Status.Conditions)
	}
	if diff := cmp.Diff([]string{"a"}, uids(h.answer("mco"))); diff != "" {
		t.Errorf("insights (-want +got):\n%s", diff)
	}
}

// An informer given by url names its CA in a ConfigMap, such as the one the
// service CA fills (service-ca.crt).
func TestTheCAOfTheAnnotatedConfigMapIsInjected(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess)
	srv, ca := server(t, f)
	i := urlInformer("mco", srv.URL, nil)
	i.Annotations = map[string]string{insightsv1alpha1.InjectCAFromConfigMapAnnotation: "ns/serving-ca"}
	h := newHarness(t, true, i)

	written := h.sync("mco")
	if diff := cmp.Diff("False/Unreachable", online(written)); diff != "" {
		t.Errorf("Online without the Secret (-want +got):\n%s", diff)
	}
	if h.lastQueued != DefaultInterval {
		t.Errorf("queued again after %s, want %s", h.lastQueued, DefaultInterval)
	}

	if _, err := h.kube.CoreV1().ConfigMaps("ns").Create(context.Background(), &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "serving-ca", Annotations: map[string]string{"service.beta.openshift.io/inject-cabundle": "true"}},
		Data:       map[string]string{"service-ca.crt": string(ca.PEM)},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.client.ClearActions()
	written = h.sync("mco")
	if diff := cmp.Diff(string(ca.PEM), string(written.Spec.ClientConfig.CABundle)); diff != "" {
		t.Errorf("caBundle (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("True/Called", online(written)); diff != "" {
		t.Errorf("Online with the CA (-want +got):\n%s", diff)
	}
}

// The service CA's serving certificate Secret has no ca.crt: the CA is the
// last certificate of its tls.crt, and only it is copied, re-encoded.
func TestTheCAOfAServingCertificateSecretIsInjected(t *testing.T) {
	ca := informertest.NewCA(t)
	serving := ca.Serving(t, nil, net.ParseIP("127.0.0.1"))
	i := serviceInformer("mco", "ns", "mco", nil)
	i.Annotations = map[string]string{insightsv1alpha1.InjectCAFromSecretAnnotation: "ns/serving-cert"}
	h := newHarness(t, true, i)
	chain := append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: serving.Certificate[0]}), ca.PEM...)
	if _, err := h.kube.CoreV1().Secrets("ns").Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "serving-cert"},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: chain, corev1.TLSPrivateKeyKey: []byte("not read")},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	injected, err := h.controller.injectCA(context.Background(), i)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(ca.PEM), string(injected.Spec.ClientConfig.CABundle)); diff != "" {
		t.Errorf("caBundle (-want +got):\n%s", diff)
	}
}

// Whoever may create UpdateInformers must not make the operator read a
// Secret or ConfigMap they could not read themselves.
func TestCASourcesAnInformerMayName(t *testing.T) {
	withCA := func(i *insightsv1alpha1.UpdateInformer, annotations ...string) *insightsv1alpha1.UpdateInformer {
		i.Annotations = map[string]string{}
		for k := 0; k+1 < len(annotations); k += 2 {
			i.Annotations[annotations[k]] = annotations[k+1]
		}
		return i
	}
	const (
		secret    = insightsv1alpha1.InjectCAFromSecretAnnotation
		configMap = insightsv1alpha1.InjectCAFromConfigMapAnnotation
	)
	tests := []struct {
		name     string
		informer *insightsv1alpha1.UpdateInformer
		want     string
		wantErr  string
	}{
		{name: "a Secret of the Service's namespace", informer: withCA(serviceInformer("i", "ns", "svc", nil), secret, "ns/ca"), want: "Secret ns/ca"},
		{name: "a ConfigMap of the Service's namespace", informer: withCA(serviceInformer("i", "ns", "svc", nil), configMap, "ns/ca"), want: "ConfigMap ns/ca"},
		{name: "a ConfigMap of any namespace for a url", informer: withCA(urlInformer("i", "https://informer.example.com", nil), configMap, "other/ca"), want: "ConfigMap other/ca"},
		{name: "no annotation", informer: serviceInformer("i", "ns", "svc", nil)},
		{name: "a Secret of another namespace", informer: withCA(serviceInformer("i", "ns", "svc", nil), secret, "kube-system/bootstrap-token"),
			wantErr: "the Secret must be in the namespace of the informer's Service, ns, not kube-system"},
		{name: "a ConfigMap of another namespace", informer: withCA(serviceInformer("i", "ns", "svc", nil), configMap, "other/ca"),
			wantErr: "the ConfigMap must be in the namespace of the informer's Service, ns, not other"},
		{name: "a Secret for a url", informer: withCA(urlInformer("i", "https://informer.example.com", nil), secret, "ns/ca"),
			wantErr: "an informer given by url names its CA in caBundle, or a ConfigMap"},
		{name: "both", informer: withCA(serviceInformer("i", "ns", "svc", nil), secret, "ns/ca", configMap, "ns/ca"), wantErr: "name one CA source, not both"},
		{name: "not a reference", informer: withCA(serviceInformer("i", "ns", "svc", nil), configMap, "ca"), wantErr: `"ca" is not <namespace>/<name>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			source, ok, err := caSourceOf(tt.informer)
			got := ""
			if ok {
				got = source.String()
			}
			if got != tt.want || (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("source %q, error %v; want %q, an error saying %q", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// Only CA certificates are copied, re-encoded: not a private key, a leaf
// certificate, PEM headers or text between blocks.
func TestOnlyCACertificatesAreCopied(t *testing.T) {
	ca := informertest.NewCA(t)
	serving := ca.Serving(t, nil, net.ParseIP("127.0.0.1"))
	block, _ := pem.Decode(ca.PEM)
	withHeaders := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Headers: map[string]string{"Leaked": "sekret"}, Bytes: block.Bytes})
	data := bytes.Join([][]byte{
		[]byte("password: sekret\n"),
		pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte("sekret key")}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: serving.Certificate[0]}),
		withHeaders,
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("not a certificate")}),
	}, nil)
	if diff := cmp.Diff(string(ca.PEM), string(authorities(data))); diff != "" {
		t.Errorf("copied (-want +got):\n%s", diff)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestInsightsLeaveWhenTheUpdateEndsAndTheInformerIsAskedAgainAtOnce(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess, insight("a", ptr.To(false)))
	srv, ca := server(t, f)
	h := newHarness(t, true, urlInformer("mco", srv.URL, ca.PEM))
	h.sync("mco")

	cv, err := h.controller.clusterVersions.Get("version")
	if err != nil {
		t.Fatal(err)
	}
	completed := cv.DeepCopy()
	completed.Status.History[0].State = configv1.CompletedUpdate
	if err := h.cvs.Update(completed); err != nil {
		t.Fatal(err)
	}
	// What it marked unresolved was about the update that ended: it goes,
	// though the interval has not passed, and what the informer says now
	// replaces it.
	f.set(protocol.ResponseSuccess, insight("b", nil))
	h.sync("mco")
	if diff := cmp.Diff([]string{"b"}, uids(h.answer("mco"))); diff != "" {
		t.Errorf("insights after the update ended (-want +got):\n%s", diff)
	}
	if f.statusCalls() != 2 {
		t.Errorf("%d status calls, want 2: one during the update, one when it ended", f.statusCalls())
	}
}

func TestADeletedInformerLeavesAndARecreatedOneStartsAfresh(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess, insight("a", ptr.To(false)))
	srv, ca := server(t, f)
	i := urlInformer("mco", srv.URL, ca.PEM)
	h := newHarness(t, true, i)
	h.sync("mco")

	if err := h.informers.Delete(i); err != nil {
		t.Fatal(err)
	}
	h.sync("mco")
	if got := h.answer("mco"); got != nil {
		t.Errorf("answer %+v of a deleted informer, want none", got)
	}

	// Re-created, it is discovered again and what it marked unresolved
	// before is forgotten.
	f.set(protocol.ResponseSuccess)
	recreated := i.DeepCopy()
	recreated.UID = "another"
	if err := h.informers.Add(recreated); err != nil {
		t.Fatal(err)
	}
	h.sync("mco")
	if got := h.answer("mco"); got == nil || len(got.Insights) != 0 {
		t.Errorf("answer %+v of the re-created informer, want one without insights", got)
	}
}

// What UpdateStatus leaves out of an answer is said in Online's message at
// the next sync, without calling the informer again, and leaves it when
// UpdateStatus keeps the whole answer again.
func TestOnlineSaysWhatUpdateStatusLeftOut(t *testing.T) {
	f := &fakeInformer{}
	f.set(protocol.ResponseSuccess, insight("a", nil))
	srv, ca := server(t, f)
	h := newHarness(t, true, urlInformer("mco", srv.URL, ca.PEM))
	h.sync("mco")

	h.store.SetNotes(map[string]string{"mco": "1 summary cut to 256 characters"})
	h.clock.Step(time.Second)
	written := h.sync("mco")
	c := meta.FindStatusCondition(written.Status.Conditions, insightsv1alpha1.InformerOnline)
	if diff := cmp.Diff("The last call succeeded. UpdateStatus: 1 summary cut to 256 characters.", c.Message); diff != "" {
		t.Errorf("Online's message (-want +got):\n%s", diff)
	}
	if f.statusCalls() != 1 {
		t.Errorf("%d calls, want 1: a note calls no informer", f.statusCalls())
	}

	h.store.SetNotes(nil)
	written = h.sync("mco")
	if c := meta.FindStatusCondition(written.Status.Conditions, insightsv1alpha1.InformerOnline); c.Message != "The last call succeeded." {
		t.Errorf("Online's message %q once the note is gone", c.Message)
	}
}

func TestOnlyTheUpdatePendingChangingQueuesEveryInformer(t *testing.T) {
	cv := func(desired string, state configv1.UpdateState, message string) *configv1.ClusterVersion {
		return &configv1.ClusterVersion{
			ObjectMeta: metav1.ObjectMeta{Name: "version"},
			Status: configv1.ClusterVersionStatus{
				Desired:    configv1.Release{Version: desired, Image: "quay.io/openshift-release-dev/ocp-release@sha256:" + desired},
				History:    []configv1.UpdateHistory{{Version: desired, Image: "quay.io/openshift-release-dev/ocp-release@sha256:" + desired, State: state}},
				Conditions: []configv1.ClusterOperatorStatusCondition{{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Message: message}},
			},
		}
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
			old:  cv("4.17.1", configv1.PartialUpdate, "Working towards 4.17.1: 106 of 863 done (12% complete)"),
			new:  cv("4.17.1", configv1.PartialUpdate, "Working towards 4.17.1: 107 of 863 done (12% complete)"),
			want: 0,
		},
		{
			name: "the update ends",
			old:  cv("4.17.1", configv1.PartialUpdate, "Working towards 4.17.1: 863 of 863 done (100% complete)"),
			new:  cv("4.17.1", configv1.CompletedUpdate, "Cluster version is 4.17.1"),
			want: 1,
		},
		{
			name: "another release is asked for",
			old:  cv("4.17.1", configv1.PartialUpdate, ""),
			new:  cv("4.17.2", configv1.PartialUpdate, ""),
			want: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			queued := 0
			pendingReleaseHandler(func() { queued++ }).OnUpdate(tc.old, tc.new)
			if diff := cmp.Diff(tc.want, queued); diff != "" {
				t.Errorf("times queued (-want +got):\n%s", diff)
			}
		})
	}
}
