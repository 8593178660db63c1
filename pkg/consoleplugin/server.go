package consoleplugin

import (
	"context"
	"crypto/tls"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"time"

	"github.com/openshift/library-go/pkg/crypto"
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

// TLSConfig is the server's TLS configuration: OpenShift's default minimum
// version and ciphers (library-go's crypto.SecureTLSConfig, which
// OpenShift's own servers use), with the certificate getCertificate
// returns, so that a rotated certificate is served without a restart.
func TLSConfig(getCertificate func(*tls.ClientHelloInfo) (*tls.Certificate, error)) *tls.Config {
	return crypto.SecureTLSConfig(&tls.Config{
		GetCertificate: getCertificate,
		// The console's backend speaks HTTP/1.1 or HTTP/2 to the plugin.
		NextProtos: []string{"h2", "http/1.1"},
	})
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
