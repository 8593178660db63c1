package integration

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/health"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// heldWithin limits the wait for a block to be named: a pod deleted during
// the drain holds it from its deletion, which the API server dates now, so
// the operator names it only once the machine-config controller's first
// attempt would have failed (drain.MCO.WarnAfter), when it requeues the
// node by itself (a budget's block is named within drainReaction). The
// wait ends as soon as the pod is named; its margin is for a loaded machine.
var heldWithin = drain.MCO.WarnAfter + 3*time.Minute

// reasonCase is a worker whose drain one reason holds.
type reasonCase struct {
	// name tells apart cases of one reason; empty is the reason's.
	name   string
	reason drain.Reason
	// before creates in namespace what runs on node before its drain, and
	// returns the pod that will hold it.
	before func(t *testing.T, namespace, node string) *corev1.Pod
	// during does what holds the drain once the machine-config controller
	// drains the node: nil when what runs holds it already.
	during func(t *testing.T, node string, pod *corev1.Pod)
	// want is the block the operator must name, without its Since.
	want func(namespace string, pod *corev1.Pod) drain.Pod
}

// The labels of the cases' workloads.
var (
	webLabels      = map[string]string{"app": "web"}
	frontendLabels = map[string]string{"app": "web", "tier": "frontend"}
)

// reasonCases drive each reason the drain model names, with the objects as
// their controllers write them.
var reasonCases = []reasonCase{{
	// Two replicas, two needed: the disruption controller allows none.
	reason: drain.BudgetAtLimit,
	before: func(t *testing.T, namespace, node string) *corev1.Pod {
		held := runWeb(t, namespace, node, webLabels, 2)
		writeBudgetStatus(t, createMinAvailable(t, namespace, "web", 2, webLabels), 2, 2, 2, deployedAt())
		return held
	},
	want: func(namespace string, pod *corev1.Pod) drain.Pod {
		return blockOf(pod, drain.BudgetAtLimit, drain.Budget{Namespace: namespace, Name: "web", CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2})
	},
}, {
	// Two replicas, two needed, the other on another node not ready: the
	// budget waits for it, which the operator sees only by watching the
	// pods the budget selects wherever they run.
	name: "PeerNotReady", reason: drain.BudgetAtLimit,
	before: func(t *testing.T, namespace, node string) *corev1.Pod {
		held := runWeb(t, namespace, node, webLabels, 1)
		peer := createRunningPod(t, namespace, webPeerName, "worker-elsewhere", webOwner(), webLabels, deployedAt())
		peer.Status = kubeletStatus(podNotReady, peerNotReadySince)
		if _, err := kubeClient.CoreV1().Pods(namespace).UpdateStatus(context.Background(), peer, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("writing the status of pod %s: %v", webPeerName, err)
		}
		writeBudgetStatus(t, createMinAvailable(t, namespace, "web", 2, webLabels), 1, 2, 2, deployedAt())
		return held
	},
	want: func(namespace string, pod *corev1.Pod) drain.Pod {
		b := blockOf(pod, drain.BudgetAtLimit, drain.Budget{Namespace: namespace, Name: "web", CurrentHealthy: 1, DesiredHealthy: 2, ExpectedPods: 2})
		b.NotReady = []drain.Peer{{Namespace: namespace, Name: webPeerName, Node: "worker-elsewhere", Since: peerNotReadySince.Time}}
		return b
	},
}, {
	// The pod of a DaemonSet that is gone, its budget at its limit: the
	// drain's Helper gets the DaemonSet before it skips the pod, and
	// evicts an orphan under Force (k8s.io/kubectl/pkg/drain filters.go,
	// daemonSetFilter). No garbage collector runs to delete it.
	name: "OrphanedDaemonSetPod", reason: drain.BudgetAtLimit,
	before: func(t *testing.T, namespace, node string) *corev1.Pod {
		labels, owner := map[string]string{"app": "node-agent"}, controllerRef("DaemonSet", "node-agent")
		held := createRunningPod(t, namespace, "node-agent-x7k2p", node, owner, labels, deployedAt())
		createRunningPod(t, namespace, "node-agent-m4q9z", "worker-elsewhere", owner, labels, deployedAt())
		writeBudgetStatus(t, createMinAvailable(t, namespace, "node-agent", 2, labels), 2, 2, 2, deployedAt())
		return held
	},
	want: func(namespace string, pod *corev1.Pod) drain.Pod {
		b := blockOf(pod, drain.BudgetAtLimit, drain.Budget{Namespace: namespace, Name: "node-agent", CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2})
		b.Owner, b.OwnerGone = "DaemonSet/node-agent", true
		return b
	},
}, {
	// Each budget alone would allow a disruption; the eviction API refuses
	// a pod two select outright.
	reason: drain.MultipleBudgets,
	before: func(t *testing.T, namespace, node string) *corev1.Pod {
		held := runWeb(t, namespace, node, frontendLabels, 2)
		writeBudgetStatus(t, createMinAvailable(t, namespace, "web", 1, webLabels), 2, 1, 2, deployedAt())
		writeBudgetStatus(t, createMinAvailable(t, namespace, "frontend", 1, map[string]string{"tier": "frontend"}), 2, 1, 2, deployedAt())
		return held
	},
	want: func(namespace string, pod *corev1.Pod) drain.Pod {
		return blockOf(pod, drain.MultipleBudgets,
			drain.Budget{Namespace: namespace, Name: "frontend", DisruptionsAllowed: 1, CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2},
			drain.Budget{Namespace: namespace, Name: "web", DisruptionsAllowed: 1, CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2})
	},
}, {
	// The budget allowed one disruption when the disruption controller
	// last synced it; its spec changed since (generation 2, observed 1),
	// and no kube-controller-manager has synced it again.
	reason: drain.BudgetNotSynced,
	before: func(t *testing.T, namespace, node string) *corev1.Pod {
		held := runWeb(t, namespace, node, webLabels, 2)
		budget := writeBudgetStatus(t, createMinAvailable(t, namespace, "web", 1, webLabels), 2, 1, 2, deployedAt())
		budget.Spec.MinAvailable = ptr.To(intstr.FromInt32(2))
		if _, err := kubeClient.PolicyV1().PodDisruptionBudgets(namespace).Update(context.Background(), budget, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("editing budget web: %v", err)
		}
		return held
	},
	want: func(namespace string, pod *corev1.Pod) drain.Pod {
		return blockOf(pod, drain.BudgetNotSynced, drain.Budget{Namespace: namespace, Name: "web", DisruptionsAllowed: 1, CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2})
	},
}, {
	// Three replicas, two needed, the third waiting for a node the
	// scheduler cannot find: the budget allows none until it runs.
	reason: drain.ReplacementUnschedulable,
	before: func(t *testing.T, namespace, node string) *corev1.Pod {
		held := runWeb(t, namespace, node, webLabels, 2)
		createUnschedulablePod(t, namespace, webPendingName, webOwner(), webLabels)
		writeBudgetStatus(t, createMinAvailable(t, namespace, "web", 2, webLabels), 2, 2, 3, deployedAt())
		return held
	},
	want: func(namespace string, pod *corev1.Pod) drain.Pod {
		b := blockOf(pod, drain.ReplacementUnschedulable, drain.Budget{Namespace: namespace, Name: "web", CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 3})
		b.Unschedulable = []string{webPendingName}
		return b
	},
}, {
	// Evicted, stopped, and deleted by its kubelet, it stays for the
	// finalizer its application's controller does not remove.
	reason: drain.Finalizer,
	before: func(t *testing.T, namespace, node string) *corev1.Pod {
		held := runWeb(t, namespace, node, webLabels, 1, func(p *corev1.Pod) { p.Finalizers = []string{heldFinalizer} })
		removeFinalizersAtEnd(t, held)
		return held
	},
	during: func(t *testing.T, _ string, pod *corev1.Pod) {
		evictAsTheDrainDoes(t, pod)
		kubeletStopsAndDeletes(t, pod)
	},
	want: func(namespace string, pod *corev1.Pod) drain.Pod {
		b := blockOf(pod, drain.Finalizer)
		b.Finalizers = []string{heldFinalizer}
		return b
	},
}, {
	// Evicted with its own hour of grace, which its kubelet gives it.
	reason: drain.GracePeriod,
	before: func(t *testing.T, namespace, node string) *corev1.Pod {
		return runWeb(t, namespace, node, webLabels, 1, func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](3600) })
	},
	during: func(t *testing.T, _ string, pod *corev1.Pod) { evictAsTheDrainDoes(t, pod) },
	want:   func(_ string, pod *corev1.Pod) drain.Pod { return blockOf(pod, drain.GracePeriod) },
}, {
	// The node's kubelet stops posting its status; the node lifecycle
	// controller marks it and its pods, and the pod the drain evicts is
	// never confirmed gone.
	reason: drain.NodeNotReady,
	before: func(t *testing.T, namespace, node string) *corev1.Pod {
		return runWeb(t, namespace, node, webLabels, 1)
	},
	during: func(t *testing.T, node string, pod *corev1.Pod) {
		kubeletStopsPosting(t, node, pod)
		evictAsTheDrainDoes(t, pod)
	},
	want: func(_ string, pod *corev1.Pod) drain.Pod { return blockOf(pod, drain.NodeNotReady) },
}}

// TestEveryDrainReasonIsShownWhileTheNodeIsHeld drives, for each reason the
// drain model names, a worker through its update as the machine-config
// operator does (as TestDrainHeldByABudgetIsNamedUntilTheBudgetAllowsIt
// does, each on a worker of its own, at once), holds its drain for that
// reason, and checks what an administrator sees while it is held: the node
// insight's note, the Warning health insight's summary (the reason's Why)
// and description (its Remedy), and `status --details=nodes`, which names
// the pod in the node's row, the health section and the Drains Held table.
// It logs the command's output and each health insight's status, as `oc
// get updatehealthinsight -o yaml` shows it.
func TestEveryDrainReasonIsShownWhileTheNodeIsHeld(t *testing.T) {
	startNodeOperator(t)
	// The machine-config operator updates as many of the pool's nodes at
	// once as its maxUnavailable allows.
	setPoolMaxUnavailable(t, nodes.WorkerPool, len(reasonCases))
	for _, c := range reasonCases {
		name := c.name
		if name == "" {
			name = string(c.reason)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			namespace := createTestNamespace(t, "drain-reason-")
			node := "worker-" + strings.ToLower(name)
			createNode(t, node, atRest(oldWorkerConfig), "worker")
			waitForNodeInsight(t, node, pendingWorker())
			held := c.before(t, namespace, node)

			startDrain(t, node)
			if c.during != nil {
				c.during(t, node, held)
			}
			pod := namespace + "/" + held.Name
			waitFor(t, heldWithin, "node "+node+"'s insight to name pod "+pod, func(ctx context.Context) (*insightsv1alpha1.NodeProgressInsight, error) {
				return insightsClient.InsightsV1alpha1().NodeProgressInsights().Get(ctx, node, metav1.GetOptions{})
			}, func(i *insightsv1alpha1.NodeProgressInsight) bool {
				return i != nil && i.Status.Message == "Drain held by pod "+pod
			})
			insight := waitForDrainHealthInsight(t, node)
			checkDrainHealthInsight(t, insight, c.want(namespace, held))
			logHealthInsight(t, insight)

			if c.during == nil {
				// What the operator calls held by a budget, the API server
				// refuses: a 500 for a pod of two budgets, else a 429
				// (eviction.go, Create and checkAndDecrement).
				refused := apierrors.IsTooManyRequests
				if c.reason == drain.MultipleBudgets {
					refused = apierrors.IsInternalError
				}
				if err := evict(context.Background(), &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: held.Name}}); !refused(err) {
					t.Errorf("evicting %s, which the operator says %s holds: %v", pod, c.reason, err)
				}
			}

			out, errOut, code := command(t, "status", "--details=nodes")
			t.Logf("$ update-insights-operator status --details=nodes\n%s%s", out, errOut)
			if code != 0 {
				t.Fatalf("status exited %d: %s", code, errOut)
			}
			checkStatusNamesThePod(t, out, node, pod)
		})
	}
}

// webPendingName is the replica of the ReplacementUnschedulable case that
// cannot be scheduled.
const webPendingName = "web-5d8f7c9b4-p2r6t"

// webPeerName is the PeerNotReady case's replica on another node, not
// ready since peerNotReadySince, a time of its own so that the case's want
// knows it.
const webPeerName = "web-5d8f7c9b4-m4q9z"

var peerNotReadySince = metav1.NewTime(time.Date(2026, time.November, 30, 8, 0, 0, 0, time.UTC))

// heldFinalizer is the finalizer of an application's controller that does
// not remove it.
const heldFinalizer = "example.com/flush-sessions"

// webOwner is the web ReplicaSet's controller reference; one per case is
// enough, as no controller reads it.
var webOwner = func() func() metav1.OwnerReference {
	ref := controllerRef("ReplicaSet", "web-5d8f7c9b4")
	return func() metav1.OwnerReference { return ref }
}()

func deployedAt() metav1.Time {
	return metav1.NewTime(time.Now().Add(-time.Hour).Truncate(time.Second))
}

// runWeb runs replicas of the web ReplicaSet, ready since an hour: the
// first on node, which it returns, the others on another worker (the API
// server takes a nodeName without its Node).
func runWeb(t *testing.T, namespace, node string, labels map[string]string, replicas int, with ...func(*corev1.Pod)) *corev1.Pod {
	t.Helper()
	names := []string{"web-5d8f7c9b4-x7k2p", "web-5d8f7c9b4-m4q9z", "web-5d8f7c9b4-c8v5n"}
	held := createRunningPod(t, namespace, names[0], node, webOwner(), labels, deployedAt(), with...)
	for _, name := range names[1:replicas] {
		createRunningPod(t, namespace, name, "worker-elsewhere", webOwner(), labels, deployedAt())
	}
	return held
}

// createMinAvailable creates the budget name of minAvailable pods labelled
// labels, and deletes it when the test ends.
func createMinAvailable(t *testing.T, namespace, name string, minAvailable int32, labels map[string]string) *policyv1.PodDisruptionBudget {
	t.Helper()
	budgets := kubeClient.PolicyV1().PodDisruptionBudgets(namespace)
	budget, err := budgets.Create(context.Background(), &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(minAvailable)),
			Selector:     &metav1.LabelSelector{MatchLabels: labels},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating budget %s: %v", name, err)
	}
	deleteAtEnd(t, "PodDisruptionBudget "+name, budgets.Delete, name)
	return budget
}

// createUnschedulablePod creates a pod no scheduler binds, with the
// condition the scheduler writes when it finds no node for it (kubernetes
// pkg/scheduler/schedule_one.go, handleSchedulingFailure: PodScheduled
// False, reason Unschedulable, the fit error as its message).
func createUnschedulablePod(t *testing.T, namespace, name string, owner metav1.OwnerReference, labels map[string]string) {
	t.Helper()
	ctx := context.Background()
	pods := kubeClient.CoreV1().Pods(namespace)
	pod, err := pods.Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels, OwnerReferences: []metav1.OwnerReference{owner}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "registry.example.com/app:1"}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating pod %s: %v", name, err)
	}
	deleteAtEnd(t, "pod "+name, pods.Delete, name)
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{
		Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
		Message:            "0/4 nodes are available: 1 node(s) were unschedulable, 3 Insufficient cpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.",
		LastTransitionTime: metav1.Now(),
	})
	if _, err := pods.UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the status of pod %s: %v", name, err)
	}
}

// removeFinalizersAtEnd lets the pod go when the test ends, before its
// deletion (registered later, run earlier).
func removeFinalizersAtEnd(t *testing.T, pod *corev1.Pod) {
	t.Cleanup(func() {
		_, err := kubeClient.CoreV1().Pods(pod.Namespace).Patch(context.Background(), pod.Name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("removing the finalizers of pod %s: %v", pod.Name, err)
		}
	})
}

// evictAsTheDrainDoes evicts the pod as the machine-config controller's
// Helper does (GracePeriodSeconds -1: no DeleteOptions, the pod's own
// terminationGracePeriodSeconds).
func evictAsTheDrainDoes(t *testing.T, pod *corev1.Pod) {
	t.Helper()
	if err := evict(context.Background(), &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name}}); err != nil {
		t.Fatalf("evicting %s: %v", pod.Name, err)
	}
}

// kubeletStopsAndDeletes writes what the kubelet writes of a pod it has
// stopped, its container having exited on SIGTERM (kubeletStatus), then
// its final delete: no grace, on the pod's UID (pkg/kubelet/status/status_manager.go, syncPod).
func kubeletStopsAndDeletes(t *testing.T, pod *corev1.Pod) {
	t.Helper()
	ctx := context.Background()
	pods := kubeClient.CoreV1().Pods(pod.Namespace)
	current, err := pods.Get(ctx, pod.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	current.Status = kubeletStatus(podSucceeded, metav1.Now())
	if _, err := pods.UpdateStatus(ctx, current, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the status of pod %s: %v", pod.Name, err)
	}
	if err := pods.Delete(ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0), Preconditions: &metav1.Preconditions{UID: &pod.UID}}); err != nil {
		t.Fatalf("deleting pod %s as its kubelet does: %v", pod.Name, err)
	}
}

// kubeletStopsPosting marks the node and its pod as the node lifecycle
// controller does once the kubelet stops posting the node's status
// (kubernetes pkg/controller/nodelifecycle/node_lifecycle_controller.go,
// tryUpdateNodeHealth: the Ready condition Unknown, reason
// NodeStatusUnknown; doNoScheduleTaintingPass and
// doNoExecuteTaintingPass: the unreachable taints;
// pkg/controller/util/node/controller_utils.go, MarkPodsNotReady: the
// pods' Ready condition False).
func kubeletStopsPosting(t *testing.T, node string, pod *corev1.Pod) {
	t.Helper()
	now := metav1.Now()
	updateNodeStatus(t, node, func(s *corev1.NodeStatus) {
		for i := range s.Conditions {
			if s.Conditions[i].Type == corev1.NodeReady {
				s.Conditions[i].Status, s.Conditions[i].Reason = corev1.ConditionUnknown, "NodeStatusUnknown"
				s.Conditions[i].Message, s.Conditions[i].LastTransitionTime = "Kubelet stopped posting node status.", now
			}
		}
	})
	updateNode(t, node, func(n *corev1.Node) {
		n.Spec.Taints = append(n.Spec.Taints,
			corev1.Taint{Key: corev1.TaintNodeUnreachable, Effect: corev1.TaintEffectNoSchedule, TimeAdded: &now},
			corev1.Taint{Key: corev1.TaintNodeUnreachable, Effect: corev1.TaintEffectNoExecute, TimeAdded: &now})
	})
	ctx := context.Background()
	pods := kubeClient.CoreV1().Pods(pod.Namespace)
	current, err := pods.Get(ctx, pod.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range current.Status.Conditions {
		if current.Status.Conditions[i].Type == corev1.PodReady {
			current.Status.Conditions[i].Status, current.Status.Conditions[i].LastTransitionTime = corev1.ConditionFalse, now
		}
	}
	if _, err := pods.UpdateStatus(ctx, current, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("marking pod %s not ready: %v", pod.Name, err)
	}
}

// startDrain begins the node's update and asks its drain as
// TestDrainHeldByABudgetIsNamedUntilTheBudgetAllowsIt does, the operator
// having seen the update begin drainStartedAgo.
func startDrain(t *testing.T, node string) {
	t.Helper()
	setNodeAnnotations(t, node, map[string]string{
		nodes.DesiredConfigAnnotation: newWorkerConfig,
		nodes.StateAnnotation:         "Working",
	})
	waitFor(t, eventually, "node "+node+"'s insight to say it updates", func(ctx context.Context) (*insightsv1alpha1.NodeProgressInsight, error) {
		return insightsClient.InsightsV1alpha1().NodeProgressInsights().Get(ctx, node, metav1.GetOptions{})
	}, func(i *insightsv1alpha1.NodeProgressInsight) bool {
		return i != nil && meta.IsStatusConditionTrue(i.Status.Conditions, insightsv1alpha1.NodeProgressInsightUpdating)
	})
	backdateUpdating(t, node, drainStartedAgo)
	setNodeAnnotations(t, node, map[string]string{nodes.DesiredDrainAnnotation: "drain-" + newWorkerConfig})
	updateNode(t, node, func(n *corev1.Node) { n.Spec.Unschedulable = true })
}

// setPoolMaxUnavailable sets the pool's maxUnavailable.
func setPoolMaxUnavailable(t *testing.T, name string, maxUnavailable int) {
	t.Helper()
	ctx := context.Background()
	pools := machineConfigClient(t).MachineconfigurationV1().MachineConfigPools()
	pool, err := pools.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pool.Spec.MaxUnavailable = ptr.To(intstr.FromInt(maxUnavailable))
	if _, err := pools.Update(ctx, pool, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("setting the maxUnavailable of MachineConfigPool %s: %v", name, err)
	}
}

// blockOf is the block the model says pod is for reason.
func blockOf(pod *corev1.Pod, reason drain.Reason, budgets ...drain.Budget) drain.Pod {
	return drain.Pod{Namespace: pod.Namespace, Name: pod.Name, Verdict: drain.Blocking, Reason: reason,
		Budgets: budgets, Owner: "ReplicaSet/" + metav1.GetControllerOf(pod).Name}
}

// waitForDrainHealthInsight waits for the node controller's health insight
// about a pod that holds the node's drain.
func waitForDrainHealthInsight(t *testing.T, node string) *insightsv1alpha1.UpdateHealthInsight {
	t.Helper()
	var found *insightsv1alpha1.UpdateHealthInsight
	waitFor(t, drainReaction, "a health insight about node "+node+"'s drain", func(ctx context.Context) (*insightsv1alpha1.UpdateHealthInsightList, error) {
		return insightsClient.InsightsV1alpha1().UpdateHealthInsights().List(ctx, metav1.ListOptions{LabelSelector: "insight-manager=node"})
	}, func(l *insightsv1alpha1.UpdateHealthInsightList) bool {
		for i := range l.Items {
			if held, _, _, ok := drainHeldOf(&l.Items[i]); ok && held == node {
				found = &l.Items[i]
				return true
			}
		}
		return false
	})
	return found
}

// drainHeldOf reads the insight as status reads it (health.DrainHeld).
func drainHeldOf(i *insightsv1alpha1.UpdateHealthInsight) (node, pod string, budgets []string, ok bool) {
	return health.DrainHeld(i.Status.Scope.Resources)
}

// graceEnds reads when a GracePeriod summary says the grace period ends,
// which the pod's deletion set.
var graceEnds = regexp.MustCompile(`its grace period ends at (\S+)$`)

// checkDrainHealthInsight checks that the insight names the node, the pod
// and its budgets, is a Warning, and says why (summary) and what to do
// (description) as the model words it.
func checkDrainHealthInsight(t *testing.T, i *insightsv1alpha1.UpdateHealthInsight, want drain.Pod) {
	t.Helper()
	node, pod, budgets, _ := drainHeldOf(i)
	var wantBudgets []string
	for _, b := range want.Budgets {
		wantBudgets = append(wantBudgets, b.String())
	}
	slices.Sort(budgets)
	if diff := cmp.Diff([]string{want.Namespace + "/" + want.Name, strings.Join(wantBudgets, ",")}, []string{pod, strings.Join(budgets, ",")}); diff != "" {
		t.Errorf("the health insight about node %s names (-want +got):\n%s", node, diff)
	}
	if i.Status.Impact.Level != insightsv1alpha1.WarningImpactLevel {
		t.Errorf("the health insight's level is %q, want %q", i.Status.Impact.Level, insightsv1alpha1.WarningImpactLevel)
	}
	summary := i.Status.Impact.Summary
	if want.Reason == drain.GracePeriod {
		m := graceEnds.FindStringSubmatch(summary)
		if m == nil {
			t.Fatalf("the health insight's summary %q says no grace left", summary)
		}
		ends, err := time.Parse(time.RFC3339, m[1])
		if left := time.Until(ends); err != nil || left <= 0 || left > time.Hour {
			t.Errorf("the health insight's summary says the hour's grace ends at %s (%v)", m[1], err)
		}
		want.GraceEnds = ends
	}
	// Cut as the operator cuts a summary: the description says it whole.
	wantSummary := text.OneLine("Pod "+want.Namespace+"/"+want.Name+" holds the drain of node "+node+": "+want.Why(), insightsv1alpha1.InsightSummaryMaxLength)
	if !strings.Contains(i.Status.Impact.Description, want.Why()) {
		t.Errorf("the health insight's description\n\t%s\ndoes not say\n\t%s", i.Status.Impact.Description, want.Why())
	}
	if summary != wantSummary {
		t.Errorf("the health insight's summary is\n\t%s\nwant\n\t%s", summary, wantSummary)
	}
	if !strings.Contains(i.Status.Impact.Description, want.Remedy()) {
		t.Errorf("the health insight's description\n\t%s\ndoes not say\n\t%s", i.Status.Impact.Description, want.Remedy())
	}
	if i.Status.Impact.Type != insightsv1alpha1.UpdateStalledImpactType {
		t.Errorf("the health insight's impact type is %q, want %q", i.Status.Impact.Type, insightsv1alpha1.UpdateStalledImpactType)
	}
}

// logHealthInsight logs the insight's status as `oc get -o yaml` shows it.
func logHealthInsight(t *testing.T, i *insightsv1alpha1.UpdateHealthInsight) {
	t.Helper()
	out, err := yaml.Marshal(map[string]any{"metadata": map[string]string{"name": i.Name}, "status": i.Status})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("$ oc get updatehealthinsight %s -o yaml (metadata.name and status)\n%s", i.Name, out)
}

// checkStatusNamesThePod checks that `status --details=nodes` names the pod
// in the node's row, the health section and the Drains Held table.
func checkStatusNamesThePod(t *testing.T, out, node, pod string) {
	t.Helper()
	quoted, quotedPod := regexp.QuoteMeta(node), regexp.QuoteMeta(pod)
	for what, pattern := range map[string]string{
		"the node's row":         `(?m)^` + quoted + ` .*Drain held by pod ` + quotedPod + `$`,
		"the health section":     `(?m)^\S+ +Warning +Update Stalled +Pod ` + quotedPod + ` holds the drain of node ` + quoted + `: `,
		"the Drains Held table":  `(?m)^` + quoted + ` +` + quotedPod + ` +\S+ +\S+ +Warning$`,
		"the Drains Held header": `(?m)^Drains Held: worker$`,
	} {
		if !regexp.MustCompile(pattern).MatchString(out) {
			t.Errorf("%s: no line matching %s", what, pattern)
		}
	}
}
