package drain

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// A block is a Warning after MCO's first refused attempt and an Error once
// MCO would raise its drain error.
func TestLevel(t *testing.T) {
	block := Pod{Verdict: Blocking, Reason: BudgetAtLimit, Since: started}
	precheck := Policy{WarnAfter: 0}
	for _, tc := range []struct {
		name   string
		pod    Pod
		policy Policy
		at     time.Time
		want   insightsv1alpha1.InsightImpactLevel
	}{
		{"not blocking", Pod{Verdict: Evicted}, MCO, started.Add(2 * time.Hour), ""},
		{"skipped", Pod{Verdict: Skipped, Reason: DaemonSetPod}, MCO, started.Add(2 * time.Hour), ""},
		{"within the first attempt", block, MCO, started.Add(89 * time.Second), ""},
		{"the first attempt refused", block, MCO, started.Add(90 * time.Second), insightsv1alpha1.WarningImpactLevel},
		{"short of the drain error", block, MCO, started.Add(59 * time.Minute), insightsv1alpha1.WarningImpactLevel},
		{"the drain error", block, MCO, started.Add(time.Hour), insightsv1alpha1.ErrorImpactLevel},
		{"a clock behind the block", block, MCO, started.Add(-time.Hour), ""},
		{"a block whose start is not known has just begun", Pod{Verdict: Blocking}, MCO, started, ""},
		{"no wait warns at once", Pod{Verdict: Blocking}, precheck, started, insightsv1alpha1.WarningImpactLevel},
		{"no ErrorAfter never errs", block, precheck, started.Add(24 * time.Hour), insightsv1alpha1.WarningImpactLevel},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.pod.Level(tc.policy, tc.at); got != tc.want {
				t.Errorf("Level = %q, want %q", got, tc.want)
			}
		})
	}
}

// The HyperShift drainer's Helper (drainer.go, handleNodeDrainRequest):
// kubectl's filters under Force, then its own filter that skips the node's
// in-place upgrade pod, and on an unreachable node pods deleted more than
// five minutes ago are skipped.
func TestHyperShiftPolicy(t *testing.T) {
	atLimit := budget("web", 2, 2, 3, started.Add(-time.Hour), budgetNamespace("pool-upgrade"))
	// Its deletionTimestamp, the deletion plus its 30s grace, 301s ago.
	longAgo := now.Add(-331 * time.Second)
	for _, tc := range []struct {
		name string
		node *corev1.Node
		pod  *corev1.Pod
		want Pod
	}{
		{"the node's upgrade pod is skipped, its budget or not", readyNode(),
			pod("machine-config-daemon-"+nodeName, bare, inNamespace("pool-upgrade")),
			Pod{Namespace: "pool-upgrade", Name: "machine-config-daemon-" + nodeName, Verdict: Skipped, Reason: DrainerFilter}},
		{"another node's upgrade pod name is no skip", readyNode(),
			pod("machine-config-daemon-worker-b", bare, inNamespace("pool-upgrade")),
			Pod{Namespace: "pool-upgrade", Name: "machine-config-daemon-worker-b", Verdict: Blocking, Reason: BudgetAtLimit,
				Budgets: []Budget{{Namespace: "pool-upgrade", Name: "web", CurrentHealthy: 2, DesiredHealthy: 2, ExpectedPods: 3}}, Since: started}},
		{"on an unreachable node a pod deleted over five minutes ago is skipped", silentNode(),
			pod("web-1", inNamespace("pool-upgrade"), deletedAt(longAgo, 30)),
			Pod{Namespace: "pool-upgrade", Name: "web-1", Verdict: Skipped, Reason: DeletedLongAgo, Owner: "ReplicaSet/web-7d9c"}},
		{"on a reachable node it is waited for", readyNode(),
			pod("web-1", inNamespace("pool-upgrade"), deletedAt(longAgo, 30)),
			Pod{Namespace: "pool-upgrade", Name: "web-1", Verdict: Blocking, Reason: GracePeriod, Owner: "ReplicaSet/web-7d9c", Since: longAgo}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Node: tc.node, Pods: []*corev1.Pod{tc.pod}, Budgets: []*policyv1.PodDisruptionBudget{atLimit}, Policy: HyperShift, Started: started, Now: now}
			if diff := cmp.Diff([]Pod{tc.want}, Node(in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The HyperShift drainer warns nobody: a block is a Warning once its first
// attempt has timed out, and never an Error.
func TestHyperShiftLevel(t *testing.T) {
	block := Pod{Verdict: Blocking, Reason: BudgetAtLimit, Since: started}
	for _, tc := range []struct {
		at   time.Time
		want insightsv1alpha1.InsightImpactLevel
	}{
		{started.Add(89 * time.Second), ""},
		{started.Add(90 * time.Second), insightsv1alpha1.WarningImpactLevel},
		{started.Add(48 * time.Hour), insightsv1alpha1.WarningImpactLevel},
	} {
		if got := block.Level(HyperShift, tc.at); got != tc.want {
			t.Errorf("Level at %s = %q, want %q", tc.at.Sub(started), got, tc.want)
		}
	}
}
