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
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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

// Start writes the configuration, a CA of the test's and a serving
// certificate it signed for 127.0.0.1 into a folder of the test's, and
// starts Prometheus with rules on a free loopback port. Its output goes to
// prometheus.log in that folder.
func Start(t testing.TB, rules []Rule) (*Server, error) {
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
	config := "global:\n  evaluation_interval: 1s\nrule_files: [rules.yml]\n"
	web := fmt.Sprintf("tls_server_config:\n  cert_file: %s\n  key_file: %s\n", certFile, keyFile)
	for name, content := range map[string][]byte{"prometheus.yml": []byte(config), "web.yml": []byte(web), "ca.crt": ca.PEM} {
		if err := os.WriteFile(filepath.Join(s.dir, name), content, 0o600); err != nil {
			return nil, err
		}
	}
	if err := s.writeRules(rules); err != nil {
		return nil, err
	}
	return s, s.Restart()
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
