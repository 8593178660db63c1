package integration

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/test/internal/hostedobjects"
)

// TestAManagementClusterOfAnOlderHyperShiftIsFollowed: a HyperShift from
// before ControlPlaneComponents (added in October 2024, api/hypershift/
// v1beta1/controlplanecomponent_types.go) serves HostedClusters and
// NodePools but no ControlPlaneComponents; the operator follows its hosted
// clusters all the same.
func TestAManagementClusterOfAnOlderHyperShiftIsFollowed(t *testing.T) {
	ctx := context.Background()
	installManagementCRDs(t, "controlplanecomponents.crd.yaml")
	op := startOperator(t, "--optional-api-interval=1s")
	ns, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "clusters-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = kubeClient.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
	})
	started := time.Now().Add(-20 * time.Minute).Truncate(time.Second)
	installed := started.Add(-30 * 24 * time.Hour)
	installedDone := installed.Add(40 * time.Minute)
	createHostedObject(t, hypershift.HostedClusters, hostedobjects.HostedCluster(ns.Name, "legacy", "4.17.3", map[string]any{
		"version": map[string]any{
			"desired":            map[string]any{"version": "4.17.3", "image": hostedobjects.ReleaseImages["4.17.3"]},
			"history":            []any{hostedobjects.HistoryEntry("4.17.3", "Partial", started, nil), hostedobjects.HistoryEntry("4.17.2", "Completed", installed, &installedDone)},
			"observedGeneration": int64(2),
			"availableUpdates":   nil,
		},
		"conditions": hostedobjects.HostedConditions(started, true, "Working towards 4.17.3: 435 of 870 done (50% complete)"),
	}))
	waitFor(t, eventually, "the hosted cluster's insight", func(ctx context.Context) (*insightsv1alpha1.HostedClusterProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().HostedClusterProgressInsights(ns.Name).Get(ctx, "legacy", metav1.GetOptions{})
	}, func(i *insightsv1alpha1.HostedClusterProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.HostedClusterAssessmentProgressing && i.Status.CompletionPercent == 50
	})
	op.stop(t, eventually)
}
