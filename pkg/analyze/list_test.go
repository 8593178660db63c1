package analyze_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/output"
	"github.com/update-insights/update-insights-operator/pkg/recorded"
)

// TestListReadsBackAsTheInsights prints the insights of a recorded cluster
// with every kind of insight as analyze does, and reads the output back as
// `status --from` does: the same typed objects, kind included, and nothing
// that an object no API server stored marshals with.
func TestListReadsBackAsTheInsights(t *testing.T) {
	c := recordedtest.CaseNamed(t, "4.14.1-degraded")
	// The API serializes times to the second, as the recorded ones are.
	insights := analyze.Insights(c.Cluster, c.Now.Truncate(time.Second))
	want := make([]runtime.Object, 0, len(insights))
	kinds := map[string]bool{}
	for _, i := range insights {
		want = append(want, i.Object)
		kinds[i.Object.GetObjectKind().GroupVersionKind().Kind] = true
	}
	if len(kinds) != 5 {
		t.Fatalf("the case has insights of the kinds %v, want all five", kinds)
	}
	list, err := analyze.List(insights)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []output.Format{output.YAML, output.JSON} {
		t.Run(string(format), func(t *testing.T) {
			var out bytes.Buffer
			if err := output.Write(&out, list, format); err != nil {
				t.Fatal(err)
			}
			for _, noise := range []string{"creationTimestamp", "spec", "null"} {
				if strings.Contains(out.String(), noise) {
					t.Errorf("the output holds %q", noise)
				}
			}
			path := filepath.Join(t.TempDir(), "insights."+string(format))
			if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := recorded.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("read back (-analyzed +read):\n%s", diff)
			}
		})
	}
}

func TestListOfNoInsightIsEmpty(t *testing.T) {
	list, err := analyze.List(nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := output.Write(&out, list, output.YAML); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("apiVersion: v1\nitems: []\nkind: List\n", out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
