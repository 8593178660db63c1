package payload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/update-insights/update-insights-operator/pkg/names"
)

func deployment(namespace, name, image string) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "kube-rbac-proxy", Image: "quay.io/proxy"},
			{Name: names.MachineConfigOperatorDeployment, Image: image},
		}}}},
	}
}

func TestMachineConfigOperatorHandlerFollowsOnlyItsDeployment(t *testing.T) {
	mco := func(image string) *appsv1.Deployment {
		return deployment(names.MachineConfigOperatorNamespace, names.MachineConfigOperatorDeployment, image)
	}
	var calls []string
	handler := MachineConfigOperatorHandler(func() { calls = append(calls, "enqueue") })
	handler.OnAdd(deployment(names.MachineConfigOperatorNamespace, "machine-config-controller", "quay.io/mcc"), false)
	handler.OnAdd(mco("quay.io/mco:amd64"), false)
	handler.OnUpdate(mco("quay.io/mco:amd64"), mco("quay.io/mco:multi"))
	handler.OnDelete(cache.DeletedFinalStateUnknown{Obj: mco("quay.io/mco:multi")})
	if diff := cmp.Diff([]string{"enqueue", "enqueue", "enqueue"}, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestMachineConfigOperatorImage(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	lister := appslisters.NewDeploymentLister(indexer).Deployments(names.MachineConfigOperatorNamespace)
	if got := MachineConfigOperatorImage(lister); got != "" {
		t.Errorf("without the Deployment: %q, want none", got)
	}
	if got := MachineConfigOperatorImage(nil); got != "" {
		t.Errorf("without a lister (no machine-config operator): %q, want none", got)
	}
	if err := indexer.Add(deployment(names.MachineConfigOperatorNamespace, names.MachineConfigOperatorDeployment, "quay.io/mco:multi")); err != nil {
		t.Fatal(err)
	}
	if got := MachineConfigOperatorImage(lister); got != "quay.io/mco:multi" {
		t.Errorf("got %q, want the machine-config-operator container's image", got)
	}
}
