package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"

	"github.com/update-insights/update-insights-operator/test/internal/consolestandin"
)

// startConsole serves the console plugin, built, with the console stand-in
// on the local cluster (docs/console-plugin.md), so that a browser shows
// the tab while the update plays. Without a built plugin and stand-in it
// says how to build them and serves nothing (nil). With check, it fetches
// the plugin's manifest and an insight list through the stand-in.
func startConsole(cfg *rest.Config, dir, addr string, check bool) (*consolestandin.Server, error) {
	if _, err := os.Stat(filepath.Join(dir, "e2e", "dist", "standin.js")); errors.Is(err, os.ErrNotExist) {
		say("not serving the console plugin: it and its stand-in are not built (make console-standin)")
		return nil, nil
	}
	s, err := consolestandin.Start(cfg, dir, addr)
	if err != nil {
		return nil, fmt.Errorf("serving the console plugin: %w", err)
	}
	say("serving the console plugin in the console stand-in: open %s/settings/cluster/update-insights (Overview: %s/dashboards)", s.URL, s.URL)
	if check {
		for _, path := range []string{"/api/plugins/" + consolestandin.PluginName + "/plugin-manifest.json", "/api/kubernetes/apis/openshift.muller.dev/v1alpha1/clusterversionprogressinsights"} {
			if err := fetchOK(s.URL + path); err != nil {
				_ = s.Close()
				return nil, fmt.Errorf("the console stand-in: %w", err)
			}
		}
		say("the console stand-in serves the plugin's manifest and the insights")
	}
	return s, nil
}

// fetchOK gets url until it answers 200 OK. An API server just started, and
// busy with the operator's first lists, may answer 429 Too Many Requests (or
// a 5xx) and ask to be asked again, as client-go does by itself; any other
// answer, or still none within fetchPatience, is the error.
func fetchOK(url string) error {
	var last error
	err := wait.PollUntilContextTimeout(context.Background(), time.Second, fetchPatience, true, func(context.Context) (bool, error) {
		resp, err := http.Get(url)
		if err != nil {
			last = err
			return false, nil
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		switch {
		case resp.StatusCode == http.StatusOK:
			return true, nil
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= http.StatusInternalServerError:
			last = fmt.Errorf("GET %s: %s", url, resp.Status)
			return false, nil
		}
		return false, fmt.Errorf("GET %s: %s", url, resp.Status)
	})
	if err != nil && last != nil && wait.Interrupted(err) {
		return last
	}
	return err
}

// fetchPatience is how long fetchOK asks again an API server that asks to
// be asked again.
const fetchPatience = 30 * time.Second
