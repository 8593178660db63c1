package serveplugin

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
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

	configv1 "github.com/openshift/api/config/v1"
	configfake "github.com/openshift/client-go/config/clientset/versioned/fake"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	certutil "k8s.io/client-go/util/cert"

	"github.com/update-insights/update-insights-operator/pkg/consoleplugin"
	"github.com/update-insights/update-insights-operator/pkg/consoleplugin/bundle"
	"github.com/update-insights/update-insights-operator/pkg/servingcert"
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

// serve serves the bundle with the certificate of its files and the
// APIServer's TLS security profile, and follows the profile as it changes:
// under Modern a TLS 1.2 client is refused, under Intermediate it is
// served, by the same server. The real API server's side (RBAC, the watch
// by name) is test/integration's.
func TestServeFollowsTheAPIServersProfile(t *testing.T) {
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
	certificate, err := servingcert.New(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := listener.Addr().String()
	_ = listener.Close()

	apiServer := &configv1.APIServer{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec:       configv1.APIServerSpec{TLSSecurityProfile: &configv1.TLSSecurityProfile{Type: configv1.TLSProfileModernType, Modern: &configv1.ModernTLSProfile{}}},
	}
	client := configfake.NewSimpleClientset(apiServer)
	o := &options{listen: address, bundle: fstest.MapFS{consoleplugin.ManifestFile: {Data: []byte(`{"name":"update-insights-console-plugin"}`)}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- o.serve(ctx, certificate, client) }()

	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	get := func(maxVersion uint16) ([]byte, error) {
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, TLSClientConfig: &tls.Config{RootCAs: pool, MaxVersion: maxVersion}}, Timeout: time.Minute}
		resp, err := client.Get("https://" + address + "/" + consoleplugin.ManifestFile)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("GET the manifest = %d, want 200", resp.StatusCode)
		}
		return io.ReadAll(resp.Body)
	}
	// eventually waits until a client of maxVersion is served or refused
	// (the server listens once it has read the profile; a change reaches
	// it through the watch).
	eventually := func(what string, maxVersion uint16, served bool) []byte {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			body, err := get(maxVersion)
			if (err == nil) == served {
				return body
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %v", what, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if body := eventually("a TLS 1.3 client served under Modern", tls.VersionTLS13, true); string(body) != `{"name":"update-insights-console-plugin"}` {
		t.Errorf("served %q, want the bundle's manifest", body)
	}
	if _, err := get(tls.VersionTLS12); err == nil {
		t.Errorf("under Modern, a TLS 1.2 client was served")
	}

	apiServer = apiServer.DeepCopy()
	apiServer.Spec.TLSSecurityProfile = &configv1.TLSSecurityProfile{Type: configv1.TLSProfileIntermediateType, Intermediate: &configv1.IntermediateTLSProfile{}}
	if _, err := client.ConfigV1().APIServers().Update(ctx, apiServer, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually("a TLS 1.2 client served once the profile is Intermediate", tls.VersionTLS12, true)

	cancel()
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("serve returned %v once its context ended, want nil", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not return within a minute of its context ending")
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
