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
)

const (
	// managedUpgradeCalls are the status calls counted.
	managedUpgradeCalls = 100
	// podsPerDrainedNode are the pods of each node being drained.
	podsPerDrainedNode = 30
)

// BenchmarkManagedUpgradeInformerCalls counts the API requests the
// managed-upgrade informer makes to answer status calls while a managed
// update drains two worker nodes, each with podsPerDrainedNode pods, one
// of which a PodDisruptionBudget holds, the Managed Upgrade Operator's
// ConfigMap present. The informer runs in this process, as `informer
// managed-upgrade` builds it, its client with no rate limit and every
// request counted; it is called through its HTTPS handler as the operator
// calls it. Once its caches have synced and it has answered a first call
// with both drains, it is called managedUpgradeCalls times in a row, and
// the requests made meanwhile are api-requests/100-calls (every request,
// reads included; the log lists them by verb and resource).
//
//	KUBEBUILDER_ASSETS=$(hack/install-testbin.sh) go test ./test/integration/ -run '^$' -bench ManagedUpgradeInformerCalls -benchtime 1x
//
// The samples are taken once per call of the benchmark function, whatever
// b.N, so use -benchtime 1x.
func BenchmarkManagedUpgradeInformerCalls(b *testing.B) {
	ctx := context.Background()
	ns := createTestNamespace(b, "muo-calls-")
	installUpgradeConfigCRD(b)
	nodes := createDrainingCluster(b, ns)
	requests := &requestCounter{}
	c := startInProcessMUOInformer(b, ns, requests)

	ask := func(ctx context.Context) ([]protocol.Insight, error) {
		resp, err := c.StatusInsights(ctx, &protocol.UpdateInsightsRequest{}, 10*time.Second)
		if err != nil {
			return nil, err
		}
		return resp.Spec.Insights, nil
	}
	// Both drains, held by the budget, forced after the ConfigMap's drain
	// time: the calls read every source.
	answersAll := func(insights []protocol.Insight) bool {
		forced := 0
		for _, i := range insights {
			if strings.HasPrefix(i.UID, "force-drain/") && strings.Contains(i.Impact.Description, "expected node drain time (10 minutes)") {
				forced++
			}
		}
		return forced == len(nodes)
	}
	var last []protocol.Insight
	var lastErr error
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		last, lastErr = ask(ctx)
		return lastErr == nil && answersAll(last), nil
	}); err != nil {
		b.Fatalf("the informer never reported both drains held: last insights %+v, error %v", last, lastErr)
	}

	requests.reset()
	for n := range managedUpgradeCalls {
		insights, err := ask(ctx)
		if err != nil || !answersAll(insights) {
			b.Fatalf("call %d: insights %+v, error %v; want both drains held", n+1, insights, err)
		}
	}
	b.Logf("the informer's requests during %d calls: %s", managedUpgradeCalls, requests)
	b.ReportMetric(float64(requests.total())*100/managedUpgradeCalls, "api-requests/100-calls")
}

// createDrainingCluster creates what a managed update draining two worker
// nodes looks like: in namespace, an UpgradeConfig upgrading, the Managed
// Upgrade Operator's ConfigMap, and a PodDisruptionBudget allowing no
// disruption that selects one pod of each node; the nodes, cordoned as the
// operator cordons them, with their pods (no kubelet runs them, which the
// insights do not read). It returns the nodes' names; everything is
// deleted when the benchmark ends.
func createDrainingCluster(b *testing.B, namespace string) []string {
	b.Helper()
	ctx := context.Background()
	started := time.Now().Add(-30 * time.Minute)
	upgradeConfigsIn(namespace).write(b, managedUpdate(toVersion, started, &upgradev1alpha1.UpgradeHistory{
		Phase: upgradev1alpha1.PhaseUpgrading, PrecedingVersion: fromVersion, StartTime: muoTime(started),
	}))
	if _, err := kubeClient.CoreV1().ConfigMaps(namespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: managedupgrade.ConfigMapName},
		Data:       map[string]string{managedupgrade.ConfigMapKey: "nodeDrain: {expectedNodeDrainTime: 10}"},
	}, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	if _, err := kubeClient.PolicyV1().PodDisruptionBudgets(namespace).Create(ctx, &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "db"},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(1)),
			Selector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
		},
	}, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
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
			b.Fatalf("creating node %s: %v", name, err)
		}
		b.Cleanup(func() {
			if err := kubeClient.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				b.Errorf("deleting node %s: %v", name, err)
			}
		})
		for i := range podsPerDrainedNode {
			app := "web"
			if i == 0 {
				app = "db"
			}
			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%s-%d", app, suffix, i), Labels: map[string]string{"app": app}},
				Spec:       corev1.PodSpec{NodeName: name, Containers: []corev1.Container{{Name: "app", Image: "registry.example.com/app:1"}}},
			}
			if _, err := kubeClient.CoreV1().Pods(namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
				b.Fatalf("creating pod %s: %v", pod.Name, err)
			}
		}
	}
	// No namespace controller runs to delete them with their namespace, and
	// no kubelet to end their grace period.
	b.Cleanup(func() {
		if err := kubeClient.CoreV1().Pods(namespace).DeleteCollection(context.Background(),
			metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}, metav1.ListOptions{}); err != nil {
			b.Errorf("deleting the pods of %s: %v", namespace, err)
		}
	})
	return names
}

// startInProcessMUOInformer runs the managed-upgrade informer of namespace
// in this process, as `informer managed-upgrade` builds it, with every API
// request counted by requests and no client-side rate limit (throttling
// would only slow what the benchmark counts), serving on a loopback port
// until the benchmark ends. It returns a client of it as the operator
// calls it.
func startInProcessMUOInformer(b *testing.B, namespace string, requests *requestCounter) *client.Client {
	b.Helper()
	config := rest.CopyConfig(testEnv.Config)
	config.QPS = -1
	config.Wrap(requests.wrap)
	ca := informertest.NewCA(b)
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{ca.Serving(b, nil, net.ParseIP("127.0.0.1"))}}
	m, err := informercmd.NewManagedUpgrade(config, namespace, clock.RealClock{}, tlsConfig)
	if err != nil {
		b.Fatal(err)
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	c, err := client.New(client.Config{URL: "https://" + listener.Addr().String(), CABundle: ca.PEM})
	if err != nil {
		b.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var running sync.WaitGroup
	running.Go(func() { m.Run(ctx) })
	served := make(chan error, 1)
	go func() { served <- m.Server.Serve(ctx, listener) }()
	b.Cleanup(func() {
		c.Close()
		cancel()
		if err := <-served; err != nil {
			b.Errorf("serving the informer: %v", err)
		}
		running.Wait()
	})
	return c
}
