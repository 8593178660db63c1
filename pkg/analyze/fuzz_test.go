package analyze_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/output"
)

// FuzzAnalyze feeds arbitrary ClusterVersion files to analyze: whatever the
// input, it returns an error or insights, and never panics. The seeds run
// with every `go test`; `go test -fuzz FuzzAnalyze ./pkg/analyze` explores.
func FuzzAnalyze(f *testing.F) {
	for _, name := range []string{"4.16.0-compact-cv.yaml", "4.15.0-ec2-early-cv.yaml", "not-upgrading-cv.yaml"} {
		content, err := os.ReadFile(recordedtest.Example(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(content)
	}
	f.Add([]byte("apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nstatus:\n  history:\n  - state: Completed\n  conditions:\n  - type: Progressing\n    status: \"False\"\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- apiVersion: config.openshift.io/v1\n  kind: ClusterVersion\n"))

	operators := recordedtest.Example("4.15.0-ec2-early-co.yaml")
	now := time.Date(2023, 11, 21, 15, 5, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, content []byte) {
		path := filepath.Join(t.TempDir(), "cv.yaml")
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := analyze.Load(analyze.Paths{ClusterVersions: path, ClusterOperators: operators})
		if err != nil {
			return
		}
		list, err := analyze.List(analyze.Insights(c, now))
		if err != nil {
			t.Fatalf("listing the insights: %v", err)
		}
		var out bytes.Buffer
		if err := output.Write(&out, list, output.YAML); err != nil {
			t.Fatalf("writing the insights: %v", err)
		}
	})
}
