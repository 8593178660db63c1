package precheck_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/internal/recordedtest"
	"github.com/update-insights/update-insights-operator/pkg/precheck"
)

// The pre-checks of an update to the next minor release, on clusters
// recorded as oc adm upgrade status saw them: what each finds, by uid. The
// recordings hold neither the admin-gates ConfigMap nor the
// CloudCredential: every minor update finds them missing.
func TestPreChecksOfRecordedClusters(t *testing.T) {
	tests := []struct {
		name, target string
		want         []string
	}{
		{
			// Two alerts on budgets at their limit fire, with the same
			// labels (oc's test data); no budget objects were recorded,
			// so each alert is a finding of its own. The other alerts
			// firing are of no family that bears on an update, and
			// those of the operators that are down are pending.
			name: "4.15.0-ec2-unavailable-mco-20m", target: "4.16.0",
			want: []string{
				"admin-gates-missing", "alert/PodDisruptionBudgetAtLimit/f80eb120fd365fa0", "alert/PodDisruptionBudgetAtLimit/f80eb120fd365fa0-2",
				"cloud-credentials-unchecked", "clusteroperator/control-plane-machine-set/unavailable", "clusteroperator/etcd/degraded", "clusteroperator/machine-config/unavailable",
				"duration", "not-offered", "not-upgradeable", "update-in-progress",
			},
		},
		{
			// Idle and healthy, but its channel offers nothing.
			name: "not-upgrading", target: "4.15.0",
			want: []string{"admin-gates-missing", "cloud-credentials-unchecked", "duration", "not-offered"},
		},
		{
			name: "4.14.1-paused-worker-pool", target: "4.15.0",
			want: []string{"admin-gates-missing", "cloud-credentials-unchecked", "duration", "not-offered", "pool/worker/paused", "update-in-progress"},
		},
		{
			// The nodes the machine-config daemon cordoned to drain them
			// for the update in progress are not reported as cordoned.
			name: "to-multi-arch", target: "4.19.0",
			want: []string{"admin-gates-missing", "cloud-credentials-unchecked", "duration", "not-offered", "not-upgradeable", "update-in-progress"},
		},
		{
			// Most workers are cordoned by their daemon, draining for the
			// update; one was cordoned by someone else.
			name: "4.16.0-ec2-control-plane-updated-pdb-prohibits-draining", target: "4.17.0",
			want: []string{
				"admin-gates-missing", "cloud-credentials-unchecked", "cluster-failing", "clusteroperator/machine-config/degraded", "duration",
				"node/build0-gstfj-ci-prowjobs-worker-b-9lztv/daemon-degraded", "node/build0-gstfj-ci-prowjobs-worker-b-bg9f5/daemon-degraded",
				"node/build0-gstfj-ci-prowjobs-worker-b-mrxwn/daemon-degraded", "node/build0-gstfj-ci-tests-worker-b-4h7pn/daemon-degraded",
				"node/build0-gstfj-ci-tests-worker-b-d9vz2/not-ready", "node/build0-gstfj-ci-tests-worker-b-jv5bg/daemon-degraded",
				"node/build0-gstfj-ci-tests-worker-b-kj6gk/daemon-degraded", "node/build0-gstfj-ci-tests-worker-c-dcz9p/daemon-degraded",
				"node/build0-gstfj-ci-tests-worker-c-jq5rk/unschedulable",
				"not-offered", "not-upgradeable",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := recordedtest.CaseNamed(t, tt.name)
			findings := precheck.Run(precheck.Input{
				ClusterVersion: c.Cluster.ClusterVersions[0], Target: tt.target,
				ClusterOperators: c.Cluster.ClusterOperators, Nodes: c.Cluster.Nodes, Pools: c.Cluster.MachineConfigPools,
				Alerts: c.Cluster.Alerts, Now: c.Now,
			})
			var uids []string
			for _, f := range findings {
				uids = append(uids, f.UID)
			}
			slices.Sort(uids)
			if diff := cmp.Diff(tt.want, uids); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
