package recorded

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

const clusterOperator = `apiVersion: config.openshift.io/v1
kind: ClusterOperator
metadata:
  name: %s
`

func co(name string) string { return strings.ReplaceAll(clusterOperator, "%s", name) }

func names(t *testing.T, objs []runtime.Object) []string {
	t.Helper()
	var out []string
	for _, o := range objs {
		m, err := meta.Accessor(o)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m.GetName())
	}
	return out
}

func TestRead(t *testing.T) {
	testCases := []struct {
		name    string
		content string
		want    []string
	}{
		{name: "one object", content: co("etcd"), want: []string{"etcd"}},
		{name: "documents, comments and empty ones", content: "# recorded\n---\n" + co("etcd") + "---\n# nothing here\n---\n" + co("dns"), want: []string{"etcd", "dns"}},
		{name: "a v1 List", content: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: config.openshift.io/v1\n  kind: ClusterOperator\n  metadata:\n    name: etcd\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: worker-0\n", want: []string{"etcd", "worker-0"}},
		{name: "a typed list", content: "apiVersion: config.openshift.io/v1\nkind: ClusterOperatorList\nitems:\n- metadata:\n    name: etcd\n", want: []string{"etcd"}},
		{name: "JSON", content: `{"apiVersion": "config.openshift.io/v1", "kind": "ClusterOperator", "metadata": {"name": "etcd"}}`, want: []string{"etcd"}},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "objects.yaml")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			objs, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, names(t, objs)); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadFolderReadsItsObjectFilesInOrder(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"b.yaml": co("b"), "a.yml": co("a"), "c.json": `{"apiVersion":"config.openshift.io/v1","kind":"ClusterOperator","metadata":{"name":"c"}}`, "notes.txt": "not read"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	objs, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, names(t, objs)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
}

func TestReadNamesTheFileAtFault(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(co("fine")), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "b.yaml")
	if err := os.WriteFile(bad, []byte("kind: [unclosed"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(dir)
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("error %v does not name %s", err, bad)
	}
}

// A null document, or a list's null item, is an error naming it, not an
// object: the callers name the kind of what they read.
func TestReadRefusesNullObjects(t *testing.T) {
	for _, tc := range []struct {
		name, content, want string
	}{
		{"a list's bare item", "apiVersion: v1\nkind: List\nitems:\n-\n", "item 0 of the List is null"},
		{"a list's null item after a good one", "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSpace(co("fine")), "\n", "\n  ") + "\n- null\n", "item 1 of the List is null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "list.yaml")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			objects, err := Read(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("objects %v, error %v; want an error naming %s and saying %q", objects, err, path, tc.want)
			}
		})
	}
	if got := KindOf(nil); got != "null object" {
		t.Errorf("KindOf(nil) = %q", got)
	}
}

// What `analyze` prints: a v1 List of insights with only a name and a status.
const insights = `apiVersion: v1
kind: List
items:
- apiVersion: openshift.muller.dev/v1alpha1
  kind: ClusterVersionProgressInsight
  metadata:
    name: version
  status:
    assessment: Progressing
    completionPercent: 42
    name: version
    versions:
      target:
        version: 4.16.1
- apiVersion: openshift.muller.dev/v1alpha1
  kind: NodeProgressInsight
  metadata:
    name: worker-0
  status:
    name: worker-0
    estimatedToComplete: 10m0s
`

func TestReadDecodesInsights(t *testing.T) {
	path := filepath.Join(t.TempDir(), "insights.yaml")
	if err := os.WriteFile(path, []byte(insights), 0o644); err != nil {
		t.Fatal(err)
	}
	objs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 {
		t.Fatalf("got %d objects, want 2", len(objs))
	}
	cv, ok := objs[0].(*insightsv1alpha1.ClusterVersionProgressInsight)
	if !ok {
		t.Fatalf("first object is a %T, want a ClusterVersionProgressInsight", objs[0])
	}
	if cv.Status.CompletionPercent != 42 || cv.Status.Versions.Target.Version != "4.16.1" {
		t.Errorf("ClusterVersionProgressInsight status decoded as %+v", cv.Status)
	}
	node, ok := objs[1].(*insightsv1alpha1.NodeProgressInsight)
	if !ok {
		t.Fatalf("second object is a %T, want a NodeProgressInsight", objs[1])
	}
	if node.Status.EstimatedToComplete == nil || node.Status.EstimatedToComplete.Duration != 10*time.Minute {
		t.Errorf("NodeProgressInsight estimate decoded as %v", node.Status.EstimatedToComplete)
	}
}
