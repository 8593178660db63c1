package precheck

import (
	"strings"
	"testing"

	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
)

// Findings' uids carry names any namespace user or alerting rule author
// chooses (a PodDisruptionBudget of 250 characters, a long alert name):
// each stays within the API's 256 bytes, and distinct.
func TestFindingUIDsAreBounded(t *testing.T) {
	longName := func(last string) string { return strings.Repeat("p", 249) + last }
	longBudget := func(name, last string) Budget {
		b := budget(name, 0, pod(last, "worker-0", corev1.PodRunning))
		b.PodDisruptionBudget.Namespace = strings.Repeat("n", 63)
		b.Pods[0].Namespace = b.PodDisruptionBudget.Namespace
		return b
	}
	got := Run(Input{
		ClusterVersion: clusterVersion(),
		Target:         "4.16.5",
		Pools:          []*machineconfigurationv1.MachineConfigPool{machinePool("master", false, nil), machinePool("worker", false, nil)},
		Nodes:          []*corev1.Node{node("master-0", "master"), node("worker-0", "worker")},
		Budgets:        []Budget{longBudget(longName("a"), "a"), longBudget(longName("b"), "b")},
		Alerts: []alerts.Alert{
			alert(strings.Repeat("Alert", 60)+"A", "critical", "firing"),
			alert(strings.Repeat("Alert", 60)+"B", "critical", "firing"),
		},
		Now: now,
	})
	seen := map[string]bool{}
	long := 0
	for _, i := range got {
		if len(i.UID) > maxUIDLength {
			t.Errorf("uid of %d bytes, over %d: %q", len(i.UID), maxUIDLength, i.UID)
		}
		if seen[i.UID] {
			t.Errorf("two findings share the uid %q", i.UID)
		}
		seen[i.UID] = true
		if strings.HasPrefix(i.UID, "pdb/"+strings.Repeat("n", 63)) || strings.HasPrefix(i.UID, "alert/AlertAlert") {
			long++
		}
	}
	if long != 4 {
		t.Errorf("%d findings about the long-named budgets and alerts, want 4: %v", long, seen)
	}
}
