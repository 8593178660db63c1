package status

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
)

func clusterVersion(completion int32) *insightsv1alpha1.ClusterVersionProgressInsight {
	return &insightsv1alpha1.ClusterVersionProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Status: insightsv1alpha1.ClusterVersionProgressInsightStatus{
			Name:              "version",
			Assessment:        insightsv1alpha1.ClusterVersionAssessmentProgressing,
			CompletionPercent: completion,
			Versions:          insightsv1alpha1.ControlPlaneUpdateVersions{Target: insightsv1alpha1.Version{Version: "4.16.1"}},
		},
	}
}

// notServed makes the fake cluster answer a list of resource as one without
// its CRD does.
func notServed(client *fake.Clientset, resource string) {
	client.PrependReactor("list", resource, func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(insightsv1alpha1.Resource(resource), "")
	})
}

func TestList(t *testing.T) {
	node := &insightsv1alpha1.NodeProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: "worker-0"}}
	operator := &insightsv1alpha1.ClusterOperatorProgressInsight{ObjectMeta: metav1.ObjectMeta{Name: "etcd"}}
	client := fake.NewSimpleClientset(clusterVersion(50), node, operator)
	notServed(client, "updatehealthinsights")

	in, err := list(context.Background(), client)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{"cv": len(in.ClusterVersions), "co": len(in.ClusterOperators), "pool": len(in.MachineConfigPools), "node": len(in.Nodes), "health": len(in.Health)}
	if diff := cmp.Diff(map[string]int{"cv": 1, "co": 1, "pool": 0, "node": 1, "health": 0}, got); diff != "" {
		t.Errorf("insights listed (-want +got):\n%s", diff)
	}
}

func TestListWithoutInsightAPI(t *testing.T) {
	client := fake.NewSimpleClientset()
	notServed(client, "clusterversionprogressinsights")
	if _, err := list(context.Background(), client); !errors.Is(err, ErrNoClusterVersion) {
		t.Errorf("got error %v, want %v", err, ErrNoClusterVersion)
	}
}
