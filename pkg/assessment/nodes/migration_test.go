package nodes

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// A migration to the multi-architecture payload renders new configurations
// of the same version: the one the nodes ran, and the one for the
// multi-architecture payload, which the pool now targets.
const (
	singleArchConfig = "rendered-worker-8f6b0d4fd2a1e7b0c1f3ae6f8a5c2b90"
	multiArchConfig  = "rendered-worker-1d7f3e0b9c6a4d2e8b5f7a1c3e9d0b64"
)

var migrationVersions = VersionMap{singleArchConfig: target, multiArchConfig: target}

// migratingPool is a pool whose target is the multi-architecture configuration.
func migratingPool(paused bool) *machineconfigurationv1.MachineConfigPool {
	p := testPool("worker", paused)
	p.Spec.Configuration.Name = multiArchConfig
	return p
}

// migrationNodes are the nodes of a pool part way through a migration, by
// what the machine-config daemon says of them.
var migrationNodes = map[string]*corev1.Node{
	"migrated": testNode("migrated", mcd(multiArchConfig, multiArchConfig, "Done", "uncordon-"+multiArchConfig, "uncordon-"+multiArchConfig, ""), healthy(), false),
	"draining": testNode("draining", mcd(singleArchConfig, multiArchConfig, "Working", "drain-"+multiArchConfig, "uncordon-"+singleArchConfig, ""), healthy(), true),
	"waiting":  testNode("waiting", mcd(singleArchConfig, singleArchConfig, "Done", "uncordon-"+singleArchConfig, "uncordon-"+singleArchConfig, ""), healthy(), false),
}

func TestNodeProgressDuringAnArchitectureMigration(t *testing.T) {
	testCases := []struct {
		name      string
		node      *corev1.Node
		paused    bool
		migrating bool
		want      summary
		wantSays  string
	}{
		{
			name: "runs the pool's configuration, as told: updated", node: migrationNodes["migrated"], migrating: true,
			want:     summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: target},
			wantSays: "The node is at version 4.16.0-ec.3 (its pool's configuration " + multiArchConfig + ")",
		},
		{
			name: "told to use the pool's configuration and not running it yet: updating", node: migrationNodes["draining"], migrating: true,
			want: summary{Updating: "True", UpdatingReason: "Draining", Degraded: "AsExpected", Available: "Unschedulable", AvailableSince: now,
				Version: target, Estimate: 10 * time.Minute, InProgress: true},
			wantSays: "The node is being drained before its update to 4.16.0-ec.3 (its pool's configuration " + multiArchConfig + ")",
		},
		{
			name: "at the target version in the configuration before the migration: pending", node: migrationNodes["waiting"], migrating: true,
			want:     summary{Updating: "False", UpdatingReason: "Pending", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: target},
			wantSays: "The node is at version 4.16.0-ec.3 and waits to be updated to 4.16.0-ec.3 (its pool's configuration " + multiArchConfig + ")",
		},
		{
			name: "the same in a paused pool: excluded", node: migrationNodes["waiting"], migrating: true, paused: true,
			want: summary{Updating: "False", UpdatingReason: "Paused", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: target},
		},
		{
			name: "runs what it was told, but the pool targets a newer configuration: pending",
			node: testNode("n", mcd(singleArchConfig, singleArchConfig, "Done", "", "", ""), healthy(), false), migrating: true,
			want: summary{Updating: "False", UpdatingReason: "Pending", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: target},
		},
		{
			name: "outside a migration the version decides, as before", node: migrationNodes["waiting"],
			want:     summary{Updating: "False", UpdatingReason: "Completed", Degraded: "AsExpected", Available: "AsExpected", AvailableSince: now, Version: target},
			wantSays: "The node is at version 4.16.0-ec.3",
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			a := NodeProgress(Input{Node: tc.node, Pool: migratingPool(tc.paused), Versions: migrationVersions, Target: target, Migrating: tc.migrating, Now: now})
			if diff := cmp.Diff(tc.want, summarize(a)); diff != "" {
				t.Errorf("assessment (-want +got):\n%s", diff)
			}
			if says := a.Status.Conditions[0].Message; tc.wantSays != "" && says != tc.wantSays {
				t.Errorf("Updating says %q, want %q", says, tc.wantSays)
			}
		})
	}
}

// TestPoolDuringAnArchitectureMigration: the pool counts its nodes by their
// configurations, not as complete because every node has the version.
func TestPoolDuringAnArchitectureMigration(t *testing.T) {
	pool := migratingPool(false)
	var assessments []*Assessment
	for _, name := range []string{"migrated", "draining", "waiting"} {
		a := NodeProgress(Input{Node: migrationNodes[name], Pool: pool, Versions: migrationVersions, Target: target, Migrating: true, Now: now})
		assessments = append(assessments, &a)
	}
	got := Pool(pool, assessments, nil, nil, now)
	if got.Assessment != insightsv1alpha1.PoolProgressing || got.CompletionPercent != 33 {
		t.Errorf("pool %s at %d%%, want Progressing at 33%%", got.Assessment, got.CompletionPercent)
	}
	want := []insightsv1alpha1.NodeSummary{
		{Type: insightsv1alpha1.NodesTotal, Count: 3},
		{Type: insightsv1alpha1.NodesAvailable, Count: 2},
		{Type: insightsv1alpha1.NodesProgressing, Count: 1},
		{Type: insightsv1alpha1.NodesOutdated, Count: 2},
		{Type: insightsv1alpha1.NodesDraining, Count: 1},
		{Type: insightsv1alpha1.NodesExcluded, Count: 0},
		{Type: insightsv1alpha1.NodesDegraded, Count: 0},
	}
	if diff := cmp.Diff(want, got.Summaries); diff != "" {
		t.Errorf("summaries (-want +got):\n%s", diff)
	}
}
