package serveplugin

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	certutil "k8s.io/client-go/util/cert"

	"github.com/update-insights/update-insights-operator/pkg/consoleplugin"
	"github.com/update-insights/update-insights-operator/pkg/consoleplugin/bundle"
)

// TestTheEmbeddedBundleIsTheBuildOrThePlaceholder: the binary embeds dist,
// which holds the plugin's build or, in a clone where it was not copied in,
// the committed placeholder alone.
func TestTheEmbeddedBundleIsTheBuildOrThePlaceholder(t *testing.T) {
	entries, err := fs.ReadDir(bundle.FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	_, built := fs.Stat(bundle.FS(), consoleplugin.ManifestFile)
	if built != nil && strings.Join(names, ",") != ".placeholder" {
		t.Errorf("the bundle has %v: neither the plugin's build (with %s) nor the placeholder alone", names, consoleplugin.ManifestFile)
	}
}

func TestRunServesTheBundleWithTheCertificateOfItsFiles(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("update-insights-console-plugin.openshift-update-insights.svc", []net.IP{net.ParseIP("127.0.0.1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for file, content := range map[string][]byte{certFile: certPEM, keyFile: keyPEM} {
		if err := os.WriteFile(file, content, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := listener.Addr().String()
	_ = listener.Close()

	o := &options{listen: address, certFile: certFile, keyFile: keyFile,
		bundle: fstest.MapFS{consoleplugin.ManifestFile: {Data: []byte(`{"name":"update-insights-console-plugin"}`)}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- o.run(ctx) }()

	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: time.Minute}
	var body []byte
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := client.Get("https://" + address + "/" + consoleplugin.ManifestFile)
		if err == nil {
			body, err = io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("GET the manifest = %d (%v), want 200", resp.StatusCode, err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the plugin was not served within a minute: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if string(body) != `{"name":"update-insights-console-plugin"}` {
		t.Errorf("served %q, want the bundle's manifest", body)
	}
	cancel()
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("run returned %v once its context ended, want nil", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("run did not return within a minute of its context ending")
	}
}

func TestRunFailsWithoutItsCertificate(t *testing.T) {
	dir := t.TempDir()
	o := &options{listen: "127.0.0.1:0", certFile: filepath.Join(dir, "tls.crt"), keyFile: filepath.Join(dir, "tls.key"), bundle: fstest.MapFS{}}
	err := o.run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "tls.crt") {
		t.Errorf("run = %v, want an error naming the missing certificate file", err)
	}
}
