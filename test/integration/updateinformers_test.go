package integration

import (
	"context"
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// informerInterval is the flag of the tests whose operator asks informers:
// four times a second, so that the operator has a changed answer within a
// quarter of a second rather than a second, and the test waits that much
// less for each change (UpdateStatus is still written at most once a
// second).
const informerInterval = "--informer-interval=250ms"

// testInformer is a real informer on loopback whose answers and serving
// certificate the test changes as it goes.
type testInformer struct {
	mu       sync.Mutex
	response protocol.Response
	uids     []string
	// insights, when set, are answered in place of insights of uids.
	insights []protocol.Insight
	waits    int
	// served is when the informer first handed out the current answer
	// (zero until it has): the moment an operator's poll got it.
	served time.Time
	// delay is how long an answer takes, whatever the call's budget.
	delay time.Duration

	// raw, when set, is the body of every answer to updateInsights, in
	// place of what the protocol's handler would answer: what no informer
	// built on pkg/informer can send.
	raw  atomic.Pointer[[]byte]
	cert atomic.Pointer[tls.Certificate]
	addr string
}

func (f *testInformer) StatusInsights(context.Context, *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
	f.mu.Lock()
	delay := f.delay
	f.mu.Unlock()
	// Not cut short by the budget: the operator must give up on its own.
	time.Sleep(delay)
	f.mu.Lock()
	defer f.mu.Unlock()
	resp := &protocol.UpdateInsightsResponse{Status: protocol.ResponseStatus{Response: f.response, Message: "the test says so"}}
	if f.waits > 0 {
		f.waits--
		resp.Status.Response = protocol.ResponseWait
		return resp, nil
	}
	if f.served.IsZero() {
		f.served = time.Now()
	}
	resp.Spec.Insights = append(resp.Spec.Insights, f.insights...)
	for _, uid := range f.uids {
		resp.Spec.Insights = append(resp.Spec.Insights, protocol.Insight{
			UID:    uid,
			Scope:  protocol.Scope{Type: protocol.ScopeControlPlane},
			Impact: protocol.Impact{Level: protocol.LevelWarning, Type: protocol.ImpactUpdateSpeed, Summary: "The test reports " + uid},
		})
	}
	return resp, nil
}

// answer sets what the informer answers: Wait waits times, then response
// with insights of these uids.
func (f *testInformer) answer(waits int, response protocol.Response, uids ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waits, f.response, f.uids, f.insights = waits, response, uids, nil
	f.served = time.Time{}
}

// answerInsights makes the informer answer Success with these insights.
func (f *testInformer) answerInsights(insights []protocol.Insight) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waits, f.response, f.uids, f.insights = 0, protocol.ResponseSuccess, nil, insights
	f.served = time.Time{}
}

// firstServed is when the informer first handed out the answer last set,
// after any waits; zero if it has not yet.
func (f *testInformer) firstServed() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.served
}

// answerSlowly makes every answer take delay.
func (f *testInformer) answerSlowly(delay time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.delay = delay
}

// answerRaw makes every answer to updateInsights be body, with status 200;
// nil goes back to the protocol's answers.
func (f *testInformer) answerRaw(body []byte) {
	if body == nil {
		f.raw.Store(nil)
		return
	}
	f.raw.Store(&body)
}

// serve answers updateInsights with the raw body when there is one,
// and everything else as handler does.
func (f *testInformer) serve(handler http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if raw := f.raw.Load(); raw != nil && r.URL.Path == protocol.UpdateInsightsPath {
			w.Header().Set("Content-Type", protocol.ContentType)
			_, _ = w.Write(*raw)
			return
		}
		handler.ServeHTTP(w, r)
	})
}

// startInformer serves a test informer on host, presenting cert, with the
// handler's options.
func startInformer(t testing.TB, host string, cert tls.Certificate, options ...informer.Option) *testInformer {
	t.Helper()
	f := &testInformer{response: protocol.ResponseSuccess}
	f.cert.Store(&cert)
	handler, err := informer.NewHandler(f, options...)
	if err != nil {
		t.Fatal(err)
	}
	listener, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatal(err)
	}
	server := &http.Server{
		Handler:   f.serve(handler),
		TLSConfig: &tls.Config{GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return f.cert.Load(), nil }},
		// The operator's failed handshakes are what some steps expect.
		ErrorLog:          log.New(io.Discard, "", 0),
		ReadHeaderTimeout: 10 * time.Second,
	}
	// Every call handshakes, so that a rotated certificate is presented
	// at the next call rather than after a kept-alive connection closes.
	server.SetKeepAlivesEnabled(false)
	go func() { _ = server.ServeTLS(listener, "", "") }()
	t.Cleanup(func() { _ = server.Close() })
	f.addr = listener.Addr().String()
	return f
}

// hostAddress is an IPv4 address of this host outside loopback, which the
// test's informer can listen on: the API server refuses an EndpointSlice
// that points at loopback.
func hostAddress(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && n.IP.IsGlobalUnicast() {
			return n.IP.String()
		}
	}
	t.Fatal("this host has no IPv4 address outside loopback for an EndpointSlice to point at")
	return ""
}

func createInformer(t testing.TB, i *insightsv1alpha1.UpdateInformer) {
	t.Helper()
	c := insightsClient.InsightsV1alpha1().UpdateInformers()
	if _, err := createAndDelete(t, c.Create, c.Delete, i); err != nil {
		t.Fatal(err)
	}
}

func getInformer(name string) func(context.Context) (*insightsv1alpha1.UpdateInformer, error) {
	return func(ctx context.Context) (*insightsv1alpha1.UpdateInformer, error) {
		return insightsClient.InsightsV1alpha1().UpdateInformers().Get(ctx, name, metav1.GetOptions{})
	}
}

func getUpdateStatus(ctx context.Context) (*insightsv1alpha1.UpdateStatus, error) {
	return insightsClient.InsightsV1alpha1().UpdateStatuses().Get(ctx, insightsv1alpha1.UpdateStatusName, metav1.GetOptions{})
}

func onlineReason(i *insightsv1alpha1.UpdateInformer) string {
	if i == nil {
		return ""
	}
	if c := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.InformerOnline); c != nil {
		return string(c.Status) + "/" + c.Reason
	}
	return ""
}

// reported is what UpdateStatus' control plane holds of an informer: its
// insights' uids and whether they are stale, and nil when it is absent.
func reported(s *insightsv1alpha1.UpdateStatus, name string) *insightsv1alpha1.InformerInsights {
	if s == nil {
		return nil
	}
	for _, i := range s.Status.ControlPlane.Informers {
		if i.Name == name {
			return &i
		}
	}
	return nil
}

func uidsOf(i *insightsv1alpha1.InformerInsights) []string {
	var out []string
	if i != nil {
		for _, insight := range i.Insights {
			out = append(out, insight.UID)
		}
	}
	slices.Sort(out)
	return out
}

// waitForInformer waits until UpdateStatus reports of the informer the
// uids (nil: that it is absent) and its UpdateInformer is online as said.
func waitForInformer(t *testing.T, what, name string, uids []string, stale bool, online string) {
	t.Helper()
	waitFor(t, eventually, what+": UpdateStatus", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		r := reported(s, name)
		if uids == nil {
			return r == nil
		}
		return r != nil && r.Stale == stale && slices.Equal(uidsOf(r), uids)
	})
	waitFor(t, eventually, what+": Online "+online, getInformer(name), func(i *insightsv1alpha1.UpdateInformer) bool {
		return onlineReason(i) == online
	})
}

// waitForOfflineInsight waits until the operator's own informer reports,
// or not, that the informer is offline.
func waitForOfflineInsight(t testing.TB, what, name string, offline bool) {
	t.Helper()
	waitFor(t, eventually, what+": the operator's insight that "+name+" is offline", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
		return slices.Contains(uidsOf(reported(s, updatestatus.BuiltinInformer)), updatestatus.OfflineUIDPrefix+name) == offline
	})
}

func deleteUpdateStatusAtEnd(t testing.TB) {
	t.Cleanup(func() {
		err := insightsClient.InsightsV1alpha1().UpdateStatuses().Delete(context.Background(), insightsv1alpha1.UpdateStatusName, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Error(err)
		}
	})
}

func TestAnInformerAtAURLFeedsUpdateStatus(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	ca := informertest.NewCA(t)
	f := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	f.answer(0, protocol.ResponseSuccess, "a", "b")
	i := &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: "url-informer"},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			URL: ptr.To("https://" + f.addr), CABundle: ca.PEM,
		}},
	}
	createInformer(t, i)
	operator := startOperator(t, informerInterval)

	waitForInformer(t, "success", i.Name, []string{"a", "b"}, false, "True/Called")

	// b is no longer reported, after a Wait.
	f.answer(1, protocol.ResponseSuccess, "a")
	waitForInformer(t, "an insight no longer reported", i.Name, []string{"a"}, false, "True/Called")

	f.answer(0, protocol.ResponseFailure, "ignored")
	waitForInformer(t, "failure", i.Name, []string{"a"}, true, "False/Failure")
	waitForOfflineInsight(t, "failure", i.Name, true)

	// A restarted operator keeps the insights in UpdateStatus while the
	// informer makes it wait: from the restart until the informer has
	// answered after its Wait, however long a busy machine takes.
	operator.stop(t, terminationGracePeriod)
	f.answer(1, protocol.ResponseSuccess, "a")
	startOperator(t, informerInterval)
	for deadline := time.Now().Add(eventually); f.firstServed().IsZero(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the informer was not asked again after its Wait within %s of a restart", eventually)
		}
		s, err := getUpdateStatus(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := uidsOf(reported(s, i.Name)); !slices.Equal(got, []string{"a"}) {
			t.Fatalf("UpdateStatus holds %v of the informer after a restart, before it answered, want [a]", got)
		}
	}
	waitForInformer(t, "after a restart", i.Name, []string{"a"}, false, "True/Called")

	// A certificate of another CA: unreachable.
	f.cert.Store(ptr.To(informertest.NewCA(t).Serving(t, nil, net.ParseIP("127.0.0.1"))))
	waitForInformer(t, "a wrong CA", i.Name, []string{"a"}, true, "False/Unreachable")

	disabled, err := insightsClient.InsightsV1alpha1().UpdateInformers().Get(context.Background(), i.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	disabled.Spec.Enabled = ptr.To(false)
	if _, err := insightsClient.InsightsV1alpha1().UpdateInformers().Update(context.Background(), disabled, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForInformer(t, "disabled", i.Name, nil, false, "False/Disabled")
}

// servedInformer is a test informer behind a Service: it listens on an
// address of the host's own network, as an EndpointSlice may not point at
// loopback, with a serving certificate for <service>.<namespace>.svc of a CA
// of its own; the Service, in its namespace, maps port 443 to the
// endpoints' port named https.
type servedInformer struct {
	*testInformer
	ca                 *informertest.CA
	namespace, service string
	host               string
	port               int32
}

func startServiceInformer(t *testing.T, namespace, service string) *servedInformer {
	t.Helper()
	s := &servedInformer{ca: informertest.NewCA(t), namespace: namespace, service: service, host: hostAddress(t)}
	s.testInformer = startInformer(t, s.host, s.ca.Serving(t, []string{service + "." + namespace + ".svc"}))
	u, err := url.Parse("https://" + s.addr)
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	s.port = int32(port)

	ctx := context.Background()
	if _, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	services := kubeClient.CoreV1().Services(namespace)
	if _, err := createAndDelete(t, services.Create, services.Delete, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: service},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "https", Port: 443, TargetPort: intstr.FromString("https")}}},
	}); err != nil {
		t.Fatal(err)
	}
	return s
}

// addEndpoints creates the Service's EndpointSlice, pointing at the
// informer: no EndpointSlice controller runs beside the test's API server.
func (s *servedInformer) addEndpoints(t *testing.T) {
	t.Helper()
	slices := kubeClient.DiscoveryV1().EndpointSlices(s.namespace)
	if _, err := createAndDelete(t, slices.Create, slices.Delete, &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Name: s.service + "-1", Labels: map[string]string{discoveryv1.LabelServiceName: s.service}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Ports:       []discoveryv1.EndpointPort{{Name: ptr.To("https"), Port: ptr.To(s.port)}},
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{s.host}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}}},
	}); err != nil {
		t.Fatal(err)
	}
}

func TestAnInformerBehindAServiceFeedsUpdateStatus(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	const namespace, service = "informer-test", "mco-informer"
	serverName := service + "." + namespace + ".svc"
	f := startServiceInformer(t, namespace, service)
	f.answer(0, protocol.ResponseSuccess, "a")

	// The ConfigMap the service CA fills with its CA, as it does when
	// annotated service.beta.openshift.io/inject-cabundle.
	ctx := context.Background()
	configMaps := kubeClient.CoreV1().ConfigMaps(namespace)
	caConfigMap := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "serving-ca", Annotations: map[string]string{"service.beta.openshift.io/inject-cabundle": "true"}},
		Data:       map[string]string{"service-ca.crt": string(f.ca.PEM)},
	}
	if _, err := createAndDelete(t, configMaps.Create, configMaps.Delete, caConfigMap); err != nil {
		t.Fatal(err)
	}
	f.addEndpoints(t)
	i := &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: "service-informer", Annotations: map[string]string{insightsv1alpha1.InjectCAFromConfigMapAnnotation: namespace + "/serving-ca"}},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			Service: &insightsv1alpha1.InformerServiceReference{Namespace: namespace, Name: service},
		}},
	}
	createInformer(t, i)
	startOperator(t, informerInterval)

	waitForInformer(t, "success through the Service, with the injected CA", i.Name, []string{"a"}, false, "True/Called")

	// The CA rotates: the informer serves a certificate of the new CA, which
	// the ConfigMap then holds.
	rotated := informertest.NewCA(t)
	f.cert.Store(ptr.To(rotated.Serving(t, []string{serverName})))
	waitForInformer(t, "a certificate of a CA not yet injected", i.Name, []string{"a"}, true, "False/Unreachable")
	caConfigMap.Data["service-ca.crt"] = string(rotated.PEM)
	if _, err := configMaps.Update(ctx, caConfigMap, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForInformer(t, "the rotated CA injected", i.Name, []string{"a"}, false, "True/Called")
}
