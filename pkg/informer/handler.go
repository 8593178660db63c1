package informer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// StatusInformer reports insights about the update in progress: it serves
// updateInsights, and discovery announces the status handler.
type StatusInformer interface {
	// StatusInsights answers the aggregator. An error becomes a Failure
	// answer whose message is the error's; so does an answer that breaks
	// the contract. The response's apiVersion and kind are filled in, and
	// an empty status.response means Success. ctx ends with the handler's
	// timeout, after which the aggregator has stopped listening.
	StatusInsights(ctx context.Context, req *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error)
}

// PlanInformer reports what might go wrong in an update to a given release:
// it serves updatePlanInsights, and discovery announces the plan handler.
type PlanInformer interface {
	// PlanInsights answers the aggregator, as StatusInsights does.
	PlanInsights(ctx context.Context, req *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error)
}

// DefaultMaxRequestBytes bounds a request body. The aggregator's requests
// are a few hundred bytes; anything much larger is not one.
const DefaultMaxRequestBytes = 64 << 10

// maxMessageBytes bounds the message of a Failure answer, which ends up in
// a condition people read.
const maxMessageBytes = 1024

// Option configures a handler or a server.
type Option func(*options)

type options struct {
	timeouts        map[protocol.HandlerName]time.Duration
	maxRequestBytes int64
	log             logr.Logger
	tls             tlsSource
}

// WithTimeout sets the budget discovery announces for a handler, from 1 to
// 30 seconds, rounded up to a second; the default is 10 seconds. The
// informer's method is given a context that ends with it.
func WithTimeout(handler protocol.HandlerName, timeout time.Duration) Option {
	return func(o *options) { o.timeouts[handler] = timeout }
}

// WithMaxRequestBytes bounds request bodies; DefaultMaxRequestBytes by
// default.
func WithMaxRequestBytes(n int64) Option {
	return func(o *options) { o.maxRequestBytes = n }
}

// WithLogger sets where failed calls are logged; klog's logger by default.
func WithLogger(log logr.Logger) Option {
	return func(o *options) { o.log = log }
}

// handler serves the protocol for one informer implementation.
type handler struct {
	status          StatusInformer
	plan            PlanInformer
	timeouts        map[protocol.HandlerName]time.Duration
	maxRequestBytes int64
	log             logr.Logger
	discovery       []byte
	mux             *http.ServeMux
}

// NewHandler serves the protocol's calls that impl implements (a
// StatusInformer, a PlanInformer, or both) at the protocol's paths, and
// discovery saying which; the calls it does not implement are not found.
// Mount it under a prefix with http.StripPrefix when the UpdateInformer's
// service has a path.
func NewHandler(impl any, opts ...Option) (http.Handler, error) {
	h, _, err := newHandler(impl, opts)
	return h, err
}

func newHandler(impl any, opts []Option) (*handler, *options, error) {
	o := &options{
		timeouts:        map[protocol.HandlerName]time.Duration{},
		maxRequestBytes: DefaultMaxRequestBytes,
		log:             klog.Background(),
	}
	for _, opt := range opts {
		opt(o)
	}

	h := &handler{maxRequestBytes: o.maxRequestBytes, log: o.log, mux: http.NewServeMux(), timeouts: map[protocol.HandlerName]time.Duration{}}
	h.status, _ = impl.(StatusInformer)
	h.plan, _ = impl.(PlanInformer)
	if h.status == nil && h.plan == nil {
		return nil, nil, fmt.Errorf("%T implements neither StatusInformer nor PlanInformer", impl)
	}
	if h.maxRequestBytes <= 0 {
		return nil, nil, fmt.Errorf("the request bound must be positive, not %d", h.maxRequestBytes)
	}
	implemented := map[protocol.HandlerName]bool{protocol.HandlerStatus: h.status != nil, protocol.HandlerPlan: h.plan != nil}
	for name, timeout := range o.timeouts {
		if !implemented[name] {
			return nil, nil, fmt.Errorf("a timeout for handler %q, which %T does not implement", name, impl)
		}
		if timeout < protocol.MinTimeoutSeconds*time.Second || timeout > protocol.MaxTimeoutSeconds*time.Second {
			return nil, nil, fmt.Errorf("the timeout of handler %q must be from %ds to %ds, not %s", name, protocol.MinTimeoutSeconds, protocol.MaxTimeoutSeconds, timeout)
		}
	}

	discovery := protocol.DiscoveryResponse{
		TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindDiscoveryResponse},
		APILevel: protocol.APILevel,
		Handlers: []protocol.Handler{},
	}
	for _, name := range []protocol.HandlerName{protocol.HandlerStatus, protocol.HandlerPlan} {
		if !implemented[name] {
			continue
		}
		seconds := int32(protocol.DefaultTimeoutSeconds)
		if timeout, ok := o.timeouts[name]; ok {
			seconds = int32(math.Ceil(timeout.Seconds()))
		}
		discovery.Handlers = append(discovery.Handlers, protocol.Handler{Name: name, TimeoutSeconds: seconds})
		h.timeouts[name] = time.Duration(seconds) * time.Second
	}
	var err error
	if h.discovery, err = json.Marshal(discovery); err != nil {
		return nil, nil, err
	}

	h.mux.HandleFunc("GET "+protocol.DiscoveryPath, h.serveDiscovery)
	if h.status != nil {
		// The contract has the aggregator GET with a body, and servers
		// accept POST too, for clients and proxies that drop GET bodies.
		h.mux.HandleFunc("GET "+protocol.UpdateInsightsPath, h.serveStatus)
		h.mux.HandleFunc("POST "+protocol.UpdateInsightsPath, h.serveStatus)
	}
	if h.plan != nil {
		h.mux.HandleFunc("POST "+protocol.UpdatePlanInsightsPath, h.servePlan)
	}
	return h, o, nil
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		p := recover()
		switch {
		case p == nil:
			return
		case p == http.ErrAbortHandler:
			panic(p)
		}
		// The stack is for the informer's log; the aggregator, and the
		// people who read what it reports, get a plain Failure.
		h.log.Error(fmt.Errorf("panic: %v", p), "Serving an informer call", "path", r.URL.Path, "stack", string(debug.Stack()))
		h.writeFailure(w, r, http.StatusInternalServerError, "the informer failed unexpectedly")
	}()
	h.mux.ServeHTTP(w, r)
}

func (h *handler) serveDiscovery(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", protocol.ContentType)
	_, _ = w.Write(h.discovery)
}

func (h *handler) serveStatus(w http.ResponseWriter, r *http.Request) {
	var req protocol.UpdateInsightsRequest
	if !h.readRequest(w, r, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.timeouts[protocol.HandlerStatus])
	defer cancel()
	resp, err := h.status.StatusInsights(ctx, &req)
	h.respond(w, r, protocol.KindUpdateInsightsResponse, resp, err, (*protocol.UpdateInsightsResponse).Validate)
}

func (h *handler) servePlan(w http.ResponseWriter, r *http.Request) {
	var req protocol.UpdatePlanInsightsRequest
	if !h.readRequest(w, r, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.timeouts[protocol.HandlerPlan])
	defer cancel()
	resp, err := h.plan.PlanInsights(ctx, &req)
	// The two answers have one shape: a plan's is completed and written as
	// a status answer is, and checked as a plan's.
	h.respond(w, r, protocol.KindUpdatePlanInsightsResponse, (*protocol.UpdateInsightsResponse)(resp), err,
		func(out *protocol.UpdateInsightsResponse) error {
			return (*protocol.UpdatePlanInsightsResponse)(out).Validate()
		})
}

// respond writes the informer's answer of kind, its apiVersion and kind
// filled in, an empty insight list rather than none, and an empty response
// meaning Success, once validate finds it keeps the contract; or else a
// Failure saying why.
func (h *handler) respond(w http.ResponseWriter, r *http.Request, kind string, resp *protocol.UpdateInsightsResponse, err error,
	validate func(*protocol.UpdateInsightsResponse) error) {
	if err == nil && resp == nil {
		err = errors.New("the informer gave no answer")
	}
	if err != nil {
		h.failed(w, r, err)
		return
	}
	// A copy: the informer may hand out an answer it keeps.
	out := *resp
	out.TypeMeta = protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: kind}
	out.Spec.Insights = nonNil(out.Spec.Insights)
	if out.Status.Response == "" {
		out.Status.Response = protocol.ResponseSuccess
	}
	if err := validate(&out); err != nil {
		h.failed(w, r, fmt.Errorf("the informer's answer breaks the protocol: %w", err))
		return
	}
	h.writeJSON(w, r, http.StatusOK, out)
}

// readRequest decodes and validates a bounded request body, answering a
// Failure itself when it cannot.
func (h *handler) readRequest(w http.ResponseWriter, r *http.Request, into interface{ Validate() error }) bool {
	body := http.MaxBytesReader(w, r.Body, h.maxRequestBytes)
	err := json.NewDecoder(body).Decode(into)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		h.writeFailure(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is larger than %d bytes", h.maxRequestBytes))
		return false
	case errors.Is(err, io.EOF):
		h.writeFailure(w, r, http.StatusBadRequest, "the request has no body")
		return false
	case err != nil:
		h.writeFailure(w, r, http.StatusBadRequest, "undecodable request: "+err.Error())
		return false
	}
	if err := into.Validate(); err != nil {
		h.writeFailure(w, r, http.StatusBadRequest, "invalid request: "+err.Error())
		return false
	}
	return true
}

// failed answers a call the informer could not: a Failure, which is an
// answer of the protocol, so with 200.
func (h *handler) failed(w http.ResponseWriter, r *http.Request, err error) {
	h.log.Error(err, "Answering an informer call with Failure", "path", r.URL.Path)
	h.writeFailure(w, r, http.StatusOK, err.Error())
}

func (h *handler) writeFailure(w http.ResponseWriter, r *http.Request, code int, message string) {
	kind := protocol.KindUpdateInsightsResponse
	if r.URL.Path == protocol.UpdatePlanInsightsPath {
		kind = protocol.KindUpdatePlanInsightsResponse
	}
	// Both answers have the shape of UpdateInsightsResponse.
	h.writeJSON(w, r, code, protocol.UpdateInsightsResponse{
		TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: kind},
		Spec:     protocol.ResponseSpec{Insights: []protocol.Insight{}},
		Status:   protocol.ResponseStatus{Response: protocol.ResponseFailure, Message: text.OneLine(message, maxMessageBytes)},
	})
}

func (h *handler) writeJSON(w http.ResponseWriter, r *http.Request, code int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		h.log.Error(err, "Encoding an informer answer", "path", r.URL.Path)
		http.Error(w, "the answer could not be encoded", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", protocol.ContentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

func nonNil(insights []protocol.Insight) []protocol.Insight {
	if insights == nil {
		return []protocol.Insight{}
	}
	return insights
}
