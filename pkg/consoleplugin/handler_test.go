package consoleplugin

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

const manifest = `{"name":"update-insights-console-plugin","version":"0.0.1","baseURL":"/api/plugins/update-insights-console-plugin/"}`

// builtBundle has the files webpack writes, a directory and the
// placeholder a binary built without the bundle embeds.
func builtBundle() fstest.MapFS {
	return fstest.MapFS{
		ManifestFile:                     {Data: []byte(manifest)},
		"plugin-entry.0a1b2c.min.js":     {Data: []byte("window.__load_plugin_entry__();")},
		"245.0a1b2c.chunk.min.js":        {Data: []byte("chunk")},
		"245.0a1b2c.chunk.min.js.map":    {Data: []byte("{}")},
		"styles.css":                     {Data: []byte("a{}")},
		"locales/en/plugin__update.json": {Data: []byte("{}")},
		"245.LICENSE.bin":                {Data: []byte("bytes")},
		".placeholder":                   {Data: []byte("not built")},
	}
}

// response is what a test compares of an answer.
type response struct {
	Status       int
	ContentType  string
	NoSniff      bool
	CacheControl string
	Allow        string
	Body         string
}

func serve(t *testing.T, h http.Handler, method, target string) response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, target, nil))
	body, err := io.ReadAll(rec.Result().Body)
	if err != nil {
		t.Fatal(err)
	}
	header := rec.Result().Header
	got := response{
		Status:       rec.Code,
		ContentType:  header.Get("Content-Type"),
		NoSniff:      header.Get("X-Content-Type-Options") == "nosniff",
		CacheControl: header.Get("Cache-Control"),
		Allow:        header.Get("Allow"),
		Body:         string(body),
	}
	if got.Status != http.StatusOK {
		// Only whether an error has a body matters, not Go's wording.
		got.ContentType, got.NoSniff, got.Body = "", false, ""
	}
	return got
}

func TestHandlerServesTheBundlesFilesOnly(t *testing.T) {
	h := Handler(builtBundle())
	js := "text/javascript; charset=utf-8"
	for _, tc := range []struct {
		name, method, path string
		want               response
	}{{
		name: "the manifest, which the console reads again for a new build", method: http.MethodGet, path: "/plugin-manifest.json",
		want: response{Status: http.StatusOK, ContentType: "application/json", NoSniff: true, CacheControl: "no-cache", Body: manifest},
	}, {
		name: "HEAD of the manifest", method: http.MethodHead, path: "/plugin-manifest.json",
		want: response{Status: http.StatusOK, ContentType: "application/json", NoSniff: true, CacheControl: "no-cache"},
	}, {
		name: "the entry script", method: http.MethodGet, path: "/plugin-entry.0a1b2c.min.js",
		want: response{Status: http.StatusOK, ContentType: js, NoSniff: true, Body: "window.__load_plugin_entry__();"},
	}, {
		name: "a chunk", method: http.MethodGet, path: "/245.0a1b2c.chunk.min.js",
		want: response{Status: http.StatusOK, ContentType: js, NoSniff: true, Body: "chunk"},
	}, {
		name: "a source map", method: http.MethodGet, path: "/245.0a1b2c.chunk.min.js.map",
		want: response{Status: http.StatusOK, ContentType: "application/json", NoSniff: true, Body: "{}"},
	}, {
		name: "a style sheet", method: http.MethodGet, path: "/styles.css",
		want: response{Status: http.StatusOK, ContentType: "text/css; charset=utf-8", NoSniff: true, Body: "a{}"},
	}, {
		name: "a file in a directory", method: http.MethodGet, path: "/locales/en/plugin__update.json",
		want: response{Status: http.StatusOK, ContentType: "application/json", NoSniff: true, Body: "{}"},
	}, {
		name: "an unknown extension is bytes", method: http.MethodGet, path: "/245.LICENSE.bin",
		want: response{Status: http.StatusOK, ContentType: "application/octet-stream", NoSniff: true, Body: "bytes"},
	}, {
		name: "a path that climbs stays in the bundle", method: http.MethodGet, path: "/locales/../plugin-manifest.json",
		want: response{Status: http.StatusOK, ContentType: "application/json", NoSniff: true, CacheControl: "no-cache", Body: manifest},
	}, {
		name: "no index at the root", method: http.MethodGet, path: "/",
		want: response{Status: http.StatusNotFound},
	}, {
		name: "no directory listing", method: http.MethodGet, path: "/locales",
		want: response{Status: http.StatusNotFound},
	}, {
		name: "no directory listing with a slash", method: http.MethodGet, path: "/locales/en/",
		want: response{Status: http.StatusNotFound},
	}, {
		name: "a file with a trailing slash", method: http.MethodGet, path: "/plugin-manifest.json/",
		want: response{Status: http.StatusNotFound},
	}, {
		name: "a missing file", method: http.MethodGet, path: "/plugin-entry.ffffff.min.js",
		want: response{Status: http.StatusNotFound},
	}, {
		name: "no dot file", method: http.MethodGet, path: "/.placeholder",
		want: response{Status: http.StatusNotFound},
	}, {
		name: "no write", method: http.MethodPost, path: "/plugin-manifest.json",
		want: response{Status: http.StatusMethodNotAllowed, Allow: "GET, HEAD"},
	}, {
		name: "no delete", method: http.MethodDelete, path: "/styles.css",
		want: response{Status: http.StatusMethodNotAllowed, Allow: "GET, HEAD"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, serve(t, h, tc.method, tc.path)); diff != "" {
				t.Errorf("%s %s (-want +got):\n%s", tc.method, tc.path, diff)
			}
		})
	}
}

func TestHandlerAnswersUnavailableWithoutTheBuild(t *testing.T) {
	h := Handler(fstest.MapFS{".placeholder": {Data: []byte("not built")}})
	for _, path := range []string{"/plugin-manifest.json", "/", "/.placeholder", "/plugin-entry.0a1b2c.min.js"} {
		t.Run(path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			// http.Error ends the body with a newline.
			if want := NotBuilt + "\n"; rec.Code != http.StatusServiceUnavailable || rec.Body.String() != want {
				t.Errorf("GET %s = %d %q, want %d %q", path, rec.Code, rec.Body.String(), http.StatusServiceUnavailable, want)
			}
		})
	}
}
