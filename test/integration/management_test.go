package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	configv1 "github.com/openshift/api/config/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hypershift"
	"github.com/update-insights/update-insights-operator/pkg/metrics"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/operator"
	"github.com/update-insights/update-insights-operator/test/internal/hostedobjects"
)

// TestAManagementClusterFollowsEveryHostedCluster: once the cluster serves
// HostedClusters (without a restart), the operator writes an insight
// beside each HostedCluster and NodePool, which the real API server's
// schema accepts; its ClusterOperator says it follows them; the insights
// follow an update to its end, and a NodePool's goes with it.
func TestAManagementClusterFollowsEveryHostedCluster(t *testing.T) {
	ctx := context.Background()
	op := startOperator(t, "--optional-api-interval=1s")
	installManagementCRDs(t)
	ns, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "clusters-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	controlPlane := hypershift.ControlPlaneNamespace(ns.Name, "prod")
	if _, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: controlPlane}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	started := time.Now().Add(-25 * time.Minute).Truncate(time.Second)
	installed := started.Add(-30 * 24 * time.Hour)
	installedDone := installed.Add(40 * time.Minute)
	midUpdate := map[string]any{
		"version": map[string]any{
			"desired":            map[string]any{"version": "4.17.3", "image": hostedobjects.ReleaseImages["4.17.3"]},
			"history":            []any{hostedobjects.HistoryEntry("4.17.3", "Partial", started, nil), hostedobjects.HistoryEntry("4.17.2", "Completed", installed, &installedDone)},
			"observedGeneration": int64(2),
			// Nullable and required: HyperShift copies the guest's nil.
			"availableUpdates": nil,
		},
		"conditions": hostedobjects.HostedConditions(started, true, "Working towards 4.17.3: 512 of 870 done (58% complete)"),
	}
	hc := createHostedObject(t, hypershift.HostedClusters, hostedobjects.HostedCluster(ns.Name, "prod", "4.17.3", midUpdate))
	nodePoolKey := ns.Name + "/workers"
	np := createHostedObject(t, hypershift.NodePools, hostedobjects.NodePool(ns.Name, "workers", "prod", "4.17.3", "Replace", 3, map[string]any{
		"replicas": int64(3), "version": "4.17.2",
		"conditions": []any{
			hostedobjects.NodePoolCondition("UpdatingVersion", "True", "AsExpected", "Updating version in progress. Target version: 4.17.3", started),
			hostedobjects.NodePoolCondition("Ready", "True", "AsExpected", "", installed),
		},
	}))
	createHostedObject(t, hypershift.MachineDeployments, hostedobjects.MachineDeployment(controlPlane, "workers", nodePoolKey, "4.17.3", 3, nil))
	for i, release := range []string{"4.17.3", "4.17.2", "4.17.2"} {
		createHostedObject(t, hypershift.Machines, hostedobjects.Machine(controlPlane, "workers-"+string(rune('a'+i)), nodePoolKey, release, hostedobjects.RunningMachine("ip-10-0-1-"+string(rune('1'+i)))))
	}

	clusterInsight := func(ctx context.Context) (*insightsv1alpha1.HostedClusterProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().HostedClusterProgressInsights(ns.Name).Get(ctx, "prod", metav1.GetOptions{})
	}
	poolInsight := func(ctx context.Context) (*insightsv1alpha1.NodePoolProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().NodePoolProgressInsights(ns.Name).Get(ctx, "workers", metav1.GetOptions{})
	}
	got := waitFor(t, eventually, "the hosted cluster's insight mid-update", clusterInsight, func(i *insightsv1alpha1.HostedClusterProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.HostedClusterAssessmentProgressing && i.Status.NodePools.Total == 1
	})
	if v := got.Status.Versions; v.Target.Version != "4.17.3" || v.Previous == nil || v.Previous.Version != "4.17.2" {
		t.Errorf("versions %+v, want 4.17.2 to 4.17.3", v)
	}
	if got.Status.CompletionPercent != 58 {
		t.Errorf("completion %d%%, want 58%%: 512 of the guest CVO's 870 manifests", got.Status.CompletionPercent)
	}
	if len(got.OwnerReferences) != 1 || got.OwnerReferences[0].UID != hc.GetUID() {
		t.Errorf("owners %+v, want the HostedCluster", got.OwnerReferences)
	}
	pool := waitFor(t, eventually, "the NodePool's insight mid-rollout", poolInsight, func(i *insightsv1alpha1.NodePoolProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.PoolProgressing
	})
	if s := pool.Status; s.HostedCluster != "prod" || s.UpgradeType != insightsv1alpha1.NodePoolUpgradeReplace || s.Machines.Desired != 3 || s.Machines.Updated != 1 {
		t.Errorf("NodePool insight %+v, want prod's Replace NodePool with 1 of 3 machines updated", s)
	}
	if len(pool.OwnerReferences) != 1 || pool.OwnerReferences[0].UID != np.GetUID() {
		t.Errorf("owners %+v, want the NodePool", pool.OwnerReferences)
	}
	// What a hub federates: the hosted cluster's series, from its insight.
	waitForHostedClusterSeries(t, op, ns.Name, "prod", map[string]float64{
		"update_insights_hosted_cluster_completion_ratio":                     0.58,
		`update_insights_hosted_cluster_assessment{assessment="Progressing"}`: 1,
		`update_insights_hosted_cluster_assessment{assessment="Completed"}`:   0,
		`update_insights_hosted_cluster_nodepools{state="total"}`:             1,
	})
	// What the administrator reads, from the insights the API server stores.
	fleet, errOut, code := command(t, "status", "--hosted-clusters")
	t.Logf("status --hosted-clusters mid-update:\n%s", fleet)
	if code != 0 || !strings.Contains(fleet, ns.Name+"/prod") || !strings.Contains(fleet, "4.17.2 -> 4.17.3") {
		t.Errorf("status --hosted-clusters exited %d (%s), printed:\n%s\nwant prod updating from 4.17.2 to 4.17.3", code, errOut, fleet)
	}
	detail, errOut, code := command(t, "status", "--hosted-cluster", ns.Name+"/prod")
	t.Logf("status --hosted-cluster mid-update:\n%s", detail)
	if code != 0 || !strings.Contains(detail, "58%") || !strings.Contains(detail, "1 of 3") {
		t.Errorf("status --hosted-cluster exited %d (%s), printed:\n%s\nwant the control plane at 58%% and 1 of 3 machines updated", code, errOut, detail)
	}
	waitFor(t, eventually, "the ClusterOperator to say it follows the hosted clusters", func(ctx context.Context) (*configv1.ClusterOperator, error) {
		return configClient.ConfigV1().ClusterOperators().Get(ctx, names.OwnClusterOperator, metav1.GetOptions{})
	}, func(co *configv1.ClusterOperator) bool {
		c := findCOCondition(co, configv1.OperatorAvailable)
		return c != nil && strings.Contains(c.Message, operator.ManagementMode)
	})

	// The control plane completes, then the NodePool's last machines are
	// replaced and HyperShift records its version.
	done := time.Now().Truncate(time.Second)
	completed := map[string]any{
		"version": map[string]any{
			"desired":            map[string]any{"version": "4.17.3", "image": hostedobjects.ReleaseImages["4.17.3"]},
			"history":            []any{hostedobjects.HistoryEntry("4.17.3", "Completed", started, &done), hostedobjects.HistoryEntry("4.17.2", "Completed", installed, &installedDone)},
			"observedGeneration": int64(2),
			// Nullable and required: HyperShift copies the guest's nil.
			"availableUpdates": nil,
		},
		"conditions": hostedobjects.HostedConditions(done, false, "Cluster version is 4.17.3"),
	}
	writeStatus(t, hypershift.HostedClusters, hc, completed)
	machines := dynamic.NewForConfigOrDie(testEnv.Config).Resource(hypershift.Machines).Namespace(controlPlane)
	for _, name := range []string{"workers-b", "workers-c"} {
		if err := machines.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		createHostedObject(t, hypershift.Machines, hostedobjects.Machine(controlPlane, name+"-new", nodePoolKey, "4.17.3", hostedobjects.RunningMachine(name+"-node")))
	}
	writeStatus(t, hypershift.NodePools, np, map[string]any{
		"replicas": int64(3), "version": "4.17.3",
		"conditions": []any{
			hostedobjects.NodePoolCondition("UpdatingVersion", "False", "AsExpected", "", done),
			hostedobjects.NodePoolCondition("Ready", "True", "AsExpected", "", installed),
		},
	})
	got = waitFor(t, eventually, "the hosted cluster's insight Completed", clusterInsight, func(i *insightsv1alpha1.HostedClusterProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.HostedClusterAssessmentCompleted
	})
	if got.Status.CompletionPercent != 100 || got.Status.CompletedAt == nil || !got.Status.CompletedAt.Time.Equal(done) {
		t.Errorf("completed insight %+v, want 100%% completed at %s", got.Status, done)
	}
	waitFor(t, eventually, "the NodePool's insight Completed", poolInsight, func(i *insightsv1alpha1.NodePoolProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.PoolCompleted && i.Status.Machines.Updated == 3
	})

	// No garbage collector runs here: the operator deletes the insight of
	// a NodePool that is gone.
	if err := dynamic.NewForConfigOrDie(testEnv.Config).Resource(hypershift.NodePools).Namespace(ns.Name).Delete(ctx, "workers", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, eventually, "the NodePool's insight to go", poolInsight, func(i *insightsv1alpha1.NodePoolProgressInsight) bool { return i == nil })
	op.stop(t, eventually)
}

func findCOCondition(co *configv1.ClusterOperator, t configv1.ClusterStatusConditionType) *configv1.ClusterOperatorStatusCondition {
	if co == nil {
		return nil
	}
	for i := range co.Status.Conditions {
		if co.Status.Conditions[i].Type == t {
			return &co.Status.Conditions[i]
		}
	}
	return nil
}

// waitForHostedClusterSeries waits until the operator's metrics say of the
// hosted cluster namespace/name what want says, by metric name and its
// labels but the hosted cluster's.
func waitForHostedClusterSeries(t *testing.T, op *operatorProcess, namespace, name string, want map[string]float64) {
	t.Helper()
	var got map[string]float64
	err := wait.PollUntilContextTimeout(context.Background(), 500*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		got = map[string]float64{}
		for family, f := range scrape(t, op) {
			for _, m := range f.GetMetric() {
				var rest []string
				ours := 0
				for _, l := range m.GetLabel() {
					switch {
					case l.GetName() == metrics.HostedClusterNamespaceLabel && l.GetValue() == namespace,
						l.GetName() == metrics.HostedClusterNameLabel && l.GetValue() == name:
						ours++
					default:
						rest = append(rest, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
					}
				}
				if ours != 2 {
					continue
				}
				key := family
				if len(rest) > 0 {
					key += "{" + strings.Join(rest, ",") + "}"
				}
				got[key] = m.GetGauge().GetValue()
			}
		}
		for k, v := range want {
			if g, ok := got[k]; !ok || g != v {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatalf("the hosted cluster %s/%s's series are %v, want %v", namespace, name, got, want)
	}
}
