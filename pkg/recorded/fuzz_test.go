package recorded

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// FuzzParse reads arbitrary files as recorded objects: an error, or objects
// of the scheme's kinds, never a null one, none a list (lists are
// flattened), the same for the same content. It reads from bytes: writing
// a file per input would make the disk, not the parser, what is measured.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"4.15.0-ec2-early-cv.yaml", "4.14.1-degraded-mcp.yaml", "4.14.1-degraded-node.yaml"} {
		content, err := os.ReadFile(filepath.Join("..", "..", "test", "testdata", "oc-examples", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(content)
	}
	for _, s := range []string{
		co("etcd"),
		"# recorded\n---\n" + co("etcd") + "---\n# nothing here\n---\n" + co("dns"),
		"apiVersion: v1\nkind: List\nitems:\n- apiVersion: config.openshift.io/v1\n  kind: ClusterOperator\n  metadata:\n    name: etcd\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: worker-0\n",
		"apiVersion: v1\nkind: List\nitems:\n-\n",
		"apiVersion: config.openshift.io/v1\nkind: ClusterOperatorList\nitems:\n- metadata:\n    name: etcd\n",
		`{"apiVersion": "config.openshift.io/v1", "kind": "ClusterOperator", "metadata": {"name": "etcd"}}`,
		"a: &a [*a, *a]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		objects, err := Parse(content)
		if err != nil {
			if objects != nil {
				t.Errorf("objects with the error %v", err)
			}
			return
		}
		var kinds []string
		for i, o := range objects {
			switch {
			case o == nil:
				t.Fatalf("object %d is null", i)
			case meta.IsListType(o):
				t.Errorf("object %d is a %s, which should have been flattened", i, KindOf(o))
			}
			if _, ok := o.(*runtime.Unknown); ok {
				t.Errorf("object %d was not decoded", i)
			}
			kinds = append(kinds, KindOf(o))
		}
		again, err := Parse(content)
		if err != nil || len(again) != len(objects) {
			t.Fatalf("read again: %d objects, %v; first %d", len(again), err, len(objects))
		}
		var kindsAgain []string
		for _, o := range again {
			kindsAgain = append(kindsAgain, KindOf(o))
		}
		if strings.Join(kinds, ",") != strings.Join(kindsAgain, ",") {
			t.Errorf("read %v, then %v", kinds, kindsAgain)
		}
	})
}
