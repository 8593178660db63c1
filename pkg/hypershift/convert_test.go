package hypershift

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestConvertKeepsWhatIsReadAndNamesWhatIsMalformed(t *testing.T) {
	nodePool := func(status map[string]any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "hypershift.openshift.io/v1beta1", "kind": "NodePool",
			"metadata": map[string]any{"namespace": "clusters", "name": "workers",
				"managedFields": []any{map[string]any{"manager": "hypershift-operator"}}},
			"spec": map[string]any{"clusterName": "prod", "release": map[string]any{"image": "quay.io/r:4.17.3"},
				"platform":   map[string]any{"type": "AWS", "aws": map[string]any{"instanceType": "m5.large"}},
				"management": map[string]any{"upgradeType": "Replace"}},
			"status": status,
		}}
	}
	t.Run("kept", func(t *testing.T) {
		got, err := Convert[NodePool](nodePool(map[string]any{"version": "4.17.2", "replicas": int64(3)}))
		if err != nil {
			t.Fatal(err)
		}
		want := &NodePool{
			TypeMeta:   metav1.TypeMeta{APIVersion: "hypershift.openshift.io/v1beta1", Kind: "NodePool"},
			ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "workers"},
			Spec:       NodePoolSpec{ClusterName: "prod", Release: Release{Image: "quay.io/r:4.17.3"}, Management: NodePoolManagement{UpgradeType: UpgradeTypeReplace}},
			Status:     NodePoolStatus{Version: "4.17.2", Replicas: 3},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("malformed", func(t *testing.T) {
		_, err := Convert[NodePool](nodePool(map[string]any{"version": map[string]any{"not": "a string"}}))
		if err == nil || !strings.Contains(err.Error(), "NodePool clusters/workers") {
			t.Errorf("error %v, want one naming NodePool clusters/workers", err)
		}
	})
}

func TestTransformKeepsAMalformedObjectsIdentity(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Machine",
		"metadata": map[string]any{"namespace": "clusters-prod", "name": "workers-x7k2p", "uid": "u1"},
		"status":   map[string]any{"phase": []any{"not", "a", "string"}},
	}}
	got, err := Transform[Machine](u)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := got.(*Malformed)
	if !ok {
		t.Fatalf("got %T, want *Malformed", got)
	}
	if m.Namespace != "clusters-prod" || m.Name != "workers-x7k2p" || m.UID != "u1" || !strings.Contains(m.Err, "Machine clusters-prod/workers-x7k2p") {
		t.Errorf("got %+v, want the Machine's identity and an error naming it", m)
	}
}

func TestTransformKeepsAMalformedNodePoolsCluster(t *testing.T) {
	for _, tc := range []struct {
		name        string
		clusterName any
		want        string
	}{
		{name: "a string", clusterName: "prod", want: "prod"},
		{name: "not a string", clusterName: int64(7), want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "hypershift.openshift.io/v1beta1", "kind": "NodePool",
				"metadata": map[string]any{"namespace": "clusters", "name": "workers"},
				"spec":     map[string]any{"clusterName": tc.clusterName, "replicas": "three"},
			}}
			got, _ := Transform[NodePool](u)
			m, ok := got.(*Malformed)
			if !ok {
				t.Fatalf("got %T, want *Malformed", got)
			}
			if m.ClusterName != tc.want {
				t.Errorf("ClusterName %q, want %q", m.ClusterName, tc.want)
			}
		})
	}
}
