// Package prometheus runs a real Prometheus server (Debian's prometheus
// package) on loopback for tests, serving its HTTP API over TLS with a
// certificate of a CA of the test's own, and evaluating alerting rules the
// test writes and changes.
package prometheus

import (
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
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/test/internal/process"
)

// Rule is an alerting rule whose expression always holds: it fires once it
// has held for For, and is pending until then.
type Rule struct {
	Alert       string
	For         time.Duration
	Labels      map[string]string
	Annotations map[string]string
}

// Server is a Prometheus process and its files.
type Server struct {
	binary  string
	dir     string
	address string
	client  *http.Client
	cmd     *exec.Cmd
	exited  chan struct{}
	output  *os.File
}

// Binary finds the prometheus binary, or says how to install it.
func Binary() (string, error) {
	path, err := exec.LookPath("prometheus")
	if err != nil {
		return "", errors.New("prometheus is not installed: install Debian's prometheus package (apt-get install prometheus), as .ci/run does")
	}
	return path, nil
}

// Target is an HTTPS endpoint Prometheus scrapes as the platform Prometheus
// scrapes an operator's ServiceMonitor: with a bearer token, and here
// without verifying the endpoint's certificate, which the operator signs
// itself when it has no serving certificate of the cluster's.
type Target struct {
	// Job is the job label of the target's series.
	Job string
	// Address is the target's host:port; Prometheus scrapes /metrics.
	Address string
	// Interval is the scrape interval, and the scrape timeout.
	Interval time.Duration
	// TokenFile holds the bearer token Prometheus sends.
	TokenFile string
}

// Start writes the configuration, a CA of the test's and a serving
// certificate it signed for 127.0.0.1 into a folder of the test's, and
// starts Prometheus with rules on a free loopback port. Its output goes to
// prometheus.log in that folder.
func Start(t testing.TB, rules []Rule) (*Server, error) {
	return start(t, rules, nil)
}

// StartScraping starts Prometheus as Start does, without rules, scraping
// targets.
func StartScraping(t testing.TB, targets ...Target) (*Server, error) {
	return start(t, nil, targets)
}

func start(t testing.TB, rules []Rule, targets []Target) (*Server, error) {
	binary, err := Binary()
	if err != nil {
		return nil, err
	}
	port, err := process.FreePort()
	if err != nil {
		return nil, err
	}
	s := &Server{binary: binary, dir: t.TempDir(), address: fmt.Sprintf("127.0.0.1:%d", port)}
	ca := informertest.NewCA(t)
	certFile, keyFile := ca.ServingFiles(t, nil, net.ParseIP("127.0.0.1"))
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca.PEM)
	s.client = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	config, err := configFile(targets)
	if err != nil {
		return nil, err
	}
	web := fmt.Sprintf("tls_server_config:\n  cert_file: %s\n  key_file: %s\n", certFile, keyFile)
	for name, content := range map[string][]byte{"prometheus.yml": config, "web.yml": []byte(web), "ca.crt": ca.PEM} {
		if err := os.WriteFile(filepath.Join(s.dir, name), content, 0o600); err != nil {
			return nil, err
		}
	}
	if err := s.writeRules(rules); err != nil {
		return nil, err
	}
	return s, s.Restart()
}

// configFile is Prometheus' configuration, in JSON, which is YAML too: rules
// evaluated every second, and a scrape job for each target.
func configFile(targets []Target) ([]byte, error) {
	type scrapeConfig struct {
		JobName        string `json:"job_name"`
		ScrapeInterval string `json:"scrape_interval"`
		ScrapeTimeout  string `json:"scrape_timeout"`
		Scheme         string `json:"scheme"`
		MetricsPath    string `json:"metrics_path"`
		Authorization  struct {
			CredentialsFile string `json:"credentials_file"`
		} `json:"authorization"`
		TLSConfig struct {
			InsecureSkipVerify bool `json:"insecure_skip_verify"`
		} `json:"tls_config"`
		StaticConfigs []struct {
			Targets []string `json:"targets"`
		} `json:"static_configs"`
	}
	scrapes := []scrapeConfig{}
	for _, target := range targets {
		// Prometheus reads whole units only: 1000ms, not 1.0s.
		interval := fmt.Sprintf("%dms", target.Interval.Milliseconds())
		c := scrapeConfig{JobName: target.Job, ScrapeInterval: interval, ScrapeTimeout: interval, Scheme: "https", MetricsPath: "/metrics"}
		c.Authorization.CredentialsFile = target.TokenFile
		c.TLSConfig.InsecureSkipVerify = true
		c.StaticConfigs = append(c.StaticConfigs, struct {
			Targets []string `json:"targets"`
		}{Targets: []string{target.Address}})
		scrapes = append(scrapes, c)
	}
	return json.Marshal(map[string]any{
		"global":         map[string]string{"evaluation_interval": "1s"},
		"rule_files":     []string{"rules.yml"},
		"scrape_configs": scrapes,
	})
}

// URL is the address of the alerts endpoint.
func (s *Server) URL() string { return "https://" + s.address + "/api/v1/alerts" }

// CAFile is the file of the CA that signed the server's certificate.
func (s *Server) CAFile() string { return filepath.Join(s.dir, "ca.crt") }

// SetRules replaces the alerting rules and has Prometheus reload them.
func (s *Server) SetRules(rules []Rule) error {
	if err := s.writeRules(rules); err != nil {
		return err
	}
	return s.cmd.Process.Signal(syscall.SIGHUP)
}

// Stop stops Prometheus and waits for it to exit.
func (s *Server) Stop() error {
	if s.cmd == nil {
		return nil
	}
	defer s.output.Close()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
	return nil
}

// Restart starts Prometheus again (or for the first time) on the same
// address, with the rules last written, and waits until it answers.
func (s *Server) Restart() error {
	output, err := os.OpenFile(filepath.Join(s.dir, "prometheus.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	s.output = output
	s.cmd = exec.Command(s.binary,
		"--config.file=prometheus.yml",
		"--web.config.file=web.yml",
		"--web.listen-address="+s.address,
		"--storage.tsdb.path=data",
		"--log.level=warn",
	)
	s.cmd.Dir, s.cmd.Stdout, s.cmd.Stderr = s.dir, output, output
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("starting prometheus: %w", err)
	}
	s.exited = make(chan struct{})
	go func() {
		_ = s.cmd.Wait()
		close(s.exited)
	}()
	// It answers within a second or two; the limit only has to hold on a
	// busy machine.
	const within = 2 * time.Minute
	deadline := time.Now().Add(within)
	for {
		if _, err := s.Alerts(context.Background()); err == nil {
			return nil
		} else if time.Now().After(deadline) {
			_ = s.Stop()
			return fmt.Errorf("prometheus did not answer within %s: %v; its log:\n%s", within, err, s.Log())
		}
		select {
		case <-s.exited:
			return fmt.Errorf("prometheus exited; its log:\n%s", s.Log())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Alerts returns what the server's alerts endpoint answers.
func (s *Server) Alerts(ctx context.Context) ([]alerts.Alert, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("%s: %s", resp.Status, body)
	}
	return alerts.Decode(resp.Body)
}

// Samples returns the samples Prometheus stored of the series selector
// selects, from from to to, each with the timestamp of the scrape that
// stored it: the raw samples of a range selector.
func (s *Server) Samples(ctx context.Context, selector string, from, to time.Time) (model.Matrix, error) {
	expr := fmt.Sprintf("%s[%dms]", selector, max(1, to.Sub(from).Milliseconds()))
	var data struct {
		ResultType string       `json:"resultType"`
		Result     model.Matrix `json:"result"`
	}
	if err := s.get(ctx, "/api/v1/query", url.Values{"query": {expr}, "time": {timestamp(to)}}, &data); err != nil {
		return nil, fmt.Errorf("query %s: %w", expr, err)
	}
	if data.ResultType != "matrix" {
		return nil, fmt.Errorf("query %s: a result of type %q", expr, data.ResultType)
	}
	return data.Result, nil
}

// Targets describes the scrape targets' health and last errors, for
// failure messages.
func (s *Server) Targets(ctx context.Context) string {
	var data struct {
		ActiveTargets []struct {
			ScrapeURL  string    `json:"scrapeUrl"`
			Health     string    `json:"health"`
			LastError  string    `json:"lastError"`
			LastScrape time.Time `json:"lastScrape"`
		} `json:"activeTargets"`
	}
	if err := s.get(ctx, "/api/v1/targets", nil, &data); err != nil {
		return err.Error()
	}
	var parts []string
	for _, target := range data.ActiveTargets {
		parts = append(parts, fmt.Sprintf("%s: %s at %s %s", target.ScrapeURL, target.Health, target.LastScrape.Format(time.RFC3339Nano), target.LastError))
	}
	return strings.Join(parts, "; ")
}

// get calls an endpoint of the HTTP API and decodes its data into data.
func (s *Server) get(ctx context.Context, path string, params url.Values, data any) error {
	return apiGet(ctx, s.client, "https://"+s.address+path, params, data)
}

// apiGet calls an endpoint of a Prometheus HTTP API at address and decodes
// the data of its answer into data; an answer that is not a success is the
// error it says.
func apiGet(ctx context.Context, client *http.Client, address string, params url.Values, data any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address+"?"+params.Encode(), nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var answer struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return fmt.Errorf("%s: %s", resp.Status, body)
	}
	if answer.Status != "success" {
		return fmt.Errorf("%s: %s", resp.Status, answer.Error)
	}
	return json.Unmarshal(answer.Data, data)
}

// timestamp is a time as the HTTP API reads it: seconds since the epoch, to
// the millisecond Prometheus stores.
func timestamp(t time.Time) string {
	return fmt.Sprintf("%d.%03d", t.Unix(), t.Nanosecond()/int(time.Millisecond))
}

// Log returns what Prometheus printed.
func (s *Server) Log() string {
	content, _ := os.ReadFile(filepath.Join(s.dir, "prometheus.log"))
	return string(content)
}

// writeRules writes the rule file, in JSON, which is YAML too.
func (s *Server) writeRules(rules []Rule) error {
	type rule struct {
		Alert       string            `json:"alert"`
		Expr        string            `json:"expr"`
		For         string            `json:"for,omitempty"`
		Labels      map[string]string `json:"labels,omitempty"`
		Annotations map[string]string `json:"annotations,omitempty"`
	}
	group := struct {
		Name  string `json:"name"`
		Rules []rule `json:"rules"`
	}{Name: "test"}
	for _, r := range rules {
		written := rule{Alert: r.Alert, Expr: "vector(1)", Labels: r.Labels, Annotations: r.Annotations}
		if r.For > 0 {
			written.For = r.For.String()
		}
		group.Rules = append(group.Rules, written)
	}
	content, err := json.Marshal(map[string]any{"groups": []any{group}})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.dir, "rules.yml"), content, 0o600)
}

// Describe is a one-line account of alerts, for failure messages.
func Describe(firing []alerts.Alert) string {
	var parts []string
	for _, a := range firing {
		parts = append(parts, fmt.Sprintf("%s(%s since %s)", a.Name(), a.State, a.ActiveAt.Format(time.RFC3339)))
	}
	return strings.Join(parts, ", ")
}
