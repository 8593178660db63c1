package integration

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// installManagementCRDs installs HyperShift's and Cluster API's CRDs as
// HyperShift ships them (test/testdata/hypershift), which make the API
// server a management cluster's, waits until they are served, and removes
// them when the test ends: no other test expects a management cluster.
func installManagementCRDs(t testing.TB, leftOut ...string) {
	t.Helper()
	all, err := filepath.Glob("../testdata/hypershift/*.yaml")
	if err != nil || len(all) == 0 {
		t.Fatalf("no HyperShift CRDs in ../testdata/hypershift: %v", err)
	}
	var paths []string
	for _, p := range all {
		if !slices.Contains(leftOut, filepath.Base(p)) {
			paths = append(paths, p)
		}
	}
	crds, err := envtest.InstallCRDs(testEnv.Config, envtest.CRDInstallOptions{Paths: paths, ErrorIfPathMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, crd := range crds {
		names = append(names, crd.Name)
	}
	deleteCRDsAtEnd(t, names...)
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			if v.Served {
				waitForServed(t, crd.Spec.Group+"/"+v.Name, crd.Spec.Names.Plural)
			}
		}
	}
}

// createHostedObject creates obj of resource, then writes its status, as the
// controllers that own it do, and returns it as stored.
func createHostedObject(t testing.TB, resource schema.GroupVersionResource, obj *unstructured.Unstructured) *unstructured.Unstructured {
	t.Helper()
	ctx := context.Background()
	client := dynamic.NewForConfigOrDie(testEnv.Config).Resource(resource).Namespace(obj.GetNamespace())
	status, hasStatus := obj.Object["status"]
	created, err := client.Create(ctx, obj, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating %s %s/%s: %v", resource.Resource, obj.GetNamespace(), obj.GetName(), err)
	}
	if !hasStatus {
		return created
	}
	return writeStatus(t, resource, created, status)
}

// writeStatus writes status as obj's, retrying on a conflict with the
// object read again.
func writeStatus(t testing.TB, resource schema.GroupVersionResource, obj *unstructured.Unstructured, status any) *unstructured.Unstructured {
	t.Helper()
	ctx := context.Background()
	client := dynamic.NewForConfigOrDie(testEnv.Config).Resource(resource).Namespace(obj.GetNamespace())
	for {
		obj = obj.DeepCopy()
		obj.Object["status"] = status
		written, err := client.UpdateStatus(ctx, obj, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			if obj, err = client.Get(ctx, obj.GetName(), metav1.GetOptions{}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("writing the status of %s %s/%s: %v", resource.Resource, obj.GetNamespace(), obj.GetName(), err)
		}
		return written
	}
}
