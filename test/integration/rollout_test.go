package integration

import (
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// A MachineConfig change renders a new configuration of the version the
// cluster runs.
const changedWorkerConfig = "rendered-worker-kernel-rt"

// restingStatus is the status of a ClusterVersion at rest at toVersion,
// with history newest first.
func restingStatus(desired configv1.Release, history ...configv1.UpdateHistory) configv1.ClusterVersionStatus {
	completed := metav1.NewTime(updateStarted.Add(-time.Hour))
	for i := range history {
		history[i].State, history[i].CompletionTime = configv1.CompletedUpdate, &completed
		history[i].StartedTime = metav1.NewTime(completed.Add(-time.Duration(i+1) * time.Hour))
	}
	return configv1.ClusterVersionStatus{
		Desired:            desired,
		ObservedGeneration: 1,
		VersionHash:        "hash",
		Conditions: []configv1.ClusterOperatorStatusCondition{
			{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse, Message: "Cluster version is " + toVersion, LastTransitionTime: completed},
			{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: completed},
		},
		History: history,
	}
}

// poolUpdateStatus is UpdatePending and UpdateActive of the named worker
// pool in UpdateStatus, as "status/reason" each.
func poolUpdateStatus(s *insightsv1alpha1.UpdateStatus, pool string) string {
	if s == nil {
		return ""
	}
	for _, p := range s.Status.WorkerPools {
		if p.Resource.Name == pool {
			return conditionState(p.Conditions, insightsv1alpha1.UpdatePending) + ", " + conditionState(p.Conditions, insightsv1alpha1.UpdateActive)
		}
	}
	return ""
}

// TestConfigurationRolloutIsNotAnUpdate: a worker pool rolling out a
// MachineConfig change, with every node at the version the cluster runs, is
// no update, whether the cluster's last update was an ordinary one or a
// migration to the multi-architecture payload that completed (its history
// still shows it). Nodes are judged by their configurations only while such
// a migration progresses, and the live controllers switch when it stops.
func TestConfigurationRolloutIsNotAnUpdate(t *testing.T) {
	testCases := []struct {
		name    string
		desired configv1.Release
		history []configv1.UpdateHistory
	}{
		{
			name:    "after an ordinary update",
			desired: configv1.Release{Version: toVersion, Image: "quay.io/release:" + toVersion},
			history: []configv1.UpdateHistory{
				{Version: toVersion, Image: "quay.io/release:" + toVersion},
				{Version: fromVersion, Image: "quay.io/release:" + fromVersion},
			},
		},
		{
			name:    "after a migration to the multi-architecture payload",
			desired: configv1.Release{Version: toVersion, Image: multiArchRelease, Architecture: configv1.ClusterVersionArchitectureMulti},
			history: []configv1.UpdateHistory{
				{Version: toVersion, Image: multiArchRelease},
				{Version: toVersion, Image: "quay.io/release:" + toVersion},
			},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Cleanup(func() { deleteNodeInsights(t) })
			startOperator(t)
			createClusterOperators(t, map[string]string{"etcd": toVersion, names.MachineConfigOperator: toVersion})
			createClusterVersion(t, nil, restingStatus(tc.desired, tc.history...))
			for _, config := range []string{multiMasterConfig, multiWorkerConfig, changedWorkerConfig} {
				createRenderedConfig(t, config, toVersion)
			}
			createPool(t, nodes.MasterPool)
			createPool(t, nodes.WorkerPool)
			setPoolTarget(t, nodes.MasterPool, multiMasterConfig)
			setPoolTarget(t, nodes.WorkerPool, changedWorkerConfig)
			createNode(t, "master-0", atRest(multiMasterConfig), "master")
			createNode(t, "worker-0", atRest(changedWorkerConfig), "worker")
			createNode(t, "worker-1", withChanges(atRest(multiWorkerConfig), map[string]string{
				nodes.DesiredConfigAnnotation: changedWorkerConfig,
				nodes.StateAnnotation:         "Working",
				nodes.DesiredDrainAnnotation:  "drain-" + changedWorkerConfig,
			}), "worker")
			createNode(t, "worker-2", atRest(multiWorkerConfig), "worker")
			updateNode(t, "worker-1", func(n *corev1.Node) { n.Spec.Unschedulable = true })

			worker := &nodeView{Pool: poolRef(nodes.WorkerPool), Scope: insightsv1alpha1.ScopeTypeWorkerPool, Version: toVersion,
				Updating: "False Completed", Degraded: notDegraded, Available: available}
			waitForNodeInsight(t, "worker-0", worker)
			waitForNodeInsight(t, "worker-2", worker)
			drained := *worker
			drained.Available, drained.Message = "False Unschedulable", "Node is marked unschedulable"
			waitForNodeInsight(t, "worker-1", &drained)
			rolling := &poolView{Scope: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: insightsv1alpha1.PoolCompleted, Completion: 100,
				Updating: "False " + insightsv1alpha1.MachineConfigPoolRollingOutConfiguration, Healthy: healthy, Counts: poolCounts{Total: 3, Available: 2}}
			waitForPoolInsight(t, nodes.WorkerPool, rolling)
			waitFor(t, time.Minute, "UpdateStatus with the worker pool neither pending nor active", getUpdateStatus, func(s *insightsv1alpha1.UpdateStatus) bool {
				return poolUpdateStatus(s, nodes.WorkerPool) == "False NodesReconciled, False Completed"
			})

			t.Run("the rollout ends: the pool has nothing to explain", func(t *testing.T) {
				setNodeAnnotations(t, "worker-1", atRest(changedWorkerConfig))
				updateNode(t, "worker-1", func(n *corev1.Node) { n.Spec.Unschedulable = false })
				setNodeAnnotations(t, "worker-2", atRest(changedWorkerConfig))
				done := *rolling
				done.Updating, done.Counts.Available = "False Completed", 3
				waitForPoolInsight(t, nodes.WorkerPool, &done)
			})
		})
	}
}

// TestMigrationStopsProgressing: while a migration progresses, a worker
// that does not run its pool's configuration is pending; once the
// ClusterVersion stops progressing, the same worker is judged by its
// version, and its pool rolls out a configuration that is no update.
func TestMigrationStopsProgressing(t *testing.T) {
	t.Cleanup(func() { deleteNodeInsights(t) })
	startOperator(t)
	createClusterOperators(t, map[string]string{"etcd": toVersion, names.MachineConfigOperator: toVersion})
	createClusterVersion(t, nil, migrationStatus())
	for _, config := range []string{singleWorkerConfig, multiWorkerConfig} {
		createRenderedConfig(t, config, toVersion)
	}
	createPool(t, nodes.WorkerPool)
	setPoolTarget(t, nodes.WorkerPool, multiWorkerConfig)
	createNode(t, "worker-0", atRest(multiWorkerConfig), "worker")
	createNode(t, "worker-1", atRest(singleWorkerConfig), "worker")

	worker := &nodeView{Pool: poolRef(nodes.WorkerPool), Scope: insightsv1alpha1.ScopeTypeWorkerPool, Version: toVersion,
		Updating: "False Pending", Degraded: notDegraded, Available: available}
	waitForNodeInsight(t, "worker-1", worker)
	waitForPoolInsight(t, nodes.WorkerPool, &poolView{Scope: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: insightsv1alpha1.PoolProgressing,
		Completion: 50, Updating: "True Progressing", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2, Outdated: 1}})

	status := migrationStatus()
	status.History[0].State, status.History[0].CompletionTime = configv1.CompletedUpdate, &metav1.Time{Time: time.Now().Truncate(time.Second)}
	status.Conditions[0].Status, status.Conditions[0].Message = configv1.ConditionFalse, "Cluster version is "+toVersion
	setClusterVersionStatus(t, getClusterVersion(t), status)

	completed := *worker
	completed.Updating = "False Completed"
	waitForNodeInsight(t, "worker-1", &completed)
	waitForPoolInsight(t, nodes.WorkerPool, &poolView{Scope: insightsv1alpha1.ScopeTypeWorkerPool, Assessment: insightsv1alpha1.PoolCompleted,
		Completion: 100, Updating: "False " + insightsv1alpha1.MachineConfigPoolRollingOutConfiguration, Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2}})
}
