package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
	"unicode/utf8"

	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// FuzzAnswer has an informer answer every call with arbitrary bytes under
// an arbitrary status, as the operator reads them: a call succeeds only on
// a 2xx answer the contract accepts, saying Success; any other gives an
// error of a known reason, in valid UTF-8, quoting no byte of an error
// status' body; an answer comes with an error only for a valid Failure; a
// Wait is asked again as many times as the contract says, and no more.
func FuzzAnswer(f *testing.F) {
	insight := `{"uid":"u","scope":{"type":"ControlPlane"},"impact":{"level":"warning","summary":"s"}}`
	for _, seed := range []struct {
		code uint16
		body string
	}{
		{200, `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","spec":{"insights":[` + insight + `]},"status":{"response":"Success"}}`},
		{200, `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdatePlanInsightsResponse","spec":{"insights":[` + insight + `]},"status":{"response":"Failure","message":"no"}}`},
		{200, `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","spec":{"insights":[]},"status":{"response":"Wait","message":"soon"}}`},
		{200, `{"apiVersion":"config.openshift.io/v1beta1","kind":"DiscoveryResponse","apiLevel":"v1alpha","handlers":[{"name":"status"}]}`},
		{500, `{"status":{"response":"Failure","message":"secret of another server"}}`},
		{302, ``},
		{200, `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","status":{"response":"Success"}} trailing`},
	} {
		f.Add(seed.code, []byte(seed.body))
	}
	f.Fuzz(func(t *testing.T, code uint16, body []byte) {
		status := 200 + int(code)%400
		informer := &fixedAnswer{status: status, body: body}
		c, err := New(Config{URL: "https://informer.example", Clock: instantClock{}})
		if err != nil {
			t.Fatal(err)
		}
		c.http.Transport = informer

		ctx := context.Background()
		resp, err := c.StatusInsights(ctx, nil, time.Second)
		checkCall(t, informer, callStatus, err, resp != nil, func() (protocol.ResponseStatus, error) { return resp.Status, resp.Validate() })
		plan, err := c.PlanInsights(ctx, &protocol.UpdatePlanInsightsRequest{Spec: protocol.RequestSpec{TargetControlPlaneVersion: "4.17.0"}}, time.Second)
		checkCall(t, informer, callPlan, err, plan != nil, func() (protocol.ResponseStatus, error) { return plan.Status, plan.Validate() })

		informer.calls = 0
		discovery, err := c.Discover(ctx)
		switch {
		case err == nil && (discovery == nil || discovery.Validate() != nil || status > 299):
			t.Errorf("discovery accepted %d %q", status, body)
		case err != nil && discovery != nil:
			t.Errorf("discovery gave an answer with its error %v", err)
		case err != nil && ReasonOf(err) != ReasonDiscoveryFailed:
			t.Errorf("discovery failed for reason %q: %v", ReasonOf(err), err)
		case informer.calls != 1:
			t.Errorf("discovery called %d times", informer.calls)
		}
	})
}

// checkCall checks what an insights call gave, answered tells whether it
// gave an answer, and answer says what it said.
func checkCall(t *testing.T, informer *fixedAnswer, call string, err error, answered bool, answer func() (protocol.ResponseStatus, error)) {
	t.Helper()
	defer func() { informer.calls = 0 }()
	if err == nil {
		if !answered {
			t.Fatalf("%s: neither an answer nor an error", call)
		}
		status, invalid := answer()
		if invalid != nil || status.Response == protocol.ResponseWait || status.Response == protocol.ResponseFailure || informer.status > 299 {
			t.Errorf("%s: accepted %d %q (%v)", call, informer.status, informer.body, invalid)
		}
		return
	}
	if !utf8.ValidString(err.Error()) {
		t.Errorf("%s: error %q is not UTF-8", call, err)
	}
	if informer.status > 299 {
		if want := fmt.Sprintf("%s: answered %d %s", call, informer.status, http.StatusText(informer.status)); err.Error() != want {
			t.Errorf("%s: error %q, want %q: an error status' body must not reach the conditions", call, err, want)
		}
	}
	switch reason := ReasonOf(err); reason {
	case ReasonFailure:
		if answered {
			if status, invalid := answer(); invalid != nil || status.Response != protocol.ResponseFailure {
				t.Errorf("%s: an answer %+v (%v) with the error %v", call, status, invalid, err)
			}
		}
	case ReasonWaiting:
		if answered || informer.calls != MaxWaits+1 {
			t.Errorf("%s: Waiting after %d calls, with an answer: %t", call, informer.calls, answered)
		}
	default:
		t.Errorf("%s: failed for reason %q: %v", call, reason, err)
	}
}

// fixedAnswer answers every request with its status and body.
type fixedAnswer struct {
	status int
	body   []byte
	calls  int
}

func (a *fixedAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	a.calls++
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", a.status, http.StatusText(a.status)),
		StatusCode:    a.status,
		Header:        http.Header{"Content-Type": {protocol.ContentType}},
		Body:          io.NopCloser(bytes.NewReader(a.body)),
		ContentLength: int64(len(a.body)),
		Request:       req,
	}, nil
}

// instantClock's timers have fired already: a Wait is asked again at once.
type instantClock struct{ clock.RealClock }

func (instantClock) NewTimer(time.Duration) clock.Timer { return firedTimer{} }

type firedTimer struct{}

func (firedTimer) C() <-chan time.Time {
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}

func (firedTimer) Stop() bool               { return false }
func (firedTimer) Reset(time.Duration) bool { return false }
