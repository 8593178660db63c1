// Package client calls an UpdateInformer as the aggregator does, applying
// the rules of the protocol's contract (pkg/informer/protocol/contract.md):
// the handler's budget, bounded answers, Wait and its retries, and TLS that
// is always verified, with no credentials of the caller's.
package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"k8s.io/utils/clock"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// The contract's rules.
const (
	// MaxResponseBytes bounds an answer; a larger one is a failure.
	MaxResponseBytes = 4 << 20
	// WaitInterval is how long to wait before asking again after Wait.
	WaitInterval = 5 * time.Second
	// MaxWaits is how many times in a row the informer is asked again
	// after Wait; after one more Wait, the call has failed.
	MaxWaits = 6
	// DiscoveryTimeout is the budget of discovery, which has no handler to
	// say otherwise.
	DiscoveryTimeout = protocol.DefaultTimeoutSeconds * time.Second
)

// The names of the calls, in errors.
const (
	callDiscovery = "discovery"
	callStatus    = "updateInsights"
	callPlan      = "updatePlanInsights"
)

// How much of an error answer is read, and how much of that an error
// quotes.
const (
	maxErrorBodyBytes = 64 << 10
	maxQuotedBytes    = 256
)

// Config says how to reach an informer.
type Config struct {
	// URL is the informer's base URL, https only; the protocol's paths are
	// appended to its path.
	URL string
	// ServerName is the name the informer's certificate must be for, and
	// the TLS server name sent; the URL's host when empty. For a Service,
	// <service>.<namespace>.svc.
	ServerName string
	// DialAddress, when set, is the host:port every connection goes to,
	// whatever the URL's host: an endpoint of the informer's Service, so
	// that it is reached without cluster DNS (and no proxy is used).
	DialAddress string
	// CABundle holds the PEM certificates of the CAs that verify the
	// informer's certificate; the system's CAs when empty. Verification is
	// never skipped.
	CABundle []byte
	// Clock times the waits after Wait; the real clock when nil.
	Clock clock.Clock
	// UserAgent is sent with every request, if set.
	UserAgent string
	// Limit, when set, bounds the requests in flight of every client that
	// shares it; a request waits for a free slot before its budget starts.
	Limit *Limit
}

// Client calls one informer. It is safe for concurrent use; it never sends
// a credential (no Authorization header, no client certificate, no cookie)
// and follows no redirect.
type Client struct {
	base      *url.URL
	transport *http.Transport
	http      *http.Client
	clock     clock.Clock
	userAgent string
	limit     *Limit
}

// New makes a client of the informer config describes.
func New(config Config) (*Client, error) {
	base, err := url.Parse(config.URL)
	if err != nil {
		return nil, fmt.Errorf("informer URL: %w", err)
	}
	switch {
	case base.Scheme != "https":
		return nil, fmt.Errorf("informer URL %q: want https", base.Redacted())
	case base.Host == "":
		return nil, fmt.Errorf("informer URL %q: want a host", base.Redacted())
	case base.User != nil:
		// Anything in it would be sent as a credential.
		return nil, fmt.Errorf("informer URL %q: want no user information", base.Redacted())
	case base.RawQuery != "" || base.ForceQuery || base.Fragment != "" || strings.Contains(config.URL, "#"):
		return nil, fmt.Errorf("informer URL %q: want no query or fragment", base.Redacted())
	}

	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: config.ServerName}
	if len(config.CABundle) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(config.CABundle) {
			return nil, errors.New("the CA bundle holds no PEM certificate")
		}
		tlsConfig.RootCAs = pool
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsConfig
	transport.MaxResponseHeaderBytes = 64 << 10
	if config.DialAddress != "" {
		dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
		transport.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, network, config.DialAddress)
		}
		// A proxy would be asked for the Service's name, not the endpoint.
		transport.Proxy = nil
	}

	c := &Client{
		base:      base,
		transport: transport,
		http: &http.Client{
			Transport: transport,
			// A redirect could lead anywhere, over anything; its answer
			// is a failure like any other that is not 2xx.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		clock:     config.Clock,
		userAgent: config.UserAgent,
		limit:     config.Limit,
	}
	if c.clock == nil {
		c.clock = clock.RealClock{}
	}
	return c, nil
}

// Close closes the client's idle connections.
func (c *Client) Close() { c.transport.CloseIdleConnections() }

// Discover asks the informer what it handles, within DiscoveryTimeout.
// An error has the reason ReasonUnreachable when no answer came (no
// connection, a certificate not trusted, no answer in time), as on any
// other call, and ReasonDiscoveryFailed when the answer is wrong.
func (c *Client) Discover(ctx context.Context) (*protocol.DiscoveryResponse, error) {
	var discovery protocol.DiscoveryResponse
	if reason, err := c.do(ctx, http.MethodGet, protocol.DiscoveryPath, nil, DiscoveryTimeout, &discovery); err != nil {
		if reason != ReasonUnreachable {
			reason = ReasonDiscoveryFailed
		}
		return nil, &Error{Reason: reason, Call: callDiscovery, Err: err}
	}
	if err := discovery.Validate(); err != nil {
		return nil, &Error{Reason: ReasonDiscoveryFailed, Call: callDiscovery, Err: fmt.Errorf("invalid answer: %w", err)}
	}
	return &discovery, nil
}

// StatusInsights asks the informer for its insights about the update in
// progress, each attempt within timeout (the status handler's), asking again
// after Wait as the contract says. It sets the request's apiVersion and kind.
// When the informer answers Failure, the answer, whose insights may say why,
// comes with the error.
func (c *Client) StatusInsights(ctx context.Context, req *protocol.UpdateInsightsRequest, timeout time.Duration) (*protocol.UpdateInsightsResponse, error) {
	var body protocol.UpdateInsightsRequest
	if req != nil {
		body = *req
	}
	body.TypeMeta = protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdateInsightsRequest}
	var resp *protocol.UpdateInsightsResponse
	answeredFailure, err := c.ask(ctx, callStatus, http.MethodGet, protocol.UpdateInsightsPath, &body, timeout, func() (answer, *protocol.ResponseStatus) {
		resp = &protocol.UpdateInsightsResponse{}
		return resp, &resp.Status
	})
	if err != nil && !answeredFailure {
		return nil, err
	}
	return resp, err
}

// PlanInsights asks the informer what might go wrong in an update to the
// request's target, as StatusInsights does.
func (c *Client) PlanInsights(ctx context.Context, req *protocol.UpdatePlanInsightsRequest, timeout time.Duration) (*protocol.UpdatePlanInsightsResponse, error) {
	var body protocol.UpdatePlanInsightsRequest
	if req != nil {
		body = *req
	}
	body.TypeMeta = protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdatePlanInsightsRequest}
	var resp *protocol.UpdatePlanInsightsResponse
	answeredFailure, err := c.ask(ctx, callPlan, http.MethodPost, protocol.UpdatePlanInsightsPath, &body, timeout, func() (answer, *protocol.ResponseStatus) {
		resp = &protocol.UpdatePlanInsightsResponse{}
		return resp, &resp.Status
	})
	if err != nil && !answeredFailure {
		return nil, err
	}
	return resp, err
}

// answer is a decoded answer of an insights call.
type answer interface{ Validate() error }

// ask calls until the informer answers something else than Wait, or has
// answered Wait once more than MaxWaits. next gives a fresh answer to
// decode into, and its status. answeredFailure says that the error is a
// valid Failure answer, which the caller may want to read.
func (c *Client) ask(ctx context.Context, call, method, path string, body any, timeout time.Duration, next func() (answer, *protocol.ResponseStatus)) (answeredFailure bool, err error) {
	if timeout <= 0 {
		timeout = protocol.DefaultTimeoutSeconds * time.Second
	}
	for waits := 0; ; waits++ {
		into, status := next()
		if reason, err := c.do(ctx, method, path, body, timeout, into); err != nil {
			return false, &Error{Reason: reason, Call: call, Err: err}
		}
		if err := into.Validate(); err != nil {
			return false, &Error{Reason: ReasonFailure, Call: call, Err: fmt.Errorf("invalid answer: %w", err)}
		}
		switch status.Response {
		case protocol.ResponseFailure:
			return true, &Error{Reason: ReasonFailure, Call: call, Err: fmt.Errorf("answered Failure: %s", messageOf(*status))}
		case protocol.ResponseWait:
			if waits == MaxWaits {
				return false, &Error{Reason: ReasonWaiting, Call: call,
					Err: fmt.Errorf("answered Wait %d times in a row: %s", waits+1, messageOf(*status))}
			}
			if err := c.wait(ctx); err != nil {
				return false, &Error{Reason: ReasonWaiting, Call: call, Err: fmt.Errorf("while waiting to ask again: %w", err)}
			}
		default:
			return false, nil
		}
	}
}

func (c *Client) wait(ctx context.Context) error {
	timer := c.clock.NewTimer(WaitInterval)
	defer timer.Stop()
	select {
	case <-timer.C():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// do makes one call within timeout and decodes a successful, bounded
// answer into into. The reason says how it failed.
func (c *Client) do(ctx context.Context, method, path string, body any, timeout time.Duration, into any) (Reason, error) {
	if err := c.limit.acquire(ctx); err != nil {
		return ReasonUnreachable, fmt.Errorf("while waiting to send the request: %w", err)
	}
	defer c.limit.release()
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	var reader io.Reader
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return ReasonFailure, err
		}
		reader = bytes.NewReader(encoded)
	}
	req, err := http.NewRequestWithContext(callCtx, method, c.endpoint(path), reader)
	if err != nil {
		return ReasonFailure, err
	}
	req.Header.Set("Accept", protocol.ContentType)
	if body != nil {
		req.Header.Set("Content-Type", protocol.ContentType)
	}
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}

	reason := ReasonUnreachable
	resp, err := c.http.Do(req)
	if err == nil {
		reason, err = read(resp, into)
		_ = resp.Body.Close()
	}
	// An answer counts only when it was whole within the call's budget.
	// When the budget runs out the client goes, and a server that sees it
	// go may still end the answer it had begun, or not yet begun, as if it
	// were whole: empty or truncated, it would read as undecodable, and an
	// informer's handler answers Failure once its context ends. So whatever
	// was read once the budget had run out is no answer, and the deadline
	// says why, in the same words whether the answer had begun or not.
	if callCtx.Err() != nil {
		return ReasonUnreachable, ended(ctx, callCtx, timeout)
	}
	return reason, err
}

// read reads a bounded answer and decodes a successful one into into. The
// reason says how it failed.
func read(resp *http.Response, into any) (Reason, error) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		quoted, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBodyBytes))
		return ReasonFailure, &statusError{status: resp.Status, body: quote(quoted)}
	}
	if resp.ContentLength > MaxResponseBytes {
		return ReasonFailure, tooLarge()
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return ReasonUnreachable, err
	}
	if len(data) > MaxResponseBytes {
		return ReasonFailure, tooLarge()
	}
	if err := json.Unmarshal(data, into); err != nil {
		return ReasonFailure, fmt.Errorf("undecodable answer: %w", err)
	}
	return "", nil
}

func (c *Client) endpoint(path string) string {
	u := *c.base
	u.Path = strings.TrimSuffix(u.Path, "/") + path
	u.RawPath = ""
	return u.String()
}

// ended says why the call's context ended: its budget ran out, in those
// words, or the caller's context ended.
func ended(ctx, callCtx context.Context, timeout time.Duration) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return fmt.Errorf("no answer within %s: %w", timeout, context.Cause(callCtx))
}

func tooLarge() error {
	return fmt.Errorf("the answer is larger than the %d MiB the protocol allows", MaxResponseBytes>>20)
}

// quote renders an error answer: its message when it is a Failure of the
// protocol, else the start of its body.
func quote(body []byte) string {
	var failure struct {
		Status protocol.ResponseStatus `json:"status"`
	}
	if json.Unmarshal(body, &failure) == nil && failure.Status.Message != "" {
		return text.OneLine(failure.Status.Message, maxQuotedBytes)
	}
	if s := text.OneLine(string(body), maxQuotedBytes); s != "" {
		return s
	}
	return "no message"
}

func messageOf(status protocol.ResponseStatus) string {
	if status.Message == "" {
		return "no message"
	}
	return text.OneLine(status.Message, maxQuotedBytes)
}
