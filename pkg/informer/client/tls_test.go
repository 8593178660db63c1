package client_test

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

func mustHandler(t *testing.T, impl any, opts ...informer.Option) http.Handler {
	t.Helper()
	h, err := informer.NewHandler(impl, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestTLS(t *testing.T) {
	ca := informertest.NewCA(t)
	handler := http.NewServeMux()
	handler.Handle("/", mustHandler(t, informertest.StatusFunc(nil)))
	handler.Handle("/prefix/", http.StripPrefix("/prefix", mustHandler(t, informertest.StatusFunc(nil))))
	// A certificate for the Service's name alone: an endpoint's address
	// cannot verify it.
	byName := informertest.NewTLSServer(t, handler, ca.Serving(t, []string{serverName}))
	byAddress := informertest.NewTLSServer(t, handler, ca.Serving(t, nil, net.IPv4(127, 0, 0, 1)))

	tests := []struct {
		name       string
		config     client.Config
		wantReason client.Reason
		wantErr    string
	}{
		{
			name:   "the Service's name, at an endpoint's address",
			config: client.Config{URL: "https://" + serverName + ":443", ServerName: serverName, DialAddress: addr(byName), CABundle: ca.PEM},
		},
		{
			name:   "the Service's name from the URL, at an endpoint's address",
			config: client.Config{URL: "https://" + serverName, DialAddress: addr(byName), CABundle: ca.PEM},
		},
		{
			name:   "a URL with a path",
			config: client.Config{URL: "https://" + serverName + "/prefix/", ServerName: serverName, DialAddress: addr(byName), CABundle: ca.PEM},
		},
		{
			name:   "a URL as given",
			config: client.Config{URL: "https://" + addr(byAddress), CABundle: ca.PEM},
		},
		{
			name:       "another server name",
			config:     client.Config{URL: "https://" + serverName, ServerName: "other.informers.svc", DialAddress: addr(byName), CABundle: ca.PEM},
			wantReason: client.ReasonUnreachable, wantErr: "certificate is valid for demo.informers.svc, not other.informers.svc",
		},
		{
			name:       "an endpoint's address, which the certificate is not for",
			config:     client.Config{URL: "https://" + addr(byName), CABundle: ca.PEM},
			wantReason: client.ReasonUnreachable, wantErr: "doesn't contain any IP SANs",
		},
		{
			name:       "wrong CA",
			config:     client.Config{URL: "https://" + serverName, DialAddress: addr(byName), CABundle: informertest.NewCA(t).PEM},
			wantReason: client.ReasonUnreachable, wantErr: "certificate signed by unknown authority",
		},
		{
			name:       "the system's CAs",
			config:     client.Config{URL: "https://" + serverName, DialAddress: addr(byName)},
			wantReason: client.ReasonUnreachable, wantErr: "certificate signed by unknown authority",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := client.New(tt.config)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, err = c.Discover(context.Background())
			checkError(t, err, tt.wantReason, tt.wantErr)
		})
	}

	t.Run("unreachable, when asking for insights", func(t *testing.T) {
		c, err := client.New(client.Config{URL: "https://" + serverName, DialAddress: addr(byName), CABundle: informertest.NewCA(t).PEM})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = c.StatusInsights(context.Background(), request, time.Second)
		checkError(t, err, client.ReasonUnreachable, "certificate signed by unknown authority")
	})
}

// seen is what an informer saw of the requests made to it.
type seen struct {
	Method         string
	HasBody        bool
	Authorization  string
	Cookies        int
	ClientCerts    int
	ContentType    string
	ProxyAuthority string
}

func TestNoCredentialsEverSent(t *testing.T) {
	ca := informertest.NewCA(t)
	var mu sync.Mutex
	var got []seen
	h := mustHandler(t, informertest.StatusAndPlan{
		StatusFunc: func(context.Context, *protocol.UpdateInsightsRequest) (*protocol.UpdateInsightsResponse, error) {
			return &protocol.UpdateInsightsResponse{}, nil
		},
		PlanFunc: func(context.Context, *protocol.UpdatePlanInsightsRequest) (*protocol.UpdatePlanInsightsResponse, error) {
			return &protocol.UpdatePlanInsightsResponse{}, nil
		},
	})
	server := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, seen{
			Method: r.Method, HasBody: len(body) > 0, Authorization: r.Header.Get("Authorization"),
			Cookies: len(r.Cookies()), ClientCerts: len(r.TLS.PeerCertificates), ContentType: r.Header.Get("Content-Type"),
			ProxyAuthority: r.Header.Get("Proxy-Authorization"),
		})
		mu.Unlock()
		// A cookie the client must not send back.
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s"})
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		h.ServeHTTP(w, r)
	}))
	// Ask for a client certificate, to see whether one is presented.
	server.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Serving(t, []string{serverName})}, ClientAuth: tls.RequestClientCert}
	server.StartTLS()
	defer server.Close()

	c, err := client.New(client.Config{URL: "https://" + serverName, DialAddress: addr(server), CABundle: ca.PEM})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Discover(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := c.StatusInsights(ctx, request, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.PlanInsights(ctx, &protocol.UpdatePlanInsightsRequest{Spec: protocol.RequestSpec{TargetControlPlaneVersion: "4.17.0"}}, time.Second); err != nil {
		t.Fatal(err)
	}

	want := []seen{
		{Method: http.MethodGet},
		{Method: http.MethodGet, HasBody: true, ContentType: protocol.ContentType},
		{Method: http.MethodGet, HasBody: true, ContentType: protocol.ContentType},
		{Method: http.MethodPost, HasBody: true, ContentType: protocol.ContentType},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestNewRefuses(t *testing.T) {
	tests := []struct {
		name   string
		config client.Config
		want   string
	}{
		{name: "http", config: client.Config{URL: "http://informer.example.com"}, want: "want https"},
		{name: "no host", config: client.Config{URL: "https:///path"}, want: "want a host"},
		{name: "user information", config: client.Config{URL: "https://me:secret@informer.example.com"}, want: "want no user information"},
		{name: "query", config: client.Config{URL: "https://informer.example.com/?token=x"}, want: "want no query or fragment"},
		{name: "empty query", config: client.Config{URL: "https://informer.example.com/?"}, want: "want no query or fragment"},
		{name: "fragment", config: client.Config{URL: "https://informer.example.com/#x"}, want: "want no query or fragment"},
		{name: "empty fragment", config: client.Config{URL: "https://informer.example.com/#"}, want: "want no query or fragment"},
		{name: "CA bundle without a certificate", config: client.Config{URL: "https://informer.example.com", CABundle: []byte("nope")},
			want: "the CA bundle holds no PEM certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := client.New(tt.config)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New error %v, want one saying %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("New error %q quotes the password", err)
			}
		})
	}
}

func addr(server *httptest.Server) string { return server.Listener.Addr().String() }
