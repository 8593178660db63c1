package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

const serverName = "demo.informers.svc"

var warning = protocol.Insight{
	UID:    "slow-drain",
	Scope:  protocol.Scope{Type: protocol.ScopeWorkerPool, Resources: []protocol.Resource{{Kind: "Node", Name: "worker-1"}}},
	Impact: protocol.Impact{Level: protocol.LevelWarning, Type: protocol.ImpactUpdateSpeed, Summary: "Node worker-1 drains slowly"},
}

var request = &protocol.UpdateInsightsRequest{Spec: protocol.RequestSpec{ClusterID: "c1", ControlPlaneVersion: "4.16.0", TargetControlPlaneVersion: "4.17.0"}}

// answerBody is the JSON of an insights answer.
func answerBody(response protocol.Response, message string, insights ...protocol.Insight) string {
	body, err := json.Marshal(protocol.UpdateInsightsResponse{
		TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdateInsightsResponse},
		Spec:     protocol.ResponseSpec{Insights: append([]protocol.Insight{}, insights...)},
		Status:   protocol.ResponseStatus{Response: response, Message: message},
	})
	if err != nil {
		panic(err)
	}
	return string(body)
}

// sequence answers 200 with each body in turn, and the last one from then
// on, counting the calls.
func sequence(calls *atomic.Int32, bodies ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1))
		w.Header().Set("Content-Type", protocol.ContentType)
		_, _ = w.Write([]byte(bodies[min(n, len(bodies))-1]))
	}
}

// untilTheClientGoes answers 200 with the start of an answer, flushed, and
// says so on begun, if any; then nothing until the client goes. Only a
// deadline ends the call, whatever the machine's load, and the server then
// ends the answer as it can: a truncated body may look whole to the client.
func untilTheClientGoes(calls *atomic.Int32, start string, begun chan<- struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		// The server sees the client go only once it has read the body.
		_, _ = io.Copy(io.Discard, r.Body)
		if start != "" {
			w.Header().Set("Content-Type", protocol.ContentType)
			_, _ = w.Write([]byte(start))
			w.(http.Flusher).Flush()
		}
		if begun != nil {
			close(begun)
		}
		<-r.Context().Done()
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// fixture is an informer served over TLS with a CA of its own, and a
// client of it with a fake clock.
type fixture struct {
	client *client.Client
	clock  *testingclock.FakeClock
}

func newFixture(t *testing.T, handler http.Handler) fixture {
	t.Helper()
	clock := testingclock.NewFakeClock(time.Now())
	return fixture{client: newClient(t, handler, clock, nil), clock: clock}
}

// newClient is a client of handler, served over TLS with a CA of its own,
// waiting on clock after Wait, its requests bounded by limit when set.
func newClient(t *testing.T, handler http.Handler, clock *testingclock.FakeClock, limit *client.Limit) *client.Client {
	t.Helper()
	ca := informertest.NewCA(t)
	server := informertest.NewTLSServer(t, handler, ca.Serving(t, []string{serverName}))
	c, err := client.New(client.Config{
		URL:         "https://" + serverName,
		ServerName:  serverName,
		DialAddress: server.Listener.Addr().String(),
		CABundle:    ca.PEM,
		Clock:       clock,
		Limit:       limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// run calls call, stepping the fake clock by the contract's wait whenever
// the client waits on it, and says how many times it did.
func (f fixture) run(call func()) (waits int) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		call()
	}()
	for {
		select {
		case <-done:
			return waits
		case <-time.After(time.Millisecond):
			if f.clock.HasWaiters() {
				f.clock.Step(client.WaitInterval)
				waits++
			}
		}
	}
}

func TestStatusInsights(t *testing.T) {
	wait := answerBody(protocol.ResponseWait, "warming up")
	success := answerBody(protocol.ResponseSuccess, "", warning)
	oversized := `{"spec":{"insights":[]},"status":{"response":"Success"},"padding":"` + strings.Repeat("x", client.MaxResponseBytes) + `"}`

	tests := []struct {
		name    string
		handler func(calls *atomic.Int32) http.Handler
		// want is the answer returned, nil for none.
		want       *protocol.UpdateInsightsResponse
		wantReason client.Reason
		wantErr    string
		// wantBody is the start of an error answer's body, which the
		// error keeps for the log but does not say.
		wantBody  string
		wantCalls int32
		wantWaits int
	}{
		{
			name: "success, through the informer server",
			handler: func(calls *atomic.Int32) http.Handler {
				return mustHandler(t, informertest.StatusFunc(func(_ context.Context, req *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
					calls.Add(1)
					if req.Spec != request.Spec {
						t.Errorf("the informer was asked %+v, want %+v", req.Spec, request.Spec)
					}
					return &protocol.UpdateInsightsResponse{Spec: protocol.ResponseSpec{Insights: []protocol.Insight{warning}}}, nil
				}))
			},
			want:      decoded(success),
			wantCalls: 1,
		},
		{
			name:      "Wait then Success",
			handler:   func(calls *atomic.Int32) http.Handler { return sequence(calls, wait, success) },
			want:      decoded(success),
			wantCalls: 2, wantWaits: 1,
		},
		{
			name:      "Wait six times then Success",
			handler:   func(calls *atomic.Int32) http.Handler { return sequence(calls, append(repeat(wait, 6), success)...) },
			want:      decoded(success),
			wantCalls: 7, wantWaits: 6,
		},
		{
			name:       "Wait seven times",
			handler:    func(calls *atomic.Int32) http.Handler { return sequence(calls, append(repeat(wait, 7), success)...) },
			wantReason: client.ReasonWaiting, wantErr: "updateInsights: answered Wait 7 times in a row: warming up",
			wantCalls: 7, wantWaits: 6,
		},
		{
			name: "Failure, with the insights that say why",
			handler: func(calls *atomic.Int32) http.Handler {
				return sequence(calls, answerBody(protocol.ResponseFailure, "pools unreadable", warning))
			},
			want:       decoded(answerBody(protocol.ResponseFailure, "pools unreadable", warning)),
			wantReason: client.ReasonFailure, wantErr: "updateInsights: answered Failure: pools unreadable",
			wantCalls: 1,
		},
		{
			name:       "garbage",
			handler:    func(calls *atomic.Int32) http.Handler { return sequence(calls, "<html>hello</html>") },
			wantReason: client.ReasonFailure, wantErr: "updateInsights: undecodable answer: invalid character '<'",
			wantCalls: 1,
		},
		{
			name:       "answer that breaks the protocol",
			handler:    func(calls *atomic.Int32) http.Handler { return sequence(calls, answerBody("Maybe", "")) },
			wantReason: client.ReasonFailure, wantErr: `updateInsights: invalid answer: status.response: Unsupported value: "Maybe"`,
			wantCalls: 1,
		},
		{
			name:       "oversized, streamed",
			handler:    func(calls *atomic.Int32) http.Handler { return sequence(calls, oversized) },
			wantReason: client.ReasonFailure, wantErr: "updateInsights: the answer is larger than the 4 MiB the protocol allows",
			wantCalls: 1,
		},
		{
			name: "oversized, announced",
			handler: func(calls *atomic.Int32) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					calls.Add(1)
					w.Header().Set("Content-Length", strconv.Itoa(len(oversized)))
					_, _ = w.Write([]byte(oversized))
				})
			},
			wantReason: client.ReasonFailure, wantErr: "updateInsights: the answer is larger than the 4 MiB the protocol allows",
			wantCalls: 1,
		},
		{
			name: "error status",
			handler: func(calls *atomic.Int32) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					calls.Add(1)
					http.Error(w, "overloaded,\ncome back later", http.StatusServiceUnavailable)
				})
			},
			wantReason: client.ReasonFailure, wantErr: "updateInsights: answered 503 Service Unavailable", wantBody: "overloaded, come back later",
			wantCalls: 1,
		},
		{
			name: "error status with a Failure answer",
			handler: func(calls *atomic.Int32) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					calls.Add(1)
					w.WriteHeader(http.StatusBadRequest)
					_, _ = w.Write([]byte(answerBody(protocol.ResponseFailure, "invalid request: kind")))
				})
			},
			wantReason: client.ReasonFailure, wantErr: "updateInsights: answered 400 Bad Request", wantBody: "invalid request: kind",
			wantCalls: 1,
		},
		{
			name: "redirect, not followed",
			handler: func(calls *atomic.Int32) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					calls.Add(1)
					http.Redirect(w, r, "http://elsewhere.example.com/", http.StatusFound)
				})
			},
			wantReason: client.ReasonFailure, wantErr: "updateInsights: answered 302 Found",
			wantBody: `<a href="http://elsewhere.example.com/">Found</a>.`, wantCalls: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			f := newFixture(t, tt.handler(&calls))
			var got *protocol.UpdateInsightsResponse
			var err error
			waits := f.run(func() { got, err = f.client.StatusInsights(context.Background(), request, 10*time.Second) })

			checkError(t, err, tt.wantReason, tt.wantErr)
			if got := client.AnsweredBody(err); got != tt.wantBody {
				t.Errorf("the answer's body kept for the log %q, want %q", got, tt.wantBody)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			if n := calls.Load(); n != tt.wantCalls {
				t.Errorf("%d calls, want %d", n, tt.wantCalls)
			}
			if waits != tt.wantWaits {
				t.Errorf("%d waits of %s, want %d", waits, client.WaitInterval, tt.wantWaits)
			}
		})
	}
}

func TestWaitEndsWithTheContext(t *testing.T) {
	var calls atomic.Int32
	f := newFixture(t, sequence(&calls, answerBody(protocol.ResponseWait, "")))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := f.client.StatusInsights(ctx, request, time.Second)
		done <- err
	}()
	for !f.clock.HasWaiters() {
		time.Sleep(time.Millisecond)
	}
	cancel()
	checkError(t, <-done, client.ReasonWaiting, "updateInsights: while waiting to ask again: context canceled")
}

func TestPlanInsights(t *testing.T) {
	plan := &protocol.UpdatePlanInsightsRequest{Spec: protocol.RequestSpec{TargetControlPlaneVersion: "4.17.0"}}
	f := newFixture(t, mustHandler(t, informertest.PlanFunc(func(_ context.Context, req *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
		return &protocol.UpdatePlanInsightsResponse{Spec: protocol.ResponseSpec{Insights: []protocol.Insight{warning}}}, nil
	})))
	got, err := f.client.PlanInsights(context.Background(), plan, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	want := &protocol.UpdatePlanInsightsResponse{
		TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdatePlanInsightsResponse},
		Spec:     protocol.ResponseSpec{Insights: []protocol.Insight{warning}},
		Status:   protocol.ResponseStatus{Response: protocol.ResponseSuccess},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}

	_, err = f.client.StatusInsights(context.Background(), request, time.Second)
	checkError(t, err, client.ReasonFailure, "updateInsights: answered 404 Not Found")
}

func TestDiscover(t *testing.T) {
	oversized := `{"apiLevel":"v1","handlers":[],"padding":"` + strings.Repeat("x", client.MaxResponseBytes) + `"}`
	tests := []struct {
		name       string
		handler    http.Handler
		want       *protocol.DiscoveryResponse
		wantReason client.Reason
		wantErr    string
	}{
		{
			name:    "derived from the implementation",
			handler: mustHandler(t, informertest.StatusAndPlan{}, informer.WithTimeout(protocol.HandlerPlan, 30*time.Second)),
			want: &protocol.DiscoveryResponse{
				TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindDiscoveryResponse},
				APILevel: protocol.APILevel,
				Handlers: []protocol.Handler{{Name: protocol.HandlerStatus, TimeoutSeconds: 10}, {Name: protocol.HandlerPlan, TimeoutSeconds: 30}},
			},
		},
		{
			name: "another API level",
			handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(`{"apiVersion":"config.openshift.io/v1beta1","kind":"DiscoveryResponse","apiLevel":"v2","handlers":[]}`))
			}),
			wantReason: client.ReasonDiscoveryFailed, wantErr: `discovery: invalid answer: apiLevel: Unsupported value: "v2"`,
		},
		{
			name:       "not served",
			handler:    http.NotFoundHandler(),
			wantReason: client.ReasonDiscoveryFailed, wantErr: "discovery: answered 404 Not Found",
		},
		{
			name: "undecodable",
			handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte("not JSON"))
			}),
			wantReason: client.ReasonDiscoveryFailed, wantErr: "discovery: undecodable answer",
		},
		{
			name: "oversized",
			handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = w.Write([]byte(oversized))
			}),
			wantReason: client.ReasonDiscoveryFailed, wantErr: "discovery: the answer is larger than the 4 MiB the protocol allows",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.handler)
			got, err := f.client.Discover(context.Background())
			checkError(t, err, tt.wantReason, tt.wantErr)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("discovery (-want +got):\n%s", diff)
			}
		})
	}
}

// A discovery that gets no answer is Unreachable, as any other call: the
// informer may never have seen it. (Certificates not trusted are in
// TestTLS.)
func TestDiscoverUnreachable(t *testing.T) {
	t.Run("connection refused", func(t *testing.T) {
		listener, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		address := listener.Addr().String()
		_ = listener.Close()
		c, err := client.New(client.Config{URL: "https://" + address})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Discover(context.Background())
		checkError(t, err, client.ReasonUnreachable, "dial tcp "+address+": connect: connection refused")
	})
	t.Run("no answer in time", func(t *testing.T) {
		var calls atomic.Int32
		f := newFixture(t, untilTheClientGoes(&calls, "", nil))
		// The caller's deadline, shorter than DiscoveryTimeout, keeps the
		// test short; it ends the call as the budget would.
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := f.client.Discover(ctx)
		checkError(t, err, client.ReasonUnreachable, "discovery: context deadline exceeded")
	})
}

// The calls whose answer is cut short, in the tests of deadlines.
var cutShort = []struct {
	name   string
	answer string
	call   func(ctx context.Context, c *client.Client, timeout time.Duration) error
}{
	{
		name:   "discovery",
		answer: `{"apiVersion":"config.openshift.io/v1alpha1","kind":"DiscoveryResponse","apiLevel":"v1","handlers":[]}`,
		call: func(ctx context.Context, c *client.Client, _ time.Duration) error {
			_, err := c.Discover(ctx)
			return err
		},
	},
	{
		name:   "updateInsights",
		answer: answerBody(protocol.ResponseSuccess, "", warning),
		call: func(ctx context.Context, c *client.Client, timeout time.Duration) error {
			_, err := c.StatusInsights(ctx, request, timeout)
			return err
		},
	},
	{
		name:   "updatePlanInsights",
		answer: answerBody(protocol.ResponseSuccess, "", warning),
		call: func(ctx context.Context, c *client.Client, timeout time.Duration) error {
			_, err := c.PlanInsights(ctx, &protocol.UpdatePlanInsightsRequest{Spec: protocol.RequestSpec{TargetControlPlaneVersion: "4.17.0"}}, timeout)
			return err
		},
	},
}

// Whichever the call, an answer that the caller's deadline cuts short is
// no answer but the deadline: not an undecodable answer, however the
// server ends the answer once the client has gone.
func TestADeadlineWhileTheAnswerIsRead(t *testing.T) {
	for _, tt := range cutShort {
		t.Run(tt.name, func(t *testing.T) {
			var served atomic.Int32
			begun := make(chan struct{})
			f := newFixture(t, untilTheClientGoes(&served, tt.answer[:len(tt.answer)/2], begun))
			// The deadline comes once the server has begun the answer, and
			// never before: a cancellation whose cause is the deadline's.
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() {
				<-begun
				cancel(context.DeadlineExceeded)
			}()
			checkError(t, tt.call(ctx, f.client, 10*time.Second), client.ReasonUnreachable, tt.name+": context deadline exceeded")
			if n := served.Load(); n != 1 {
				t.Errorf("%d calls, want 1", n)
			}
		})
	}
}

// The status and plan calls' own budgets run out as the caller's deadline
// does, whether the answer had begun or not, and are not tried again.
// (Discovery's is DiscoveryTimeout, too long for a test.)
func TestABudgetThatRunsOut(t *testing.T) {
	for _, tt := range cutShort[1:] {
		for _, begun := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, answer begun: %t", tt.name, begun), func(t *testing.T) {
				var served atomic.Int32
				var start string
				if begun {
					start = tt.answer[:len(tt.answer)/2]
				}
				f := newFixture(t, untilTheClientGoes(&served, start, nil))
				err := tt.call(context.Background(), f.client, 100*time.Millisecond)
				checkError(t, err, client.ReasonUnreachable, tt.name+": no answer within 100ms: context deadline exceeded")
				// On a busy machine, the budget may run out before the
				// server sees the call.
				if n := served.Load(); n > 1 {
					t.Errorf("%d calls, want at most 1", n)
				}
			})
		}
	}
}

// checkError fails unless err has the reason and says want, or both are
// empty and err is nil.
func checkError(t *testing.T, err error, wantReason client.Reason, want string) {
	t.Helper()
	if got := client.ReasonOf(err); got != wantReason {
		t.Errorf("reason %q, want %q (error: %v)", got, wantReason, err)
	}
	switch {
	case want == "" && err != nil:
		t.Errorf("unexpected error: %v", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("error %v, want one saying %q", err, want)
	}
}

func decoded(body string) *protocol.UpdateInsightsResponse {
	var resp protocol.UpdateInsightsResponse
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		panic(err)
	}
	return &resp
}
