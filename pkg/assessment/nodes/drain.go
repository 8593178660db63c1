package nodes

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"

	"github.com/update-insights/update-insights-operator/pkg/drain"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

// namedBlocks is how many blocking pods a node's messages name before they
// count the rest.
const namedBlocks = 3

// DrainObjects are what a drained node's pods are judged from: its pods,
// the cluster's budgets, the pods waiting to be scheduled (a replacement
// that cannot be scheduled keeps a budget at its limit), the pods on other
// nodes of the budgets that may refuse an eviction (those not ready are
// what a budget at its limit waits for), and whether a DaemonSet exists
// (the pod of one that is gone is evicted, under its budget; nil takes
// every DaemonSet to exist).
type DrainObjects struct {
	Pods, Pending, Others []*corev1.Pod
	Budgets               []*policyv1.PodDisruptionBudget
	DaemonSetExists       func(namespace, name string) bool
}

// DrainRequested says the machine-config controller asks the node drained
// and the daemon has not seen it done: the desiredDrain annotation asks a
// "drain-<config>" that lastAppliedDrain has not caught up with
// (machine-config-operator pkg/daemon/drain.go, the daemon's side; the
// drain controller in pkg/controller/drain drains it). Only then are the
// node's pods being evicted.
func DrainRequested(node *corev1.Node) bool {
	if node == nil {
		return false
	}
	desired, applied := node.Annotations[DesiredDrainAnnotation], node.Annotations[LastAppliedDrainAnnotation]
	return desired != "" && desired != applied && strings.SplitN(desired, "-", 2)[0] == drainVerb
}

// drainBlocks are the node's pods that keep its drain from finishing, as
// the machine-config operator drains it (drain.MCO), counted from started.
func drainBlocks(in Input, started time.Time) []drain.Pod {
	return DrainBlocks(in.Node, in.Drain, drain.MCO, started, in.Now)
}

// DrainBlocks are the pods that keep node's drain from finishing while it
// is asked (DrainRequested), judged from objs under the drainer's policy
// and counted from started; none when objs is nil.
func DrainBlocks(node *corev1.Node, objs *DrainObjects, policy drain.Policy, started, now time.Time) []drain.Pod {
	if objs == nil || !DrainRequested(node) {
		return nil
	}
	var out []drain.Pod
	for _, p := range drain.Node(drain.Input{
		Node: node, Pods: objs.Pods, Budgets: objs.Budgets, Pending: objs.Pending, Others: objs.Others,
		DaemonSetExists: objs.DaemonSetExists, Policy: policy, Started: started, Now: now,
	}) {
		if p.Verdict == drain.Blocking {
			out = append(out, p)
		}
	}
	return out
}

// Lasting are the blocks that have lasted long enough to be more than an
// eviction refused while a replacement starts (the policy's WarnAfter: for
// drain.MCO, the machine-config controller's first attempt has failed).
func Lasting(blocks []drain.Pod, policy drain.Policy, now time.Time) []drain.Pod {
	var out []drain.Pod
	for _, b := range blocks {
		if b.Level(policy, now) != "" {
			out = append(out, b)
		}
	}
	return out
}

// DrainHeld is what the Updating condition adds to "being drained": the
// first lasting block and why, the next ones by name, then a count.
func DrainHeld(blocks []drain.Pod) string {
	if len(blocks) == 0 {
		return ""
	}
	named := blocks[:min(len(blocks), namedBlocks)]
	s := fmt.Sprintf("; pod %s/%s holds it: %s", named[0].Namespace, named[0].Name, named[0].Why())
	if len(named) > 1 {
		var others []string
		for _, b := range named[1:] {
			others = append(others, b.Namespace+"/"+b.Name)
		}
		s += "; so do pods " + strings.Join(others, ", ")
	}
	if rest := len(blocks) - len(named); rest > 0 {
		s += fmt.Sprintf(" and %d more", rest)
	}
	return s
}

// DrainNote is the node's one-line note while lasting blocks hold its
// drain: the first blocking pod, and how many more.
func DrainNote(blocks []drain.Pod) string {
	if len(blocks) == 0 {
		return ""
	}
	note := fmt.Sprintf("Drain held by pod %s/%s", blocks[0].Namespace, blocks[0].Name)
	if len(blocks) > 1 {
		note += fmt.Sprintf(" and %d more", len(blocks)-1)
	}
	return text.OneLine(note, maxMessageLength)
}
