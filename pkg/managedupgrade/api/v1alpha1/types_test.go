package v1alpha1

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/yaml"
)

const testdata = "../../../../test/testdata/managed-upgrade-operator"

// decode reads a fixture as a client would: through a scheme that knows
// the kind only by AddToScheme.
func decode(t *testing.T, name string) *UpgradeConfig {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testdata, name))
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	obj, _, err := serializer.NewCodecFactory(scheme).UniversalDeserializer().Decode(data, nil, nil)
	if err != nil {
		t.Fatalf("decoding %s: %v", name, err)
	}
	uc, ok := obj.(*UpgradeConfig)
	if !ok {
		t.Fatalf("decoding %s gave a %T", name, obj)
	}
	return uc
}

func at(s string) *metav1.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	mt := metav1.NewTime(t)
	return &mt
}

func TestDecodeScheduled(t *testing.T) {
	want := &UpgradeConfig{
		TypeMeta:   metav1.TypeMeta{APIVersion: "upgrade.managed.openshift.io/v1alpha1", Kind: "UpgradeConfig"},
		ObjectMeta: metav1.ObjectMeta{Namespace: DefaultNamespace, Name: DefaultName, CreationTimestamp: *at("2026-11-21T16:00:00Z")},
		Spec: UpgradeConfigSpec{
			Desired: Update{Version: "4.16.5", Channel: "stable-4.16",
				Image: "quay.io/openshift-release-dev/ocp-release@sha256:5f0c8c7d7c5d3b2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e"},
			UpgradeAt:            "2026-11-22T14:00:00Z",
			PDBForceDrainTimeout: 60,
			Type:                 UpgradeTypeOSD,
			CapacityReservation:  true,
		},
		Status: UpgradeConfigStatus{History: []UpgradeHistory{
			{Phase: PhaseNew, Version: "4.16.5"},
			{
				Phase: PhaseUpgraded, Version: "4.16.3", PrecedingVersion: "4.16.1",
				StartTime: at("2026-10-20T08:00:03Z"), CompleteTime: at("2026-10-20T09:58:40Z"),
				WorkerStartTime: at("2026-10-20T08:55:00Z"), WorkerCompleteTime: at("2026-10-20T09:55:00Z"),
			},
		}},
	}
	if diff := cmp.Diff(want, decode(t, "scheduled.yaml")); diff != "" {
		t.Errorf("decoded UpgradeConfig (-want +got):\n%s", diff)
	}
}

// summary is what TestDecode checks of the newest history entry.
type summary struct {
	Phase      UpgradePhase
	Conditions int
	First      UpgradeCondition
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		file string
		want summary
	}{
		{"upgrading.yaml", summary{PhaseUpgrading, 10, UpgradeCondition{
			Type: WorkerNodesUpgraded, Status: metav1.ConditionFalse, Reason: "WorkerNodesUpgraded not done",
			Message: "WorkerNodesUpgraded still in progress", StartTime: at("2026-11-22T09:12:00Z"), LastTransitionTime: at("2026-11-22T09:12:00Z"),
			LastProbeTime: at("2026-11-22T09:59:30Z"),
		}}},
		// pkg/upgradesteps/runner.go: a failing step keeps its reason, and
		// its message is the error.
		{"failed-health-check.yaml", summary{PhaseUpgrading, 3, UpgradeCondition{
			Type: ClusterHealthyBeforeUpgrade, Status: metav1.ConditionFalse, Reason: "ClusterHealthyBeforeUpgrade not done",
			Message: "critical alert(s) firing: KubePersistentVolumeErrors", StartTime: at("2026-11-22T09:30:12Z"), LastTransitionTime: at("2026-11-22T09:30:12Z"),
			LastProbeTime: at("2026-11-22T09:59:40Z"),
		}}},
		// pkg/upgraders/osdupgrader.go: Failed leaves no FailedUpgrade
		// condition, only the phase.
		{"failed.yaml", summary{PhaseFailed, 3, UpgradeCondition{
			Type: ClusterHealthyBeforeUpgrade, Status: metav1.ConditionFalse, Reason: "ClusterHealthyBeforeUpgrade not done",
			Message: "critical alert(s) firing: KubePersistentVolumeErrors", StartTime: at("2026-11-22T06:00:10Z"), LastTransitionTime: at("2026-11-22T06:00:10Z"),
			LastProbeTime: at("2026-11-22T08:00:02Z"),
		}}},
		{"window-closed.yaml", summary{PhaseUpgrading, 4, UpgradeCondition{
			Type: ExternalDependenciesAvailable, Status: metav1.ConditionFalse, Reason: "ExternalDependenciesAvailable not done",
			Message: "ExternalDependenciesAvailable still in progress", StartTime: at("2026-11-22T07:31:00Z"), LastTransitionTime: at("2026-11-22T07:31:00Z"),
			LastProbeTime: at("2026-11-22T07:31:00Z"),
		}}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			uc := decode(t, tc.file)
			if uc.Spec.Type != UpgradeTypeOSD || uc.Spec.Desired.Version != "4.16.5" || uc.Spec.PDBForceDrainTimeout != 60 {
				t.Errorf("spec = %+v, want an OSD update to 4.16.5 with PDBForceDrainTimeout 60", uc.Spec)
			}
			h := uc.Status.History[0]
			got := summary{Phase: h.Phase, Conditions: len(h.Conditions), First: h.Conditions[0]}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("newest history entry (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFieldsInCRD checks that every JSON name of the mirror is a property
// of the Managed Upgrade Operator's CRD at the same place, so that a field
// misnamed here does not silently decode as empty.
func TestFieldsInCRD(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testdata, "upgrade.managed.openshift.io_upgradeconfigs.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var crd struct {
		Spec struct {
			Versions []struct {
				Name   string
				Schema struct {
					OpenAPIV3Schema crdSchema `json:"openAPIV3Schema"`
				}
			}
		}
	}
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	if len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Name != SchemeGroupVersion.Version {
		t.Fatalf("the CRD serves %+v, want only %s", crd.Spec.Versions, SchemeGroupVersion.Version)
	}
	root := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
	var missing []string
	walk(reflect.TypeOf(UpgradeConfig{}), root, "", &missing)
	if len(missing) > 0 {
		t.Errorf("fields of the mirror the CRD does not have: %s", strings.Join(missing, ", "))
	}
}

type crdSchema struct {
	Properties map[string]crdSchema `json:"properties"`
	Items      *crdSchema           `json:"items"`
}

var leaves = map[reflect.Type]bool{
	reflect.TypeOf(metav1.Time{}):       true,
	reflect.TypeOf(metav1.TypeMeta{}):   true,
	reflect.TypeOf(metav1.ObjectMeta{}): true,
}

func walk(typ reflect.Type, s crdSchema, path string, missing *[]string) {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
		if typ.Kind() == reflect.Slice {
			if s.Items == nil {
				*missing = append(*missing, path+"[]")
				return
			}
			s = *s.Items
		}
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || leaves[typ] {
		return
	}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			continue // TypeMeta, inline: apiVersion and kind
		}
		child, ok := s.Properties[name]
		if !ok {
			*missing = append(*missing, path+"."+name)
			continue
		}
		walk(f.Type, child, path+"."+name, missing)
	}
}
