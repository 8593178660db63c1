package drain

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Each reason a pod blocks says what holds it and what to do, naming the
// budget, finalizer or pending pod involved; a pod that does not block says
// nothing.
func TestWhyAndRemedy(t *testing.T) {
	db := Budget{Namespace: "shop", Name: "db", CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 2}
	other := Budget{Namespace: "shop", Name: "all"}
	for _, tt := range []struct {
		pod         Pod
		why, remedy string
	}{
		{
			pod:    Pod{Verdict: Blocking, Reason: BudgetAtLimit, Budgets: []Budget{db}, Owner: "ReplicaSet/db-7d9"},
			why:    "PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
			remedy: "Scale ReplicaSet/db-7d9 up so that PodDisruptionBudget shop/db allows a disruption, or relax the budget's minAvailable or maxUnavailable.",
		},
		{
			// An orphan: its DaemonSet is gone, and nothing scales it.
			pod: Pod{Verdict: Blocking, Reason: BudgetAtLimit, Budgets: []Budget{db}, Owner: "DaemonSet/db-agent", OwnerGone: true},
			why: "PodDisruptionBudget shop/db allows no disruption (2 of 2 expected pods healthy, 2 needed)",
			remedy: "Nothing recreates the pod: its DaemonSet/db-agent is gone. Delete the pod if it is no longer needed (a delete, unlike the drain's eviction, " +
				"does not ask its budget), or relax PodDisruptionBudget shop/db's minAvailable or maxUnavailable.",
		},
		{
			pod:    Pod{Verdict: Blocking, Reason: ReplacementUnschedulable, Budgets: []Budget{db}, Unschedulable: []string{"db-2"}},
			why:    "PodDisruptionBudget shop/db allows no disruption, and its pod db-2 cannot be scheduled",
			remedy: "Make room for db-2 (its events say why the scheduler cannot place it), or relax PodDisruptionBudget shop/db.",
		},
		{
			pod:    Pod{Verdict: Blocking, Reason: MultipleBudgets, Budgets: []Budget{other, db}},
			why:    "PodDisruptionBudgets shop/all and shop/db both select it, and the eviction API refuses a pod more than one budget selects",
			remedy: "Change PodDisruptionBudgets shop/all and shop/db so that only one selects the pod.",
		},
		{
			pod:    Pod{Verdict: Blocking, Reason: BudgetNotSynced, Budgets: []Budget{db}},
			why:    "the disruption controller has not computed the status of PodDisruptionBudget shop/db, and the eviction API refuses until it has",
			remedy: "Check the kube-controller-manager, whose disruption controller computes PodDisruptionBudget shop/db's status.",
		},
		{
			pod: Pod{Verdict: Blocking, Reason: Finalizer, Finalizers: []string{"example.com/backup"}, Owner: "StatefulSet/db"},
			why: "it was deleted and finalizer example.com/backup holds it",
			// The pod's owner does not know its finalizers' controllers.
			remedy: "Find the controller that owns finalizer example.com/backup (the prefix of its name usually says which) and why it does not remove it; remove it by hand only if that controller is gone.",
		},
		{
			pod: Pod{Verdict: Blocking, Reason: GracePeriod, GraceEnds: time.Date(2026, 11, 27, 8, 25, 0, 300, time.FixedZone("CET", 3600))},
			why: "it was deleted and its grace period ends at 2026-11-27T07:25:00Z",
			// A deleted pod's terminationGracePeriodSeconds no longer counts
			// (and a pod's cannot change): only another delete shortens it.
			remedy: "Wait for the pod to stop, or, if it need not take that long, delete it again with a shorter --grace-period; lower terminationGracePeriodSeconds in its workload for the next drain.",
		},
		{
			pod:    Pod{Verdict: Blocking, Reason: NodeNotReady},
			why:    "it was deleted, and the node's kubelet, not ready, does not confirm it",
			remedy: "Bring the node's kubelet back, or, if the node is gone for good, delete the pod with --force --grace-period=0.",
		},
		{pod: Pod{Verdict: Evicted}},
		{pod: Pod{Verdict: Skipped, Reason: DaemonSetPod}},
	} {
		t.Run(string(tt.pod.Verdict)+"/"+string(tt.pod.Reason), func(t *testing.T) {
			if diff := cmp.Diff([]string{tt.why, tt.remedy}, []string{tt.pod.Why(), tt.pod.Remedy()}); diff != "" {
				t.Errorf("why and remedy (-want +got):\n%s", diff)
			}
		})
	}
}

// A budget at its limit over a bare pod (a control plane guard pod, as
// library-go's guard controller makes it: no owner, app=guard, under
// <operand>-guard-pdb) is not remedied by scaling a workload, and the pods
// the budget waits for are named with their nodes and since when they are
// not ready.
func TestABudgetAtItsLimitNamesThePodsItWaitsFor(t *testing.T) {
	guard := Budget{Namespace: "openshift-etcd", Name: "etcd-guard-pdb", CurrentHealthy: 1, DesiredHealthy: 2, ExpectedPods: 3}
	since := time.Date(2026, 11, 27, 7, 40, 0, 0, time.UTC)
	master1 := Peer{Namespace: "openshift-etcd", Name: "etcd-guard-master-1", Node: "master-1", Since: since}
	for _, tt := range []struct {
		name        string
		pod         Pod
		why, remedy string
	}{
		{
			name: "a guard pod whose peer on another node is not ready",
			pod:  Pod{Verdict: Blocking, Reason: BudgetAtLimit, Budgets: []Budget{guard}, NotReady: []Peer{master1}},
			why: "PodDisruptionBudget openshift-etcd/etcd-guard-pdb allows no disruption (1 of 3 expected pods healthy, 2 needed): " +
				"it waits for pod etcd-guard-master-1 on node master-1, not ready since 2026-11-27T07:40:00Z",
			remedy: "Nothing scales a bare pod: PodDisruptionBudget openshift-etcd/etcd-guard-pdb allows a disruption only once it has more healthy pods, " +
				"and waits for pod etcd-guard-master-1 on node master-1, not ready since 2026-11-27T07:40:00Z. " +
				"Find why they are not ready (a control plane guard pod is ready while its operand on that node is healthy), or relax the budget's minAvailable or maxUnavailable.",
		},
		{
			name: "a bare pod whose peers are not known",
			pod:  Pod{Verdict: Blocking, Reason: BudgetAtLimit, Budgets: []Budget{guard}},
			why:  "PodDisruptionBudget openshift-etcd/etcd-guard-pdb allows no disruption (1 of 3 expected pods healthy, 2 needed)",
			remedy: "Nothing scales a bare pod: PodDisruptionBudget openshift-etcd/etcd-guard-pdb allows a disruption only once it has more healthy pods, " +
				"and waits for more of the pods it selects to be ready. " +
				"Find why they are not ready (a control plane guard pod is ready while its operand on that node is healthy), or relax the budget's minAvailable or maxUnavailable.",
		},
		{
			name: "a workload's pod whose peers are not ready",
			pod: Pod{Verdict: Blocking, Reason: BudgetAtLimit, Owner: "ReplicaSet/web-7d9", Budgets: []Budget{{Namespace: "shop", Name: "web", CurrentHealthy: 1, DesiredHealthy: 1, ExpectedPods: 4}},
				NotReady: []Peer{{Namespace: "shop", Name: "web-a", Node: "worker-b", Since: since}, {Namespace: "shop", Name: "web-b", Node: "worker-c"}, {Namespace: "shop", Name: "web-c", Node: "worker-d"}}},
			why: "PodDisruptionBudget shop/web allows no disruption (1 of 4 expected pods healthy, 1 needed): it waits for pod web-a on node worker-b, not ready since 2026-11-27T07:40:00Z; " +
				"pod web-b on node worker-c, not ready; and 1 more not ready",
			remedy: "Find why the pods it waits for are not ready (pod web-a on node worker-b, not ready since 2026-11-27T07:40:00Z; pod web-b on node worker-c, not ready; " +
				"and 1 more not ready: their events and readiness probes say), scale ReplicaSet/web-7d9 up so that PodDisruptionBudget shop/web allows a disruption, " +
				"or relax the budget's minAvailable or maxUnavailable.",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff([]string{tt.why, tt.remedy}, []string{tt.pod.Why(), tt.pod.Remedy()}); diff != "" {
				t.Errorf("why and remedy (-want +got):\n%s", diff)
			}
		})
	}
}
