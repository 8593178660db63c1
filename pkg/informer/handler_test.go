package informer

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

var warning = protocol.Insight{
	UID:    "slow-drain",
	Scope:  protocol.Scope{Type: protocol.ScopeWorkerPool, Resources: []protocol.Resource{{Kind: "Node", Name: "worker-1"}}},
	Impact: protocol.Impact{Level: protocol.LevelWarning, Type: protocol.ImpactUpdateSpeed, Summary: "Node worker-1 drains slowly"},
}

func answer(insights ...protocol.Insight) informertest.StatusFunc {
	return func(context.Context, *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
		return &protocol.UpdateInsightsResponse{Spec: protocol.ResponseSpec{Insights: insights}}, nil
	}
}

func planAnswer(context.Context, *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
	return &protocol.UpdatePlanInsightsResponse{}, nil
}

func TestDiscovery(t *testing.T) {
	tests := []struct {
		name string
		impl any
		opts []Option
		want []protocol.Handler
	}{
		{name: "status", impl: answer(), want: []protocol.Handler{{Name: protocol.HandlerStatus, TimeoutSeconds: 10}}},
		{name: "plan", impl: informertest.PlanFunc(planAnswer), want: []protocol.Handler{{Name: protocol.HandlerPlan, TimeoutSeconds: 10}}},
		{
			name: "both, with timeouts rounded up",
			impl: informertest.StatusAndPlan{StatusFunc: answer(), PlanFunc: planAnswer},
			opts: []Option{WithTimeout(protocol.HandlerStatus, 1500*time.Millisecond), WithTimeout(protocol.HandlerPlan, 30*time.Second)},
			want: []protocol.Handler{{Name: protocol.HandlerStatus, TimeoutSeconds: 2}, {Name: protocol.HandlerPlan, TimeoutSeconds: 30}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := NewHandler(tt.impl, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, protocol.DiscoveryPath, nil))
			var got protocol.DiscoveryResponse
			decode(t, rec, http.StatusOK, &got)
			want := protocol.DiscoveryResponse{
				TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindDiscoveryResponse},
				APILevel: protocol.APILevel,
				Handlers: tt.want,
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("discovery (-want +got):\n%s", diff)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("discovery breaks the protocol: %v", err)
			}
		})
	}
}

func TestNewHandlerRefuses(t *testing.T) {
	tests := []struct {
		name string
		impl any
		opts []Option
		want string
	}{
		{name: "nothing implemented", impl: struct{}{}, want: "implements neither StatusInformer nor PlanInformer"},
		{name: "timeout too short", impl: answer(), opts: []Option{WithTimeout(protocol.HandlerStatus, 500*time.Millisecond)},
			want: "must be from 1s to 30s, not 500ms"},
		{name: "timeout too long", impl: answer(), opts: []Option{WithTimeout(protocol.HandlerStatus, time.Minute)},
			want: "must be from 1s to 30s, not 1m0s"},
		{name: "timeout of a handler not implemented", impl: answer(), opts: []Option{WithTimeout(protocol.HandlerPlan, time.Second)},
			want: `a timeout for handler "plan"`},
		{name: "no request bound", impl: answer(), opts: []Option{WithMaxRequestBytes(0)}, want: "must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewHandler(tt.impl, tt.opts...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewHandler error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

const request = `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsRequest",` +
	`"spec":{"clusterID":"c1","controlPlaneVersion":"4.16.0","targetControlPlaneVersion":"4.17.0","informerUpdate":false}}`

const planRequest = `{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdatePlanInsightsRequest",` +
	`"spec":{"clusterID":"c1","controlPlaneVersion":"4.16.0","targetControlPlaneVersion":"4.17.0","informerUpdate":false}}`

func TestServeCalls(t *testing.T) {
	success := func(insights ...protocol.Insight) protocol.UpdateInsightsResponse {
		return protocol.UpdateInsightsResponse{
			TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdateInsightsResponse},
			Spec:     protocol.ResponseSpec{Insights: append([]protocol.Insight{}, insights...)},
			Status:   protocol.ResponseStatus{Response: protocol.ResponseSuccess},
		}
	}
	failure := func(kind, message string) protocol.UpdateInsightsResponse {
		return protocol.UpdateInsightsResponse{
			TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: kind},
			Spec:     protocol.ResponseSpec{Insights: []protocol.Insight{}},
			Status:   protocol.ResponseStatus{Response: protocol.ResponseFailure, Message: message},
		}
	}

	tests := []struct {
		name     string
		impl     any
		opts     []Option
		method   string
		path     string
		body     string
		wantCode int
		// want is the answer for a JSON one, and nil for any other.
		want *protocol.UpdateInsightsResponse
	}{
		{name: "GET with a body", impl: answer(warning), method: http.MethodGet, body: request,
			wantCode: http.StatusOK, want: ptr.To(success(warning))},
		{name: "POST", impl: answer(warning), method: http.MethodPost, body: request,
			wantCode: http.StatusOK, want: ptr.To(success(warning))},
		{name: "no insights is an empty list", impl: answer(), method: http.MethodGet, body: request,
			wantCode: http.StatusOK, want: ptr.To(success())},
		{
			name: "Wait as the informer says",
			impl: informertest.StatusFunc(func(context.Context, *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
				return &protocol.UpdateInsightsResponse{Status: protocol.ResponseStatus{Response: protocol.ResponseWait, Message: "warming up"}}, nil
			}),
			method: http.MethodGet, body: request, wantCode: http.StatusOK,
			want: &protocol.UpdateInsightsResponse{
				TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdateInsightsResponse},
				Spec:     protocol.ResponseSpec{Insights: []protocol.Insight{}},
				Status:   protocol.ResponseStatus{Response: protocol.ResponseWait, Message: "warming up"},
			},
		},
		{
			name: "an error is a Failure answer, on one line",
			impl: informertest.StatusFunc(func(context.Context, *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
				return nil, errors.New("cannot read\nthe pools")
			}),
			method: http.MethodGet, body: request, wantCode: http.StatusOK,
			want: ptr.To(failure(protocol.KindUpdateInsightsResponse, "cannot read the pools")),
		},
		{
			name: "no answer is a Failure",
			impl: informertest.StatusFunc(func(context.Context, *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
				return nil, nil
			}),
			method: http.MethodGet, body: request, wantCode: http.StatusOK,
			want: ptr.To(failure(protocol.KindUpdateInsightsResponse, "the informer gave no answer")),
		},
		{
			name:   "an answer that breaks the protocol is a Failure",
			impl:   answer(protocol.Insight{Scope: warning.Scope, Impact: warning.Impact}),
			method: http.MethodGet, body: request, wantCode: http.StatusOK,
			want: ptr.To(failure(protocol.KindUpdateInsightsResponse,
				"the informer's answer breaks the protocol: spec.insights[0].uid: Required value")),
		},
		{
			name: "a panic is a Failure without a stack",
			impl: informertest.StatusFunc(func(context.Context, *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
				panic("index out of range")
			}),
			method: http.MethodGet, body: request, wantCode: http.StatusInternalServerError,
			want: ptr.To(failure(protocol.KindUpdateInsightsResponse, "the informer failed unexpectedly")),
		},
		{name: "no body", impl: answer(), method: http.MethodGet, wantCode: http.StatusBadRequest,
			want: ptr.To(failure(protocol.KindUpdateInsightsResponse, "the request has no body"))},
		{name: "garbage", impl: answer(), method: http.MethodPost, body: "{nope", wantCode: http.StatusBadRequest,
			want: ptr.To(failure(protocol.KindUpdateInsightsResponse, "undecodable request: invalid character 'n' looking for beginning of object key string"))},
		{name: "wrong kind", impl: answer(), method: http.MethodPost, body: planRequest, wantCode: http.StatusBadRequest,
			want: ptr.To(failure(protocol.KindUpdateInsightsResponse,
				`invalid request: kind: Unsupported value: "UpdatePlanInsightsRequest": supported values: "UpdateInsightsRequest"`))},
		{name: "body over the bound", impl: answer(), opts: []Option{WithMaxRequestBytes(100)}, method: http.MethodPost, body: request,
			wantCode: http.StatusRequestEntityTooLarge,
			want:     ptr.To(failure(protocol.KindUpdateInsightsResponse, "the request is larger than 100 bytes"))},
		{name: "plan", impl: informertest.StatusAndPlan{StatusFunc: answer(), PlanFunc: planAnswer}, method: http.MethodPost, path: protocol.UpdatePlanInsightsPath,
			body: planRequest, wantCode: http.StatusOK,
			want: &protocol.UpdateInsightsResponse{
				TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdatePlanInsightsResponse},
				Spec:     protocol.ResponseSpec{Insights: []protocol.Insight{}},
				Status:   protocol.ResponseStatus{Response: protocol.ResponseSuccess},
			}},
		{name: "plan not implemented", impl: answer(), method: http.MethodPost, path: protocol.UpdatePlanInsightsPath,
			body: planRequest, wantCode: http.StatusNotFound},
		{name: "status not implemented", impl: informertest.PlanFunc(planAnswer), method: http.MethodGet, body: request, wantCode: http.StatusNotFound},
		{name: "method not allowed", impl: answer(), method: http.MethodPut, body: request, wantCode: http.StatusMethodNotAllowed},
		{name: "unknown path", impl: answer(), method: http.MethodGet, path: "/hooks.config.openshift.io/v1alpha/other", wantCode: http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := NewHandler(tt.impl, append(tt.opts, WithLogger(logr.Discard()))...)
			if err != nil {
				t.Fatal(err)
			}
			path := tt.path
			if path == "" {
				path = protocol.UpdateInsightsPath
			}
			var body io.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, path, body))
			if tt.want == nil {
				if rec.Code != tt.wantCode {
					t.Fatalf("answered %d, want %d: %s", rec.Code, tt.wantCode, rec.Body)
				}
				return
			}
			var got protocol.UpdateInsightsResponse
			decode(t, rec, tt.wantCode, &got)
			if diff := cmp.Diff(*tt.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

// The informer's method knows its budget, and sees the request as sent. In
// a bubble (testing/synctest), whose clock stands still while the call runs:
// the budget left is the whole of it, however busy the machine.
func TestCallContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var deadline time.Duration
		var got protocol.RequestSpec
		impl := informertest.StatusFunc(func(ctx context.Context, req *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
			d, ok := ctx.Deadline()
			if !ok {
				return nil, errors.New("no deadline")
			}
			deadline, got = time.Until(d), req.Spec
			return &protocol.UpdateInsightsResponse{}, nil
		})
		h, err := NewHandler(impl, WithTimeout(protocol.HandlerStatus, 3*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, protocol.UpdateInsightsPath, strings.NewReader(request)))
		decode(t, rec, http.StatusOK, &protocol.UpdateInsightsResponse{})
		if deadline != 3*time.Second {
			t.Errorf("the call had %s left, want 3s", deadline)
		}
		want := protocol.RequestSpec{ClusterID: "c1", ControlPlaneVersion: "4.16.0", TargetControlPlaneVersion: "4.17.0"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("request (-want +got):\n%s", diff)
		}
	})
}

// decode checks the code and content type of an answer, and decodes it.
func decode(t *testing.T, rec *httptest.ResponseRecorder, wantCode int, into any) {
	t.Helper()
	if rec.Code != wantCode {
		t.Fatalf("answered %d, want %d: %s", rec.Code, wantCode, rec.Body)
	}
	if got := rec.Header().Get("Content-Type"); got != protocol.ContentType {
		t.Errorf("Content-Type %q, want %q", got, protocol.ContentType)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), into); err != nil {
		t.Fatalf("decoding %s: %v", rec.Body, err)
	}
}

func ptrTo[T any](v T) *T { return &v }
