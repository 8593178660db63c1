package integration

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
)

const (
	controlPlane = insightsv1alpha1.ScopeTypeControlPlane
	workerPool   = insightsv1alpha1.ScopeTypeWorkerPool
)

// updatingTo is a node at config from that the machine-config controller
// has told to go to config to, and whose daemon has drained it and is
// writing the new configuration.
func updatingTo(from, to string) map[string]string {
	return withChanges(atRest(from), map[string]string{
		nodes.DesiredConfigAnnotation:    to,
		nodes.StateAnnotation:            "Working",
		nodes.DesiredDrainAnnotation:     "drain-" + to,
		nodes.LastAppliedDrainAnnotation: "drain-" + to,
	})
}

// pendingWorker is the insight of a worker at fromVersion that waits for
// its update.
func pendingWorker() *nodeView {
	return &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion,
		Updating: "False Pending", Degraded: notDegraded, Available: available}
}

func TestNodeInsightsForEveryNodeOfAPool(t *testing.T) {
	startNodeOperator(t)
	createRenderedConfig(t, "rendered-infra-old", fromVersion)
	createPool(t, "infra")

	testCases := []struct {
		node        string
		roles       []string
		annotations map[string]string
		want        *nodeView
	}{{
		node: "master-0", roles: []string{"master"}, annotations: atRest(newMasterConfig),
		want: &nodeView{Pool: poolRef("master"), Scope: controlPlane, Version: toVersion,
			Updating: "False Completed", Degraded: notDegraded, Available: available},
	}, {
		// A compact cluster's control plane nodes are workers too.
		node: "master-1", roles: []string{"master", "worker"}, annotations: atRest(oldMasterConfig),
		want: &nodeView{Pool: poolRef("master"), Scope: controlPlane, Version: fromVersion,
			Updating: "False Pending", Degraded: notDegraded, Available: available},
	}, {
		node: "worker-0", roles: []string{"worker"}, annotations: atRest(oldWorkerConfig),
		want: pendingWorker(),
	}, {
		node: "worker-1", roles: []string{"worker"}, annotations: atRest(newWorkerConfig),
		want: &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: toVersion,
			Updating: "False Completed", Degraded: notDegraded, Available: available},
	}, {
		node: "worker-2", roles: []string{"worker"}, annotations: updatingTo(oldWorkerConfig, newWorkerConfig),
		want: &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion,
			Updating: "True Updating", Degraded: notDegraded, Available: processing, Estimate: "5m0s"},
	}, {
		// The daemon has not yet written what the node runs.
		node: "worker-3", roles: []string{"worker"}, annotations: nil,
		want: &nodeView{Pool: poolRef("worker"), Scope: workerPool,
			Updating: "Unknown CannotDetermine", Degraded: notDegraded, Available: processing,
			Message: "Machine Config Daemon is processing the node"},
	}, {
		// A custom pool wins over worker.
		node: "infra-0", roles: []string{"worker", "infra"}, annotations: atRest("rendered-infra-old"),
		want: &nodeView{Pool: poolRef("infra"), Scope: workerPool, Version: fromVersion,
			Updating: "False Pending", Degraded: notDegraded, Available: available},
	}, {
		node: "no-pool", roles: []string{"edge"}, annotations: atRest(oldWorkerConfig),
		want: nil,
	}}
	for _, tc := range testCases {
		createNode(t, tc.node, tc.annotations, tc.roles...)
	}
	for _, tc := range testCases {
		if tc.want != nil {
			waitForNodeInsight(t, tc.node, tc.want)
		}
	}

	for name, want := range map[string]*poolView{
		"master": {Scope: controlPlane, Assessment: insightsv1alpha1.PoolProgressing, Completion: 50,
			Updating: "True Progressing", Healthy: healthy,
			Counts: poolCounts{Total: 2, Available: 2, Outdated: 1}},
		"worker": {Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Completion: 25,
			Updating: "True Progressing", Healthy: healthy,
			Counts: poolCounts{Total: 4, Available: 2, Progressing: 1, Outdated: 3}},
		"infra": {Scope: workerPool, Assessment: insightsv1alpha1.PoolPending, Completion: 0,
			Updating: "False Pending", Healthy: healthy,
			Counts: poolCounts{Total: 1, Available: 1, Outdated: 1}},
	} {
		waitForPoolInsight(t, name, want)
	}

	// Every other node has been seen by now: the node in no pool has
	// simply been left out.
	_, err := insightsClient.InsightsV1alpha1().NodeProgressInsights().Get(context.Background(), "no-pool", metav1.GetOptions{})
	if !apierrors.IsNotFound(err) {
		t.Errorf("the node in no pool has an insight (err %v), want none", err)
	}
	waitForNodeHealthInsights(t, nil)

	t.Run("a node change the assessment does not read writes nothing", func(t *testing.T) {
		node := waitForNodeInsight(t, "worker-0", pendingWorker())
		pool := waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Completion: 25,
			Updating: "True Progressing", Healthy: healthy, Counts: poolCounts{Total: 4, Available: 2, Progressing: 1, Outdated: 3}})
		updateNodeStatus(t, "worker-0", func(s *corev1.NodeStatus) {
			for i := range s.Conditions {
				s.Conditions[i].LastHeartbeatTime = metav1.NewTime(time.Now().Add(time.Minute))
			}
			s.Images = []corev1.ContainerImage{{Names: []string{"quay.io/openshift/release@sha256:0"}, SizeBytes: 1 << 30}}
		})
		updateNode(t, "worker-0", func(n *corev1.Node) {
			n.Labels["topology.kubernetes.io/zone"] = "us-east-1a"
			n.Annotations["volumes.kubernetes.io/controller-managed-attach-detach"] = "true"
		})
		// The operator reacts to relevant changes within milliseconds; two
		// seconds without a write shows it ignored these.
		time.Sleep(2 * time.Second)
		if after := waitForNodeInsight(t, "worker-0", pendingWorker()); after.ResourceVersion != node.ResourceVersion {
			t.Errorf("the node insight was written (resourceVersion %s -> %s) after changes that cannot affect it", node.ResourceVersion, after.ResourceVersion)
		}
		if after := waitForPoolInsight(t, "worker", viewPool(pool)); after.ResourceVersion != pool.ResourceVersion {
			t.Errorf("the pool insight was written (resourceVersion %s -> %s) after changes that cannot affect it", pool.ResourceVersion, after.ResourceVersion)
		}
	})
}

func TestNodeInsightFollowsAWorkerThroughItsUpdate(t *testing.T) {
	startNodeOperator(t)
	createNode(t, "worker-0", atRest(oldWorkerConfig), "worker")
	createNode(t, "worker-1", atRest(oldWorkerConfig), "worker")
	waitForNodeInsight(t, "worker-0", pendingWorker())
	waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolPending,
		Updating: "False Pending", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2, Outdated: 2}})

	// Ten minutes while draining, five once drained, as oc says.
	inProgress := func(updating string) *nodeView {
		estimate := "5m0s"
		if updating == "True Draining" {
			estimate = "10m0s"
		}
		return &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion,
			Updating: updating, Degraded: notDegraded, Available: processing, Estimate: estimate}
	}
	steps := []struct {
		name        string
		annotations map[string]string
		want        *nodeView
		pool        *poolView
	}{{
		name: "draining",
		annotations: map[string]string{
			nodes.DesiredConfigAnnotation:    newWorkerConfig,
			nodes.StateAnnotation:            "Working",
			nodes.DesiredDrainAnnotation:     "drain-" + newWorkerConfig,
			nodes.LastAppliedDrainAnnotation: "uncordon-" + oldWorkerConfig,
		},
		want: inProgress("True Draining"),
		pool: &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Updating: "True Progressing", Healthy: healthy,
			Counts: poolCounts{Total: 2, Available: 1, Progressing: 1, Outdated: 2, Draining: 1}},
	}, {
		name:        "drained and updating",
		annotations: map[string]string{nodes.LastAppliedDrainAnnotation: "drain-" + newWorkerConfig},
		want:        inProgress("True Updating"),
		pool: &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Updating: "True Progressing", Healthy: healthy,
			Counts: poolCounts{Total: 2, Available: 1, Progressing: 1, Outdated: 2}},
	}, {
		name:        "rebooting",
		annotations: map[string]string{nodes.StateAnnotation: "Rebooting"},
		want:        inProgress("True Rebooting"),
		pool: &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Updating: "True Progressing", Healthy: healthy,
			Counts: poolCounts{Total: 2, Available: 1, Progressing: 1, Outdated: 2}},
	}, {
		name:        "completed",
		annotations: atRest(newWorkerConfig),
		want: &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: toVersion,
			Updating: "False Completed", Degraded: notDegraded, Available: available},
		pool: &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Completion: 50, Updating: "True Progressing", Healthy: healthy,
			Counts: poolCounts{Total: 2, Available: 2, Outdated: 1}},
	}}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			setNodeAnnotations(t, "worker-0", step.annotations)
			waitForNodeInsight(t, "worker-0", step.want)
			waitForPoolInsight(t, "worker", step.pool)
		})
	}

	// The pool's first node took seconds, not the default ten minutes: the
	// next one is expected to take no longer than the shortest estimate.
	setNodeAnnotations(t, "worker-1", updatingTo(oldWorkerConfig, newWorkerConfig))
	waitForNodeInsight(t, "worker-1", &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion,
		Updating: "True Updating", Degraded: notDegraded, Available: processing, Estimate: "1m0s"})
	setNodeAnnotations(t, "worker-1", atRest(newWorkerConfig))
	waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolCompleted, Completion: 100,
		Updating: "False Completed", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2}})
}

func TestPoolPausedWithOutdatedNodesIsExcluded(t *testing.T) {
	startNodeOperator(t)
	createNode(t, "worker-0", atRest(oldWorkerConfig), "worker")
	createNode(t, "worker-1", atRest(newWorkerConfig), "worker")
	pending := pendingWorker()
	progressing := &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Completion: 50,
		Updating: "True Progressing", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2, Outdated: 1}}
	waitForNodeInsight(t, "worker-0", pending)
	waitForPoolInsight(t, "worker", progressing)

	setPoolPaused(t, "worker", true)
	paused := *pending
	paused.Updating = "False Paused"
	waitForNodeInsight(t, "worker-0", &paused)
	waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolExcluded, Completion: 50,
		Updating: "False Paused", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2, Outdated: 1, Excluded: 1}})
	waitForNodeHealthInsights(t, []healthView{{
		Level:     insightsv1alpha1.WarningImpactLevel,
		Summary:   "Outdated nodes in a paused pool 'worker' will not be updated",
		Scope:     workerPool,
		Resources: "machineconfigpools/worker",
	}})
	// The updated node is not held back by the pause.
	waitForNodeInsight(t, "worker-1", &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: toVersion,
		Updating: "False Completed", Degraded: notDegraded, Available: available})

	setPoolPaused(t, "worker", false)
	waitForNodeInsight(t, "worker-0", pending)
	waitForPoolInsight(t, "worker", progressing)
	waitForNodeHealthInsights(t, nil)
}

func TestNodeDegradedByItsDaemonIsReportedUntilItRecovers(t *testing.T) {
	startNodeOperator(t)
	updating := updatingTo(oldWorkerConfig, newWorkerConfig)
	createNode(t, "worker-0", updating, "worker")
	waitForNodeInsight(t, "worker-0", &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion,
		Updating: "True Updating", Degraded: notDegraded, Available: processing, Estimate: "5m0s"})

	const reason = "Node worker-0 upgrade failure: unexpected on-disk state validating against rendered-worker-new"
	setNodeAnnotations(t, "worker-0", map[string]string{
		nodes.StateAnnotation:  "Degraded",
		nodes.ReasonAnnotation: reason,
	})
	// A node its daemon gave up on is stuck, with no estimate, but it can
	// run workloads.
	degraded := waitForNodeInsight(t, "worker-0", &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion,
		Updating: "True Updating", Degraded: "True MachineConfigDaemonDegraded", Available: available,
		Message: "Node <node> upgrade failure: unexpected on-disk state validating against rendered-worker-new"})
	if c := degradedCondition(degraded); c.Message != reason {
		t.Errorf("Degraded message %q, want the daemon's reason %q", c.Message, reason)
	}
	waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolDegraded,
		Updating: "True Progressing", Healthy: "False NodesDegraded", Counts: poolCounts{Total: 1, Available: 1, Outdated: 1, Degraded: 1}})
	insights := waitForNodeHealthInsights(t, []healthView{{
		Level:     insightsv1alpha1.ErrorImpactLevel,
		Summary:   "Node worker-0 is degraded",
		Scope:     workerPool,
		Resources: "nodes/worker-0",
	}})
	if d := insights[0].Status.Impact.Description; d != reason {
		t.Errorf("health insight description %q, want the daemon's reason %q", d, reason)
	}
	if refs := insights[0].OwnerReferences; len(refs) != 1 || refs[0].Kind != "NodeProgressInsight" || refs[0].UID != degraded.UID {
		t.Errorf("health insight owners %+v, want the node's insight %s", refs, degraded.UID)
	}

	setNodeAnnotations(t, "worker-0", map[string]string{
		nodes.StateAnnotation:  "Working",
		nodes.ReasonAnnotation: "",
	})
	waitForNodeInsight(t, "worker-0", &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion,
		Updating: "True Updating", Degraded: notDegraded, Available: processing, Estimate: "5m0s"})
	waitForNodeHealthInsights(t, nil)
	waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing,
		Updating: "True Progressing", Healthy: healthy, Counts: poolCounts{Total: 1, Progressing: 1, Outdated: 1}})
}

func degradedCondition(i *insightsv1alpha1.NodeProgressInsight) metav1.Condition {
	for _, c := range i.Status.Conditions {
		if c.Type == insightsv1alpha1.NodeProgressInsightDegraded {
			return c
		}
	}
	return metav1.Condition{}
}

// TestNodeNotReadyIsReportedAfterFiveMinutes makes a node NotReady just
// short of the five minutes a kubelet restart may take, so that the health
// insight must appear when they expire, with no event to prompt it.
func TestNodeNotReadyIsReportedAfterFiveMinutes(t *testing.T) {
	startNodeOperator(t)
	createNode(t, "worker-0", atRest(oldWorkerConfig), "worker")
	waitForNodeInsight(t, "worker-0", pendingWorker())

	// NotReady for just under 5 minutes: nothing yet, a Warning when they
	// are up.
	notReadySince := justUnder(5 * time.Minute)
	setNodeCondition(t, "worker-0", corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionFalse, Reason: "KubeletNotReady",
		Message: "container runtime is down", LastTransitionTime: metav1.NewTime(notReadySince)})
	waitForNodeInsight(t, "worker-0", &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion,
		Updating: "False Pending", Degraded: notDegraded, Available: "False NotReady", Message: "Not ready"})
	// The operator reacts within milliseconds; a second later there is still
	// nothing to report.
	time.Sleep(time.Second)
	if list, err := insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(context.Background(), metav1.ListOptions{LabelSelector: "insight-manager=node"}); err != nil {
		t.Fatal(err)
	} else if len(list.Items) != 0 {
		t.Fatalf("reported before 5 minutes: %+v", list.Items[0].Status.Impact)
	}
	waitForNodeHealthInsights(t, []healthView{{
		Level:     insightsv1alpha1.WarningImpactLevel,
		Summary:   "Node worker-0 is not ready",
		Scope:     workerPool,
		Resources: "nodes/worker-0",
	}})

	setNodeCondition(t, "worker-0", corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
		LastTransitionTime: metav1.Now()})
	waitForNodeHealthInsights(t, nil)
}

func TestNodeRemovedTakesItsInsightsAlong(t *testing.T) {
	op := startNodeOperator(t)
	createNode(t, "worker-0", atRest(oldWorkerConfig), "worker")
	createNode(t, "worker-1", withChanges(updatingTo(oldWorkerConfig, newWorkerConfig), map[string]string{
		nodes.StateAnnotation:  "Degraded",
		nodes.ReasonAnnotation: "failed to drain node worker-1",
	}), "worker")
	waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolDegraded,
		Updating: "True Progressing", Healthy: "False NodesDegraded", Counts: poolCounts{Total: 2, Available: 2, Outdated: 2, Degraded: 1}})
	waitForNodeHealthInsights(t, []healthView{{
		Level:     insightsv1alpha1.ErrorImpactLevel,
		Summary:   "Node worker-1 is degraded",
		Scope:     workerPool,
		Resources: "nodes/worker-1",
	}})

	deleteNode(t, "worker-1")
	waitForNodeInsight(t, "worker-1", nil)
	waitForNodeHealthInsights(t, nil)
	waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolPending,
		Updating: "False Pending", Healthy: healthy, Counts: poolCounts{Total: 1, Available: 1, Outdated: 1}})
	waitForNodeInsight(t, "worker-0", pendingWorker())

	t.Run("while the operator is down", func(t *testing.T) {
		op.stop(t, terminationGracePeriod)
		deleteNode(t, "worker-0")
		// No event tells the next instance about the node: it must find
		// the insight without a node when it starts.
		startOperator(t)
		waitForNodeInsight(t, "worker-0", nil)
		waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolCompleted, Completion: 100,
			Updating: "False Completed", Healthy: healthy})
	})
}

func deleteNode(t testing.TB, name string) {
	t.Helper()
	if err := kubeClient.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting node %s: %v", name, err)
	}
}

func TestNodeRelabelledOutOfEveryPoolLosesItsInsight(t *testing.T) {
	startNodeOperator(t)
	createPool(t, "infra")
	createNode(t, "worker-0", atRest(newWorkerConfig), "worker")
	createNode(t, "worker-1", atRest(oldWorkerConfig), "worker")
	inWorker := pendingWorker()
	waitForNodeInsight(t, "worker-1", inWorker)
	waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Completion: 50,
		Updating: "True Progressing", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2, Outdated: 1}})
	waitForPoolInsight(t, "infra", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolCompleted, Completion: 100,
		Updating: "False Completed", Healthy: healthy})

	t.Run("into a custom pool", func(t *testing.T) {
		updateNode(t, "worker-1", func(n *corev1.Node) { n.Labels[roleLabel("infra")] = "" })
		inInfra := *inWorker
		inInfra.Pool = poolRef("infra")
		waitForNodeInsight(t, "worker-1", &inInfra)
		waitForPoolInsight(t, "infra", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolPending,
			Updating: "False Pending", Healthy: healthy, Counts: poolCounts{Total: 1, Available: 1, Outdated: 1}})
		waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolCompleted, Completion: 100,
			Updating: "False Completed", Healthy: healthy, Counts: poolCounts{Total: 1, Available: 1}})
	})

	t.Run("back to worker when the custom pool goes", func(t *testing.T) {
		if err := machineConfigClient(t).MachineconfigurationV1().MachineConfigPools().Delete(context.Background(), "infra", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		waitForPoolInsight(t, "infra", nil)
		waitForNodeInsight(t, "worker-1", inWorker)
		waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolProgressing, Completion: 50,
			Updating: "True Progressing", Healthy: healthy, Counts: poolCounts{Total: 2, Available: 2, Outdated: 1}})
	})

	t.Run("out of every pool", func(t *testing.T) {
		updateNode(t, "worker-1", func(n *corev1.Node) { n.Labels = nil })
		waitForNodeInsight(t, "worker-1", nil)
		waitForPoolInsight(t, "worker", &poolView{Scope: workerPool, Assessment: insightsv1alpha1.PoolCompleted, Completion: 100,
			Updating: "False Completed", Healthy: healthy, Counts: poolCounts{Total: 1, Available: 1}})
	})
}

// TestNodeInsightDeletedBySomeoneElseComesBack deletes a degraded node's
// insight behind the operator's back: it must be made again, with its
// health insight.
func TestNodeInsightDeletedBySomeoneElseComesBack(t *testing.T) {
	startNodeOperator(t)
	createNode(t, "worker-0", withChanges(updatingTo(oldWorkerConfig, newWorkerConfig), map[string]string{
		nodes.StateAnnotation:  "Degraded",
		nodes.ReasonAnnotation: "failed to drain node worker-0",
	}), "worker")
	want := &nodeView{Pool: poolRef("worker"), Scope: workerPool, Version: fromVersion,
		Updating: "True Updating", Degraded: "True MachineConfigDaemonDegraded", Available: available,
		Message: "failed to drain node <node>"}
	before := waitForNodeInsight(t, "worker-0", want)
	degraded := []healthView{{Level: insightsv1alpha1.ErrorImpactLevel, Summary: "Node worker-0 is degraded", Scope: workerPool, Resources: "nodes/worker-0"}}
	waitForNodeHealthInsights(t, degraded)

	if err := insightsClient.InsightsV1alpha1().NodeProgressInsights().Delete(context.Background(), "worker-0", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	after := waitForView(t, eventually, "a new insight of worker-0", func(ctx context.Context) (*insightsv1alpha1.NodeProgressInsight, error) {
		i, err := insightsClient.InsightsV1alpha1().NodeProgressInsights().Get(ctx, "worker-0", metav1.GetOptions{})
		if err == nil && i.UID == before.UID {
			i = nil
		}
		return i, err
	}, viewNode, want)
	// Garbage collection deletes a dependent whose owner's UID is gone, and
	// no event would tell the operator to make it again: the health insight
	// must move to the new insight.
	waitFor(t, eventually, "the health insight of worker-0 to be owned by its new insight", func(ctx context.Context) (*insightsv1alpha1.UpdateHealthInsightList, error) {
		return insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{LabelSelector: "insight-manager=node"})
	}, func(list *insightsv1alpha1.UpdateHealthInsightList) bool {
		for _, i := range list.Items {
			if refs := i.OwnerReferences; i.Status.Impact.Summary == degraded[0].Summary {
				return len(refs) == 1 && refs[0].Kind == "NodeProgressInsight" && refs[0].UID == after.UID
			}
		}
		return false
	})
}
