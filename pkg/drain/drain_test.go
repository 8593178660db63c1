package drain

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// kubectl is the Helper with kubectl drain's defaults: no option set.
var kubectl = Policy{GracePeriodSeconds: -1}

const rs = "ReplicaSet/web-7d9c"

func evicted(name string) Pod { return Pod{Namespace: "app", Name: name, Verdict: Evicted, Owner: rs} }

func blocked(name string, reason Reason, since time.Time, budgets ...*policyv1.PodDisruptionBudget) Pod {
	p := Pod{Namespace: "app", Name: name, Verdict: Blocking, Reason: reason, Owner: rs, Since: since}
	if len(budgets) > 0 {
		p.Budgets = budgetsOf(budgets)
	}
	return p
}

func with(p Pod, f func(*Pod)) Pod { f(&p); return p }

// What MCO's drain does with pods the Helper's filters leave to it, and with
// those it leaves alone: nothing of these blocks.
func TestNodeNeverBlamesWhatDoesNotBlock(t *testing.T) {
	atLimit := budget("web", 2, 2, 3, started.Add(-time.Hour))
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		want []Pod
	}{
		{"a DaemonSet's pod is skipped", pod("exporter-x", controlledBy("DaemonSet", "node-exporter")),
			[]Pod{{Namespace: "app", Name: "exporter-x", Verdict: Skipped, Reason: DaemonSetPod, Owner: "DaemonSet/node-exporter"}}},
		{"a mirror pod is skipped", pod("etcd-worker-a", mirror),
			[]Pod{{Namespace: "app", Name: "etcd-worker-a", Verdict: Skipped, Reason: MirrorPod, Owner: "Node/worker-a"}}},
		{"a finished mirror pod is still skipped", pod("etcd-worker-a", mirror, phase(corev1.PodSucceeded)),
			[]Pod{{Namespace: "app", Name: "etcd-worker-a", Verdict: Skipped, Reason: MirrorPod, Owner: "Node/worker-a"}}},
		{"a succeeded pod is evicted whatever its budget", pod("web-1", phase(corev1.PodSucceeded)),
			[]Pod{with(evicted("web-1"), func(p *Pod) { p.Reason = TerminalPod })}},
		{"a failed DaemonSet pod is evicted, not skipped", pod("exporter-x", controlledBy("DaemonSet", "node-exporter"), phase(corev1.PodFailed)),
			[]Pod{{Namespace: "app", Name: "exporter-x", Verdict: Evicted, Reason: TerminalPod, Owner: "DaemonSet/node-exporter"}}},
		{"a pending pod is evicted whatever its budget", pod("web-1", phase(corev1.PodPending)),
			[]Pod{evicted("web-1")}},
		{"a bare pod is evicted under Force", pod("debug", bare, labelled("run", "debug")),
			[]Pod{{Namespace: "app", Name: "debug", Verdict: Evicted}}},
		{"an emptyDir pod is evicted under DeleteEmptyDirData", pod("cache-1", emptyDir, labelled("app", "cache")),
			[]Pod{evicted("cache-1")}},
		{"a pod no budget selects is evicted", pod("api-1", labelled("app", "api")),
			[]Pod{evicted("api-1")}},
		{"a pod of another namespace is not the budget's", pod("web-1", inNamespace("other")),
			[]Pod{{Namespace: "other", Name: "web-1", Verdict: Evicted, Owner: rs}}},
		{"a pod of another node is not named", pod("web-1", onNode("worker-b")), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Node: readyNode(), Pods: []*corev1.Pod{tc.pod}, Budgets: []*policyv1.PodDisruptionBudget{atLimit}, Policy: MCO, Started: started, Now: now}
			if diff := cmp.Diff(tc.want, Node(in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The Helper's filters under other policies (filters.go).
func TestNodeFollowsTheHelpersFilters(t *testing.T) {
	allows := budget("web", 3, 2, 3, started.Add(-time.Hour))
	atLimit := budget("web", 2, 2, 3, started.Add(-time.Hour))
	deletionSkipped := Policy{Force: true, IgnoreAllDaemonSets: true, DeleteEmptyDirData: true, SkipWaitForDeleteTimeoutSeconds: 60}
	for _, tc := range []struct {
		name   string
		policy Policy
		pod    *corev1.Pod
		budget *policyv1.PodDisruptionBudget
		want   Pod
	}{
		{"a bare pod without Force is refused", kubectl, pod("debug", bare), allows,
			Pod{Namespace: "app", Name: "debug", Verdict: Blocking, Reason: Refused, Since: started}},
		{"a finished bare pod without Force is evicted", kubectl, pod("job-1", bare, phase(corev1.PodFailed)), allows,
			Pod{Namespace: "app", Name: "job-1", Verdict: Evicted, Reason: TerminalPod}},
		{"an emptyDir pod without DeleteEmptyDirData is refused", kubectl, pod("web-1", emptyDir), allows,
			blocked("web-1", Refused, started)},
		{"a DaemonSet pod without IgnoreAllDaemonSets is refused", kubectl, pod("exporter-x", controlledBy("DaemonSet", "node-exporter")), allows,
			Pod{Namespace: "app", Name: "exporter-x", Verdict: Blocking, Reason: Refused, Owner: "DaemonSet/node-exporter", Since: started}},
		{"a pod deleted longer ago than SkipWaitForDeleteTimeoutSeconds is skipped", deletionSkipped,
			pod("web-1", deletedAt(now.Add(-91*time.Second), 30)), atLimit,
			with(evicted("web-1"), func(p *Pod) { p.Verdict, p.Reason = Skipped, DeletedLongAgo })},
		{"a pod deleted no longer ago than SkipWaitForDeleteTimeoutSeconds is waited for", deletionSkipped,
			pod("web-1", deletedAt(now.Add(-90*time.Second), 30)), atLimit,
			blocked("web-1", GracePeriod, now.Add(-90*time.Second))},
		{"without eviction a pod is deleted whatever its budget", Policy{Force: true, IgnoreAllDaemonSets: true, DeleteEmptyDirData: true, DisableEviction: true},
			pod("web-1"), atLimit, with(evicted("web-1"), func(p *Pod) { p.Verdict = Deleted })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Node: readyNode(), Pods: []*corev1.Pod{tc.pod}, Budgets: []*policyv1.PodDisruptionBudget{tc.budget}, Policy: tc.policy, Started: started, Now: now}
			if diff := cmp.Diff([]Pod{tc.want}, Node(in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// What the eviction handler answers for a running pod under MCO's policy
// (eviction.go), with the budgets as the disruption controller writes them.
func TestNodeFollowsTheEvictionHandler(t *testing.T) {
	turned := started.Add(5 * time.Minute)
	atLimit := budget("web", 2, 2, 3, turned)
	for _, tc := range []struct {
		name    string
		pod     *corev1.Pod
		budgets []*policyv1.PodDisruptionBudget
		pending []*corev1.Pod
		want    Pod
	}{
		{"a budget that allows a disruption evicts", pod("web-1"), []*policyv1.PodDisruptionBudget{budget("web", 3, 2, 3, turned)}, nil,
			evicted("web-1")},
		{"a budget at its limit blocks since its condition turned", pod("web-1"), []*policyv1.PodDisruptionBudget{atLimit}, nil,
			blocked("web-1", BudgetAtLimit, turned, atLimit)},
		{"a budget at its limit before the drain blocks since the drain began", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{budget("web", 2, 2, 3, started.Add(-time.Hour))}, nil,
			blocked("web-1", BudgetAtLimit, started, budget("web", 2, 2, 3, started))},
		{"a negative disruptionsAllowed is refused", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{budget("web", 2, 2, 3, turned, func(b *policyv1.PodDisruptionBudget) { b.Status.DisruptionsAllowed = -1 })}, nil,
			blocked("web-1", BudgetAtLimit, turned, budget("web", 2, 2, 3, turned, func(b *policyv1.PodDisruptionBudget) { b.Status.DisruptionsAllowed = -1 }))},
		{"a budget matching no pods yet allows none", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{budget("web", 0, 0, 0, turned)}, nil,
			blocked("web-1", BudgetAtLimit, turned, budget("web", 0, 0, 0, turned))},
		{"two budgets are refused, even one that allows", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{budget("web", 3, 2, 3, turned), budget("all", 3, 2, 3, turned, selecting(&metav1.LabelSelector{}))}, nil,
			blocked("web-1", MultipleBudgets, started, budget("web", 3, 2, 3, turned), budget("all", 3, 2, 3, turned, selecting(&metav1.LabelSelector{})))},
		{"a budget whose spec the controller has not observed is refused", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{budget("web", 3, 2, 3, turned, specChanged)}, nil,
			blocked("web-1", BudgetNotSynced, started, budget("web", 3, 2, 3, turned))},
		{"a budget the controller failed to compute is not synced", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{budget("web", 3, 2, 3, turned, syncFailedAt(turned))}, nil,
			blocked("web-1", BudgetNotSynced, turned, budget("web", 3, 2, 3, turned, syncFailedAt(turned)))},
		{"a budget with more unconfirmed evictions than the handler takes is not synced", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{budget("web", 3, 2, 3, turned, unconfirmed(2001))}, nil,
			blocked("web-1", BudgetNotSynced, started, budget("web", 3, 2, 3, turned))},
		{"a budget with as many unconfirmed evictions as the handler takes allows", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{budget("web", 3, 2, 3, turned, unconfirmed(2000))}, nil,
			evicted("web-1")},
		{"an unready pod under AlwaysAllow is evicted at the limit", pod("web-1", notReady),
			[]*policyv1.PodDisruptionBudget{budget("web", 2, 2, 3, turned, alwaysAllow)}, nil,
			evicted("web-1")},
		{"an unready pod is evicted while its budget has its healthy pods", pod("web-1", notReady),
			[]*policyv1.PodDisruptionBudget{atLimit}, nil,
			evicted("web-1")},
		{"an unready pod is refused while its budget lacks healthy pods", pod("web-1", notReady),
			[]*policyv1.PodDisruptionBudget{budget("web", 1, 2, 3, turned)}, nil,
			blocked("web-1", BudgetAtLimit, turned, budget("web", 1, 2, 3, turned))},
		{"an unready pod is refused by a budget that wants no healthy pod", pod("web-1", notReady),
			[]*policyv1.PodDisruptionBudget{budget("web", 0, 0, 0, turned)}, nil,
			blocked("web-1", BudgetAtLimit, turned, budget("web", 0, 0, 0, turned))},
		{"a replacement the scheduler cannot place holds the budget", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{atLimit},
			[]*corev1.Pod{unschedulablePod("web-9"), unschedulablePod("web-8"), unschedulablePod("web-7", inNamespace("other")), unschedulablePod("db-1", labelled("app", "db"))},
			with(blocked("web-1", ReplacementUnschedulable, turned, atLimit), func(p *Pod) { p.Unschedulable = []string{"web-8", "web-9"} })},
		{"a pending pod that is only gated does not", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{atLimit},
			[]*corev1.Pod{gated(unschedulablePod("web-9"))},
			blocked("web-1", BudgetAtLimit, turned, atLimit)},
		{"an unschedulable pod does not hold a budget that allows", pod("web-1"),
			[]*policyv1.PodDisruptionBudget{budget("web", 3, 2, 3, turned)},
			[]*corev1.Pod{unschedulablePod("web-9")},
			evicted("web-1")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Node: readyNode(), Pods: []*corev1.Pod{tc.pod}, Budgets: tc.budgets, Pending: tc.pending, Policy: MCO, Started: started, Now: now}
			if diff := cmp.Diff([]Pod{tc.want}, Node(in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// gated is a pending pod the scheduler has not tried yet, as it writes a
// pod with scheduling gates.
func gated(p *corev1.Pod) *corev1.Pod {
	p.Status.Conditions[0].Reason, p.Status.Conditions[0].Message = corev1.PodReasonSchedulingGated, "Scheduling is blocked due to non-empty scheduling gates"
	return p
}

// A pod already deleted that stays, which the Helper waits for (drain.go,
// waitForDelete).
func TestNodeSaysWhatHoldsADeletedPod(t *testing.T) {
	atLimit := budget("web", 2, 2, 3, started)
	deleted := now.Add(-10 * time.Second)
	early := started.Add(time.Minute)
	for _, tc := range []struct {
		name string
		node *corev1.Node
		pod  *corev1.Pod
		want Pod
	}{
		{"its grace period runs", readyNode(), pod("web-1", deletedAt(deleted, 30)),
			with(blocked("web-1", GracePeriod, deleted), func(p *Pod) { p.GraceEnds = deleted.Add(30 * time.Second) })},
		{"its grace period runs, finalizers or not", readyNode(), pod("web-1", deletedAt(deleted, 30), finalizers("example.com/backup")),
			with(blocked("web-1", GracePeriod, deleted), func(p *Pod) {
				p.GraceEnds = deleted.Add(30 * time.Second)
				p.Finalizers = []string{"example.com/backup"}
			})},
		{"past its grace, its finalizers hold it", readyNode(), pod("web-1", deletedAt(early, 30), finalizers("example.com/backup", "foregroundDeletion")),
			with(blocked("web-1", Finalizer, early), func(p *Pod) { p.Finalizers = []string{"example.com/backup", "foregroundDeletion"} })},
		{"confirmed by the kubelet, only its finalizers hold it, even on a silent node", silentNode(), pod("web-1", deletedAt(early, 0), finalizers("example.com/backup")),
			with(blocked("web-1", Finalizer, early), func(p *Pod) { p.Finalizers = []string{"example.com/backup"} })},
		{"on a silent node the kubelet does not confirm it", silentNode(), pod("web-1", deletedAt(early, 30)),
			blocked("web-1", NodeNotReady, early)},
		{"on a silent node, grace left or not", silentNode(), pod("web-1", deletedAt(deleted, 30), finalizers("example.com/backup")),
			with(blocked("web-1", NodeNotReady, deleted), func(p *Pod) { p.Finalizers = []string{"example.com/backup"} })},
		{"past its grace without finalizers the kubelet has yet to stop it", readyNode(), pod("web-1", deletedAt(early, 30)),
			blocked("web-1", GracePeriod, early)},
		{"deleted before the drain began, it blocks since the drain began", readyNode(), pod("web-1", deletedAt(started.Add(-time.Hour), 30), finalizers("example.com/backup")),
			with(blocked("web-1", Finalizer, started), func(p *Pod) { p.Finalizers = []string{"example.com/backup"} })},
		{"a finished pod with a finalizer stays", readyNode(), pod("job-1", phase(corev1.PodSucceeded), deletedAt(early, 0), finalizers("batch.kubernetes.io/job-tracking")),
			with(blocked("job-1", Finalizer, early), func(p *Pod) { p.Finalizers = []string{"batch.kubernetes.io/job-tracking"} })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Node: tc.node, Pods: []*corev1.Pod{tc.pod}, Budgets: []*policyv1.PodDisruptionBudget{atLimit}, Policy: MCO, Started: started, Now: now}
			if diff := cmp.Diff([]Pod{tc.want}, Node(in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Every pod of the node, by namespace and name, none of another; no node, no
// verdicts; a drain whose start is not known blocks since what the objects say.
func TestNodeListsTheNodesPods(t *testing.T) {
	atLimit := budget("web", 2, 2, 3, started.Add(-time.Hour))
	pods := []*corev1.Pod{pod("web-2"), nil, pod("web-1", inNamespace("b")), pod("web-3", onNode("worker-b")), pod("web-1")}
	for _, tc := range []struct {
		name string
		in   Input
		want []Pod
	}{
		{"sorted", Input{Node: readyNode(), Pods: pods, Budgets: []*policyv1.PodDisruptionBudget{atLimit}, Policy: MCO, Started: started, Now: now},
			[]Pod{blocked("web-1", BudgetAtLimit, started, atLimit), blocked("web-2", BudgetAtLimit, started, atLimit), {Namespace: "b", Name: "web-1", Verdict: Evicted, Owner: rs}}},
		{"start unknown", Input{Node: readyNode(), Pods: pods[:1], Budgets: []*policyv1.PodDisruptionBudget{atLimit}, Policy: MCO, Now: now},
			[]Pod{blocked("web-2", BudgetAtLimit, started.Add(-time.Hour), atLimit)}},
		{"no node", Input{Pods: pods, Policy: MCO, Started: started, Now: now}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Node(tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The Helper's daemonSetFilter gets a DaemonSet pod's DaemonSet before it
// skips the pod (filters.go): the pod of one that is gone is an orphan,
// refused without Force and otherwise evicted, so that its budget applies.
func TestNodeAsksWhetherADaemonSetPodsDaemonSetExists(t *testing.T) {
	allows := budget("exporter", 3, 2, 3, started.Add(-time.Hour), selecting(&metav1.LabelSelector{MatchLabels: map[string]string{"app": "exporter"}}))
	atLimit := budget("exporter", 2, 2, 3, started.Add(-time.Hour), selecting(&metav1.LabelSelector{MatchLabels: map[string]string{"app": "exporter"}}))
	exists := func(namespace, name string) bool { return namespace == "app" && name == "node-exporter" }
	gone := func(string, string) bool { return false }
	ds := "DaemonSet/node-exporter"
	exporter := func(opts ...podOption) *corev1.Pod {
		return pod("exporter-x", append([]podOption{controlledBy("DaemonSet", "node-exporter"), labelled("app", "exporter")}, opts...)...)
	}
	verdict := func(v Verdict, r Reason, orphan bool) Pod {
		p := Pod{Namespace: "app", Name: "exporter-x", Verdict: v, Reason: r, Owner: ds, OwnerGone: orphan}
		if v == Blocking {
			p.Since = started
		}
		return p
	}
	ignoreOnly := Policy{IgnoreAllDaemonSets: true, GracePeriodSeconds: -1}
	for _, tc := range []struct {
		name   string
		policy Policy
		exists func(namespace, name string) bool
		pod    *corev1.Pod
		budget *policyv1.PodDisruptionBudget
		want   Pod
	}{
		{"the pod of a DaemonSet that exists is skipped", MCO, exists, exporter(), atLimit,
			verdict(Skipped, DaemonSetPod, false)},
		{"without a lookup the DaemonSet is taken to exist", MCO, nil, exporter(), atLimit,
			verdict(Skipped, DaemonSetPod, false)},
		{"an orphan is evicted under Force when its budget allows", MCO, gone, exporter(), allows,
			verdict(Evicted, "", true)},
		{"an orphan under Force is held by its budget at its limit", MCO, gone, exporter(), atLimit,
			with(verdict(Blocking, BudgetAtLimit, true), func(p *Pod) { p.Budgets = budgetsOf([]*policyv1.PodDisruptionBudget{atLimit}) })},
		{"a DaemonSet of another namespace is not the pod's", MCO, exists, exporter(inNamespace("other")), atLimit,
			with(verdict(Evicted, "", true), func(p *Pod) { p.Namespace = "other" })},
		{"an orphan without Force is refused, IgnoreAllDaemonSets or not", ignoreOnly, gone, exporter(), allows,
			verdict(Blocking, Refused, true)},
		{"the pod of a DaemonSet that exists without IgnoreAllDaemonSets is refused", kubectl, exists, exporter(), allows,
			verdict(Blocking, Refused, false)},
		{"a finished orphan is evicted, its DaemonSet never asked about", MCO, gone, exporter(phase(corev1.PodSucceeded)), atLimit,
			verdict(Evicted, TerminalPod, false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Node: readyNode(), Pods: []*corev1.Pod{tc.pod}, Budgets: []*policyv1.PodDisruptionBudget{tc.budget},
				Policy: tc.policy, DaemonSetExists: tc.exists, Started: started, Now: now}
			if diff := cmp.Diff([]Pod{tc.want}, Node(in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// guardPod is a control plane guard pod as library-go's guard controller
// makes it (pkg/operator/staticpod/controller/guard: guard-pod.yaml and
// sync): <operand>-guard-<node> in the operand's namespace, labelled
// app=guard, bound to its node, no owner; ready while its operand there is.
func guardPod(node string, opts ...podOption) *corev1.Pod {
	p := pod("etcd-guard-"+node, append([]podOption{bare, inNamespace("openshift-etcd"), labelled("app", "guard"), onNode(node)}, opts...)...)
	p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](3)
	return p
}

// The budget over the guard pods, as the guard controller renders it:
// minAvailable one less than the control plane nodes.
func guardBudget(healthy int32) *policyv1.PodDisruptionBudget {
	return budget("etcd-guard-pdb", healthy, 2, 3, started.Add(-time.Hour), budgetNamespace("openshift-etcd"),
		selecting(&metav1.LabelSelector{MatchLabels: map[string]string{"app": "guard"}}))
}

// A budget at its limit names the other pods it selects that are not
// ready, the pods it waits for: of the node's pods and the others the
// caller holds, bound, not deleted, not finished.
func TestNodeNamesThePodsABudgetAtItsLimitWaitsFor(t *testing.T) {
	since := started.Add(-20 * time.Minute)
	unready := func(p *corev1.Pod) { notReady(p); p.Status.Conditions[1].LastTransitionTime = metav1.NewTime(since) }
	pdb := guardBudget(2)
	for _, tc := range []struct {
		name   string
		others []*corev1.Pod
		want   []Peer
	}{
		{"a guard pod not ready on another control plane node", []*corev1.Pod{guardPod("master-1", unready), guardPod("master-2")},
			[]Peer{{Namespace: "openshift-etcd", Name: "etcd-guard-master-1", Node: "master-1", Since: since}}},
		{"none known", nil, nil},
		{"a deleted, a finished, an unbound or an unselected pod is not waited for", []*corev1.Pod{
			guardPod("master-1", unready, deletedAt(now, 3)), guardPod("master-2", phase(corev1.PodFailed)),
			guardPod("", unready), guardPod("master-3", unready, labelled("app", "etcd")),
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			master0 := readyNode()
			master0.Name = "master-0"
			in := Input{Node: master0, Pods: []*corev1.Pod{guardPod("master-0")}, Others: tc.others, Budgets: []*policyv1.PodDisruptionBudget{pdb},
				Policy: MCO, Started: started, Now: now}
			want := []Pod{{Namespace: "openshift-etcd", Name: "etcd-guard-master-0", Verdict: Blocking, Reason: BudgetAtLimit, Since: started,
				Budgets: budgetsOf([]*policyv1.PodDisruptionBudget{pdb}), NotReady: tc.want}}
			if diff := cmp.Diff(want, Node(in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
