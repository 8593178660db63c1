package cluster

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/fake"
)

func TestListHosted(t *testing.T) {
	hc := &insightsv1alpha1.HostedClusterProgressInsight{ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "ledger"}}
	other := &insightsv1alpha1.HostedClusterProgressInsight{ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "billing"}}
	np := &insightsv1alpha1.NodePoolProgressInsight{ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "workers-a"}}
	np.Status.HostedCluster = "ledger"
	in, err := ListHosted(context.Background(), Clients{Insights: fake.NewSimpleClientset(hc, other, np)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range in.Clusters {
		got = append(got, c.Namespace+"/"+c.Name)
	}
	for _, p := range in.Pools {
		got = append(got, p.Namespace+"/"+p.Name)
	}
	if diff := cmp.Diff([]string{"clusters/ledger", "team-b/billing", "clusters/workers-a"}, got); diff != "" {
		t.Errorf("unexpected insights (-want +got):\n%s", diff)
	}
}

func TestListHostedWithoutTheirAPI(t *testing.T) {
	client := fake.NewSimpleClientset()
	notServed(client, "hostedclusterprogressinsights")
	if _, err := ListHosted(context.Background(), Clients{Insights: client}); !errors.Is(err, ErrNoHostedInsights) {
		t.Errorf("got error %v, want %v", err, ErrNoHostedInsights)
	}
}
