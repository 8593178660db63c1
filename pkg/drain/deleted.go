package drain

import (
	"math"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// maxGraceSeconds bounds a grace period to what a time.Duration holds.
const maxGraceSeconds = int64(math.MaxInt64 / time.Second)

// deleted judges a pod already deleted, which the Helper waits for until it
// is gone (k8s.io/kubectl/pkg/drain drain.go, waitForDelete), and so blocks
// while it stays. What holds it, in the order it must let go:
//   - a deletion the kubelet already confirmed, or one without grace
//     (deletionGracePeriodSeconds 0: the kubelet's final delete, or a forced
//     one), leaves only its finalizers: Finalizer;
//   - on a node whose Ready condition is not True the kubelet neither stops
//     it nor confirms it, whatever grace is left: NodeNotReady;
//   - until its deletionTimestamp its grace period runs: GracePeriod, with
//     when it ends;
//   - past it, its finalizers if it holds any: Finalizer;
//   - else the kubelet has not finished stopping it: GracePeriod, none left.
//
// The API server sets deletionTimestamp to the deletion's time plus its
// grace period, and deletionGracePeriodSeconds to the grace (apiserver
// pkg/registry/rest/delete.go, BeforeDelete), so the deletion happened at
// deletionTimestamp less the grace: the block counts from then, or from the
// drain's start if later.
func deleted(in Input, pod *corev1.Pod, p Pod) Pod {
	p.Verdict = Blocking
	p.Finalizers = slices.Clone(pod.Finalizers)
	ends := pod.DeletionTimestamp.Time
	var grace int64
	if pod.DeletionGracePeriodSeconds != nil {
		grace = min(*pod.DeletionGracePeriodSeconds, maxGraceSeconds)
	}
	p.Since = later(in.Started, ends.Add(-time.Duration(grace)*time.Second))
	switch {
	case grace <= 0 && len(pod.Finalizers) > 0:
		p.Reason = Finalizer
	case !nodeReady(in.Node):
		p.Reason = NodeNotReady
	case in.Now.Before(ends):
		p.Reason, p.GraceEnds = GracePeriod, ends
	case len(pod.Finalizers) > 0:
		p.Reason = Finalizer
	default:
		p.Reason = GracePeriod
	}
	return p
}

// nodeReady says the kubelet reports the node Ready (True); False, Unknown
// (the node lifecycle controller's mark of a silent kubelet) or no condition
// is not.
func nodeReady(node *corev1.Node) bool {
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
