package integration

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

const (
	hostedCurrent = "4.18.3"
	hostedTarget  = "4.19.2"

	nodePoolsSeparateIdentity = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/nodepools/updated-separately"
	nodePoolSkewIdentity      = "update-insights-operator/WorkerPool/Node/workers-b-2,NodePool.hypershift.openshift.io/workers-b/nodepool/workers-b/skew"
)

// createHostedInfrastructure makes the cluster's Infrastructure the one the
// hosted-cluster-config-operator writes (support/globalconfig/
// infrastructure.go, ReconcileInfrastructure: controlPlaneTopology
// External), and deletes it when the test ends: every other test runs a
// standalone cluster. Call it before starting the operator: the NodePool
// insights the operator writes are deleted once it has stopped.
func createHostedInfrastructure(t testing.TB) {
	t.Helper()
	t.Cleanup(func() { deleteNodePoolInsights(t) })
	ctx := context.Background()
	infra := &configv1.Infrastructure{ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec: configv1.InfrastructureSpec{PlatformSpec: configv1.PlatformSpec{Type: configv1.AWSPlatformType}}}
	created, err := configClient.ConfigV1().Infrastructures().Create(ctx, infra, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := configClient.ConfigV1().Infrastructures().Delete(context.Background(), "cluster", metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting the Infrastructure: %v", err)
		}
	})
	created.Status = configv1.InfrastructureStatus{
		InfrastructureName:     "example-7x2kq",
		APIServerURL:           "https://api.example.hypershift.local:443",
		APIServerInternalURL:   "https://api.example.hypershift.local:443",
		EtcdDiscoveryDomain:    "example.hypershift.local",
		Platform:               configv1.AWSPlatformType,
		PlatformStatus:         &configv1.PlatformStatus{Type: configv1.AWSPlatformType, AWS: &configv1.AWSPlatformStatus{Region: "us-east-1"}},
		ControlPlaneTopology:   configv1.ExternalTopologyMode,
		InfrastructureTopology: configv1.HighlyAvailableTopologyMode,
	}
	if _, err := configClient.ConfigV1().Infrastructures().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the Infrastructure's status: %v", err)
	}
}

// hostedStatus is a hosted cluster's ClusterVersion status, as its
// cluster-version operator writes it on the management cluster's behalf:
// hostedCurrent completed, hostedTarget offered. spec.desiredUpdate stays
// nil: the hosted-cluster-config-operator resets it.
func hostedStatus() configv1.ClusterVersionStatus {
	started := metav1.NewTime(time.Now().Add(-48 * time.Hour).Truncate(time.Second))
	completed := metav1.NewTime(started.Add(40 * time.Minute))
	return configv1.ClusterVersionStatus{
		Desired:            configv1.Release{Version: hostedCurrent, Image: "quay.io/openshift-release-dev/ocp-release@sha256:18"},
		ObservedGeneration: 1,
		VersionHash:        "hash",
		Conditions:         []configv1.ClusterOperatorStatusCondition{{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: started}},
		History: []configv1.UpdateHistory{
			{Version: hostedCurrent, Image: "quay.io/openshift-release-dev/ocp-release@sha256:18", State: configv1.CompletedUpdate, StartedTime: started, CompletionTime: &completed},
		},
		AvailableUpdates: []configv1.Release{{Version: hostedTarget, Image: "quay.io/openshift-release-dev/ocp-release@sha256:19"}},
	}
}

// createSyntheticKubeAPIServer creates the kube-apiserver ClusterOperator
// as the hosted-cluster-config-operator writes it (control-plane-operator/
// hostedclusterconfigoperator/controllers/resources/clusteroperators.go):
// healthy, with its release and the control plane's Kubernetes version.
func createSyntheticKubeAPIServer(t *testing.T, release, kube string) {
	t.Helper()
	createClusterOperators(t, map[string]string{hosted.KubeAPIServer: release})
	co, err := configClient.ConfigV1().ClusterOperators().Get(context.Background(), hosted.KubeAPIServer, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	co.Status.Versions = []configv1.OperandVersion{{Name: "operator", Version: release}, {Name: hosted.KubeAPIServer, Version: kube}}
	co.Status.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue, Reason: "AsExpected", LastTransitionTime: now},
		{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse, Reason: "AsExpected", LastTransitionTime: now},
		{Type: configv1.OperatorDegraded, Status: configv1.ConditionFalse, Reason: "AsExpected", LastTransitionTime: now},
		{Type: configv1.OperatorUpgradeable, Status: configv1.ConditionTrue, Reason: "AsExpected", LastTransitionTime: now},
	}
	if _, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(context.Background(), co, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// createNodePoolNode creates a worker node of a NodePool as HyperShift
// labels and annotates it (test/e2e/util/util.go reads the same label and
// CAPI annotations), its kubelet at kubelet.
func createNodePoolNode(t *testing.T, name, pool, kubelet string) {
	t.Helper()
	createNode(t, name, map[string]string{
		"cluster.x-k8s.io/machine":           "clusters-example/" + name,
		"cluster.x-k8s.io/owner-name":        pool + "-5c9f7",
		"cluster.x-k8s.io/cluster-namespace": "clusters-example",
	}, "worker")
	updateNode(t, name, func(n *corev1.Node) { n.Labels[hosted.NodePoolLabel] = pool })
	updateNodeStatus(t, name, func(s *corev1.NodeStatus) {
		s.NodeInfo.KubeletVersion = kubelet
		s.NodeInfo.OSImage = "Red Hat Enterprise Linux CoreOS 418.94.202503101234-0"
	})
}

// On a hosted control plane the operator evaluates plans without the
// machine-config API: the plan says the NodePools are updated separately,
// and names the one the update would leave more than three minor releases
// behind, as a NodePool; pre-checks never says MachineConfigPool.
func TestHostedPlanNamesTheNodePoolOutsideTheSkew(t *testing.T) {
	createHostedInfrastructure(t)
	createClusterVersion(t, nil, hostedStatus())
	createSyntheticKubeAPIServer(t, hostedCurrent, "1.31.6")
	createNodePoolNode(t, "workers-a-1", "workers-a", "v1.31.6+a1b2c3d")
	createNodePoolNode(t, "workers-b-1", "workers-b", "v1.29.10+67d3387")
	createNodePoolNode(t, "workers-b-2", "workers-b", "v1.28.15+f67aeb3")
	deletePlanAtEnd(t, hostedTarget)
	startOperator(t)

	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(hostedTarget, hostedTarget)); err != nil {
		t.Fatal(err)
	}
	want := []string{alertsUncheckedIdentity, durationIdentity, nodePoolsSeparateIdentity, nodePoolSkewIdentity}
	plan := waitFor(t, eventually, "the hosted pre-checks' findings", getPlan(hostedTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planFindings(p), want) && planCondition(p, updateplan.ConditionAnswered) == "True/"+updateplan.ReasonAllAnswered
	})
	var pools []insightsv1alpha1.ResourceRef
	for _, p := range plan.Status.WorkerPools {
		pools = append(pools, p.Resource)
	}
	if diff := cmp.Diff([]insightsv1alpha1.ResourceRef{hosted.NodePool("workers-b")}, pools); diff != "" {
		t.Errorf("the plan's worker pools (-want +got):\n%s", diff)
	}

	out, errOut, code := command(t, "pre-checks", "--to", hostedTarget, "--timeout", "30s")
	t.Logf("pre-checks --to %s (exit %d):\n%s%s", hostedTarget, code, out, errOut)
	for _, s := range []string{
		"the NodePools are updated separately, from the management cluster",
		"NodePool workers-b runs 4.15 (oldest kubelet v1.28.15+f67aeb3): after the update to 4.19.2 it would be 4 minor releases behind the control plane, more than the 3 supported",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("pre-checks does not say %q", s)
		}
	}
	if strings.Contains(out+errOut, "MachineConfigPool") {
		t.Errorf("pre-checks of a hosted cluster speaks of MachineConfigPools")
	}
	if code != 1 {
		t.Errorf("pre-checks: exit %d, want 1: the findings are not accepted", code)
	}

	out, errOut, code = command(t, "upgrade", "--to", hostedTarget, "--pre-checks=false")
	t.Logf("upgrade --to %s (exit %d):\n%s%s", hostedTarget, code, out, errOut)
	if code != 1 || !strings.Contains(out, `'{"spec":{"release":{"image":"quay.io/openshift-release-dev/ocp-release@sha256:19"}}}'`) {
		t.Errorf("upgrade: exit %d, want 1 with the HostedCluster patch", code)
	}
	if got := getClusterVersion(t).Spec.DesiredUpdate; got != nil {
		t.Errorf("upgrade wrote desiredUpdate %+v on a hosted cluster", got)
	}
}
