package integration

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/planview"
	"github.com/update-insights/update-insights-operator/test/internal/prometheus"
)

// The rules of the pre-checks' Prometheus: one alert of each family oc's
// recommend reads, with the annotations of the platform's rules
// (cluster-monitoring-operator's, kubevirt's, and the example of
// OpenShift's documentation for the pre-check label), an alert of no such
// family, and a pending one.
var precheckRules = []prometheus.Rule{
	{Alert: "KubeAPIErrorBudgetBurn", Labels: map[string]string{"namespace": "openshift-kube-apiserver", "severity": "critical"},
		Annotations: map[string]string{"summary": "The API server is burning too much error budget.", "description": "The API server is burning too much error budget.",
			"runbook_url": "https://github.com/openshift/runbooks/blob/master/alerts/cluster-kube-apiserver-operator/KubeAPIErrorBudgetBurn.md"}},
	{Alert: "KubeNodeNotReady", Labels: map[string]string{"node": "worker-0", "severity": "warning"},
		Annotations: map[string]string{"summary": "Node is not ready.", "description": "worker-0 has been unready for more than 15 minutes.",
			"runbook_url": "https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/KubeNodeNotReady.md"}},
	{Alert: "KubeContainerWaiting", Labels: map[string]string{"namespace": "openshift-ingress", "pod": "router-default-0", "severity": "warning"},
		Annotations: map[string]string{"summary": "Pod container waiting longer than 1 hour",
			"description": `pod/router-default-0 in namespace openshift-ingress on container router has been in waiting state for longer than 1 hour. (reason: "ImagePullBackOff").`}},
	{Alert: "VolumeNearingCapacity", Labels: map[string]string{"namespace": "app", "severity": "warning", "openShiftUpdatePrecheck": "true"},
		Annotations: map[string]string{"summary": "Storage volume is over 85% full",
			"description": "The volume data-db-0 in namespace app is currently 91% full. This may cause issues during pod restarts or cluster updates."}},
	{Alert: "VMCannotBeEvicted", Labels: map[string]string{"namespace": "vms", "name": "rhel9", "severity": "warning"},
		Annotations: map[string]string{"summary": "The VM's eviction strategy is set to Live Migration but the VM is not migratable",
			"description": "Eviction policy for rhel9 (on node worker-1) is set to Live Migration but the VM is not migratable",
			"runbook_url": "https://kubevirt.io/monitoring/runbooks/VMCannotBeEvicted"}},
	{Alert: "KubePodNotReady", Labels: map[string]string{"namespace": "app", "severity": "warning"}},
	{Alert: "KubeNodeUnreachable", For: time.Hour, Labels: map[string]string{"node": "worker-2", "severity": "warning"}},
}

// pre-checks of a minor update, end to end: on a cluster with an
// unacknowledged gate and an API the target removes still in use, the
// operator reads a real Prometheus's alerts for the plan, and the command
// prints one finding per alert of a family that bears on an update, none
// for the others, the gate's and the API's, and exits 1 until they are
// accepted.
func TestPreChecksReadTheAlertsOcReads(t *testing.T) {
	server := startPrometheus(t, precheckRules)
	waitForPrometheus(t, server, "every alert firing, one pending", func(firing []alerts.Alert) bool {
		n := 0
		for _, a := range firing {
			if a.State == alerts.StateFiring {
				n++
			}
		}
		return n == len(precheckRules)-1 && hasAlert(firing, "KubeNodeUnreachable", alerts.StatePending)
	})
	emptyConfigMapsWhenDone(t)
	resetCloudCredentialWhenDone(t)
	// 4.15.3, offered 4.16.1 (Kubernetes 1.29).
	createClusterVersion(t, nil, plannedStatus())
	deletePlanAtEnd(t, planTarget)
	mergePatchConfigMap(t, names.ConfigManagedNamespace, names.AdminGates, map[string]any{"data": map[string]string{apiRemovalsGate: apiRemovalsText}})
	createAPIRequestCount(t, removedAPI, "1.29", map[string][2]int64{"system:serviceaccount:app:legacy-client": {120, 0}})
	startOperator(t, "--alerts-url="+server.URL(), "--alerts-ca-file="+server.CAFile(), "--alerts-token-file="+alertsToken(t))

	out, errOut, code := command(t, "pre-checks", "--to", planTarget, "-o", "json")
	if code != 1 {
		t.Fatalf("pre-checks: exit %d, want 1 (findings not accepted); stderr:\n%s", code, errOut)
	}
	var view planview.View
	if err := json.Unmarshal([]byte(out), &view); err != nil {
		t.Fatalf("pre-checks -o json: %v\n%s", err, out)
	}
	type seen struct{ Level, Summary string }
	var got []seen
	var identities []string
	for _, f := range view.Findings {
		identities = append(identities, f.Identity)
		if strings.HasPrefix(f.UID, "alert/") {
			got = append(got, seen{string(f.Level), f.Summary})
		}
	}
	for _, want := range []string{gateIdentity, removedAPIIdentity} {
		if !slices.Contains(identities, want) {
			t.Errorf("findings %v lack %s", identities, want)
		}
	}
	slices.SortFunc(got, func(a, b seen) int { return strings.Compare(a.Summary, b.Summary) })
	want := []seen{
		{"critical", "Critical alert KubeAPIErrorBudgetBurn is firing, suggesting significant cluster issues worth investigating: The API server is burning too much error budget."},
		{"warning", "Warning alert KubeContainerWaiting is firing, which may slow workload redistribution during rolling node updates: Pod container waiting longer than 1 hour."},
		{"warning", "Warning alert KubeNodeNotReady is firing, which may slow workload redistribution during rolling node updates: Node is not ready."},
		{"warning", "Warning alert VMCannotBeEvicted is firing, which may slow workload redistribution during rolling node updates: The VM's eviction strategy is set to Live Migration but the VM is not migratable."},
		{"warning", "Warning alert VolumeNearingCapacity is firing, suggesting issues worth investigating before updating the cluster: Storage volume is over 85% full."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("alert findings (-want +got):\n%s", diff)
	}

	details, _, _ := command(t, "pre-checks", "--to", planTarget, "--details")
	t.Logf("pre-checks --to %s --details:\n%s", planTarget, details)
}
