package integration

import (
	"context"
	"maps"
	"slices"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/hosted"
)

// A hosted cluster at hostedCurrent: its control plane's Kubernetes,
// kubelets at that release and one minor behind as nodes report them, and
// the in-place upgrader's configuration hashes (support/util/util.go
// HashSimple).
const (
	hostedKubernetes   = "1.31.6"
	hostedKubeletNew   = "v1.31.6+a1b2c3d"
	hostedKubeletOld   = "v1.30.10+5f9c2b1"
	hostedOldHash      = "7a1d3c55"
	hostedNewHash      = "e40b9f12"
	nodePoolHealthOnes = "insight-manager=nodepool"
)

// syntheticOperators are the ClusterOperators the hosted-cluster-config-
// operator writes, with the versions of their VersionMapping
// (control-plane-operator/hostedclusterconfigoperator/controllers/
// resources/clusteroperators.go): "release" or "kubernetes".
var syntheticOperators = map[string]map[string]string{
	"openshift-apiserver":                      {"operator": "release", "openshift-apiserver": "release"},
	"openshift-controller-manager":             {"openshift-controller-manager": "release", "operator": "release"},
	"kube-apiserver":                           {"raw-internal": "release", "kube-apiserver": "kubernetes", "operator": "release"},
	"kube-controller-manager":                  {"raw-internal": "release", "kube-controller-manager": "kubernetes", "operator": "release"},
	"kube-scheduler":                           {"raw-internal": "release", "kube-scheduler": "kubernetes", "operator": "release"},
	"operator-lifecycle-manager-packageserver": {"operator": "release"},
}

// startHostedOperator starts the operator, with extra arguments, on a
// hosted cluster at hostedCurrent (Infrastructure External, no
// MachineConfig CRDs, the synthetic ClusterOperators), with its own
// ClusterOperator reset and restored when the test ends.
func startHostedOperator(t *testing.T, extra ...string) *operatorProcess {
	t.Helper()
	// A hosted cluster's payload has no MachineConfig CRDs.
	removeCRDs(t, map[string]string{
		"machineconfigpools.machineconfiguration.openshift.io": "../testdata/crds/0000_80_machine-config_01_machineconfigpools-Default.crd.yaml",
		"machineconfigs.machineconfiguration.openshift.io":     "../testdata/crds/0000_80_machine-config_01_machineconfigs.crd.yaml",
	})
	createHostedInfrastructure(t)
	restoreOwnClusterOperatorWhenDone(t)
	if err := resetOwnClusterOperator(context.Background()); err != nil {
		t.Fatal(err)
	}
	createSyntheticOperators(t)
	createClusterOperators(t, map[string]string{"ingress": hostedCurrent})
	createClusterVersion(t, nil, hostedStatus())
	return startOperator(t, extra...)
}

// createSyntheticOperators creates the six synthetic ClusterOperators at
// the control plane's release, with the constant conditions the
// hosted-cluster-config-operator writes, and deletes them when the test
// ends.
func createSyntheticOperators(t testing.TB) {
	t.Helper()
	createSyntheticOperatorsAt(t, hostedCurrent, hostedKubernetes, nil)
}

// createSyntheticOperatorsAt creates the six synthetic ClusterOperators as
// createSyntheticOperators does, their versions the release and kubernetes
// versions given, with annotations (none as the hosted-cluster-config-
// operator creates them).
func createSyntheticOperatorsAt(t testing.TB, release, kubernetes string, annotations map[string]string) {
	t.Helper()
	ctx := context.Background()
	versions := map[string]string{"release": release, "kubernetes": kubernetes}
	for _, name := range slices.Sorted(maps.Keys(syntheticOperators)) {
		co := &configv1.ClusterOperator{ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: annotations}}
		created, err := configClient.ConfigV1().ClusterOperators().Create(ctx, co, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("creating ClusterOperator %s: %v", name, err)
		}
		t.Cleanup(func() {
			if err := configClient.ConfigV1().ClusterOperators().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting ClusterOperator %s: %v", name, err)
			}
		})
		mapping := syntheticOperators[name]
		for _, operand := range slices.Sorted(maps.Keys(mapping)) {
			created.Status.Versions = append(created.Status.Versions, configv1.OperandVersion{Name: operand, Version: versions[mapping[operand]]})
		}
		since := metav1.Now()
		for _, c := range []struct {
			t configv1.ClusterStatusConditionType
			s configv1.ConditionStatus
		}{{configv1.OperatorAvailable, configv1.ConditionTrue}, {configv1.OperatorProgressing, configv1.ConditionFalse},
			{configv1.OperatorDegraded, configv1.ConditionFalse}, {configv1.OperatorUpgradeable, configv1.ConditionTrue}} {
			created.Status.Conditions = append(created.Status.Conditions, configv1.ClusterOperatorStatusCondition{
				Type: c.t, Status: c.s, Reason: "AsExpected", LastTransitionTime: since})
		}
		if _, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("writing ClusterOperator %s status: %v", name, err)
		}
	}
}

// createPoolNode creates a Ready node of NodePool pool ("" for a node that
// has just joined) with kubelet, its machine-config annotations and the
// labels and annotations the hosted-cluster-config-operator's node
// controller and cluster-api write (controllers/node/node.go), and deletes
// it when the test ends.
func createPoolNode(t testing.TB, name, pool, kubelet string, annotations map[string]string, cordoned bool) {
	t.Helper()
	a := map[string]string{"cluster.x-k8s.io/machine": name, "cluster.x-k8s.io/cluster-namespace": "clusters-guest"}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/os": "linux"}},
		Spec: corev1.NodeSpec{Unschedulable: cordoned}}
	if pool != "" {
		node.Labels[hosted.NodePoolLabel] = pool
		a["cluster.x-k8s.io/owner-name"] = pool + "-6f9d8b7c5"
		a["hypershift.openshift.io/labelsSynced"] = "true"
	}
	maps.Copy(a, annotations)
	node.Annotations = a
	if _, err := kubeClient.CoreV1().Nodes().Create(context.Background(), node, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating node %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := kubeClient.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting node %s: %v", name, err)
		}
	})
	updateNodeStatus(t, name, func(s *corev1.NodeStatus) {
		s.NodeInfo.KubeletVersion = kubelet
		s.NodeInfo.OSImage = "Red Hat Enterprise Linux CoreOS 418.94.202508060022-0"
		s.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", LastTransitionTime: metav1.Now()}}
	})
}

// drainedInPlace is a node the in-place upgrader told hostedNewHash,
// drained by its drainer, its machine-config daemon writing the
// configuration (inplaceupgrader_test.go's node shapes; the daemon's values
// from openshift/machine-config-operator pkg/daemon/daemon.go
// syncNodeHypershift).
func drainedInPlace() map[string]string {
	return withChanges(atRest(hostedOldHash), map[string]string{
		nodes.DesiredConfigAnnotation:    hostedNewHash,
		nodes.StateAnnotation:            "Working",
		nodes.DesiredDrainAnnotation:     "drain-" + hostedNewHash,
		nodes.LastAppliedDrainAnnotation: "drain-" + hostedNewHash,
	})
}

// deleteNodePoolInsights deletes what the NodePool controller wrote.
func deleteNodePoolInsights(t testing.TB) {
	t.Helper()
	deleteNodeInsights(t)
	if err := insightsClient.InsightsV1alpha1().UpdateHealthInsights().DeleteCollection(context.Background(), metav1.DeleteOptions{},
		metav1.ListOptions{LabelSelector: nodePoolHealthOnes}); err != nil {
		t.Errorf("deleting the NodePool health insights left by the test: %v", err)
	}
}

func nodePoolRef(name string) insightsv1alpha1.ResourceRef { return hosted.NodePool(name) }
