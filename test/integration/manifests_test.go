package integration

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"

	"github.com/update-insights/update-insights-operator/pkg/names"
)

// The manifests of the Managed Upgrade Operator's informer are applied by a
// managed cluster's tooling or by hand, with no CVO to refuse a mistake in
// them: each is created in the real API server, as a dry run with strict
// field validation, so that a field its schema does not know, or a value its
// validation refuses (the UpdateInformer's CEL rules among them), fails here.
func TestTheManagedUpgradeInformerManifestsAreAccepted(t *testing.T) {
	ctx := context.Background()
	for _, namespace := range []string{names.OwnNamespace, "openshift-managed-upgrade-operator"} {
		_, err := kubeClient.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	files, err := filepath.Glob("../../manifests/managed-upgrade-informer/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests found: %v", err)
	}
	kinds := map[string]bool{}
	for _, m := range manifestObjects(t, files...) {
		gvk := m.obj.GroupVersionKind()
		opts := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: metav1.FieldValidationStrict}
		if _, err := m.resource.Create(ctx, m.obj, opts); err != nil {
			t.Errorf("%s: %s %s/%s is refused: %v", filepath.Base(m.file), gvk.Kind, m.obj.GetNamespace(), m.obj.GetName(), err)
		}
		kinds[gvk.Kind] = true
	}
	for _, kind := range []string{"ServiceAccount", "ClusterRole", "ClusterRoleBinding", "ConfigMap", "Role", "RoleBinding", "Service", "NetworkPolicy", "Deployment", "UpdateInformer"} {
		if !kinds[kind] {
			t.Errorf("no %s among the manifests", kind)
		}
	}
}

// manifestObject is an object of a manifest file, with the client of its
// resource on the test's API server.
type manifestObject struct {
	file     string
	obj      *unstructured.Unstructured
	resource dynamic.ResourceInterface
}

// manifestObjects decodes the objects of manifest files, several to a file
// as the CVO reads them, each with the client of its resource.
func manifestObjects(t *testing.T, files ...string) []manifestObject {
	t.Helper()
	dyn, err := dynamic.NewForConfig(testEnv.Config)
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(kubeClient.Discovery()))
	var out []manifestObject
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			obj := &unstructured.Unstructured{}
			if err := decoder.Decode(&obj.Object); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if len(obj.Object) == 0 {
				continue
			}
			gvk := obj.GroupVersionKind()
			mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
			if err != nil {
				t.Fatalf("%s: %s: %v", file, gvk, err)
			}
			var resource dynamic.ResourceInterface = dyn.Resource(mapping.Resource)
			if ns := obj.GetNamespace(); ns != "" {
				resource = dyn.Resource(mapping.Resource).Namespace(ns)
			}
			out = append(out, manifestObject{file: file, obj: obj, resource: resource})
		}
	}
	return out
}
