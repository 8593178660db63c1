package console

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// browseSpec is what console-plugin/e2e/browse.js does in the browser.
type browseSpec struct {
	URL        string `json:"url"`
	Mode       string `json:"mode"`
	User       string `json:"user,omitempty"`
	Plan       string `json:"plan,omitempty"`
	Identity   string `json:"identity,omitempty"`
	Screenshot string `json:"screenshot,omitempty"`
	Section    string `json:"section,omitempty"`
	// Namespace and Name are the HostedCluster whose tab to open, or whose
	// link to follow from the hosted clusters' page.
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	// Records are the updates to choose in turn in the update history.
	Records []string `json:"records,omitempty"`
	// Now fixes the page's clock (RFC 3339).
	Now string `json:"now,omitempty"`
}

// pageFacts is what browse.js reads from the tab.
type pageFacts struct {
	// Wrapped are the cells of columns kept on one line that wrapped.
	Wrapped []string `json:"wrapped"`
	// Nav are the navigation items the plugin adds.
	Nav                  []navFacts     `json:"nav"`
	ControlPlaneProgress *progressFacts `json:"controlPlaneProgress"`
	Warnings             []string       `json:"warnings"`
	// Operators are the updating operators' rows: name, since, reason,
	// message.
	Operators [][]string `json:"operators"`
	// WholeMessages are, by node, the messages shown once a node's row
	// that cuts its message is expanded.
	WholeMessages map[string]string `json:"wholeMessages"`
	NotUpdating   []string          `json:"notUpdating"`
	ControlPlane  *struct {
		Terms     map[string]string `json:"terms"`
		Completed *string           `json:"completed"`
		Text      string            `json:"text"`
	} `json:"controlPlane"`
	Pools []struct {
		Name       string     `json:"name"`
		Title      string     `json:"title"`
		Completion string     `json:"completion"`
		Status     string     `json:"status"`
		Phases     []string   `json:"phases"`
		Nodes      [][]string `json:"nodes"`
		// Severity is the status of the pool's label, "none" without one.
		Severity *string        `json:"severity"`
		Progress *progressFacts `json:"progress"`
		// NodeSeverity is the status of each node's assessment label.
		NodeSeverity map[string]*string `json:"nodeSeverity"`
	} `json:"pools"`
	Health []struct {
		Level   string `json:"level"`
		Message string `json:"message"`
		Text    string `json:"text"`
		// Terms are the insight's details: Since, Impact, Scope,
		// Reference, Resources (one a line), Description.
		Terms map[string]string `json:"terms"`
	} `json:"health"`
	Informers [][]string `json:"informers"`
	Plans     []struct {
		Name     string `json:"name"`
		Findings []struct {
			Identity       string   `json:"identity"`
			Cells          []string `json:"cells"`
			AcceptDisabled bool     `json:"acceptDisabled"`
		} `json:"findings"`
		NotAllowed *string `json:"notAllowed"`
		Error      *string `json:"error"`
	} `json:"plans"`
}

// navFacts is a navigation item: its name, link and section.
type navFacts struct {
	Name    string `json:"name"`
	Href    string `json:"href"`
	Section string `json:"section"`
}

// progressFacts is what a progress bar shows: its measure ("58%") and
// its status variant (danger, warning, success or none).
type progressFacts struct {
	Measure string `json:"measure"`
	Variant string `json:"variant"`
}

// overviewFacts is what browse.js reads from the Overview's status line.
type overviewFacts struct {
	State    string `json:"state"`
	Message  string `json:"message"`
	Popup    string `json:"popup"`
	Link     string `json:"link"`
	Followed string `json:"followed"`
}

type browseResult struct {
	Facts   json.RawMessage `json:"facts"`
	Timings struct {
		FirstData float64 `json:"firstData"`
		Settled   float64 `json:"settled"`
	} `json:"timings"`
	Errors   []string `json:"errors"`
	Accepted *struct {
		Plan     string `json:"plan"`
		Identity string `json:"identity"`
	} `json:"accepted"`
}

// browse runs browse.js and fails the test on any page error or console
// error or warning.
func browse(t testing.TB, spec browseSpec, facts any) browseResult {
	t.Helper()
	if spec.Screenshot != "" {
		spec.Screenshot = filepath.Join(artefacts, spec.Screenshot)
	}
	arg, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(pluginDir, "e2e", "browse.js"), string(arg))
	cmd.Dir = pluginDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("browse.js %s: %v\n%s", arg, err, stderr.String())
	}
	var r browseResult
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("browse.js printed %q: %v", stdout.String(), err)
	}
	if len(r.Errors) > 0 {
		t.Errorf("the browser reported, on %s as %q:\n%s", spec.Mode, spec.User, strings.Join(r.Errors, "\n"))
	}
	if facts != nil {
		if err := json.Unmarshal(r.Facts, facts); err != nil {
			t.Fatalf("browse.js facts %s: %v", r.Facts, err)
		}
	}
	if spec.Screenshot != "" {
		t.Logf("screenshot: %s", spec.Screenshot)
	}
	return r
}
