package drain

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"

	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
)

// fuzzedDrain is what Node reads, as one JSON document.
type fuzzedDrain struct {
	Node    *corev1.Node                    `json:"node"`
	Pods    []*corev1.Pod                   `json:"pods"`
	Budgets []*policyv1.PodDisruptionBudget `json:"budgets"`
	Pending []*corev1.Pod                   `json:"pending"`
	Policy  Policy                          `json:"policy"`
}

// FuzzNode judges arbitrary objects under an arbitrary policy and clock: it
// never panics, gives the same verdicts again, names only the node's pods,
// once each, sorted, and never blames a pod under MCO's policy for being a
// DaemonSet's, a bare or an emptyDir pod, nor with no reason or a skip's.
func FuzzNode(f *testing.F) {
	f.Add(apivalidation.JSON(f, fuzzedDrain{
		Node:    silentNode(),
		Pods:    []*corev1.Pod{pod("web-1"), pod("web-2", deletedAt(started, 30), finalizers("example.com/backup")), pod("debug", bare, emptyDir), pod("x", controlledBy("DaemonSet", "d"))},
		Budgets: []*policyv1.PodDisruptionBudget{budget("web", 2, 2, 3, started), budget("all", 3, 2, 3, started, syncFailedAt(started))},
		Pending: []*corev1.Pod{unschedulablePod("web-9")},
		Policy:  MCO,
	}), int64(0), int64(20*time.Minute))
	f.Add(apivalidation.JSON(f, fuzzedDrain{Node: readyNode(), Pods: []*corev1.Pod{pod("web-1", notReady)}, Policy: kubectl}), int64(-1), int64(1)<<62)
	f.Fuzz(func(t *testing.T, drainJSON []byte, startedAt, at int64) {
		var d fuzzedDrain
		if json.Unmarshal(drainJSON, &d) != nil {
			return
		}
		in := Input{Node: d.Node, Pods: d.Pods, Budgets: d.Budgets, Pending: d.Pending, Policy: d.Policy, Started: time.Unix(0, startedAt).UTC(), Now: time.Unix(0, at).UTC()}
		got := Node(in)
		if again := Node(in); !cmp.Equal(got, again) {
			t.Fatalf("judged again (-first +second):\n%s", cmp.Diff(got, again))
		}
		var want []string
		for _, p := range d.Pods {
			if p != nil && d.Node != nil && p.Spec.NodeName == d.Node.Name {
				want = append(want, p.Namespace+"/"+p.Name)
			}
		}
		var named []string
		for _, p := range got {
			named = append(named, p.Namespace+"/"+p.Name)
			p.Level(in.Policy, in.Now)
			if p.Verdict == Blocking && (p.Reason == "" || p.Reason == DaemonSetPod || p.Reason == MirrorPod || p.Reason == DeletedLongAgo || p.Reason == TerminalPod) {
				t.Errorf("%s blocks for %q", p.Name, p.Reason)
			}
			if in.Policy.Force && in.Policy.IgnoreAllDaemonSets && in.Policy.DeleteEmptyDirData && p.Reason == Refused {
				t.Errorf("%s refused under MCO's options", p.Name)
			}
		}
		slices.Sort(want)
		if !slices.IsSortedFunc(got, func(a, b Pod) int {
			return strings.Compare(a.Namespace+"\x00"+a.Name, b.Namespace+"\x00"+b.Name)
		}) {
			t.Errorf("not sorted: %v", named)
		}
		slices.Sort(named)
		if diff := cmp.Diff(want, named); diff != "" {
			t.Errorf("pods named (-node's +named):\n%s", diff)
		}
	})
}
