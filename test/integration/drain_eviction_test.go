package integration

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/update-insights/update-insights-operator/pkg/drain"
)

// budgetSync is how far the disruption controller got with a budget.
type budgetSync string

const (
	// synced: its status as the controller last wrote it.
	synced budgetSync = "synced"
	// neverSynced: created, no status written yet (observedGeneration 0).
	neverSynced budgetSync = "never"
	// editedSinceSync: its spec changed (to maxUnavailable 1) after the
	// controller's last write, so observedGeneration < generation.
	editedSinceSync budgetSync = "edited"
	// syncFailed: synced once, then its pods' ReplicaSet went away and the
	// controller's next sync failed (its failSafe status).
	syncFailed budgetSync = "failed"
)

// budgetFixture is a PodDisruptionBudget selecting the case's workload.
type budgetFixture struct {
	name                         string
	minAvailable, maxUnavailable *intstr.IntOrString
	unhealthyPodEvictionPolicy   policyv1.UnhealthyPodEvictionPolicyType
	// elsewhere puts it in another namespace than the pods.
	elsewhere bool
	sync      budgetSync
}

// modelVerdict is what the drain model says of the pod.
type modelVerdict struct {
	Verdict drain.Verdict
	Reason  drain.Reason
}

// The drain model's verdicts these cases expect.
var (
	evicted         = modelVerdict{drain.Evicted, ""}
	evictedTerminal = modelVerdict{drain.Evicted, drain.TerminalPod}
	atLimit         = modelVerdict{drain.Blocking, drain.BudgetAtLimit}
	multipleBudgets = modelVerdict{drain.Blocking, drain.MultipleBudgets}
	notSynced       = modelVerdict{drain.Blocking, drain.BudgetNotSynced}
	heldByFinalizer = modelVerdict{drain.Blocking, drain.Finalizer}
)

// refusedByTheEvictionAPI says the model's verdict is one the eviction API
// refuses: a block for a budget's reason. A pod already deleted (Finalizer,
// GracePeriod, NodeNotReady) is one the API evicts again and that does not
// go away; Refused is a pod the Helper never asks the API about.
func (v modelVerdict) refusedByTheEvictionAPI() bool {
	switch v.Reason {
	case drain.BudgetAtLimit, drain.MultipleBudgets, drain.BudgetNotSynced, drain.ReplacementUnschedulable:
		return v.Verdict == drain.Blocking
	}
	return false
}

// evictionAnswer is the API server's answer to an eviction: all zero when
// it evicts.
type evictionAnswer struct {
	Code              int32
	Reason            metav1.StatusReason
	Message           string
	Causes            []metav1.StatusCause
	RetryAfterSeconds int32
}

func answerOf(err error) evictionAnswer {
	var status apierrors.APIStatus
	if err == nil || !errors.As(err, &status) {
		return evictionAnswer{Message: fmt.Sprint(err)}
	}
	s := status.Status()
	a := evictionAnswer{Code: s.Code, Reason: s.Reason, Message: s.Message}
	if s.Details != nil {
		a.Causes, a.RetryAfterSeconds = s.Details.Causes, s.Details.RetryAfterSeconds
	}
	return a
}

// The answers of kubernetes' eviction handler
// (pkg/registry/core/pod/storage/eviction.go, v1.35: Create,
// checkAndDecrement and createTooManyRequestsError).
var (
	allowed             = evictionAnswer{Message: "<nil>"}
	moreThanOneBudget   = evictionAnswer{Code: 500, Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}
	violatesBudgetCause = "Cannot evict pod as it would violate the pod's disruption budget."
)

func tooFewHealthy(budget string, desired, current int) evictionAnswer {
	return evictionAnswer{Code: 429, Reason: metav1.StatusReasonTooManyRequests, Message: violatesBudgetCause, Causes: []metav1.StatusCause{{
		Type: policyv1.DisruptionBudgetCause, Message: fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", budget, desired, current),
	}}}
}

func stillProcessed(budget string) evictionAnswer {
	return evictionAnswer{Code: 429, Reason: metav1.StatusReasonTooManyRequests, Message: violatesBudgetCause, RetryAfterSeconds: 10, Causes: []metav1.StatusCause{{
		Type: policyv1.DisruptionBudgetCause, Message: fmt.Sprintf("The disruption budget %s is still being processed by the server.", budget),
	}}}
}

func failedSync(budget, message string) evictionAnswer {
	return evictionAnswer{Code: 429, Reason: metav1.StatusReasonTooManyRequests, Message: violatesBudgetCause, Causes: []metav1.StatusCause{{
		Type: policyv1.DisruptionBudgetCause, Message: fmt.Sprintf("The disruption budget %s does not allow evicting pods currently because it failed sync: %s", budget, message),
	}}}
}

// evictionCase is a pod "web-subject" of a ReplicaSet "web" on the node
// being drained, the ReplicaSet's other pods on other nodes, the budgets
// that select them, and what the eviction API and the drain model answer.
type evictionCase struct {
	name string
	pod  podState
	// deleting: deleted already, held by a finalizer.
	deleting bool
	peers    []podState
	budgets  []budgetFixture
	answer   evictionAnswer
	model    modelVerdict
}

var (
	one, two, zero = ptr.To(intstr.FromInt32(1)), ptr.To(intstr.FromInt32(2)), ptr.To(intstr.FromInt32(0))
	half           = ptr.To(intstr.FromString("50%"))
)

var evictionCases = []evictionCase{{
	name: "a budget that allows a disruption evicts", pod: podReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: one, sync: synced}},
	answer:  allowed, model: evicted,
}, {
	name: "a budget of a percentage of the ReplicaSet's replicas that allows one evicts", pod: podReady, peers: []podState{podReady, podReady},
	budgets: []budgetFixture{{name: "web", maxUnavailable: ptr.To(intstr.FromString("33%")), sync: synced}},
	answer:  allowed, model: evicted,
}, {
	name: "a budget at its limit refuses and is named", pod: podReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: two, sync: synced}},
	answer:  tooFewHealthy("web", 2, 2), model: atLimit,
}, {
	name: "two budgets that each allow a disruption refuse", pod: podReady, peers: []podState{podReady, podReady},
	budgets: []budgetFixture{{name: "web-a", minAvailable: one, sync: synced}, {name: "web-b", maxUnavailable: one, sync: synced}},
	answer:  moreThanOneBudget, model: multipleBudgets,
}, {
	name: "a budget never synced refuses", pod: podReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: one, sync: neverSynced}},
	answer:  stillProcessed("web"), model: notSynced,
}, {
	name: "a budget edited since its last sync refuses", pod: podReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: one, sync: editedSinceSync}},
	answer:  stillProcessed("web"), model: notSynced,
}, {
	name: "a budget whose last sync failed refuses", pod: podReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: half, sync: syncFailed}},
	answer:  failedSync("web", `found no controllers for pod "web-peer-0"`), model: notSynced,
}, {
	name: "a ready pod under AlwaysAllow at the limit is refused", pod: podReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: two, unhealthyPodEvictionPolicy: policyv1.AlwaysAllow, sync: synced}},
	answer:  tooFewHealthy("web", 2, 2), model: atLimit,
}, {
	name: "a not-ready pod under AlwaysAllow at the limit evicts", pod: podNotReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: two, unhealthyPodEvictionPolicy: policyv1.AlwaysAllow, sync: synced}},
	answer:  allowed, model: evicted,
}, {
	name: "a not-ready pod under AlwaysAllow evicts even when the budget was edited since its last sync", pod: podNotReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: two, unhealthyPodEvictionPolicy: policyv1.AlwaysAllow, sync: editedSinceSync}},
	answer:  allowed, model: evicted,
}, {
	name: "a not-ready pod under IfHealthyBudget evicts while the budget has its healthy pods", pod: podNotReady, peers: []podState{podReady, podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: two, unhealthyPodEvictionPolicy: policyv1.IfHealthyBudget, sync: synced}},
	answer:  allowed, model: evicted,
}, {
	name: "a not-ready pod under IfHealthyBudget is refused while the budget lacks healthy pods", pod: podNotReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: two, unhealthyPodEvictionPolicy: policyv1.IfHealthyBudget, sync: synced}},
	answer:  tooFewHealthy("web", 2, 1), model: atLimit,
}, {
	name: "a not-ready pod of a budget that needs no healthy pod and has none is refused", pod: podNotReady,
	budgets: []budgetFixture{{name: "web", minAvailable: zero, sync: synced}},
	answer:  tooFewHealthy("web", 0, 0), model: atLimit,
}, {
	name: "a terminal pod evicts whatever its budget", pod: podSucceeded, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: two, sync: synced}},
	answer:  allowed, model: evictedTerminal,
}, {
	name: "a pending pod evicts whatever its budget", pod: podPending, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: two, sync: synced}},
	answer:  allowed, model: evicted,
}, {
	name: "a pod deleted and held by a finalizer evicts again but stays", pod: podReady, deleting: true, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: two, sync: synced}},
	answer:  allowed, model: heldByFinalizer,
}, {
	name: "a budget of another namespace at its limit does not select the pod", pod: podReady, peers: []podState{podReady},
	budgets: []budgetFixture{{name: "web", minAvailable: one, elsewhere: true, sync: synced}},
	answer:  allowed, model: evicted,
}}

// TestEvictionAnswersWhatTheDrainModelSays creates each case on the API
// server, with the budgets' status written as the disruption controller
// writes it, runs the drain model on the objects read back, and attempts the
// eviction of the pod through the eviction subresource: first as a dry run,
// which must leave the pod and the budgets as they were, then for real,
// which must answer the same. Each case's answer and verdict agree: the
// eviction API refuses exactly the pods the model says it refuses, for the
// budgets the model names.
func TestEvictionAnswersWhatTheDrainModelSays(t *testing.T) {
	for _, c := range evictionCases {
		t.Run(c.name, func(t *testing.T) {
			if refused := c.answer.Code != 0; refused != c.model.refusedByTheEvictionAPI() {
				t.Fatalf("the case expects the eviction API to refuse (%v) and the model to say %+v", refused, c.model)
			}
			ctx := context.Background()
			namespace, node := createEvictionCase(t, c)
			before := resourceVersions(t, namespace, node)
			want := []modelPod{{Name: "web-subject", Verdict: c.model.Verdict, Reason: c.model.Reason}}
			if c.model.refusedByTheEvictionAPI() {
				want[0].Budgets = budgetsIn(c.budgets)
			}
			if diff := cmp.Diff(want, judgeNode(t, node)); diff != "" {
				t.Errorf("the drain model, on the objects the API server has, says (-want +got):\n%s", diff)
			}

			dryRun := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "web-subject", Namespace: namespace},
				DeleteOptions: &metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}}}
			if diff := cmp.Diff(c.answer, answerOf(evict(ctx, dryRun))); diff != "" {
				t.Errorf("the dry-run eviction answered (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, resourceVersions(t, namespace, node)); diff != "" {
				t.Errorf("the dry-run eviction changed objects (-before +after):\n%s", diff)
			}

			eviction := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "web-subject", Namespace: namespace}}
			if diff := cmp.Diff(c.answer, answerOf(evict(ctx, eviction))); diff != "" {
				t.Errorf("the eviction answered (-want +got):\n%s", diff)
			}
			pod, err := kubeClient.CoreV1().Pods(namespace).Get(ctx, "web-subject", metav1.GetOptions{})
			if gone := apierrors.IsNotFound(err) || err == nil && pod.DeletionTimestamp != nil; gone != (c.answer.Code == 0) {
				t.Errorf("after the eviction the pod is deleted or being deleted: %v (error %v)", gone, err)
			}
		})
	}
}

// modelPod is the drain model's verdict on a pod, with the budgets it names.
type modelPod struct {
	Name    string
	Verdict drain.Verdict
	Reason  drain.Reason
	Budgets []string
}

// budgetsIn are the names of the budgets of the pod's namespace: those the
// eviction handler reads.
func budgetsIn(budgets []budgetFixture) []string {
	var names []string
	for _, b := range budgets {
		if !b.elsewhere {
			names = append(names, b.name)
		}
	}
	return names
}

// judgeNode runs the drain model under the machine-config operator's policy
// on what the API server has, read as the node controller reads it: the
// node, its pods, every budget and the pods not yet scheduled.
func judgeNode(t *testing.T, name string) []modelPod {
	t.Helper()
	ctx := context.Background()
	node, err := kubeClient.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := drain.Input{Node: node, Policy: drain.MCO, Now: time.Now()}
	onNode, err := kubeClient.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName=" + name})
	if err != nil {
		t.Fatal(err)
	}
	for i := range onNode.Items {
		in.Pods = append(in.Pods, &onNode.Items[i])
	}
	pending, err := kubeClient.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName="})
	if err != nil {
		t.Fatal(err)
	}
	for i := range pending.Items {
		in.Pending = append(in.Pending, &pending.Items[i])
	}
	budgets, err := kubeClient.PolicyV1().PodDisruptionBudgets(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range budgets.Items {
		in.Budgets = append(in.Budgets, &budgets.Items[i])
	}
	var out []modelPod
	for _, p := range drain.Node(in) {
		m := modelPod{Name: p.Name, Verdict: p.Verdict, Reason: p.Reason}
		for _, b := range p.Budgets {
			m.Budgets = append(m.Budgets, b.Name)
		}
		out = append(out, m)
	}
	return out
}

// evict is the request of client-go's EvictV1 without its retries: on a 429
// that has a Retry-After (the 10 seconds of a budget not yet processed)
// client-go tries again up to 10 times, so that EvictV1 answers only after
// 100 seconds, as it does to kubectl's drain.
func evict(ctx context.Context, eviction *policyv1.Eviction) error {
	return kubeClient.CoreV1().RESTClient().Post().Namespace(eviction.Namespace).Resource("pods").Name(eviction.Name).
		SubResource("eviction").Body(eviction).MaxRetries(0).Do(ctx).Error()
}

// createEvictionCase creates the case's objects: a cordoned node, as the
// machine-config operator leaves the node it drains, the ReplicaSet, its
// pods with their status as their kubelet writes it, and the budgets. It
// returns the pods' namespace and the node's name.
func createEvictionCase(t *testing.T, c evictionCase) (string, string) {
	t.Helper()
	ctx := context.Background()
	namespace := createTestNamespace(t, "eviction-")
	node := namespace
	createNode(t, node, nil, "worker")
	updateNode(t, node, func(n *corev1.Node) { n.Spec.Unschedulable = true })
	// No kubelet ends their grace period.
	t.Cleanup(func() {
		if err := kubeClient.CoreV1().Pods(namespace).DeleteCollection(context.Background(),
			metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}, metav1.ListOptions{}); err != nil {
			t.Errorf("deleting the pods of %s: %v", namespace, err)
		}
	})

	labels := map[string]string{"app": "web"}
	rs := createReplicaSet(t, namespace, "web", int32(1+len(c.peers)), labels)
	owner := metav1.NewControllerRef(rs, corev1.SchemeGroupVersion.WithKind("ReplicaSet"))
	owner.APIVersion = "apps/v1"
	createPod(t, namespace, "web-subject", node, labels, owner, c.pod, c.deleting)
	for i, state := range c.peers {
		// On other nodes: the API server takes a nodeName without its Node.
		createPod(t, namespace, fmt.Sprintf("web-peer-%d", i), node+"-other", labels, owner, state, false)
	}

	var elsewhere string
	for _, b := range c.budgets {
		ns := namespace
		if b.elsewhere {
			if elsewhere == "" {
				elsewhere = createTestNamespace(t, "eviction-elsewhere-")
			}
			ns = elsewhere
		}
		createBudget(t, ns, b, labels)
		if b.sync == syncFailed {
			if err := kubeClient.AppsV1().ReplicaSets(namespace).Delete(ctx, rs.Name, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			syncBudget(t, ns, b.name)
		}
	}
	return namespace, node
}

// createPod creates a pod of owner in state on node; deleting deletes it,
// held by a finalizer the test removes when it ends.
func createPod(t *testing.T, namespace, name, node string, labels map[string]string, owner *metav1.OwnerReference, state podState, deleting bool) {
	t.Helper()
	ctx := context.Background()
	pods := kubeClient.CoreV1().Pods(namespace)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels, OwnerReferences: []metav1.OwnerReference{*owner}},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "app", Image: "registry.example.com/app:1"}}},
	}
	if deleting {
		pod.Finalizers = []string{"example.com/hold"}
	}
	created, err := pods.Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating pod %s: %v", name, err)
	}
	created.Status = kubeletStatus(state, created.CreationTimestamp)
	if _, err := pods.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing the status of pod %s: %v", name, err)
	}
	if !deleting {
		return
	}
	t.Cleanup(func() {
		if _, err := pods.Patch(context.Background(), name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("removing the finalizer of pod %s: %v", name, err)
		}
	})
	if err := pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
		t.Fatal(err)
	}
}

// createBudget creates the budget selecting labels, and writes its status
// as the disruption controller would have by now.
func createBudget(t *testing.T, namespace string, b budgetFixture, labels map[string]string) {
	t.Helper()
	ctx := context.Background()
	budgets := kubeClient.PolicyV1().PodDisruptionBudgets(namespace)
	pdb := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: b.name},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: b.minAvailable, MaxUnavailable: b.maxUnavailable,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
		},
	}
	if b.unhealthyPodEvictionPolicy != "" {
		pdb.Spec.UnhealthyPodEvictionPolicy = &b.unhealthyPodEvictionPolicy
	}
	if _, err := budgets.Create(ctx, pdb, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating budget %s/%s: %v", namespace, b.name, err)
	}
	deleteAtEnd(t, "PodDisruptionBudget "+b.name, budgets.Delete, b.name)
	if b.sync == neverSynced {
		return
	}
	pdb = syncBudget(t, namespace, b.name)
	if b.sync == editedSinceSync {
		pdb.Spec.MinAvailable, pdb.Spec.MaxUnavailable = nil, one
		if _, err := budgets.Update(ctx, pdb, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("editing budget %s/%s: %v", namespace, b.name, err)
		}
	}
}

// resourceVersions are those of the node's pods and of every budget.
func resourceVersions(t *testing.T, namespace, node string) map[string]string {
	t.Helper()
	ctx := context.Background()
	versions := map[string]string{}
	pods, err := kubeClient.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName=" + node})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		versions["pod "+p.Name] = p.ResourceVersion
	}
	budgets, err := kubeClient.PolicyV1().PodDisruptionBudgets(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range budgets.Items {
		versions["budget "+b.Namespace+"/"+b.Name] = b.ResourceVersion
	}
	return versions
}
