package informer

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

func TestServerServesOverTLSUntilCanceled(t *testing.T) {
	ca := informertest.NewCA(t)
	certFile, keyFile := ca.ServingFiles(t, []string{"demo.informers.svc"}, net.IPv4(127, 0, 0, 1))

	tests := []struct {
		name string
		opts []Option
	}{
		{name: "certificate files", opts: []Option{WithCertificateFiles(certFile, keyFile)}},
		{name: "TLS configuration", opts: []Option{WithTLSConfig(&tls.Config{
			Certificates: []tls.Certificate{ca.Serving(t, nil, net.IPv4(127, 0, 0, 1))},
		})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server, err := NewServer(answer(warning), tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			listener, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			served := make(chan error)
			go func() { served <- server.Serve(ctx, listener) }()

			pool := x509.NewCertPool()
			pool.AppendCertsFromPEM(ca.PEM)
			client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
			defer client.CloseIdleConnections()
			resp, err := client.Get("https://" + listener.Addr().String() + protocol.DiscoveryPath)
			if err != nil {
				cancel()
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("discovery answered %s", resp.Status)
			}

			cancel()
			select {
			case err := <-served:
				if err != nil {
					t.Errorf("Serve returned %v once canceled, want nil", err)
				}
			case <-time.After(time.Minute):
				// Past its shutdown's own limit, on a busy machine too.
				t.Fatal("Serve did not return once canceled")
			}
		})
	}
}

func TestServeReturnsItsFailure(t *testing.T) {
	ca := informertest.NewCA(t)
	server, err := NewServer(answer(), WithTLSConfig(&tls.Config{Certificates: []tls.Certificate{ca.Serving(t, []string{"x"})}}))
	if err != nil {
		t.Fatal(err)
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_ = listener.Close()
	if err := server.Serve(context.Background(), listener); err == nil || errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve on a closed listener returned %v, want its error", err)
	}
}

func TestNewServerNeedsACertificate(t *testing.T) {
	ca := informertest.NewCA(t)
	certFile, keyFile := ca.ServingFiles(t, []string{"x"})
	tests := []struct {
		name string
		opts []Option
		want string
	}{
		{name: "none", want: "no serving certificate"},
		{name: "both", opts: []Option{WithTLSConfig(&tls.Config{}), WithCertificateFiles(certFile, keyFile)},
			want: "both a TLS configuration and certificate files"},
		{name: "configuration without one", opts: []Option{WithTLSConfig(&tls.Config{})}, want: "presents no certificate"},
		{name: "missing files", opts: []Option{WithCertificateFiles(certFile+".missing", keyFile)}, want: "loading the serving certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewServer(answer(), tt.opts...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewServer error %v, want one saying %q", err, tt.want)
			}
		})
	}
}
