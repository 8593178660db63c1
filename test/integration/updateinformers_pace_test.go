package integration

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// blockingInformer answers no updateInsights call: each waits until its
// budget ends, and it counts those still waiting and those that ended.
type blockingInformer struct {
	mu              sync.Mutex
	inFlight, ended int
}

func (b *blockingInformer) StatusInsights(ctx context.Context, _ *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
	b.mu.Lock()
	b.inFlight++
	b.mu.Unlock()
	<-ctx.Done()
	b.mu.Lock()
	b.inFlight--
	b.ended++
	b.mu.Unlock()
	return nil, ctx.Err()
}

// slowInformerOptions give a blockingInformer the longest budget, and
// silence its log of each call it answers Failure once the budget ends.
var slowInformerOptions = []informer.Option{
	informer.WithTimeout(protocol.HandlerStatus, protocol.MaxTimeoutSeconds*time.Second),
	informer.WithLogger(logr.Discard()),
}

func (b *blockingInformer) calls() (inFlight, ended int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.inFlight, b.ended
}

// Four informers that hold every call for their whole budget, thirty
// seconds, delay neither each other nor a fifth that answers at once: its
// answer reaches UpdateStatus while every slow call is still held. Were the
// informers called by a few shared workers, the four would hold them all,
// and the fast one would be called only once a slow call ended.
func TestSlowInformersHoldUpOnlyThemselves(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	ca := informertest.NewCA(t)
	cert := ca.Serving(t, nil, net.ParseIP("127.0.0.1"))

	var slow []*blockingInformer
	for n := range 4 {
		b := &blockingInformer{}
		handler, err := informer.NewHandler(b, slowInformerOptions...)
		if err != nil {
			t.Fatal(err)
		}
		srv := informertest.NewTLSServer(t, handler, cert)
		createInformer(t, &insightsv1alpha1.UpdateInformer{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("slow-informer-%d", n)},
			Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
				URL: ptr.To(srv.URL), CABundle: ca.PEM,
			}},
		})
		slow = append(slow, b)
	}
	startOperator(t, informerInterval)
	allHeld := func() bool {
		for _, b := range slow {
			if inFlight, _ := b.calls(); inFlight == 0 {
				return false
			}
		}
		return true
	}
	for deadline := time.Now().Add(eventually); !allHeld(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the four slow informers were not all called within %s", eventually)
		}
	}

	fast := startInformer(t, "127.0.0.1", cert)
	fast.answer(0, protocol.ResponseSuccess, "fast")
	createInformer(t, &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: "fast-informer"},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			URL: ptr.To("https://" + fast.addr), CABundle: ca.PEM,
		}},
	})
	waitForInformer(t, "the fast informer beside four slow ones", "fast-informer", []string{"fast"}, false, "True/Called")
	for n, b := range slow {
		if inFlight, ended := b.calls(); inFlight != 1 || ended != 0 {
			t.Errorf("slow informer %d: %d calls held and %d ended when the fast one's answer showed, want 1 and 0", n, inFlight, ended)
		}
	}
}

// An informer behind a Service without endpoints is called as soon as
// they appear: the operator watches the Service's EndpointSlices. Its next
// try is ten minutes away (the interval), so nothing else could call it
// within the test.
func TestAnInformerIsCalledAsSoonAsItsServiceHasEndpoints(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	const namespace, service = "informer-endpoints-test", "late-informer"
	f := startServiceInformer(t, namespace, service)
	f.answer(0, protocol.ResponseSuccess, "a")
	i := &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: "late-informer"},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			Service:  &insightsv1alpha1.InformerServiceReference{Namespace: namespace, Name: service},
			CABundle: f.ca.PEM,
		}},
	}
	createInformer(t, i)
	startOperator(t, "--informer-interval=10m")
	waitFor(t, eventually, "the informer unreachable without endpoints", getInformer(i.Name), func(i *insightsv1alpha1.UpdateInformer) bool {
		return onlineReason(i) == "False/Unreachable"
	})

	f.addEndpoints(t)
	waitForInformer(t, "the endpoints there", i.Name, []string{"a"}, false, "True/Called")
}
