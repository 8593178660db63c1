package informer

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	certutil "k8s.io/client-go/util/cert"
	clocktesting "k8s.io/utils/clock/testing"
)

// writeCertificate writes a new self-signed certificate and its key, each
// replacing its file at once as a mounted Secret's are, and returns the
// certificate's DER.
func writeCertificate(t *testing.T, certFile, keyFile string) []byte {
	t.Helper()
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("informer.test.svc", []net.IP{net.ParseIP("127.0.0.1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for file, content := range map[string][]byte{certFile: certPEM, keyFile: keyPEM} {
		tmp := file + ".tmp"
		if err := os.WriteFile(tmp, content, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
	}
	certs, err := certutil.ParseCertsPEM(certPEM)
	if err != nil {
		t.Fatal(err)
	}
	return certs[0].Raw
}

// servedCertificate is the certificate a new connection to address sees.
func servedCertificate(address string) ([]byte, error) {
	dialer := &net.Dialer{Timeout: time.Second}
	// The test compares certificates; it does not trust them.
	conn, err := tls.DialWithDialer(dialer, "tcp", address, &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		return nil, err
	}
	defer func() { _ = conn.Close() }()
	return conn.ConnectionState().PeerCertificates[0].Raw, nil
}

func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String()
}

// eventually polls until served says the served certificate is want. It
// returns as soon as it is; within only has to hold on a busy machine.
func eventually(t *testing.T, address string, want []byte, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	var last error
	for time.Now().Before(deadline) {
		got, err := servedCertificate(address)
		if err == nil && bytes.Equal(got, want) {
			return
		}
		last = err
		if err == nil {
			last = fmt.Errorf("a certificate other than the one expected")
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s did not serve the expected certificate within %s: %v", address, within, last)
}

// TestCertificateReload runs the managed-upgrade informer with no API
// server behind its kubeconfig (its caches never sync, which does not
// stop it serving), rotates its certificate, and stops it.
func TestCertificateReload(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	kubeconfig := filepath.Join(dir, "kubeconfig")
	// Nothing listens on port 1.
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
users: [{name: u, user: {token: t}}]
current-context: c
`), 0o600); err != nil {
		t.Fatal(err)
	}
	first := writeCertificate(t, certFile, keyFile)
	address := freeAddress(t)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := NewCommand(ctx, clocktesting.NewFakePassiveClock(time.Now()))
	cmd.SetArgs([]string{"managed-upgrade", "--kubeconfig", kubeconfig, "--listen", address,
		"--tls-cert-file", certFile, "--tls-private-key-file", keyFile, "--namespace", "muo"})
	exited := make(chan error, 1)
	go func() { exited <- cmd.Execute() }()

	eventually(t, address, first, time.Minute)
	second := writeCertificate(t, certFile, keyFile)
	// The files are watched: the new pair is served as soon as it is read.
	eventually(t, address, second, time.Minute)

	cancel()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the informer stopped with %v, want nil", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the informer did not stop within a minute of its context ending")
	}
}
