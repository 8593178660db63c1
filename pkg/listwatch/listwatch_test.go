package listwatch

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

// The list and the watch both carry the selector, over options of their
// own.
func TestSelectedRestrictsTheListAndTheWatch(t *testing.T) {
	for _, tc := range []struct {
		name     string
		restrict func(*metav1.ListOptions)
		want     []string
	}{
		{"by field", ByField(fields.OneTermEqualSelector("metadata.name", "a")), []string{"list fields=metadata.name=a labels=", "watch fields=metadata.name=a labels="}},
		{"by label", ByLabel(labels.SelectorFromSet(labels.Set{"app": "b"})), []string{"list fields= labels=app=b", "watch fields= labels=app=b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := fake.NewClientset()
			pods := client.CoreV1().Pods("ns")
			lw := Selected(tc.restrict, pods.List, pods.Watch)
			if _, err := lw.ListWithContext(context.Background(), metav1.ListOptions{ResourceVersion: "0"}); err != nil {
				t.Fatal(err)
			}
			w, err := lw.WatchWithContext(context.Background(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			w.Stop()
			var got []string
			for _, a := range client.Actions() {
				switch a := a.(type) {
				case clienttesting.ListAction:
					r := a.GetListRestrictions()
					got = append(got, "list fields="+r.Fields.String()+" labels="+r.Labels.String())
				case clienttesting.WatchAction:
					r := a.GetWatchRestrictions()
					got = append(got, "watch fields="+r.Fields.String()+" labels="+r.Labels.String())
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}
