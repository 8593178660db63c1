package drain

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// The fixed clock of the tests: the drain began at started, they look at now.
var (
	started = time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	now     = started.Add(20 * time.Minute)
)

const nodeName = "worker-a"

// readyNode is a node as its kubelet reports it Ready.
func readyNode() *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: nodeName},
		Spec:       corev1.NodeSpec{Unschedulable: true},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{
			Type: corev1.NodeReady, Status: corev1.ConditionTrue,
			Reason: "KubeletReady", Message: "kubelet is posting ready status",
		}}},
	}
}

// silentNode is a node whose kubelet stopped posting status, as the node
// lifecycle controller marks it.
func silentNode() *corev1.Node {
	n := readyNode()
	n.Status.Conditions[0] = corev1.NodeCondition{
		Type: corev1.NodeReady, Status: corev1.ConditionUnknown,
		Reason: "NodeStatusUnknown", Message: "Kubelet stopped posting node status.",
	}
	return n
}

type podOption func(*corev1.Pod)

// pod is a running, ready pod on the node, in namespace app, labelled
// app=web, which a ReplicaSet controls, as the ReplicaSet controller and the
// kubelet write it; options change that.
func pod(name string, opts ...podOption) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "app", Name: name, UID: types.UID("uid-" + name),
			Labels: map[string]string{"app": "web"},
		},
		Spec: corev1.PodSpec{NodeName: nodeName, TerminationGracePeriodSeconds: ptr.To[int64](30)},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue},
		}},
	}
	controlledBy("ReplicaSet", "web-7d9c")(p)
	for _, o := range opts {
		o(p)
	}
	return p
}

func controlledBy(kind, name string) podOption {
	return func(p *corev1.Pod) {
		p.OwnerReferences = []metav1.OwnerReference{{
			APIVersion: "apps/v1", Kind: kind, Name: name, UID: types.UID("uid-" + name),
			Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
		}}
	}
}

func bare(p *corev1.Pod) { p.OwnerReferences = nil }

func inNamespace(ns string) podOption { return func(p *corev1.Pod) { p.Namespace = ns } }

func onNode(name string) podOption { return func(p *corev1.Pod) { p.Spec.NodeName = name } }

func labelled(k, v string) podOption {
	return func(p *corev1.Pod) { p.Labels = map[string]string{k: v} }
}

// mirror is the kubelet's mirror of a static pod: the mirror annotation and
// the node as its controller.
func mirror(p *corev1.Pod) {
	p.Annotations = map[string]string{corev1.MirrorPodAnnotationKey: "3f1e0a"}
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: nodeName, UID: "uid-node", Controller: ptr.To(true)}}
}

func emptyDir(p *corev1.Pod) {
	p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
}

func phase(ph corev1.PodPhase) podOption {
	return func(p *corev1.Pod) {
		p.Status.Phase = ph
		p.Status.Conditions[1].Status = corev1.ConditionFalse
	}
}

// notReady is a running pod whose readiness probe fails, as the kubelet
// writes it.
func notReady(p *corev1.Pod) {
	p.Status.Conditions[1] = corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", Message: "containers with unready status: [web]"}
}

// deletedAt is a pod deleted at t with its grace period, as the API server
// writes it: deletionTimestamp t plus the grace.
func deletedAt(t time.Time, graceSeconds int64) podOption {
	return func(p *corev1.Pod) {
		p.DeletionTimestamp = &metav1.Time{Time: t.Add(time.Duration(graceSeconds) * time.Second)}
		p.DeletionGracePeriodSeconds = ptr.To(graceSeconds)
	}
}

func finalizers(names ...string) podOption {
	return func(p *corev1.Pod) { p.Finalizers = names }
}

// unschedulablePod is a replacement the scheduler could not place, as
// handleSchedulingFailure writes it.
func unschedulablePod(name string, opts ...podOption) *corev1.Pod {
	p := pod(name, opts...)
	p.Spec.NodeName = ""
	p.Status = corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{
		Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable,
		Message: "0/6 nodes are available: 3 node(s) didn't match pod anti-affinity rules, 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }.",
	}}}
	return p
}

type budgetOption func(*policyv1.PodDisruptionBudget)

// budget is a minAvailable budget of namespace app selecting app=web, its
// status as the disruption controller writes it (updatePdbStatus and
// UpdateDisruptionAllowedCondition) for healthy pods of expected, desired
// healthy, its condition last turned at changed.
func budget(name string, healthy, desired, expected int32, changed time.Time, opts ...budgetOption) *policyv1.PodDisruptionBudget {
	allowed := max(healthy-desired, 0)
	cond := metav1.Condition{
		Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionTrue, Reason: policyv1.SufficientPodsReason,
		ObservedGeneration: 1, LastTransitionTime: metav1.Time{Time: changed},
	}
	if allowed == 0 {
		cond.Status, cond.Reason = metav1.ConditionFalse, policyv1.InsufficientPodsReason
	}
	b := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: name, Generation: 1},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(desired)),
			Selector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		},
		Status: policyv1.PodDisruptionBudgetStatus{
			ObservedGeneration: 1, DisruptionsAllowed: allowed,
			CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected,
			Conditions: []metav1.Condition{cond},
		},
	}
	for _, o := range opts {
		o(b)
	}
	return b
}

func selecting(s *metav1.LabelSelector) budgetOption {
	return func(b *policyv1.PodDisruptionBudget) { b.Spec.Selector = s }
}

func budgetNamespace(ns string) budgetOption {
	return func(b *policyv1.PodDisruptionBudget) { b.Namespace = ns }
}

// specChanged is a budget whose spec changed after the disruption controller
// last wrote its status.
func specChanged(b *policyv1.PodDisruptionBudget) { b.Generation = 2 }

func alwaysAllow(b *policyv1.PodDisruptionBudget) {
	b.Spec.UnhealthyPodEvictionPolicy = ptr.To(policyv1.AlwaysAllow)
}

// syncFailedAt is a budget the disruption controller could not compute, as
// its failSafe writes it.
func syncFailedAt(t time.Time) budgetOption {
	return func(b *policyv1.PodDisruptionBudget) {
		b.Status.DisruptionsAllowed = 0
		b.Status.Conditions = []metav1.Condition{{
			Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse, Reason: policyv1.SyncFailedReason,
			Message: `found no controllers for pod "web-1"`, ObservedGeneration: 1, LastTransitionTime: metav1.Time{Time: t},
		}}
	}
}

// unconfirmed are evictions the eviction handler recorded in the budget's
// status that the disruption controller has not yet seen done.
func unconfirmed(n int) budgetOption {
	return func(b *policyv1.PodDisruptionBudget) {
		b.Status.DisruptedPods = map[string]metav1.Time{}
		for i := range n {
			b.Status.DisruptedPods[fmt.Sprintf("web-%d", i)] = metav1.Time{Time: started}
		}
	}
}
