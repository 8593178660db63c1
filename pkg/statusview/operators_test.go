package statusview_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/statusview"
)

// updatingOperator is the insight of a ClusterOperator updating for ago,
// as the ClusterOperator controller writes it.
func updatingOperator(name, reason, message string, ago time.Duration) *insightsv1alpha1.ClusterOperatorProgressInsight {
	return &insightsv1alpha1.ClusterOperatorProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.ClusterOperatorProgressInsightStatus{
			Name:              name,
			ProgressingReason: reason,
			Conditions: []metav1.Condition{{
				Type: insightsv1alpha1.ClusterOperatorProgressInsightUpdating, Status: metav1.ConditionTrue,
				Reason: insightsv1alpha1.ClusterOperatorProgressing, Message: message, LastTransitionTime: metav1.NewTime(now.Add(-ago)),
			}},
		},
	}
}

// The updating operators' table is oc's (pkg/cli/admin/upgrade/status/
// controlplane.go): the ClusterOperator's Progressing reason, or - without
// one, cut to 20 characters with "...", and each further line of a message
// on a row of its own under the first, the other columns empty.
func TestUpdatingOperatorsTableIsOcs(t *testing.T) {
	in := &statusview.Insights{
		ClusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{progressing},
		ClusterOperators: []*insightsv1alpha1.ClusterOperatorProgressInsight{
			updatingOperator("kube-apiserver", "NodeInstaller", "NodeInstallerProgressing: 3 nodes are at revision 274; 0 nodes have achieved new revision 276", 6*time.Minute+8*time.Second),
			updatingOperator("machine-config", "", "Working towards 4.16.0", 21*time.Minute+20*time.Second),
			updatingOperator("network", "RolloutProgressingAndSlow",
				"Deployment \"/openshift-network-operator/iptables-alerter\" is not available\nDaemonSet \"/openshift-multus/multus\" is not yet scheduled on any nodes", 45*time.Second),
		},
	}
	s, err := statusview.Build(in, now)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := statusview.WriteText(&out, s, statusview.Details{Operators: true}); err != nil {
		t.Fatal(err)
	}
	row := func(name, since, reason, message string) string {
		return strings.TrimRight(fmt.Sprintf("%-17s%-9s%-23s%s", name, since, reason, message), " ")
	}
	want := []string{
		"Updating Cluster Operators",
		row("NAME", "SINCE", "REASON", "MESSAGE"),
		row("kube-apiserver", "6m8s", "NodeInstaller", "NodeInstallerProgressing: 3 nodes are at revision 274; 0 nodes have achieved new revision 276"),
		row("machine-config", "21m20s", "-", "Working towards 4.16.0"),
		row("network", "45s", "RolloutProgressin...", `Deployment "/openshift-network-operator/iptables-alerter" is not available`),
		row("", "", "", `DaemonSet "/openshift-multus/multus" is not yet scheduled on any nodes`),
	}
	_, table, _ := strings.Cut(out.String(), "\n"+want[0]+"\n")
	table, _, _ = strings.Cut(table, "\n\n")
	if diff := cmp.Diff(want, append([]string{want[0]}, strings.Split(table, "\n")...)); diff != "" {
		t.Errorf("updating operators (-want +got):\n%s\nin:\n%s", diff, out.String())
	}
}
