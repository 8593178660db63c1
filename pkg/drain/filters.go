package drain

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// filter applies the Helper's filters in their order, each ending the chain
// when it keeps the pod (k8s.io/kubectl/pkg/drain filters.go, makeFilters;
// drain.go, filterPods): ok when the Helper goes on to evict or delete the
// pod, else Skipped or Blocking (Refused) and why. orphan says the pod's
// DaemonSet is gone (daemonSetGone).
func filter(in Input, pod *corev1.Pod, orphan bool) (Verdict, Reason, bool) {
	policy := in.Policy
	// skipDeletedFilter.
	if skipDeleted(pod, skipWaitSeconds(policy, in.Node), in.Now) {
		return Skipped, DeletedLongAgo, false
	}
	// daemonSetFilter. It gets the DaemonSet first: one that is gone leaves
	// an orphan, which the Helper refuses without Force and otherwise lets
	// through to the next filters, and so to its eviction and budgets;
	// IgnoreAllDaemonSets only skips the pods of a DaemonSet that exists.
	if isDaemonSetPod(pod) && !terminal(pod) {
		switch {
		case orphan && !policy.Force:
			return Blocking, Refused, false
		case orphan:
			// On to the next filters, as a bare pod under Force.
		case !policy.IgnoreAllDaemonSets:
			return Blocking, Refused, false
		default:
			return Skipped, DaemonSetPod, false
		}
	}
	// mirrorPodFilter.
	if _, ok := pod.Annotations[corev1.MirrorPodAnnotationKey]; ok {
		return Skipped, MirrorPod, false
	}
	// localStorageFilter.
	if hasEmptyDir(pod) && !terminal(pod) && !policy.DeleteEmptyDirData {
		return Blocking, Refused, false
	}
	// unreplicatedFilter.
	if !terminal(pod) && metav1.GetControllerOf(pod) == nil && !policy.Force {
		return Blocking, Refused, false
	}
	// AdditionalFilters, after the Helper's own.
	if policy.SkipPodNamedAfterNode != "" && pod.Name == policy.SkipPodNamedAfterNode+in.Node.Name {
		return Skipped, DrainerFilter, false
	}
	return "", "", true
}

// skipWaitSeconds is the SkipWaitForDeleteTimeoutSeconds the drainer gives
// the Helper for node.
func skipWaitSeconds(policy Policy, node *corev1.Node) int {
	if policy.UnreachableSkipWaitForDeleteTimeoutSeconds > 0 && unreachable(node) {
		return policy.UnreachableSkipWaitForDeleteTimeoutSeconds
	}
	return policy.SkipWaitForDeleteTimeoutSeconds
}

// unreachable is cluster-api's IsNodeUnreachable, as the HyperShift drainer
// copies it (drainer.go, isNodeUnreachable): its Ready condition is Unknown.
func unreachable(node *corev1.Node) bool {
	for _, c := range node.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionUnknown
		}
	}
	return false
}

// isDaemonSetPod is isControllerRefDaemonSet (filters.go): its controller is
// an apps/v1 DaemonSet.
func isDaemonSetPod(pod *corev1.Pod) bool {
	ref := metav1.GetControllerOf(pod)
	return ref != nil && ref.Kind == "DaemonSet" && ref.APIVersion == "apps/v1"
}

// daemonSetGone says the pod's controller is a DaemonSet that no longer
// exists, as the Helper's Get of it would answer NotFound (daemonSetFilter);
// a finished pod's DaemonSet is never asked about.
func daemonSetGone(in Input, pod *corev1.Pod) bool {
	if in.DaemonSetExists == nil || !isDaemonSetPod(pod) || terminal(pod) {
		return false
	}
	return !in.DaemonSetExists(pod.Namespace, metav1.GetControllerOf(pod).Name)
}

// skipDeleted is shouldSkipPod (filters.go): deleted more than timeout
// seconds ago, counted in whole seconds from the deletionTimestamp.
func skipDeleted(pod *corev1.Pod, timeoutSeconds int, now time.Time) bool {
	return timeoutSeconds > 0 && pod.DeletionTimestamp != nil &&
		int(now.Sub(pod.DeletionTimestamp.Time).Seconds()) > timeoutSeconds
}

// hasEmptyDir is hasLocalStorage (filters.go): any emptyDir volume.
func hasEmptyDir(pod *corev1.Pod) bool {
	for _, v := range pod.Spec.Volumes {
		if v.EmptyDir != nil {
			return true
		}
	}
	return false
}
