package recordedtest

import (
	"fmt"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// What a MachineConfig change (a kernel type change, say) renders for the
// worker pool: a new configuration of the version the cluster already runs.
// RolloutWorkerConfig is what it renders in RolloutAfterUpdate,
// RolloutAfterMigrationConfig in RolloutAfterMigration.
const (
	RolloutWorkerConfig               = "rendered-worker-6e1b0f9d2c8a7e5b4d3c2a1f0e9b8d7c"
	RolloutAfterMigrationWorkerConfig = "rendered-worker-2f4e6a8c0b1d3f5e7a9c1b3d5f7e9a0c"
)

// The workers that run the new configuration and that are drained for it.
const (
	RolloutDoneNode     = "ip-10-0-4-159.us-east-2.compute.internal"
	RolloutDrainingNode = "ip-10-0-20-162.us-east-2.compute.internal"
)

// RolloutNow is when the rollout clusters are looked at: a week after the
// recording, long after the migration of RolloutAfterMigration completed.
var RolloutNow = MigrationStarted.Add(7 * 24 * time.Hour)

// RolloutAfterUpdate returns the recorded cluster MigrationBase, at rest
// after an ordinary update, while its worker pool rolls out a new
// configuration of the same version (see rollOutWorkerConfig).
func RolloutAfterUpdate(t *testing.T) *analyze.Cluster {
	t.Helper()
	c := CaseNamed(t, MigrationBase).Cluster
	rollOutWorkerConfig(c, RolloutWorkerConfig)
	return c
}

// RolloutAfterMigration returns the cluster of MidMigration once its
// migration completed (its history still ends with the migration), while its
// worker pool rolls out a new configuration of the same version.
func RolloutAfterMigration(t *testing.T) *analyze.Cluster {
	t.Helper()
	c := MidMigration(t)
	completed := metav1.NewTime(MigrationStarted.Add(95 * time.Minute))

	cv := c.ClusterVersions[0]
	version := cv.Status.Desired.Version
	cv.Status.History[0].State, cv.Status.History[0].CompletionTime = configv1.CompletedUpdate, &completed
	for i := range cv.Status.Conditions {
		if cond := &cv.Status.Conditions[i]; cond.Type == configv1.OperatorProgressing {
			cond.Status, cond.Reason, cond.Message = configv1.ConditionFalse, "", "Cluster version is "+version
			cond.LastTransitionTime = completed
		}
	}
	for i, co := range c.ClusterOperators {
		if co.Name != names.MachineConfigOperator {
			continue
		}
		co = co.DeepCopy()
		for j := range co.Status.Versions {
			if v := &co.Status.Versions[j]; v.Name == "operator-image" {
				v.Version = MultiArchMCOImage
			}
		}
		for j := range co.Status.Conditions {
			if cond := &co.Status.Conditions[j]; cond.Type == configv1.OperatorProgressing {
				cond.Status, cond.Message = configv1.ConditionFalse, "Cluster version is "+version
				cond.LastTransitionTime = completed
			}
		}
		c.ClusterOperators[i] = co
	}

	// Every node runs its pool's multi-architecture configuration, and each
	// pool says so.
	for _, pool := range c.MachineConfigPools {
		settle(pool, completed)
	}
	for _, node := range c.Nodes {
		next := MultiArchWorkerConfig
		if _, master := node.Labels["node-role.kubernetes.io/master"]; master {
			next = MultiArchMasterConfig
		}
		atRest(node, next)
	}
	rollOutWorkerConfig(c, RolloutAfterMigrationWorkerConfig)
	return c
}

// rollOutWorkerConfig makes the worker pool of a cluster at rest roll out a
// new rendered configuration of the version its nodes run, as the
// machine-config operator does for any MachineConfig change: the pool
// targets it and reports Updating; one worker runs it, one is drained for
// it, the third waits its turn.
func rollOutWorkerConfig(c *analyze.Cluster, next string) {
	var pool *machineconfigurationv1.MachineConfigPool
	for i, p := range c.MachineConfigPools {
		if p.Name == names.WorkerPool {
			pool = p.DeepCopy()
			c.MachineConfigPools[i] = pool
		}
	}
	previous := pool.Spec.Configuration.Name
	for _, mc := range c.MachineConfigs {
		if mc.Name == previous {
			mc = mc.DeepCopy()
			mc.Name, mc.UID = next, ""
			c.MachineConfigs = append(c.MachineConfigs, mc)
			break
		}
	}
	pool.Spec.Configuration.Name = next
	pool.Status.UpdatedMachineCount, pool.Status.ReadyMachineCount, pool.Status.UnavailableMachineCount = 1, 1, 1
	for i := range pool.Status.Conditions {
		switch cond := &pool.Status.Conditions[i]; cond.Type {
		case "Updated":
			cond.Status, cond.Message = corev1.ConditionFalse, ""
		case "Updating":
			cond.Status, cond.Message = corev1.ConditionTrue, "All nodes are updating to MachineConfig "+next
		}
	}

	for i, node := range c.Nodes {
		if node.Name != RolloutDoneNode && node.Name != RolloutDrainingNode {
			continue
		}
		node = node.DeepCopy()
		if node.Name == RolloutDoneNode {
			atRest(node, next)
		} else {
			a := node.Annotations
			a[nodes.DesiredConfigAnnotation], a[nodes.StateAnnotation] = next, "Working"
			a[nodes.DesiredDrainAnnotation] = "drain-" + next
			node.Spec.Unschedulable = true
			node.Spec.Taints = append(node.Spec.Taints, corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule})
		}
		c.Nodes[i] = node
	}
}

// atRest makes a node run config, done with it and uncordoned, as the
// machine-config daemon leaves a node.
func atRest(node *corev1.Node, config string) {
	a := node.Annotations
	a[nodes.CurrentConfigAnnotation], a[nodes.DesiredConfigAnnotation], a[nodes.StateAnnotation] = config, config, "Done"
	a[nodes.DesiredDrainAnnotation], a[nodes.LastAppliedDrainAnnotation] = "uncordon-"+config, "uncordon-"+config
	node.Spec.Unschedulable = false
}

// settle makes a pool's status say that every node runs its configuration.
func settle(pool *machineconfigurationv1.MachineConfigPool, at metav1.Time) {
	pool.Status.Configuration.Name = pool.Spec.Configuration.Name
	for i := range pool.Status.Conditions {
		switch cond := &pool.Status.Conditions[i]; cond.Type {
		case "Updated":
			cond.Status, cond.LastTransitionTime = corev1.ConditionTrue, at
			cond.Message = fmt.Sprintf("All nodes are updated with MachineConfig %s", pool.Spec.Configuration.Name)
		case "Updating":
			cond.Status, cond.Message, cond.LastTransitionTime = corev1.ConditionFalse, "", at
		}
	}
}
