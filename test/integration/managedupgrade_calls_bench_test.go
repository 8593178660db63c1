package integration

import (
	"context"
	"testing"

	"k8s.io/client-go/rest"
)

// managedUpgradeCalls are the status calls counted.
const managedUpgradeCalls = 100

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
	// No client-side rate limit: throttling would only slow what is
	// counted.
	config := rest.CopyConfig(testEnv.Config)
	config.QPS = -1
	config.Wrap(requests.wrap)
	c := startInProcessMUOInformer(b, config, ns)

	waitForHeldDrains(b, c, nodes)

	requests.reset()
	for n := range managedUpgradeCalls {
		insights, err := askStatus(ctx, c)
		if err != nil || !heldDrains(insights, nodes) {
			b.Fatalf("call %d: insights %+v, error %v; want both drains held", n+1, insights, err)
		}
	}
	b.Logf("the informer's requests during %d calls: %s", managedUpgradeCalls, requests)
	b.ReportMetric(float64(requests.total())*100/managedUpgradeCalls, "api-requests/100-calls")
}
