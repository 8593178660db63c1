package alerts

import (
	"context"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
)

const firingAnswer = `{"status":"success","data":{"alerts":[{"labels":{"alertname":"KubePodNotReady","severity":"warning"},"state":"firing","activeAt":"2024-08-02T10:00:00Z"}]}}`

// writeFile writes content to a file of the test's and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// serverCA returns the PEM of the certificate a TLS test server presents,
// and nothing for a plain http one.
func serverCA(server *httptest.Server) string {
	if server.Certificate() == nil {
		return ""
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: server.Certificate().Raw}))
}

func TestHTTPSource(t *testing.T) {
	var gotAuthorization string
	handler := func(status int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			gotAuthorization = r.Header.Get("Authorization")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}
	}
	token := writeFile(t, "token", "sekret\n")

	tests := []struct {
		name      string
		handler   http.HandlerFunc
		plainHTTP bool
		wrongCA   bool
		wantErr   string
		wantAuth  string
	}{
		{name: "https with the service CA and the token", handler: handler(http.StatusOK, firingAnswer), wantAuth: "Bearer sekret"},
		{name: "plain http never carries the token", handler: handler(http.StatusOK, firingAnswer), plainHTTP: true},
		{name: "a server the CA did not sign", handler: handler(http.StatusOK, firingAnswer), wrongCA: true, wantErr: "certificate signed by unknown authority"},
		{name: "forbidden", handler: handler(http.StatusForbidden, "Forbidden (user=system:serviceaccount:x:y, verb=get, resource=prometheuses)\n"),
			wantAuth: "Bearer sekret", wantErr: "answered 403 Forbidden: Forbidden (user=system:serviceaccount:x:y, verb=get, resource=prometheuses)"},
		{name: "garbage", handler: handler(http.StatusOK, "<html>oops</html>"), wantAuth: "Bearer sekret", wantErr: "the alerts answer is not the Prometheus API's JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotAuthorization = ""
			var server *httptest.Server
			if tt.plainHTTP {
				server = httptest.NewServer(tt.handler)
			} else {
				server = httptest.NewTLSServer(tt.handler)
			}
			defer server.Close()
			ca := serverCA(server)
			if tt.wrongCA {
				// Every httptest server presents the same certificate:
				// a CA of the test's own signed none of them.
				ca = string(informertest.NewCA(t).PEM)
			}
			caFile := ""
			if ca != "" {
				caFile = writeFile(t, "ca.crt", ca)
			}
			source, err := NewHTTPSource(server.URL+"/api/v1/alerts", caFile, token)
			if err != nil {
				t.Fatal(err)
			}
			got, err := source.Alerts(context.Background())
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one that says %q", err, tt.wantErr)
			case tt.wantErr == "" && (len(got) != 1 || got[0].Name() != "KubePodNotReady"):
				t.Errorf("alerts %+v, want KubePodNotReady", got)
			}
			if gotAuthorization != tt.wantAuth {
				t.Errorf("Authorization %q, want %q", gotAuthorization, tt.wantAuth)
			}
		})
	}
}

// A Prometheus that does not answer in time holds a read only as long as
// its context allows, and the read says that time ran out, however the
// server ends the answer once the client has gone.
func TestHTTPSourceGivesUpOnASlowServer(t *testing.T) {
	for _, tt := range []struct{ name, start string }{
		{name: "no answer", start: ""},
		{name: "an answer begun", start: firingAnswer[:len(firingAnswer)/2]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The server answers nothing more until the client goes: only
			// the deadline ends the read, whatever the machine's load.
			server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.start != "" {
					_, _ = w.Write([]byte(tt.start))
					w.(http.Flusher).Flush()
				}
				<-r.Context().Done()
			}))
			defer server.Close()
			source, err := NewHTTPSource(server.URL, "", "")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			want := "no answer from " + server.URL + " in time: context deadline exceeded"
			if _, err := source.Alerts(ctx); err == nil || err.Error() != want {
				t.Errorf("error %v, want %q", err, want)
			}
		})
	}
}

func TestNewHTTPSourceRefusesWhatIsNoURL(t *testing.T) {
	for _, raw := range []string{"thanos-querier:9091", "ftp://example.com/alerts", "https://", "http://a b/"} {
		if _, err := NewHTTPSource(raw, "", ""); err == nil {
			t.Errorf("NewHTTPSource(%q) succeeded, want an error", raw)
		}
	}
}

func TestHTTPSourceSaysWhatIsWrongWithItsFiles(t *testing.T) {
	server := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(firingAnswer)) }))
	defer server.Close()
	tests := []struct{ name, ca, token, wantErr string }{
		{name: "no CA file", ca: filepath.Join(t.TempDir(), "missing"), token: "", wantErr: "reading the CA for the alerts"},
		{name: "a CA file without a certificate", ca: writeFile(t, "ca.crt", "not a certificate"), wantErr: "holds no PEM certificate"},
		{name: "no token file", ca: writeFile(t, "ca.crt", serverCA(server)), token: filepath.Join(t.TempDir(), "missing"), wantErr: "reading the token for the alerts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			source, err := NewHTTPSource(server.URL, tt.ca, tt.token)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := source.Alerts(context.Background()); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one that says %q", err, tt.wantErr)
			}
		})
	}
}
