package integration

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	informercmd "github.com/update-insights/update-insights-operator/pkg/cmd/informer"
	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/managedupgrade"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

const (
	// managedUpgradeRBAC holds the informer's roles and bindings.
	managedUpgradeRBAC = "../../manifests/managed-upgrade-informer/01_rbac.yaml"
	// podsPerDrainedNode are the pods of each node being drained.
	podsPerDrainedNode = 30
	// informerServiceAccount is the managed-upgrade informer's, as its
	// manifests run it.
	informerServiceAccount = "system:serviceaccount:" + names.OwnNamespace + ":managed-upgrade-informer"
)

// TestManagedUpgradeInformerRunsWithItsRBAC runs the informer in this
// process as its service account, with the grants of its manifests alone,
// on a managed update draining two nodes: it reports the drains held, and
// the API server refuses none of its requests (its ConfigMap watched by
// name, which its Role grants by resourceNames; the pods of each drained
// node watched by spec.nodeName). Its caches' watches are waited for: a
// list allowed is enough for a first answer, but a watch refused would
// leave a cache relisting.
func TestManagedUpgradeInformerRunsWithItsRBAC(t *testing.T) {
	ctx := context.Background()
	const namespace = "openshift-managed-upgrade-operator"
	for _, ns := range []string{names.OwnNamespace, namespace} {
		_, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	installUpgradeConfigCRD(t)
	for _, m := range manifestObjects(t, managedUpgradeRBAC) {
		if _, err := m.resource.Create(ctx, m.obj, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating %s %s: %v", m.obj.GetKind(), m.obj.GetName(), err)
		}
		deleteAtEnd(t, m.obj.GetKind()+" "+m.obj.GetName(), func(ctx context.Context, name string, o metav1.DeleteOptions) error {
			return m.resource.Delete(ctx, name, o)
		}, m.obj.GetName())
	}
	nodes := createDrainingCluster(t, namespace)

	config := rest.CopyConfig(testEnv.Config)
	config.Impersonate = rest.ImpersonationConfig{
		UserName: informerServiceAccount,
		Groups:   []string{"system:serviceaccounts", "system:serviceaccounts:" + names.OwnNamespace, "system:authenticated"},
	}
	requests := &requestCounter{}
	config.Wrap(requests.wrap)
	waitForHeldDrains(t, startInProcessMUOInformer(t, config, namespace), nodes)

	watches := map[string]int{"upgradeconfigs": 1, "configmaps": 1, "nodes": 1, "poddisruptionbudgets": 1, "pods": len(nodes)}
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, eventually, true, func(context.Context) (bool, error) {
		for resource, n := range watches {
			if requests.count("watch "+resource)+requests.count("watch "+resource+forbidden) < n {
				return false, nil
			}
		}
		return true, nil
	}); err != nil {
		t.Fatalf("the informer did not open its watches, %v: %s", watches, requests)
	}
	if refused := requests.refused(); len(refused) > 0 {
		t.Errorf("the API server refused the informer's %v: %s", refused, requests)
	}
}

func askStatus(ctx context.Context, c *client.Client) ([]protocol.Insight, error) {
	resp, err := c.StatusInsights(ctx, &protocol.UpdateInsightsRequest{}, 10*time.Second)
	if err != nil {
		return nil, err
	}
	return resp.Spec.Insights, nil
}

// heldDrains says the insights report the drains of nodes held by the
// budget, forced after the ConfigMap's drain time: every source was read.
func heldDrains(insights []protocol.Insight, nodes []string) bool {
	forced := 0
	for _, i := range insights {
		if strings.HasPrefix(i.UID, "force-drain/") && strings.Contains(i.Impact.Description, "nodeDrain.expectedNodeDrainTime (10m)") {
			forced++
		}
	}
	return forced == len(nodes)
}

// waitForHeldDrains asks the informer until it reports the drains of
// nodes held.
func waitForHeldDrains(t testing.TB, c *client.Client, nodes []string) {
	t.Helper()
	var last []protocol.Insight
	var lastErr error
	if err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		last, lastErr = askStatus(ctx, c)
		return lastErr == nil && heldDrains(last, nodes), nil
	}); err != nil {
		t.Fatalf("the informer never reported the drains of %v held: last insights %+v, error %v", nodes, last, lastErr)
	}
}

// createDrainingCluster creates what a managed update draining two worker
// nodes looks like: in namespace, an UpgradeConfig upgrading, the Managed
// Upgrade Operator's ConfigMap, and a PodDisruptionBudget allowing no
// disruption that selects one pod of each node; the nodes, cordoned as the
// operator cordons them, with their pods (no kubelet runs them: their
// statuses, and the budget's, are written as the kubelet and the
// disruption controller would, for the drain model reads them). It returns the nodes' names; what a namespace's
// deletion leaves (no namespace controller runs) is deleted when the test
// ends.
func createDrainingCluster(t testing.TB, namespace string) []string {
	t.Helper()
	ctx := context.Background()
	started := time.Now().Add(-30 * time.Minute)
	upgradeConfigsIn(namespace).write(t, managedUpdate(toVersion, started, &upgradev1alpha1.UpgradeHistory{
		Phase: upgradev1alpha1.PhaseUpgrading, PrecedingVersion: fromVersion, StartTime: muoTime(started),
	}))
	configMaps := kubeClient.CoreV1().ConfigMaps(namespace)
	if _, err := configMaps.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: managedupgrade.ConfigMapName},
		// The keys the operator needs to run (pkg/upgraders/config.go
		// IsValid), its drain time 10 minutes.
		Data: map[string]string{managedupgrade.ConfigMapKey: "maintenance: {controlPlaneTime: 90}\nscale: {timeOut: 30}\nnodeDrain: {timeOut: 45, expectedNodeDrainTime: 10}\n"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	deleteAtEnd(t, "ConfigMap "+managedupgrade.ConfigMapName, configMaps.Delete, managedupgrade.ConfigMapName)
	// The budget needs both db pods, one a node, healthy: its status is
	// written as the disruption controller computes it
	// (pkg/controller/disruption/disruption.go, updatePdbStatus; the
	// DisruptionAllowed condition of k8s.io/component-helpers
	// poddisruptionbudget), as no such controller runs here.
	budgets := kubeClient.PolicyV1().PodDisruptionBudgets(namespace)
	budget, err := budgets.Create(ctx, &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "db"},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(2)),
			Selector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deleteAtEnd(t, "PodDisruptionBudget db", budgets.Delete, "db")
	budget.Status = policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: budget.Generation, DisruptionsAllowed: 0, CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2,
		Conditions: []metav1.Condition{{
			Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse, Reason: policyv1.InsufficientPodsReason,
			ObservedGeneration: budget.Generation, LastTransitionTime: metav1.NewTime(started),
		}},
	}
	if _, err := budgets.UpdateStatus(ctx, budget, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}

	var names []string
	for _, suffix := range []string{"a", "b"} {
		name := "muo-calls-worker-" + suffix
		names = append(names, name)
		cordoned := metav1.NewTime(started.Add(5 * time.Minute))
		if _, err := kubeClient.CoreV1().Nodes().Create(ctx, &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{roleLabel("worker"): ""}},
			Spec: corev1.NodeSpec{Unschedulable: true, Taints: []corev1.Taint{
				{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule, TimeAdded: &cordoned},
			}},
		}, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating node %s: %v", name, err)
		}
		deleteAtEnd(t, "node "+name, kubeClient.CoreV1().Nodes().Delete, name)
		for i := range podsPerDrainedNode {
			app := "web"
			if i == 0 {
				app = "db"
			}
			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%s-%d", app, suffix, i), Labels: map[string]string{"app": app}},
				Spec:       corev1.PodSpec{NodeName: name, Containers: []corev1.Container{{Name: "app", Image: "registry.example.com/app:1"}}},
			}
			created, err := kubeClient.CoreV1().Pods(namespace).Create(ctx, pod, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("creating pod %s: %v", pod.Name, err)
			}
			// Running and Ready, as the kubelet reports it: the eviction API
			// lets a pending pod go whatever its budget.
			created.Status.Phase = corev1.PodRunning
			created.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(started)}}
			if _, err := kubeClient.CoreV1().Pods(namespace).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
				t.Fatalf("writing the status of pod %s: %v", pod.Name, err)
			}
		}
	}
	// No kubelet ends their grace period.
	t.Cleanup(func() {
		if err := kubeClient.CoreV1().Pods(namespace).DeleteCollection(context.Background(),
			metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}, metav1.ListOptions{}); err != nil {
			t.Errorf("deleting the pods of %s: %v", namespace, err)
		}
	})
	return names
}

// deleteAtEnd deletes the object name when the test ends.
func deleteAtEnd(t testing.TB, what string, del func(context.Context, string, metav1.DeleteOptions) error, name string) {
	t.Cleanup(func() {
		if err := del(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting %s: %v", what, err)
		}
	})
}

// startInProcessMUOInformer runs the managed-upgrade informer of namespace
// in this process, as `informer managed-upgrade` builds it, reading the
// cluster through config, serving on a loopback port until the test ends.
// It returns a client of it as the operator calls it.
func startInProcessMUOInformer(t testing.TB, config *rest.Config, namespace string) *client.Client {
	t.Helper()
	ca := informertest.NewCA(t)
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{ca.Serving(t, nil, net.ParseIP("127.0.0.1"))}}
	m, err := informercmd.NewManagedUpgrade(config, namespace, clock.RealClock{}, tlsConfig)
	if err != nil {
		t.Fatal(err)
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(client.Config{URL: "https://" + listener.Addr().String(), CABundle: ca.PEM})
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var running sync.WaitGroup
	running.Go(func() { m.Run(ctx) })
	served := make(chan error, 1)
	go func() { served <- m.Server.Serve(ctx, listener) }()
	t.Cleanup(func() {
		c.Close()
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serving the informer: %v", err)
		}
		running.Wait()
	})
	return c
}
