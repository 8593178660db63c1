package alerts

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/text"
)

// DefaultURL is the platform's Thanos querier, which answers for every
// Prometheus of the cluster, and which cluster-monitoring-view may read.
const DefaultURL = "https://thanos-querier.openshift-monitoring.svc:9091/api/v1/alerts"

// The service account's token and the service CA, where the kubelet mounts
// them in an OpenShift pod.
const (
	DefaultTokenFile = "/var/run/secrets/kubernetes.io/serviceaccount/token"
	DefaultCAFile    = "/var/run/secrets/kubernetes.io/serviceaccount/service-ca.crt"
)

// requestTimeout bounds one read: a Prometheus that is slow to answer is
// as good as unreachable for this poll, and must not hold the worker.
const requestTimeout = 20 * time.Second

// maxErrorBody is how much of an error answer is quoted.
const maxErrorBody = 256

// Source reads the cluster's alerts.
type Source interface {
	Alerts(ctx context.Context) ([]Alert, error)
}

// HTTPSource reads the alerts from the Prometheus HTTP API.
type HTTPSource struct {
	url *url.URL
	// caFile and tokenFile are read at every request: the service CA and
	// the projected token are rotated under a running pod.
	caFile, tokenFile string
}

// NewHTTPSource returns a source that reads the alerts at rawURL, verifying
// an https server with the CAs in caFile (the system's if empty) and
// presenting the bearer token in tokenFile (none if empty). The token is
// never sent over plain http.
func NewHTTPSource(rawURL, caFile, tokenFile string) (*HTTPSource, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("alerts URL %q: %w", rawURL, err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("alerts URL %q: want an http or https URL with a host", rawURL)
	}
	return &HTTPSource{url: u, caFile: caFile, tokenFile: tokenFile}, nil
}

// SendsToken says whether the source presents the token: only over https.
func (s *HTTPSource) SendsToken() bool { return s.tokenFile != "" && s.url.Scheme == "https" }

// Alerts reads the alerts once, within requestTimeout.
func (s *HTTPSource) Alerts(ctx context.Context) ([]Alert, error) {
	// The budget is the request's context rather than the client's
	// Timeout, so that a read can tell it ran out.
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	firing, err := s.read(ctx)
	// A server that sees the client go at the deadline may end the answer
	// it had begun, or not yet begun, as if it were whole: empty or
	// truncated, it would read as no Prometheus answer. A read that failed
	// once the deadline had passed failed for want of time.
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("no answer from %s in time: %w", s.url.Redacted(), context.Cause(ctx))
	}
	return firing, err
}

func (s *HTTPSource) read(ctx context.Context) ([]Alert, error) {
	transport, err := s.transport()
	if err != nil {
		return nil, err
	}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if s.SendsToken() {
		token, err := os.ReadFile(s.tokenFile)
		if err != nil {
			return nil, fmt.Errorf("reading the token for the alerts: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, fmt.Errorf("%s answered %s: %s", s.url.Redacted(), resp.Status, text.OneLine(string(body), maxErrorBody))
	}
	firing, err := Decode(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.url.Redacted(), err)
	}
	return firing, nil
}

// transport is a fresh transport that trusts the CAs of caFile.
func (s *HTTPSource) transport() (*http.Transport, error) {
	config := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.caFile != "" && s.url.Scheme == "https" {
		pem, err := os.ReadFile(s.caFile)
		if err != nil {
			return nil, fmt.Errorf("reading the CA for the alerts: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s holds no PEM certificate", s.caFile)
		}
		config.RootCAs = pool
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = config
	// The token is for this server alone: no proxy sees it.
	transport.Proxy = nil
	return transport, nil
}
