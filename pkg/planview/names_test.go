package planview

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// finding is one that needs accepting, of informer, with uid, about the
// resources named (kubectl's way, as in an identity), at the control plane.
func finding(informer, uid, resources string) Finding {
	return Finding{Informer: informer, UID: uid, NeedsAcceptance: true, Level: insightsv1alpha1.WarningInsightLevel,
		Identity: informer + "/ControlPlane/" + resources + "/" + uid}
}

func TestShortNames(t *testing.T) {
	const builtin = updatestatus.BuiltinInformer
	duration := finding(builtin, "duration", "")
	duration.NeedsAcceptance, duration.Level = false, insightsv1alpha1.StatusInsightLevel
	inPool := func(f Finding, pool string) Finding {
		f.Pool = pool
		return f
	}
	testCases := []struct {
		name     string
		findings []Finding
		// want are the short names, by uid and informer.
		want map[string]string
	}{
		{
			name: "oc's names for the operator's findings, the uid for others'",
			findings: []Finding{
				finding(builtin, "risk/DemoEtcdSlowDisk", "ClusterVersion.config.openshift.io/version"),
				finding(builtin, "cluster-failing", "ClusterVersion.config.openshift.io/version"),
				finding(builtin, "update-in-progress", "ClusterVersion.config.openshift.io/version"),
				finding(builtin, "alert/KubeNodeNotReady/5e6f7a8b", "Node/worker-0"),
				finding(builtin, "alerts-unchecked", "ClusterOperator.config.openshift.io/monitoring"),
				finding("demo-informer", "demo-informer-mirror-missing-release", "ClusterVersion.config.openshift.io/version"),
				duration,
			},
			want: map[string]string{
				builtin + " risk/DemoEtcdSlowDisk":                   "DemoEtcdSlowDisk",
				builtin + " cluster-failing":                         "Failing",
				builtin + " update-in-progress":                      "Progressing",
				builtin + " alert/KubeNodeNotReady/5e6f7a8b":         "KubeNodeNotReady",
				builtin + " alerts-unchecked":                        "alerts-unchecked",
				"demo-informer demo-informer-mirror-missing-release": "demo-informer-mirror-missing-release",
				builtin + " duration":                                "",
			},
		},
		{
			name: "two alerts of one name, by their uids",
			findings: []Finding{
				finding(builtin, "alert/PodDisruptionBudgetAtLimit/1a2b3c4d", "PodDisruptionBudget.policy/payments/ledger"),
				finding(builtin, "alert/PodDisruptionBudgetAtLimit/9f8e7d6c", "PodDisruptionBudget.policy/payments/ledger"),
			},
			want: map[string]string{
				builtin + " alert/PodDisruptionBudgetAtLimit/1a2b3c4d": "alert/PodDisruptionBudgetAtLimit/1a2b3c4d",
				builtin + " alert/PodDisruptionBudgetAtLimit/9f8e7d6c": "alert/PodDisruptionBudgetAtLimit/9f8e7d6c",
			},
		},
		{
			name: "one uid of two informers, by informer and uid",
			findings: []Finding{
				finding("mco", "slow-etcd", ""),
				finding("etcd-informer", "slow-etcd", ""),
			},
			want: map[string]string{"mco slow-etcd": "mco/slow-etcd", "etcd-informer slow-etcd": "etcd-informer/slow-etcd"},
		},
		{
			name: "a risk's name that another informer's uid is: neither takes it",
			findings: []Finding{
				finding(builtin, "risk/OVNHang", "ClusterVersion.config.openshift.io/version"),
				finding("ovn-informer", "OVNHang", ""),
			},
			want: map[string]string{builtin + " risk/OVNHang": "risk/OVNHang", "ovn-informer OVNHang": "ovn-informer/OVNHang"},
		},
		{
			name: "one uid of an informer in two pools, by identity",
			findings: []Finding{
				inPool(finding("mco", "drain", "Node/worker-0"), "worker"),
				inPool(finding("mco", "drain", "Node/infra-0"), "infra"),
			},
			want: map[string]string{"mco drain": "mco/ControlPlane/Node/infra-0/drain|mco/ControlPlane/Node/worker-0/drain"},
		},
		{
			name: "one finding in two pools is one finding",
			findings: []Finding{
				inPool(finding("mco", "slow-reboot", ""), "worker"),
				inPool(finding("mco", "slow-reboot", ""), "infra"),
			},
			want: map[string]string{"mco slow-reboot": "slow-reboot|slow-reboot"},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			// The names are the same whatever the findings' order.
			reversed := slices.Clone(tc.findings)
			slices.Reverse(reversed)
			for _, findings := range [][]Finding{tc.findings, reversed} {
				names := shortNames(findings)
				got := map[string]string{}
				for _, f := range findings {
					key := f.Informer + " " + f.UID
					if n, ok := got[key]; ok {
						got[key] = min(n, names[f.Identity]) + "|" + max(n, names[f.Identity])
						continue
					}
					got[key] = names[f.Identity]
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("short names (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestSplitNames(t *testing.T) {
	const (
		risk = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/DemoEtcdSlowDisk"
		// A finding that names two resources: the protocol joins them
		// with a comma.
		olm = "operator-lifecycle-manager/ControlPlane/ClusterServiceVersion.operators.coreos.com/openshift-operators-redhat/elasticsearch-operator.v5.8.2," +
			"Subscription.operators.coreos.com/openshift-operators-redhat/elasticsearch-operator/max-openshift-version/openshift-operators-redhat/elasticsearch-operator.v5.8.2"
		pool = "mco/WorkerPool/MachineConfigPool.machineconfiguration.openshift.io/worker,Node/worker-0,Node/worker-1/drain"
	)
	known := func(s string) bool {
		return slices.Contains([]string{risk, olm, pool, "DemoEtcdSlowDisk", "alerts-unchecked"}, s)
	}
	for _, tc := range []struct {
		name   string
		values []string
		want   []string
	}{
		{name: "one", values: []string{risk}, want: []string{risk}},
		{name: "short names", values: []string{"DemoEtcdSlowDisk,alerts-unchecked"}, want: []string{"DemoEtcdSlowDisk", "alerts-unchecked"}},
		{name: "an identity and a typo", values: []string{risk + ",mco/ControlPlane//typo"}, want: []string{risk, "mco/ControlPlane//typo"}},
		{name: "one naming two resources", values: []string{olm}, want: []string{olm}},
		{name: "identities naming several resources, and a short name", values: []string{pool + "," + olm + ",alerts-unchecked," + risk},
			want: []string{pool, olm, "alerts-unchecked", risk}},
		{name: "repeated flags", values: []string{olm, "DemoEtcdSlowDisk"}, want: []string{olm, "DemoEtcdSlowDisk"}},
		{name: "empty parts", values: []string{"," + risk + ",,"}, want: []string{risk}},
		// A stray part is kept as it is, for the plan to refuse as an
		// unknown name, rather than glued to another flag's value.
		{name: "stray part of its own flag", values: []string{risk, "Node/worker-0"}, want: []string{risk, "Node/worker-0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, splitNames(tc.values, known)); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
		})
	}
}

func TestShorten(t *testing.T) {
	findings := []Finding{
		{Identity: "a/ControlPlane//x", Name: "x"},
		{Identity: "a/ControlPlane//x-2", Name: "x-2"},
		{Identity: "b/ControlPlane//x", Name: "b/ControlPlane//x"},
	}
	got := shorten("2 of 3 findings are not accepted: a/ControlPlane//x-2, a/ControlPlane//x, b/ControlPlane//x.", findings)
	if want := "2 of 3 findings are not accepted: x-2, x, b/ControlPlane//x."; got != want {
		t.Errorf("shorten = %q, want %q", got, want)
	}
}
