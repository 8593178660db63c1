// Package consolestandin serves the console stand-in that the console
// plugin's browser tests and run-local load (console-plugin/e2e, described
// in docs/console-plugin.md): the stand-in page, the built plugin under
// /api/plugins/<name>/ where the console's backend serves a plugin's
// assets, PatternFly's styles (the console ships them, the plugin does
// not), and a proxy to the kube-apiserver under /api/kubernetes/, as the
// console's backend proxies it for the browser.
//
// The proxy authenticates as whoever the rest.Config is (the test API
// server's administrator) or, for a request carrying the stand-in's
// console-standin-user cookie, impersonates that user: the console sends
// the logged-in user's token instead, which a test cannot mint. It passes
// WebSocket upgrades through, which the stand-in's watches use, as the
// console's do.
package consolestandin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

// PluginName is the plugin's name, package.json's consolePlugin.name.
const PluginName = "update-insights-console-plugin"

// UserCookie names the user a request is made as: the stand-in sets it
// for a page opened with ?user=NAME (console-plugin/e2e/standin/api.ts).
const UserCookie = "console-standin-user"

// Server is the running stand-in.
type Server struct {
	// URL is where the stand-in is served, such as http://127.0.0.1:9000.
	URL string
	srv *http.Server
}

// Start serves the stand-in on addr (host:port; port 0 picks a free one)
// from the console plugin's directory, which must hold the built plugin
// (make console-plugin: dist/) and the built stand-in (make console-standin:
// e2e/dist/), proxying /api/kubernetes/ to the API server of cfg.
func Start(cfg *rest.Config, pluginDir, addr string) (*Server, error) {
	for _, f := range []string{"dist/plugin-manifest.json", "e2e/dist/standin.js"} {
		if _, err := os.Stat(filepath.Join(pluginDir, f)); err != nil {
			return nil, fmt.Errorf("the console stand-in needs the built plugin and stand-in (make console-standin): %w", err)
		}
	}
	css, err := patternflyCSS(filepath.Join(pluginDir, "node_modules", "@patternfly"))
	if err != nil {
		return nil, err
	}
	proxy, err := apiProxy(cfg)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/api/kubernetes/", http.StripPrefix("/api/kubernetes", proxy))
	mux.Handle("/api/plugins/"+PluginName+"/", http.StripPrefix("/api/plugins/"+PluginName+"/", http.FileServer(http.Dir(filepath.Join(pluginDir, "dist")))))
	mux.Handle("/standin/assets/", http.StripPrefix("/standin/assets/", http.FileServer(http.Dir(filepath.Join(pluginDir, "node_modules", "@patternfly", "react-core", "dist", "styles", "assets")))))
	mux.HandleFunc("/standin/patternfly.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		_, _ = w.Write(css)
	})
	mux.Handle("/standin/", http.StripPrefix("/standin/", http.FileServer(http.Dir(filepath.Join(pluginDir, "e2e", "dist")))))
	// Every other path is the page, which routes in the browser as the
	// console's does: /settings/cluster/update-insights, /dashboards.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops serving, ending the watches the proxy streams.
func (s *Server) Close() error {
	return s.srv.Close()
}

const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Console stand-in</title>
<link rel="stylesheet" href="/standin/patternfly.css">
</head>
<body>
<div id="app"></div>
<script src="/standin/standin.js"></script>
</body>
</html>
`

// apiProxy forwards to the API server with cfg's credentials, streaming
// watches as they come.
func apiProxy(cfg *rest.Config) (http.Handler, error) {
	target, err := url.Parse(cfg.Host)
	if err != nil {
		return nil, err
	}
	transport, err := rest.TransportFor(cfg)
	if err != nil {
		return nil, err
	}
	return &httputil.ReverseProxy{
		Transport:     transport,
		FlushInterval: -1,
		// A page closed while its watches run cancels them: no error.
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if !errors.Is(err, context.Canceled) {
				http.Error(w, err.Error(), http.StatusBadGateway)
			}
		},
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			for name := range r.Out.Header {
				if strings.HasPrefix(http.CanonicalHeaderKey(name), "Impersonate-") {
					r.Out.Header.Del(name)
				}
			}
			// The page's cookies are the stand-in's, not the API server's.
			// Its Origin stays: the API server refuses a WebSocket watch
			// without one (golang.org/x/net/websocket's Handler).
			r.Out.Header.Del("Cookie")
			if c, err := r.In.Cookie(UserCookie); err == nil && c.Value != "" {
				if user, err := url.QueryUnescape(c.Value); err == nil {
					r.Out.Header.Set("Impersonate-User", user)
				}
			}
		},
	}, nil
}

// patternflyCSS is PatternFly 6's base styles and every component's,
// layout's and utility's, which the console loads for its plugins.
func patternflyCSS(patternfly string) ([]byte, error) {
	base := filepath.Join(patternfly, "react-core", "dist", "styles", "base.css")
	b, err := os.ReadFile(base)
	if err != nil {
		return nil, fmt.Errorf("PatternFly's styles (make console-plugin installs them): %w", err)
	}
	css := bytes.NewBuffer(b)
	// base.css finds its fonts under ./assets: /standin/assets.
	var files []string
	for _, dir := range []string{"components", "layouts", "utilities"} {
		root := filepath.Join(patternfly, "react-styles", "css", dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".css") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if len(files) == 0 {
		return nil, errors.New("no PatternFly component styles under " + patternfly)
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		css.WriteString("\n")
		css.Write(b)
	}
	return css.Bytes(), nil
}
