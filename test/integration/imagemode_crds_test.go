package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"
)

const (
	// imageModeCRDs holds the machine-config operator's MachineOSConfig,
	// MachineOSBuild and MachineConfigNode CRDs, outside
	// test/testdata/crds so that main_test.go does not install them: a
	// cluster without them is the default.
	imageModeCRDs = "../testdata/crds/imagemode"
	// imageModeFixtures holds objects in the shapes the machine-config
	// operator writes them (its README says which code each follows).
	imageModeFixtures = "../testdata/imagemode"
)

// installImageModeCRDs installs the CRDs of imageModeCRDs, waits until they
// are served, and removes them when the test ends.
func installImageModeCRDs(t testing.TB) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(imageModeCRDs, "*.crd.yaml"))
	if err != nil || len(paths) != 3 {
		t.Fatalf("want the 3 CRDs of %s, found %v (%v)", imageModeCRDs, paths, err)
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

// fixtureObjects reads a fixture file: its object, or the items of a List,
// as JSON.
func fixtureObjects(t *testing.T, file string) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(imageModeFixtures, file))
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if err := yaml.Unmarshal(data, &list); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if list.Kind == "List" {
		return list.Items
	}
	object, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return []json.RawMessage{object}
}

// fixtureClient is the typed client of one kind of fixture object.
type fixtureClient[T any] struct {
	create       func(context.Context, *T, metav1.CreateOptions) (*T, error)
	updateStatus func(context.Context, *T, metav1.UpdateOptions) (*T, error)
	get          func(context.Context, string, metav1.GetOptions) (*T, error)
	// release, if set, runs when the test ends, before the CRDs go: what
	// the object needs to be deleted.
	release func(ctx context.Context, name string) error
}

// decodeStrictly decodes a fixture object into its Go type, refusing any
// field the type does not have.
func decodeStrictly(t *testing.T, raw json.RawMessage, into any) {
	t.Helper()
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(into); err != nil {
		t.Fatalf("decoding the fixture into %T: %v", into, err)
	}
}

// storeFixture creates the object, writes its status as its controller
// does (the status subresource ignores the status of a create), and reads
// it back: the server's error fails the test, and so does any field that
// the schema pruned or defaulted.
func storeFixture[T any](t *testing.T, raw json.RawMessage, c fixtureClient[T]) {
	t.Helper()
	ctx := context.Background()
	want, object := new(T), new(T)
	decodeStrictly(t, raw, want)
	decodeStrictly(t, raw, object)
	wantMeta := objectMeta(want)

	created, err := c.create(ctx, object, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating %s: %v", wantMeta.Name, err)
	}
	if c.release != nil {
		t.Cleanup(func() {
			if err := c.release(context.Background(), wantMeta.Name); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("releasing %s: %v", wantMeta.Name, err)
			}
		})
	}
	if status := field(want, "Status"); !status.IsZero() {
		field(created, "Status").Set(status)
		if _, err := c.updateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("writing the status of %s: %v", wantMeta.Name, err)
		}
	}

	got, err := c.get(ctx, wantMeta.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading %s back: %v", wantMeta.Name, err)
	}
	// What the server sets of its own, and the kind, which typed clients
	// leave empty.
	field(got, "TypeMeta").Set(field(want, "TypeMeta"))
	gotMeta := objectMeta(got)
	gotMeta.UID, gotMeta.ResourceVersion, gotMeta.Generation = wantMeta.UID, wantMeta.ResourceVersion, wantMeta.Generation
	gotMeta.CreationTimestamp, gotMeta.ManagedFields = wantMeta.CreationTimestamp, wantMeta.ManagedFields
	if !equality.Semantic.DeepEqual(want, got) {
		t.Errorf("%s as stored differs from the fixture (-fixture +stored):\n%s", wantMeta.Name, cmp.Diff(want, got))
	}
}

// field is the named field of the struct that p points to.
func field(p any, name string) reflect.Value {
	return reflect.ValueOf(p).Elem().FieldByName(name)
}

func objectMeta(p any) *metav1.ObjectMeta {
	return field(p, "ObjectMeta").Addr().Interface().(*metav1.ObjectMeta)
}

// ensureNamespace creates the namespace unless it exists, and then removes
// it when the test ends: the namespace controller, which would finalize
// it, does not run here.
func ensureNamespace(t *testing.T, name string) {
	t.Helper()
	ctx := context.Background()
	namespaces := kubeClient.CoreV1().Namespaces()
	_, err := namespaces.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		if err := namespaces.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting namespace %s: %v", name, err)
			return
		}
		ns, err := namespaces.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return
		}
		if err != nil {
			t.Errorf("reading namespace %s: %v", name, err)
			return
		}
		ns.Spec.Finalizers = nil
		if _, err := namespaces.Finalize(ctx, ns, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("finalizing namespace %s: %v", name, err)
			return
		}
		waitFor(t, eventually, "namespace "+name+" to be gone", func(ctx context.Context) (*corev1.Namespace, error) {
			return namespaces.Get(ctx, name, metav1.GetOptions{})
		}, func(ns *corev1.Namespace) bool { return ns == nil })
	})
}

// The fixtures of test/testdata/imagemode, in the shapes the machine-config
// operator writes them, are valid objects of the machine-config operator's
// CRDs (Default feature set, as openshift/api at go.mod's version ships
// them) and of Kubernetes' Pod: the real API server stores each with its
// status, whole, through the typed clients.
func TestImageModeFixturesAreAcceptedByTheRealSchemas(t *testing.T) {
	installImageModeCRDs(t)
	mc := machineConfigClient(t).MachineconfigurationV1()
	// The build controller's MachineOSBuilds carry the foregroundDeletion
	// finalizer, which only the garbage collector removes: without it, not
	// running here, neither they nor their CRD could be deleted.
	dropFinalizers := func(ctx context.Context, name string) error {
		_, err := mc.MachineOSBuilds().Patch(ctx, name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		return err
	}
	buildNamespace := "openshift-machine-config-operator"

	for _, tc := range []struct {
		name  string
		file  string
		store func(*testing.T, json.RawMessage)
	}{
		{"MachineOSConfig", "machineosconfig.yaml", func(t *testing.T, raw json.RawMessage) {
			storeFixture(t, raw, fixtureClient[machineconfigurationv1.MachineOSConfig]{
				create: mc.MachineOSConfigs().Create, updateStatus: mc.MachineOSConfigs().UpdateStatus, get: mc.MachineOSConfigs().Get,
			})
		}},
		{"MachineOSBuilds", "machineosbuilds.yaml", func(t *testing.T, raw json.RawMessage) {
			storeFixture(t, raw, fixtureClient[machineconfigurationv1.MachineOSBuild]{
				create: mc.MachineOSBuilds().Create, updateStatus: mc.MachineOSBuilds().UpdateStatus, get: mc.MachineOSBuilds().Get,
				release: dropFinalizers,
			})
		}},
		{"BuildPod", "build-pod-failed.yaml", func(t *testing.T, raw json.RawMessage) {
			ensureNamespace(t, buildNamespace)
			pods := kubeClient.CoreV1().Pods(buildNamespace)
			storeFixture(t, raw, fixtureClient[corev1.Pod]{
				create: pods.Create, updateStatus: pods.UpdateStatus, get: pods.Get,
				// No kubelet ends its grace period.
				release: func(ctx context.Context, name string) error {
					return pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
				},
			})
		}},
		{"MachineConfigNodes", "machineconfignodes.yaml", func(t *testing.T, raw json.RawMessage) {
			storeFixture(t, raw, fixtureClient[machineconfigurationv1.MachineConfigNode]{
				create: mc.MachineConfigNodes().Create, updateStatus: mc.MachineConfigNodes().UpdateStatus, get: mc.MachineConfigNodes().Get,
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, raw := range fixtureObjects(t, tc.file) {
				var object struct {
					Metadata metav1.ObjectMeta `json:"metadata"`
				}
				if err := json.Unmarshal(raw, &object); err != nil {
					t.Fatal(err)
				}
				t.Run(object.Metadata.Name, func(t *testing.T) { tc.store(t, raw) })
			}
		})
	}
}
