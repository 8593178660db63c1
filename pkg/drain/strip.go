package drain

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Strip keeps of a pod only what Node reads, as a cache's transform: a
// drained node may run a hundred pods, whose specs and statuses a cache
// need not hold. Of a DaemonSet it keeps its identity, which is all
// Input.DaemonSetExists asks of it. Other objects pass unchanged.
func Strip(obj any) (any, error) {
	if d, ok := obj.(*appsv1.DaemonSet); ok {
		return &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: d.Namespace, Name: d.Name, UID: d.UID, ResourceVersion: d.ResourceVersion}}, nil
	}
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	out := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: p.Namespace, Name: p.Name, UID: p.UID, ResourceVersion: p.ResourceVersion, Labels: p.Labels,
			DeletionTimestamp: p.DeletionTimestamp, DeletionGracePeriodSeconds: p.DeletionGracePeriodSeconds, Finalizers: p.Finalizers,
		},
		Spec:   corev1.PodSpec{NodeName: p.Spec.NodeName},
		Status: corev1.PodStatus{Phase: p.Status.Phase},
	}
	if v, ok := p.Annotations[corev1.MirrorPodAnnotationKey]; ok {
		out.Annotations = map[string]string{corev1.MirrorPodAnnotationKey: v}
	}
	if ref := metav1.GetControllerOf(p); ref != nil {
		out.OwnerReferences = []metav1.OwnerReference{*ref}
	}
	for _, v := range p.Spec.Volumes {
		if v.EmptyDir != nil {
			out.Spec.Volumes = append(out.Spec.Volumes, corev1.Volume{Name: v.Name, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		}
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady || c.Type == corev1.PodScheduled {
			out.Status.Conditions = append(out.Status.Conditions, corev1.PodCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, LastTransitionTime: c.LastTransitionTime})
		}
	}
	return out, nil
}
