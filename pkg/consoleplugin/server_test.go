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
	config := TLSConfig(func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return &pair, nil }, func() TLSProfile { return intermediate })
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

// TestTLSConfigFollowsTheProfile: the plugin's server takes the minimum
// version and ciphers of the profile at each handshake, so that a changed
// profile applies without a restart, and the certificate of the function
// it is given, so that a rotated one is served.
func TestTLSConfigFollowsTheProfile(t *testing.T) {
	pair, pool := servingPair(t)
	calls := 0
	profile := intermediate
	config := TLSConfig(func(*tls.ClientHelloInfo) (*tls.Certificate, error) { calls++; return &pair, nil }, func() TLSProfile { return profile })
	if len(config.Certificates) != 0 {
		t.Errorf("a fixed certificate is configured; a rotated one would not be served")
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = Serve(ctx, listener, builtBundle(), config) }()
	url := "https://" + listener.Addr().String() + "/plugin-manifest.json"
	// One connection per request, each with a handshake of its own.
	get := func(maxVersion uint16, suites ...uint16) error {
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, TLSClientConfig: &tls.Config{
			RootCAs: pool, MaxVersion: maxVersion, CipherSuites: suites}}, Timeout: time.Minute}
		resp, err := client.Get(url)
		if err == nil {
			_ = resp.Body.Close()
		}
		return err
	}

	for _, step := range []struct {
		name    string
		profile TLSProfile
		// A TLS 1.2 client, one with a CBC cipher only, and a TLS 1.3 one.
		tls12, cbc, tls13 bool
	}{
		{name: "Intermediate", profile: intermediate, tls12: true, tls13: true},
		{name: "Modern", profile: TLSProfile{MinVersion: tls.VersionTLS13, CipherSuites: []uint16{tls.TLS_AES_128_GCM_SHA256}}, tls13: true},
		{name: "Custom with a CBC cipher", profile: TLSProfile{MinVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA}}, tls12: false, cbc: true, tls13: true},
	} {
		profile = step.profile
		for _, c := range []struct {
			client string
			err    error
			want   bool
		}{
			{"TLS 1.2", get(tls.VersionTLS12, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256), step.tls12},
			{"TLS 1.2 with a CBC cipher", get(tls.VersionTLS12, tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA), step.cbc},
			{"TLS 1.3", get(tls.VersionTLS13), step.tls13},
		} {
			if served := c.err == nil; served != c.want {
				t.Errorf("%s: a %s client served = %v (%v), want %v", step.name, c.client, served, c.err, c.want)
			}
		}
	}
	if calls == 0 {
		t.Errorf("GetCertificate was never asked")
	}
}
