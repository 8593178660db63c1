package recordedtest

import (
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/analyze"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// MigrationBase is the recorded case a mid-migration cluster is made from:
// a cluster at rest at 4.14.1, three control plane nodes and three workers.
const MigrationBase = "not-upgrading"

// What a migration to the multi-architecture payload brings: a release
// image of the same version, a machine-config-operator image, and for each
// pool a new rendered config of the same version.
const (
	MultiArchRelease       = "quay.io/openshift-release-dev/ocp-release@sha256:4a1b9c0d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b"
	SingleArchMCOImage     = "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d"
	MultiArchMCOImage      = "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e"
	MultiArchMasterConfig  = "rendered-master-7d0e4c1b9a8f6e5d4c3b2a1f0e9d8c7b"
	MultiArchWorkerConfig  = "rendered-worker-3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e"
	singleArchMasterConfig = "rendered-master-354cc9845ab33037fa7121a44dafecfd"
	singleArchWorkerConfig = "rendered-worker-4cec9ed3a634560e5c083a187c8f93a7"
)

// MigrationStarted is when the mid-migration cluster began its migration, a
// day after the recording; MigrationNow is when it is looked at.
var (
	MigrationStarted = time.Date(2024, 2, 8, 10, 0, 0, 0, time.UTC)
	MigrationNow     = MigrationStarted.Add(25 * time.Minute)
)

// MidMigration returns the recorded cluster MigrationBase 25 minutes into a
// migration to the multi-architecture payload, changed only where such a
// migration changes it:
//   - the ClusterVersion desires the same version at the multi-architecture
//     release image, and its history starts a partial update of that
//     version;
//   - the operators keep their versions; machine-config is progressing and
//     still reports the image it ran before (the recording predates the
//     version entry in which it reports its image), while its Deployment
//     already runs the new one;
//   - each pool targets a new rendered config of the same version;
//   - one control plane node runs its pool's new config, another is
//     updating to it, a worker is draining for it, and the others wait.
func MidMigration(t *testing.T) *analyze.Cluster {
	t.Helper()
	c := CaseNamed(t, MigrationBase).Cluster

	cv := c.ClusterVersions[0].DeepCopy()
	version := cv.Status.Desired.Version
	cv.Spec.DesiredUpdate = &configv1.Update{Architecture: configv1.ClusterVersionArchitectureMulti, Version: version}
	cv.Status.Desired.Image = MultiArchRelease
	cv.Status.Desired.Architecture = configv1.ClusterVersionArchitectureMulti
	cv.Status.History = append([]configv1.UpdateHistory{{
		State: configv1.PartialUpdate, Version: version, Image: MultiArchRelease, StartedTime: metav1.NewTime(MigrationStarted),
	}}, cv.Status.History...)
	for i := range cv.Status.Conditions {
		if cond := &cv.Status.Conditions[i]; cond.Type == configv1.OperatorProgressing {
			cond.Status, cond.Reason = configv1.ConditionTrue, "ClusterOperatorUpdating"
			cond.Message = "Working towards " + version + ": 812 of 863 done (94% complete), waiting on machine-config"
			cond.LastTransitionTime = metav1.NewTime(MigrationStarted)
		}
	}
	c.ClusterVersions = []*configv1.ClusterVersion{cv}

	for i, co := range c.ClusterOperators {
		if co.Name != names.MachineConfigOperator {
			continue
		}
		co = co.DeepCopy()
		co.Status.Versions = append(co.Status.Versions, configv1.OperandVersion{Name: "operator-image", Version: SingleArchMCOImage})
		for j := range co.Status.Conditions {
			if cond := &co.Status.Conditions[j]; cond.Type == configv1.OperatorProgressing {
				cond.Status, cond.Message = configv1.ConditionTrue, "Working towards "+version
				cond.LastTransitionTime = metav1.NewTime(MigrationStarted.Add(12 * time.Minute))
			}
		}
		c.ClusterOperators[i] = co
	}

	c.Deployments = []*appsv1.Deployment{{
		ObjectMeta: metav1.ObjectMeta{Namespace: names.MachineConfigOperatorNamespace, Name: names.MachineConfigOperatorDeployment},
		Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: names.MachineConfigOperatorDeployment, Image: MultiArchMCOImage},
			{Name: "kube-rbac-proxy", Image: "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b"},
		}}}},
	}}

	newConfig := map[string]string{singleArchMasterConfig: MultiArchMasterConfig, singleArchWorkerConfig: MultiArchWorkerConfig}
	for _, mc := range c.MachineConfigs {
		if renamed, ok := newConfig[mc.Name]; ok {
			mc = mc.DeepCopy()
			mc.Name, mc.UID = renamed, ""
			c.MachineConfigs = append(c.MachineConfigs, mc)
		}
	}
	for i, pool := range c.MachineConfigPools {
		pool = pool.DeepCopy()
		pool.Spec.Configuration.Name = newConfig[pool.Spec.Configuration.Name]
		c.MachineConfigPools[i] = pool
	}

	for i, node := range c.Nodes {
		node = node.DeepCopy()
		a := node.Annotations
		current := a[nodes.CurrentConfigAnnotation]
		next := newConfig[current]
		switch node.Name {
		case "ip-10-0-30-217.us-east-2.compute.internal": // migrated
			a[nodes.CurrentConfigAnnotation], a[nodes.DesiredConfigAnnotation] = next, next
			a[nodes.DesiredDrainAnnotation], a[nodes.LastAppliedDrainAnnotation] = "uncordon-"+next, "uncordon-"+next
		case "ip-10-0-53-40.us-east-2.compute.internal": // drained, being updated
			a[nodes.DesiredConfigAnnotation], a[nodes.StateAnnotation] = next, "Working"
			a[nodes.DesiredDrainAnnotation], a[nodes.LastAppliedDrainAnnotation] = "drain-"+next, "drain-"+next
			node.Spec.Unschedulable = true
		case "ip-10-0-20-162.us-east-2.compute.internal": // being drained
			a[nodes.DesiredConfigAnnotation], a[nodes.StateAnnotation] = next, "Working"
			a[nodes.DesiredDrainAnnotation] = "drain-" + next
			node.Spec.Unschedulable = true
		}
		c.Nodes[i] = node
	}
	return c
}
