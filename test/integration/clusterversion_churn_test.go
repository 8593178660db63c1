package integration

import (
	"context"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	configv1 "github.com/openshift/api/config/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// churnReaders are the controllers that read what the ClusterVersion's
// Progressing message changes, directly or through the insight that quotes
// it: the ClusterVersion insight's, UpdateStatus' (which aggregates that
// insight), the update's Events' and the alerts' (both of which follow that
// insight).
var churnReaders = []string{"ClusterVersion", "UpdateStatus", "UpdateEvents", "Alerts"}

// TestTheProgressingMessageWakesOnlyTheControllersThatReadIt has the
// ClusterVersion's Progressing message move on, as the cluster-version
// operator's does with every manifest it applies (cluster-version-operator
// pkg/cvo/status.go), on a cluster with an UpdateInformer, and counts every
// controller's syncs from the operator's metrics: a controller that reads
// nothing that changed must not sync, as each sync takes CPU from those on
// the way to the insight (and the informers' controller reads a
// Service-backed informer's Service from the API server).
func TestTheProgressingMessageWakesOnlyTheControllersThatReadIt(t *testing.T) {
	const changes = 20
	deleteUpdateStatusAtEnd(t)
	createClusterOperators(t, map[string]string{"etcd": toVersion, "dns": fromVersion})
	createClusterVersion(t, nil, midUpdateStatus())
	ca := informertest.NewCA(t)
	f := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	f.answer(0, protocol.ResponseSuccess, "a")
	createInformer(t, &insightsv1alpha1.UpdateInformer{
		ObjectMeta: metav1.ObjectMeta{Name: "churn-informer"},
		Spec: insightsv1alpha1.UpdateInformerSpec{ClientConfig: insightsv1alpha1.InformerClientConfig{
			URL: ptr.To("https://" + f.addr), CABundle: ca.PEM,
		}},
	})
	// Asked once, then not again within the test for its interval.
	op := startOperator(t, "--informer-interval=1h")
	waitForInformer(t, "the informer answered", "churn-informer", []string{"a"}, false, "True/Called")
	before := settledSyncCounts(t, op)

	cv, err := configClient.ConfigV1().ClusterVersions().Get(context.Background(), "version", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= changes; i++ {
		message := fmt.Sprintf("Working towards %s: %d of 863 done (%d%% complete)", toVersion, 100+i, (100+i)*100/863)
		for j := range cv.Status.Conditions {
			if cv.Status.Conditions[j].Type == configv1.OperatorProgressing {
				cv.Status.Conditions[j].Message = message
			}
		}
		if cv, err = configClient.ConfigV1().ClusterVersions().UpdateStatus(context.Background(), cv, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		waitForInsight(t, eventually, "quoting "+message, func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			updating := meta.FindStatusCondition(i.Status.Conditions, insightsv1alpha1.ClusterVersionProgressInsightUpdating)
			return updating != nil && strings.Contains(updating.Message, "'"+message+"'")
		})
	}
	after := settledSyncCounts(t, op)

	woken := map[string]uint64{}
	for controller, n := range after {
		if n > before[controller] && !slices.Contains(churnReaders, controller) {
			woken[controller] = n - before[controller]
		}
	}
	if diff := cmp.Diff(map[string]uint64{}, woken); diff != "" {
		t.Errorf("controllers that read nothing the %d changes changed synced (-want +got syncs):\n%s", changes, diff)
	}
	if got := after["ClusterVersion"] - before["ClusterVersion"]; got < changes {
		t.Errorf("the ClusterVersion controller synced %d times for %d changes", got, changes)
	}
}

// settledSyncCounts returns every controller's syncs so far, once two
// scrapes a second apart agree.
func settledSyncCounts(t *testing.T, op *operatorProcess) map[string]uint64 {
	t.Helper()
	last := syncCounts(scrape(t, op))
	err := wait.PollUntilContextTimeout(context.Background(), time.Second, eventually, false, func(context.Context) (bool, error) {
		counts := syncCounts(scrape(t, op))
		settled := maps.Equal(counts, last)
		last = counts
		return settled, nil
	})
	if err != nil {
		t.Fatalf("the controllers did not stop syncing: %v; last counts: %v", err, last)
	}
	return last
}
