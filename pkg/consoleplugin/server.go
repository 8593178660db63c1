package consoleplugin

import (
	"context"
	"crypto/tls"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"time"

	"k8s.io/klog/v2"
)

const (
	// readHeaderTimeout bounds how long a client may take to send its
	// request's headers, so that a slow one cannot hold connections.
	readHeaderTimeout = 10 * time.Second
	// shutdownTimeout is how long requests in flight are given to finish
	// once the server is told to stop: well within the kubelet's 30 s
	// grace period.
	shutdownTimeout = 10 * time.Second
)

// TLSConfig is the server's TLS configuration: the minimum version and
// ciphers of the profile profile returns at each handshake, so that a
// changed profile applies to the next connection without a restart, and
// the certificate getCertificate returns, so that a rotated certificate is
// served without one either.
func TLSConfig(getCertificate func(*tls.ClientHelloInfo) (*tls.Certificate, error), profile func() TLSProfile) *tls.Config {
	config := func() *tls.Config {
		p := profile()
		return &tls.Config{
			MinVersion:     p.MinVersion,
			CipherSuites:   p.CipherSuites,
			GetCertificate: getCertificate,
			// The console's backend speaks HTTP/1.1 or HTTP/2 to the plugin.
			NextProtos: []string{"h2", "http/1.1"},
		}
	}
	base := config()
	base.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) { return config(), nil }
	return base
}

// Serve serves bundle over TLS on listener until ctx ends, then lets the
// requests in flight finish. It returns nil once stopped by ctx.
func Serve(ctx context.Context, listener net.Listener, bundle fs.FS, tlsConfig *tls.Config) error {
	server := &http.Server{
		Handler:           Handler(bundle),
		TLSConfig:         tlsConfig,
		ReadHeaderTimeout: readHeaderTimeout,
	}
	stopped := make(chan error, 1)
	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		stopped <- server.Shutdown(shutdownCtx)
	}()
	klog.InfoS("Serving the console plugin", "address", listener.Addr().String())
	if err := server.ServeTLS(listener, "", ""); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return <-stopped
}
