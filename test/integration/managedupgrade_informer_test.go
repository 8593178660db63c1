package integration

import (
	"context"
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/update-insights/update-insights-operator/pkg/informer/client"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
	"github.com/update-insights/update-insights-operator/test/internal/process"
)

const upgradeConfigCRD = "../testdata/managed-upgrade-operator/upgrade.managed.openshift.io_upgradeconfigs.yaml"

// startManagedUpgradeInformer runs `informer managed-upgrade` on the
// namespace, stopped with SIGTERM when the test ends (it must exit 0), and
// returns a client of it as the operator calls it.
func startManagedUpgradeInformer(t *testing.T, namespace string) *client.Client {
	t.Helper()
	ca := informertest.NewCA(t)
	certFile, keyFile := ca.ServingFiles(t, nil, net.ParseIP("127.0.0.1"))
	port, err := process.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	address := fmt.Sprintf("127.0.0.1:%d", port)
	output := &syncBuffer{}
	p, err := process.StartCommand(output, operatorBinary, "informer", "managed-upgrade",
		"--kubeconfig", kubeconfigPath, "--listen", address, "--namespace", namespace,
		"--tls-cert-file", certFile, "--tls-private-key-file", keyFile, "-v=2")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(client.Config{URL: "https://" + address, CABundle: ca.PEM})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		code, err := p.Stop(terminationGracePeriod)
		if err != nil || code != 0 {
			t.Errorf("the informer exited %d after SIGTERM (%v), want 0", code, err)
		}
		if t.Failed() {
			t.Logf("informer output:\n%s", output.String())
		}
	})
	return c
}

// TestManagedUpgradeInformer: the informer answers with no insight while
// the cluster does not serve UpgradeConfigs, follows the CRD once it is
// created, and reports a scheduled update until its UpgradeConfig goes.
func TestManagedUpgradeInformer(t *testing.T) {
	ctx := context.Background()
	ns, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "muo-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = kubeClient.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{}) })
	createMUOConfigMap(t, ns.Name)
	if _, err := kubeClient.Discovery().ServerResourcesForGroupVersion(upgradev1alpha1.SchemeGroupVersion.String()); !apierrors.IsNotFound(err) {
		t.Fatalf("the test needs a cluster without UpgradeConfigs; discovery says %v", err)
	}
	c := startManagedUpgradeInformer(t, ns.Name)

	var discovery *protocol.DiscoveryResponse
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		discovery, err = c.Discover(ctx)
		return err == nil, nil
	}); err != nil {
		t.Fatalf("discovery never answered: %v", err)
	}
	status, ok := discovery.Handler(protocol.HandlerStatus)
	plan, okPlan := discovery.Handler(protocol.HandlerPlan)
	if !ok || !okPlan || status.Timeout() != 10*time.Second || plan.Timeout() != 15*time.Second {
		t.Fatalf("discovery announces %+v, want status (10s) and plan (15s)", discovery.Handlers)
	}

	ask := func(ctx context.Context) ([]protocol.Insight, error) {
		resp, err := c.StatusInsights(ctx, &protocol.UpdateInsightsRequest{}, status.Timeout())
		if err != nil {
			return nil, err
		}
		if resp.Status.Response != protocol.ResponseSuccess {
			return nil, fmt.Errorf("answered %s: %s", resp.Status.Response, resp.Status.Message)
		}
		return resp.Spec.Insights, nil
	}
	if insights, err := ask(ctx); err != nil || len(insights) != 0 {
		t.Fatalf("without the CRD: insights %v, error %v; want Success with none", insights, err)
	}

	installUpgradeConfigCRD(t)
	upgradeConfigs := dynamic.NewForConfigOrDie(testEnv.Config).Resource(upgradev1alpha1.Resource).Namespace(ns.Name)
	upgradeAt := time.Now().Add(3 * time.Hour).UTC().Truncate(time.Second)
	uc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": upgradev1alpha1.SchemeGroupVersion.String(),
		"kind":       "UpgradeConfig",
		"metadata":   map[string]any{"name": upgradev1alpha1.DefaultName},
		"spec": map[string]any{
			"type":                 "OSD",
			"upgradeAt":            upgradeAt.Format(time.RFC3339),
			"PDBForceDrainTimeout": int64(60),
			"desired":              map[string]any{"version": "4.16.5", "channel": "stable-4.16"},
		},
	}}
	if _, err := upgradeConfigs.Create(ctx, uc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	var last []protocol.Insight
	var lastErr error
	if err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		last, lastErr = ask(ctx)
		return lastErr == nil && len(last) == 1 && last[0].Impact.Type == protocol.ImpactAwaitingWindow, nil
	}); err != nil {
		t.Fatalf("no Awaiting Window insight: last insights %+v, error %v", last, lastErr)
	}
	t.Logf("the scheduled update was reported %s after its UpgradeConfig was created", time.Since(start).Round(time.Millisecond))
	want := protocol.Resource{Group: upgradev1alpha1.GroupName, Kind: "UpgradeConfig", Namespace: ns.Name, Name: upgradev1alpha1.DefaultName}
	if got := last[0]; !slices.Contains(got.Scope.Resources, want) || got.Remediation.EstimatedFinish != upgradeAt.Format(time.RFC3339) {
		t.Errorf("insight %+v, want one about %v finishing at %s", got, want, upgradeAt.Format(time.RFC3339))
	}

	planAnswer, err := c.PlanInsights(ctx, &protocol.UpdatePlanInsightsRequest{Spec: protocol.RequestSpec{TargetControlPlaneVersion: "4.17.0"}}, plan.Timeout())
	if err != nil || planAnswer.Status.Response != protocol.ResponseSuccess || len(planAnswer.Spec.Insights) != 1 ||
		planAnswer.Spec.Insights[0].Impact.Level != protocol.LevelWarning {
		t.Errorf("plan to 4.17.0: %+v, error %v; want Success with the conflicting managed update", planAnswer, err)
	}

	if err := upgradeConfigs.Delete(ctx, upgradev1alpha1.DefaultName, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		last, lastErr = ask(ctx)
		return lastErr == nil && len(last) == 0, nil
	}); err != nil {
		t.Fatalf("insights left after the UpgradeConfig was deleted: %+v, error %v", last, lastErr)
	}
}

// installUpgradeConfigCRD installs the Managed Upgrade Operator's CRD,
// which no other test expects, waits until UpgradeConfigs are served, and
// removes the CRD when the test ends.
func installUpgradeConfigCRD(t testing.TB) {
	t.Helper()
	crds, err := envtest.InstallCRDs(testEnv.Config, envtest.CRDInstallOptions{Paths: []string{upgradeConfigCRD}, ErrorIfPathMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, crd := range crds {
		names = append(names, crd.Name)
	}
	deleteCRDsAtEnd(t, names...)
	waitForServed(t, upgradev1alpha1.SchemeGroupVersion.String(), upgradev1alpha1.Resource.Resource)
}

// crdDeletion is how long deleteCRDsAtEnd waits for a CRD to go: the API
// server deletes its objects one by one, and the management benchmark's
// 10,000 Machines take minutes on a loaded machine.
const crdDeletion = 10 * time.Minute

// deleteCRDsAtEnd deletes the CRDs of these names when the test ends, and
// waits until they are gone (with their objects), so that the next test
// finds the API server without them.
func deleteCRDsAtEnd(t testing.TB, names ...string) {
	t.Helper()
	t.Cleanup(func() {
		client := apiextensionsclient.NewForConfigOrDie(testEnv.Config).ApiextensionsV1().CustomResourceDefinitions()
		for _, name := range names {
			if err := client.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Error(err)
				continue
			}
			waitFor(t, crdDeletion, "CRD "+name+" to be gone", func(ctx context.Context) (*apiextensionsv1.CustomResourceDefinition, error) {
				return client.Get(ctx, name, metav1.GetOptions{})
			}, func(crd *apiextensionsv1.CustomResourceDefinition) bool { return crd == nil })
		}
	})
}
