package olmoperators

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	operatorsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/olm/apis/operators/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/olm/generated/clientset/versioned/fake"
)

// The CSVs are listed and watched without OLM's copies, as OLM selects
// them; the Subscriptions and InstallPlans whole.
func TestTheCSVsAreListedAndWatchedWithoutCopies(t *testing.T) {
	client := fake.NewSimpleClientset()
	informers := NewInformers(client, 0)
	_, all := informers.Listers()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	informers.Start(ctx.Done())
	for _, i := range all {
		if !cache.WaitForCacheSync(ctx.Done(), i.HasSynced) {
			t.Fatal("the caches did not sync")
		}
	}
	cancel()
	informers.Shutdown()
	selectors := map[string]string{}
	for _, a := range client.Actions() {
		if l, ok := a.(clienttesting.ListAction); ok {
			selectors[a.GetVerb()+" "+a.GetResource().Resource] = l.GetListRestrictions().Labels.String()
		}
		if w, ok := a.(clienttesting.WatchAction); ok {
			selectors[a.GetVerb()+" "+a.GetResource().Resource] = w.GetWatchRestrictions().Labels.String()
		}
	}
	want := map[string]string{
		"list clusterserviceversions": "!olm.copiedFrom", "watch clusterserviceversions": "!olm.copiedFrom",
		"list subscriptions": "", "watch subscriptions": "",
		"list installplans": "", "watch installplans": "",
	}
	if diff := cmp.Diff(want, selectors); diff != "" {
		t.Errorf("label selectors by request (-want +got):\n%s", diff)
	}
	copied, err := labels.Parse(notCopied)
	if err != nil {
		t.Fatal(err)
	}
	if copied.Matches(labels.Set{operatorsv1alpha1.CopiedLabelKey: "openshift-operators"}) || !copied.Matches(labels.Set{"app": "x"}) {
		t.Errorf("selector %q selects copies, or misses originals", notCopied)
	}
}

func TestStripCSVKeepsWhatTheInsightsRead(t *testing.T) {
	csv := &operatorsv1alpha1.ClusterServiceVersion{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "etcd", Name: "etcdoperator.v0.9.4",
			Annotations: map[string]string{
				operatorsv1alpha1.PropertiesAnnotation:        `{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.17"}]}`,
				operatorsv1alpha1.OperatorNamespaceAnnotation: "etcd",
				"alm-examples":         `[{"apiVersion":"etcd.database.coreos.com/v1beta2","kind":"EtcdCluster"}]`,
				"olm.targetNamespaces": "etcd",
			},
			Labels:        map[string]string{operatorsv1alpha1.CopiedLabelKey: "etcd", "operators.coreos.com/etcd.etcd": "", "app": "etcd"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "olm"}},
		},
		Spec: operatorsv1alpha1.ClusterServiceVersionSpec{DisplayName: "etcd", Version: "0.9.4"},
	}
	got, err := StripCSV(csv.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	want := csv.DeepCopy()
	want.ManagedFields = nil
	want.Annotations = map[string]string{
		operatorsv1alpha1.PropertiesAnnotation:        csv.Annotations[operatorsv1alpha1.PropertiesAnnotation],
		operatorsv1alpha1.OperatorNamespaceAnnotation: "etcd",
	}
	// OLM's component label finds the Subscription of an old CSV it is
	// replacing, which the Subscription no longer names.
	want.Labels = map[string]string{operatorsv1alpha1.CopiedLabelKey: "etcd", "operators.coreos.com/etcd.etcd": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stripped CSV (-want +got):\n%s", diff)
	}
}
