package drain

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// filter applies the Helper's filters in their order, each ending the chain
// when it keeps the pod (k8s.io/kubectl/pkg/drain filters.go, makeFilters;
// drain.go, filterPods): ok when the Helper goes on to evict or delete the
// pod, else Skipped or Blocking (Refused) and why.
func filter(policy Policy, pod *corev1.Pod, now time.Time) (Verdict, Reason, bool) {
	// skipDeletedFilter.
	if skipDeleted(pod, policy.SkipWaitForDeleteTimeoutSeconds, now) {
		return Skipped, DeletedLongAgo, false
	}
	// daemonSetFilter. It asks the API server for the DaemonSet; without a
	// client the model takes it to exist, as it does while its pods run: an
	// orphan's pod, which the Helper deletes under Force and refuses
	// otherwise, is taken for the DaemonSet's.
	if ref := metav1.GetControllerOf(pod); ref != nil && ref.Kind == "DaemonSet" && ref.APIVersion == "apps/v1" && !terminal(pod) {
		if !policy.IgnoreAllDaemonSets {
			return Blocking, Refused, false
		}
		return Skipped, DaemonSetPod, false
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
	return "", "", true
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
