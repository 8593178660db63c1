package drain

import (
	"cmp"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/types"
)

// waitedFor are the pods other than pod that pdb selects and counts as not
// healthy, of the node's pods and the others Input holds: bound to a node,
// not deleted, and not Ready, as the disruption controller counts a
// budget's healthy pods (kubernetes pkg/controller/disruption/disruption.go,
// countHealthyPods: a pod being deleted is not counted, one is healthy when
// IsPodReady). A budget at its limit waits for them; a bare pod's budget
// (a control plane guard pod's, whose readiness is its operand's health on
// that node) waits for nothing else.
func waitedFor(pdb *policyv1.PodDisruptionBudget, pod *corev1.Pod, in Input) []Peer {
	seen := map[types.UID]bool{pod.UID: true}
	var out []Peer
	for _, pods := range [][]*corev1.Pod{in.Pods, in.Others} {
		for _, p := range pods {
			if p == nil || seen[p.UID] || (p.Namespace == pod.Namespace && p.Name == pod.Name) {
				continue
			}
			seen[p.UID] = true
			if p.Spec.NodeName == "" || p.DeletionTimestamp != nil || terminal(p) || podReady(p) || !Selects(pdb, p) {
				continue
			}
			out = append(out, Peer{Namespace: p.Namespace, Name: p.Name, Node: p.Spec.NodeName, Since: readySince(p)})
		}
	}
	slices.SortFunc(out, func(a, b Peer) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// readySince is when the pod's Ready condition last changed, zero when it
// has none.
func readySince(pod *corev1.Pod) time.Time {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.LastTransitionTime.Time
		}
	}
	return time.Time{}
}
