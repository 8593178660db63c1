package prechecks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitIdentities(t *testing.T) {
	const (
		risk = "update-insights-operator/ControlPlane/ClusterVersion.config.openshift.io/version/risk/DemoEtcdSlowDisk"
		// A finding that names two resources: the protocol joins them
		// with a comma.
		olm = "operator-lifecycle-manager/ControlPlane/ClusterServiceVersion.operators.coreos.com/openshift-operators-redhat/elasticsearch-operator.v5.8.2," +
			"Subscription.operators.coreos.com/openshift-operators-redhat/elasticsearch-operator/max-openshift-version/openshift-operators-redhat/elasticsearch-operator.v5.8.2"
		pool = "mco/WorkerPool/MachineConfigPool.machineconfiguration.openshift.io/worker,Node/worker-0,Node/worker-1/drain"
		none = "mco/ControlPlane//typo"
	)
	for _, tc := range []struct {
		name   string
		values []string
		want   []string
	}{
		{name: "one", values: []string{risk}, want: []string{risk}},
		{name: "two, comma-separated", values: []string{risk + "," + none}, want: []string{risk, none}},
		{name: "one naming two resources", values: []string{olm}, want: []string{olm}},
		{name: "several naming several resources", values: []string{pool + "," + olm + "," + risk}, want: []string{pool, olm, risk}},
		{name: "repeated flags", values: []string{olm, risk}, want: []string{olm, risk}},
		{name: "empty parts", values: []string{"," + risk + ",,"}, want: []string{risk}},
		// A stray part is kept as it is, for the plan to refuse as an
		// unknown identity, rather than glued to another flag's value.
		{name: "stray part of its own flag", values: []string{risk, "Node/worker-0"}, want: []string{risk, "Node/worker-0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, splitIdentities(tc.values)); diff != "" {
				t.Errorf("identities (-want +got):\n%s", diff)
			}
		})
	}
}
