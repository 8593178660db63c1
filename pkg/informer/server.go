package informer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// The server's own bounds on a connection: the aggregator's requests are
// small, and no call may take longer than the longest handler timeout.
const (
	readTimeout     = 10 * time.Second
	writeTimeout    = protocol.MaxTimeoutSeconds*time.Second + 5*time.Second
	idleTimeout     = 2 * time.Minute
	maxHeaderBytes  = 64 << 10
	shutdownTimeout = 5 * time.Second
)

// WithTLSConfig serves with this TLS configuration, which must present a
// certificate (Certificates, GetCertificate or GetConfigForClient). A
// GetCertificate that follows a rotated certificate keeps the server
// current without a restart.
func WithTLSConfig(config *tls.Config) Option {
	return func(o *options) { o.tls.config = config }
}

// WithCertificateFiles serves the PEM certificate chain and key in these
// files, read when the server is made.
func WithCertificateFiles(certFile, keyFile string) Option {
	return func(o *options) { o.tls.certFile, o.tls.keyFile = certFile, keyFile }
}

// tlsSource is where the serving certificate comes from.
type tlsSource struct {
	config            *tls.Config
	certFile, keyFile string
}

func (s tlsSource) serverConfig() (*tls.Config, error) {
	switch {
	case s.config != nil && s.certFile != "":
		return nil, errors.New("both a TLS configuration and certificate files")
	case s.config != nil:
		config := s.config.Clone()
		if config.Certificates == nil && config.GetCertificate == nil && config.GetConfigForClient == nil {
			return nil, errors.New("the TLS configuration presents no certificate")
		}
		if config.MinVersion == 0 {
			config.MinVersion = tls.VersionTLS12
		}
		return config, nil
	case s.certFile != "":
		cert, err := tls.LoadX509KeyPair(s.certFile, s.keyFile)
		if err != nil {
			return nil, fmt.Errorf("loading the serving certificate: %w", err)
		}
		// Through GetCertificate rather than Certificates, so that a source
		// that reloads the files when they change can take its place.
		return &tls.Config{
			MinVersion:     tls.VersionTLS12,
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return &cert, nil },
		}, nil
	default:
		return nil, errors.New("no serving certificate: use WithTLSConfig or WithCertificateFiles")
	}
}

// Server serves an informer over HTTPS.
type Server struct {
	handler   *handler
	tlsConfig *tls.Config
}

// NewServer makes a server of impl's calls, as NewHandler does, with the
// serving certificate of WithTLSConfig or WithCertificateFiles.
func NewServer(impl any, opts ...Option) (*Server, error) {
	h, o, err := newHandler(impl, opts)
	if err != nil {
		return nil, err
	}
	tlsConfig, err := o.tls.serverConfig()
	if err != nil {
		return nil, err
	}
	return &Server{handler: h, tlsConfig: tlsConfig}, nil
}

// Handler is the server's handler, without TLS, for tests and for
// embedding in a server of one's own.
func (s *Server) Handler() http.Handler { return s.handler }

// ListenAndServe serves on the TCP address addr until ctx ends.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	var lc net.ListenConfig
	listener, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, listener)
}

// Serve serves on listener until ctx ends, then lets the calls in flight
// finish (for a few seconds at most) and returns nil. It returns early
// with an error if serving fails.
func (s *Server) Serve(ctx context.Context, listener net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		TLSConfig:         s.tlsConfig,
		ReadHeaderTimeout: readTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
	shutDown := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(shutDown)
		shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if err := srv.Shutdown(shutdownCtx); err != nil {
			s.handler.log.Error(err, "Shutting the informer server down")
			_ = srv.Close()
		}
	})
	err := srv.ServeTLS(listener, "", "")
	if stop() {
		// Serving failed while ctx was still alive.
		return err
	}
	<-shutDown
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
