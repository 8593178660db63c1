package drain

import (
	"cmp"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Input is what Node reads.
type Input struct {
	Node *corev1.Node
	// Pods may hold pods of other nodes: they are ignored.
	Pods []*corev1.Pod
	// Budgets are every budget of the cluster (they are few).
	Budgets []*policyv1.PodDisruptionBudget
	// Pending are pods not yet scheduled: a replacement that cannot be
	// scheduled keeps a budget from ever allowing a disruption. May be nil.
	Pending []*corev1.Pod
	// Others are pods of other nodes the budgets select, for naming those
	// not ready that keep a budget at its limit. May be nil.
	Others []*corev1.Pod
	Policy Policy
	// DaemonSetExists says whether the DaemonSet namespace/name exists, as
	// the Helper's daemonSetFilter asks the API server before it skips a
	// DaemonSet's pod. Nil takes every DaemonSet to exist.
	DaemonSetExists func(namespace, name string) bool
	// Started is when the drain began (zero when not known); Now the clock.
	Started, Now time.Time
}

// Verdict is what the drainer and the API server do with a pod.
type Verdict string

const (
	// Evicted: the eviction API would accept it now.
	Evicted Verdict = "Evicted"
	// Deleted: the Helper deletes it without eviction (Policy.DisableEviction).
	Deleted Verdict = "Deleted"
	// Skipped: the Helper leaves it on the node.
	Skipped Verdict = "Skipped"
	// Blocking: it keeps the node from draining.
	Blocking Verdict = "Blocking"
)

// Reason says why a pod is Skipped or Blocking, or, for TerminalPod, why an
// Evicted pod's budgets do not matter.
type Reason string

const (
	// DaemonSetPod: a running pod a DaemonSet controls, under IgnoreAllDaemonSets (Skipped).
	DaemonSetPod Reason = "DaemonSet"
	// MirrorPod: the API server's copy of a static pod (Skipped).
	MirrorPod Reason = "Mirror"
	// DeletedLongAgo: deleted more than SkipWaitForDeleteTimeoutSeconds ago (Skipped).
	DeletedLongAgo Reason = "DeletedLongAgo"
	// DrainerFilter: the drainer's own filter skips it (Policy.SkipPodNamedAfterNode) (Skipped).
	DrainerFilter Reason = "DrainerFilter"
	// TerminalPod: a Succeeded or Failed pod, which the Helper evicts and the
	// eviction API deletes without a look at its budgets (Evicted).
	TerminalPod Reason = "Terminal"

	// BudgetAtLimit: its budget allows no disruption: scale the workload or relax the budget.
	BudgetAtLimit Reason = "BudgetAtLimit"
	// MultipleBudgets: more than one budget selects it, which the eviction API refuses outright.
	MultipleBudgets Reason = "MultipleBudgets"
	// BudgetNotSynced: the disruption controller has not computed its budget's status.
	BudgetNotSynced Reason = "BudgetNotSynced"
	// ReplacementUnschedulable: its budget is at its limit and a pod the budget selects cannot be scheduled.
	ReplacementUnschedulable Reason = "ReplacementUnschedulable"
	// Finalizer: deleted, held by its finalizers.
	Finalizer Reason = "Finalizer"
	// GracePeriod: deleted, its grace period still running (or the kubelet not yet done past it).
	GracePeriod Reason = "GracePeriod"
	// NodeNotReady: deleted on a node whose kubelet does not confirm it.
	NodeNotReady Reason = "NodeNotReady"
	// Refused: the Helper's filters refuse it under the policy, and so drain nothing.
	Refused Reason = "Refused"
)

// Budget is a budget involved in a block, with the numbers the disruption
// controller wrote.
type Budget struct {
	Namespace, Name                                                  string
	DisruptionsAllowed, CurrentHealthy, DesiredHealthy, ExpectedPods int32
}

// Pod is the verdict on one pod of the node.
type Pod struct {
	Namespace, Name string
	Verdict         Verdict
	// Reason for Skipped and Blocking, and TerminalPod for Evicted.
	Reason Reason
	// Budgets for the budget reasons, sorted by name.
	Budgets []Budget
	// Finalizers of a deleted pod that holds any.
	Finalizers []string
	// Owner is "Kind/name" of its controller, when it has one.
	Owner string
	// OwnerGone says its controller, a DaemonSet, no longer exists: nothing
	// recreates the pod, which the Helper removes under Force as a bare pod.
	OwnerGone bool
	// Since is when it began to block: the later of the drain's start and
	// what the objects say (the budget's DisruptionAllowed condition's
	// lastTransitionTime, the pod's deletion). Zero when neither is known.
	Since time.Time
	// GraceEnds is, for GracePeriod, when its grace period ends, while it
	// runs: a time, so that words written from it stay true.
	GraceEnds time.Time
	// Unschedulable are, for ReplacementUnschedulable, the pending pods'
	// names, sorted.
	Unschedulable []string
	// NotReady are, for BudgetAtLimit, the other pods its budget selects
	// that are not ready, among those Input holds, by namespace and name:
	// the pods the budget waits for.
	NotReady []Peer
}

// Peer is another pod a budget selects, on the node it is bound to, not
// ready since Since (its Ready condition's lastTransitionTime; zero when not
// known).
type Peer struct {
	Namespace, Name, Node string
	Since                 time.Time
}

// Node returns the verdict on each of the node's pods, sorted by namespace and
// name. Pods of other nodes are not named. A Refused pod makes the Helper
// drain nothing (k8s.io/kubectl/pkg/drain default.go, RunNodeDrain: the
// filters' errors end the attempt before any eviction); the other pods'
// verdicts say what happens to them once it no longer is.
//
// Each pod is judged on the objects as they are: two pods of one budget that
// allows one disruption are both Evicted, as the second's eviction, refused
// while the first's replacement starts, is retried within the attempt.
func Node(in Input) []Pod {
	if in.Node == nil {
		return nil
	}
	var out []Pod
	for _, pod := range in.Pods {
		if pod == nil || pod.Spec.NodeName != in.Node.Name {
			continue
		}
		out = append(out, judge(in, pod))
	}
	slices.SortFunc(out, func(a, b Pod) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}

func judge(in Input, pod *corev1.Pod) Pod {
	p := Pod{Namespace: pod.Namespace, Name: pod.Name, Owner: owner(pod), OwnerGone: daemonSetGone(in, pod)}
	if v, r, ok := filter(in, pod, p.OwnerGone); !ok {
		p.Verdict, p.Reason = v, r
		if v == Blocking {
			p.Since = in.Started
		}
		return p
	}
	if pod.DeletionTimestamp != nil {
		// The Helper evicts (or deletes) it again and waits for it to go
		// (drain.go, evictPods and waitForDelete).
		return deleted(in, pod, p)
	}
	if in.Policy.DisableEviction {
		p.Verdict = Deleted
		return p
	}
	p.Verdict = Evicted
	if canIgnoreBudgets(pod) {
		if terminal(pod) {
			p.Reason = TerminalPod
		}
		return p
	}
	budgets := BudgetsOf(pod, in.Budgets)
	reason, names := evict(pod, budgets, in.Pending)
	if reason == "" {
		return p
	}
	p.Verdict, p.Reason, p.Budgets, p.Unschedulable = Blocking, reason, budgetsOf(budgets), names
	if reason == BudgetAtLimit && len(budgets) == 1 {
		p.NotReady = waitedFor(budgets[0], pod, in)
	}
	p.Since = in.Started
	if reason != MultipleBudgets && len(budgets) == 1 {
		// The budget stopped allowing disruptions when its condition last
		// turned False; a generation not yet observed has no time of its own.
		if c := disruptionAllowed(budgets[0]); c != nil && c.Status == metav1.ConditionFalse && pdbStatusCurrent(budgets[0]) {
			p.Since = later(in.Started, c.LastTransitionTime.Time)
		}
	}
	return p
}

func pdbStatusCurrent(pdb *policyv1.PodDisruptionBudget) bool {
	return pdb.Status.ObservedGeneration >= pdb.Generation
}

func terminal(pod *corev1.Pod) bool {
	return pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
}

func owner(pod *corev1.Pod) string {
	if ref := metav1.GetControllerOf(pod); ref != nil {
		return ref.Kind + "/" + ref.Name
	}
	return ""
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
