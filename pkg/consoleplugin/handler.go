// Package consoleplugin serves the console plugin's built bundle (the
// webpack output of console-plugin/, with its plugin-manifest.json) to the
// OpenShift console, over the service CA's TLS, as the nginx of
// openshift/console-plugin-template serves its dist
// (charts/openshift-console-plugin/templates/configmap.yaml): static files,
// by path, and nothing else.
//
// The console's backend fetches the plugin's files from the Service the
// ConsolePlugin names, at https://<service>.<namespace>.svc.cluster.local:<port>/<basePath>
// (openshift/console-operator pkg/console/subresource/configmap/configmap.go,
// getServiceURL), and serves them to browsers under
// /api/plugins/<plugin name>/.
package consoleplugin

import (
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// ManifestFile is the file the console reads first: it names the plugin,
// its version, its extensions and its entry script.
const ManifestFile = "plugin-manifest.json"

// contentTypes are the types of the files webpack writes into the bundle.
// A fixed table rather than mime.TypeByExtension, which reads the machine's
// mime.types files and so could answer differently on another image; a
// type the browser is told exactly, with nosniff, is what it runs.
var contentTypes = map[string]string{
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".json":  "application/json",
	".map":   "application/json",
	".css":   "text/css; charset=utf-8",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".woff":  "font/woff",
	".woff2": "font/woff2",
	".txt":   "text/plain; charset=utf-8",
}

// defaultContentType is for a file of any other extension: the browser
// gets it as bytes, never as something to run or render.
const defaultContentType = "application/octet-stream"

// NotBuilt is what the server answers, with 503 Service Unavailable, when
// the binary was built without the plugin's bundle (a development build:
// the bundle is copied in by the Dockerfile, or by make
// console-plugin-bundle).
const NotBuilt = "the console plugin's bundle was not built into this binary: build it with `make console-plugin-bundle` before `make build`, as the Dockerfile does"

// Handler serves the files of bundle: GET and HEAD of a file by its path,
// with its content type and nosniff. It lists no directory, serves no file
// whose path has a part starting with a dot (the placeholder of a binary
// built without the bundle is one), and answers 503 for every path when
// bundle has no plugin manifest.
func Handler(bundle fs.FS) http.Handler {
	if _, err := fs.Stat(bundle, ManifestFile); err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, NotBuilt, http.StatusServiceUnavailable)
		})
	}
	return &handler{bundle: bundle}
}

type handler struct {
	bundle fs.FS
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "only GET and HEAD are served", http.StatusMethodNotAllowed)
		return
	}
	name, ok := fileName(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	f, err := h.bundle.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil || info.IsDir() {
		http.NotFound(w, r)
		return
	}
	content, ok := f.(io.ReadSeeker)
	if !ok {
		http.Error(w, name+" cannot be served", http.StatusInternalServerError)
		return
	}
	header := w.Header()
	header.Set("Content-Type", contentType(name))
	header.Set("X-Content-Type-Options", "nosniff")
	if name == ManifestFile {
		// The manifest names the entry script by its content hash: a
		// console must read it again to learn of a new build.
		header.Set("Cache-Control", "no-cache")
	}
	// ServeContent answers HEAD, ranges and conditional requests; the
	// embedded files have no modification time, so none is sent.
	http.ServeContent(w, r, name, time.Time{}, content)
}

// fileName returns the bundle's file that an URL path names, false when it
// names none: the root, a directory, a path that climbs out, or a part
// starting with a dot.
func fileName(urlPath string) (string, bool) {
	name := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" || strings.HasSuffix(urlPath, "/") || !fs.ValidPath(name) {
		return "", false
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return "", false
		}
	}
	return name, true
}

func contentType(name string) string {
	if t, ok := contentTypes[path.Ext(name)]; ok {
		return t
	}
	return defaultContentType
}
