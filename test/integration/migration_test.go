package integration

import (
	"context"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// What a migration of toVersion to the multi-architecture payload brings:
// the release and machine-config-operator images, and a rendered config of
// the same version for each pool.
const (
	multiArchRelease   = "quay.io/release@sha256:multi"
	singleArchMCOImage = "quay.io/mco@sha256:amd64"
	multiArchMCOImage  = "quay.io/mco@sha256:multi"
	singleMasterConfig = "rendered-master-single-arch"
	multiMasterConfig  = "rendered-master-multi-arch"
	singleWorkerConfig = "rendered-worker-single-arch"
	multiWorkerConfig  = "rendered-worker-multi-arch"
)

// migrationStatus is the status of a ClusterVersion 20 minutes into the
// migration of toVersion to the multi-architecture payload.
func migrationStatus() configv1.ClusterVersionStatus {
	return configv1.ClusterVersionStatus{
		Desired:            configv1.Release{Version: toVersion, Image: multiArchRelease, Architecture: configv1.ClusterVersionArchitectureMulti},
		ObservedGeneration: 1,
		VersionHash:        "hash",
		Conditions: []configv1.ClusterOperatorStatusCondition{
			{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Reason: "ClusterOperatorUpdating",
				Message: "Working towards " + toVersion, LastTransitionTime: updateStarted},
			{Type: "Failing", Status: configv1.ConditionFalse, LastTransitionTime: updateStarted},
		},
		History: []configv1.UpdateHistory{
			{Version: toVersion, Image: multiArchRelease, State: configv1.PartialUpdate, StartedTime: updateStarted},
			{Version: toVersion, Image: "quay.io/release:" + toVersion, State: configv1.CompletedUpdate,
				StartedTime: metav1.NewTime(updateStarted.Add(-24 * time.Hour)), CompletionTime: &metav1.Time{Time: updateStarted.Add(-23 * time.Hour)}},
		},
	}
}

// setMachineConfigOperatorImage writes the image machine-config reports
// it runs, at toVersion, as progressing since the migration started.
func setMachineConfigOperatorImage(t testing.TB, image string) {
	t.Helper()
	ctx := context.Background()
	co, err := configClient.ConfigV1().ClusterOperators().Get(ctx, names.MachineConfigOperator, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	co.Status.Versions = []configv1.OperandVersion{{Name: "operator", Version: toVersion}, {Name: "operator-image", Version: image}}
	co.Status.Conditions = []configv1.ClusterOperatorStatusCondition{
		{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue, LastTransitionTime: updateStarted},
		{Type: configv1.OperatorProgressing, Status: configv1.ConditionTrue, Message: "Working towards " + toVersion, LastTransitionTime: updateStarted},
	}
	if _, err := configClient.ConfigV1().ClusterOperators().UpdateStatus(ctx, co, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the status of machine-config: %v", err)
	}
}

// setMachineConfigOperatorDeployment creates or updates the
// machine-config-operator Deployment to run image, and deletes it when the
// test ends. Its namespace stays: the test server has no controller to
// finish deleting a namespace.
func setMachineConfigOperatorDeployment(t testing.TB, image string) {
	t.Helper()
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: names.MachineConfigOperatorNamespace}}
	if _, err := kubeClient.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("creating namespace %s: %v", ns.Name, err)
	}
	deployments := kubeClient.AppsV1().Deployments(names.MachineConfigOperatorNamespace)
	d, err := deployments.Get(ctx, names.MachineConfigOperatorDeployment, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		labels := map[string]string{"k8s-app": "machine-config-operator"}
		d = &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: names.MachineConfigOperatorDeployment},
			Spec: appsv1.DeploymentSpec{
				Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec: corev1.PodSpec{Containers: []corev1.Container{
						{Name: "kube-rbac-proxy", Image: "quay.io/kube-rbac-proxy"},
						{Name: names.MachineConfigOperatorDeployment, Image: image},
					}},
				},
			},
		}
		if _, err := deployments.Create(ctx, d, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating the machine-config-operator Deployment: %v", err)
		}
		t.Cleanup(func() {
			if err := deployments.Delete(context.Background(), d.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting the machine-config-operator Deployment: %v", err)
			}
		})
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	d.Spec.Template.Spec.Containers[1].Image = image
	if _, err := deployments.Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("updating the machine-config-operator Deployment: %v", err)
	}
}

// setPoolTarget makes the pool target the rendered config, as the
// machine-config controller does once it has rendered it.
func setPoolTarget(t testing.TB, name, config string) {
	t.Helper()
	ctx := context.Background()
	pools := machineConfigClient(t).MachineconfigurationV1().MachineConfigPools()
	pool, err := pools.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pool.Spec.Configuration.Name = config
	if _, err := pools.Update(ctx, pool, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("making MachineConfigPool %s target %s: %v", name, config, err)
	}
}

// TestArchitectureMigration follows a cluster migrating to the
// multi-architecture payload, where every operator and rendered config
// keeps its version: machine-config counts as updating until it runs its
// Deployment's image, there is no estimated completion, and nodes are
// judged by their rendered configs.
func TestArchitectureMigration(t *testing.T) {
	t.Cleanup(func() { deleteNodeInsights(t) })
	startOperator(t)
	setMachineConfigOperatorDeployment(t, multiArchMCOImage)
	createClusterOperators(t, map[string]string{"etcd": toVersion, names.MachineConfigOperator: toVersion})
	setMachineConfigOperatorImage(t, singleArchMCOImage)
	createClusterVersion(t, nil, migrationStatus())
	for _, config := range []string{singleMasterConfig, multiMasterConfig, singleWorkerConfig, multiWorkerConfig} {
		createRenderedConfig(t, config, toVersion)
	}
	createPool(t, nodes.MasterPool)
	createPool(t, nodes.WorkerPool)
	setPoolTarget(t, nodes.MasterPool, multiMasterConfig)
	setPoolTarget(t, nodes.WorkerPool, multiWorkerConfig)
	createNode(t, "master-0", atRest(multiMasterConfig), "master")
	createNode(t, "master-1", withChanges(atRest(singleMasterConfig), map[string]string{
		nodes.DesiredConfigAnnotation:    multiMasterConfig,
		nodes.StateAnnotation:            "Working",
		nodes.DesiredDrainAnnotation:     "drain-" + multiMasterConfig,
		nodes.LastAppliedDrainAnnotation: "drain-" + multiMasterConfig,
	}), "master")
	createNode(t, "worker-0", atRest(singleWorkerConfig), "worker")

	migrating := waitForInsight(t, eventually, "Progressing at 50%", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
		return i != nil && i.Status.Assessment == insightsv1alpha1.ClusterVersionAssessmentProgressing && i.Status.CompletionPercent == 50
	})
	if s := migrating.Status; s.EstimatedCompletedAt != nil || len(s.Versions.Target.Metadata) != 1 || s.Versions.Target.Metadata[0].Key != insightsv1alpha1.ArchitectureMetadata {
		t.Errorf("migration status: estimate %v (want none), target %+v (want Architecture metadata)", s.EstimatedCompletedAt, s.Versions.Target)
	}
	waitForOperatorInsight(t, names.MachineConfigOperator, "updating", func(i *insightsv1alpha1.ClusterOperatorProgressInsight) bool {
		return i != nil && reason(i, insightsv1alpha1.ClusterOperatorProgressInsightUpdating) == insightsv1alpha1.ClusterOperatorProgressing
	})

	master := func(updating, available, estimate string) *nodeView {
		return &nodeView{Pool: poolRef(nodes.MasterPool), Scope: insightsv1alpha1.ScopeTypeControlPlane, Version: toVersion,
			Updating: updating, Degraded: notDegraded, Available: available, Estimate: estimate}
	}
	waitForNodeInsight(t, "master-0", master("False Completed", available, ""))
	waitForNodeInsight(t, "master-1", master("True Updating", processing, "5m0s"))
	waitForPoolInsight(t, nodes.MasterPool, &poolView{Scope: insightsv1alpha1.ScopeTypeControlPlane, Assessment: insightsv1alpha1.PoolProgressing,
		Completion: 50, Updating: "True Progressing", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 1, Progressing: 1, Outdated: 1}})
	pendingWorker := &nodeView{Pool: poolRef(nodes.WorkerPool), Scope: insightsv1alpha1.ScopeTypeWorkerPool, Version: toVersion,
		Updating: "False Pending", Degraded: notDegraded, Available: available}
	waitForNodeInsight(t, "worker-0", pendingWorker)

	t.Run("machine-config runs its Deployment's image: the control plane is done", func(t *testing.T) {
		setMachineConfigOperatorImage(t, multiArchMCOImage)
		waitForInsight(t, eventually, "at 100%", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			return i != nil && i.Status.CompletionPercent == 100 && i.Status.EstimatedCompletedAt == nil
		})
	})

	t.Run("the Deployment moves to another image: machine-config is updating again", func(t *testing.T) {
		setMachineConfigOperatorDeployment(t, "quay.io/mco@sha256:another")
		waitForInsight(t, eventually, "back at 50%", func(i *insightsv1alpha1.ClusterVersionProgressInsight) bool {
			return i != nil && i.Status.CompletionPercent == 50
		})
	})

	t.Run("a node runs its pool's config: updated", func(t *testing.T) {
		setNodeAnnotations(t, "master-1", atRest(multiMasterConfig))
		waitForNodeInsight(t, "master-1", master("False Completed", available, ""))
		waitForPoolInsight(t, nodes.MasterPool, &poolView{Scope: insightsv1alpha1.ScopeTypeControlPlane, Assessment: insightsv1alpha1.PoolCompleted,
			Completion: 100, Updating: "False Completed", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2}})
	})

	t.Run("the pool targets the config its node runs: updated", func(t *testing.T) {
		setPoolTarget(t, nodes.WorkerPool, singleWorkerConfig)
		completed := *pendingWorker
		completed.Updating = "False Completed"
		waitForNodeInsight(t, "worker-0", &completed)
	})
}
