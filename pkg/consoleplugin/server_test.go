package consoleplugin

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/openshift/library-go/pkg/crypto"
	certutil "k8s.io/client-go/util/cert"
)

// servingPair is a self-signed certificate for the plugin's Service, as
// the service CA would issue it, and a pool that trusts it.
func servingPair(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	const host = "update-insights-console-plugin.openshift-update-insights.svc"
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey(host, []net.IP{net.ParseIP("127.0.0.1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(certPEM) {
		t.Fatal("the certificate does not parse")
	}
	return pair, pool
}

// TestServeOverTLS serves a bundle as the plugin's Deployment does and reads
// it as the console's backend would: over TLS, trusting the service CA; a
// client that offers only TLS 1.1, or plain HTTP, gets nothing.
func TestServeOverTLS(t *testing.T) {
	pair, pool := servingPair(t)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	config := TLSConfig(func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return &pair, nil })
	stopped := make(chan error, 1)
	go func() { stopped <- Serve(ctx, listener, builtBundle(), config) }()
	url := "https://" + listener.Addr().String() + "/plugin-manifest.json"

	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: time.Minute}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || string(body) != manifest {
		t.Errorf("GET %s = %d %q (%v), want 200 and the manifest", url, resp.StatusCode, body, err)
	}
	if resp.TLS == nil || resp.TLS.Version < tls.VersionTLS12 {
		t.Errorf("served over %+v, want TLS 1.2 or later", resp.TLS)
	}

	old := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MaxVersion: tls.VersionTLS11}}, Timeout: time.Minute}
	if resp, err := old.Get(url); err == nil {
		_ = resp.Body.Close()
		t.Errorf("a TLS 1.1 client was served")
	}
	if resp, err := http.Get("http://" + listener.Addr().String() + "/plugin-manifest.json"); err == nil {
		_ = resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Errorf("plain HTTP was served the manifest")
		}
	}

	cancel()
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("Serve returned %v once its context ended, want nil", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Serve did not return within a minute of its context ending")
	}
}

// TestTLSConfigIsOpenShiftsDefault: the plugin's server takes OpenShift's
// minimum version and ciphers, and the certificate of the function it is
// given at each handshake, so that a rotated one is served.
func TestTLSConfigIsOpenShiftsDefault(t *testing.T) {
	pair, _ := servingPair(t)
	calls := 0
	config := TLSConfig(func(*tls.ClientHelloInfo) (*tls.Certificate, error) { calls++; return &pair, nil })
	if config.MinVersion != crypto.DefaultTLSVersion() || config.MinVersion < tls.VersionTLS12 {
		t.Errorf("MinVersion = %x, want OpenShift's default %x, at least TLS 1.2", config.MinVersion, crypto.DefaultTLSVersion())
	}
	if len(config.CipherSuites) == 0 || len(config.CipherSuites) != len(crypto.DefaultCiphers()) {
		t.Errorf("CipherSuites = %v, want OpenShift's defaults %v", config.CipherSuites, crypto.DefaultCiphers())
	}
	if len(config.Certificates) != 0 {
		t.Errorf("a fixed certificate is configured; a rotated one would not be served")
	}
	if _, err := config.GetCertificate(&tls.ClientHelloInfo{}); err != nil || calls != 1 {
		t.Errorf("GetCertificate does not ask the given function: %v, %d calls", err, calls)
	}
}
