package v1alpha1

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

func TestIsCopied(t *testing.T) {
	testCases := []struct {
		name        string
		reason      string
		annotations map[string]string
		labels      map[string]string
		want        bool
	}{
		{
			name:        "the operator's own CSV",
			reason:      "InstallSucceeded",
			annotations: map[string]string{OperatorNamespaceAnnotation: "operators"},
			want:        false,
		},
		{
			name: "no annotation, label or reason of a copy",
			want: false,
		},
		{
			name:        "reason Copied",
			reason:      CSVReasonCopied,
			annotations: map[string]string{OperatorNamespaceAnnotation: "operators"},
			want:        true,
		},
		{
			name:        "the operator runs in another namespace",
			reason:      "InstallSucceeded",
			annotations: map[string]string{OperatorNamespaceAnnotation: "elsewhere"},
			want:        true,
		},
		{
			name:        "label olm.copiedFrom, even empty",
			reason:      "InstallSucceeded",
			annotations: map[string]string{OperatorNamespaceAnnotation: "operators"},
			labels:      map[string]string{CopiedLabelKey: ""},
			want:        true,
		},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			csv := &ClusterServiceVersion{
				ObjectMeta: metav1.ObjectMeta{Namespace: "operators", Name: "op.v1", Annotations: tc.annotations, Labels: tc.labels},
				Status:     ClusterServiceVersionStatus{Reason: tc.reason},
			}
			if got := csv.IsCopied(); got != tc.want {
				t.Errorf("IsCopied() = %t, want %t", got, tc.want)
			}
		})
	}
}

const crdDir = "../../../../../test/testdata/olm/"

// TestJSONFieldsInCRDSchema checks that every JSON field of the mirror
// types is one OLM's published CRD declares at the same path: a
// misspelled json tag would silently decode nothing.
func TestJSONFieldsInCRDSchema(t *testing.T) {
	testCases := []struct {
		crd  string
		kind string
		obj  any
		// some are paths the walk must have visited, so that it cannot
		// pass by visiting nothing.
		some []string
	}{
		{
			crd: "operators.coreos.com_clusterserviceversions.yaml", kind: "ClusterServiceVersion", obj: ClusterServiceVersion{},
			some: []string{"spec.displayName", "status.conditions[].lastTransitionTime", "status.requirementStatus[].dependents[].status"},
		},
		{
			crd: "operators.coreos.com_subscriptions.yaml", kind: "Subscription", obj: Subscription{},
			some: []string{"spec.name", "spec.source", "status.installPlanRef.name", "status.conditions[].type"},
		},
		{
			crd: "operators.coreos.com_installplans.yaml", kind: "InstallPlan", obj: InstallPlan{},
			some: []string{"spec.clusterServiceVersionNames", "spec.approved", "status.phase"},
		},
	}
	for _, tc := range testCases {
		t.Run(tc.kind, func(t *testing.T) {
			schema := crdSchema(t, crdDir+tc.crd, tc.kind)
			visited, missing := walkJSONFields(reflect.TypeOf(tc.obj), schema, "")
			if diff := cmp.Diff([]string(nil), missing); diff != "" {
				t.Errorf("JSON fields the CRD does not declare (-want +got):\n%s", diff)
			}
			for _, p := range tc.some {
				if !slices.Contains(visited, p) {
					t.Errorf("the walk did not visit %s; it visited %v", p, visited)
				}
			}
		})
	}
}

// TestWalkJSONFieldsFindsMisspelling shows the walk reports a json tag the
// schema does not declare, however deep.
func TestWalkJSONFieldsFindsMisspelling(t *testing.T) {
	type misspelled struct {
		metav1.TypeMeta   `json:",inline"`
		metav1.ObjectMeta `json:"metadata,omitempty"`
		Spec              struct {
			Channel string `json:"chanel,omitempty"`
		} `json:"spec"`
		Status struct {
			Conditions []struct {
				Type string `json:"typ"`
			} `json:"conditions"`
		} `json:"status"`
	}
	schema := crdSchema(t, crdDir+"operators.coreos.com_subscriptions.yaml", "Subscription")
	_, missing := walkJSONFields(reflect.TypeOf(misspelled{}), schema, "")
	if diff := cmp.Diff([]string{"spec.chanel", "status.conditions[].typ"}, missing); diff != "" {
		t.Errorf("missing (-want +got):\n%s", diff)
	}
}

// crdSchema is the openAPI v3 schema of the served version of the CRD in
// path, after checking it is the CRD of kind.
func crdSchema(t *testing.T, path, kind string) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	if crd.Spec.Group != GroupName || crd.Spec.Names.Kind != kind {
		t.Fatalf("%s is the CRD of %s %s, want %s %s", path, crd.Spec.Group, crd.Spec.Names.Kind, GroupName, kind)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name == SchemeGroupVersion.Version && v.Served {
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				t.Fatalf("%s: version %s has no schema", path, v.Name)
			}
			return v.Schema.OpenAPIV3Schema
		}
	}
	t.Fatalf("%s serves no version %s", path, SchemeGroupVersion.Version)
	return nil
}

var marshaler = reflect.TypeFor[json.Marshaler]()

// walkJSONFields follows the JSON fields of typ, as encoding/json names
// them, through schema: visited are the paths it found, missing those the
// schema does not declare. Object metadata is the API server's, not the
// CRD's, and is skipped; a type that marshals itself (metav1.Time) is a
// leaf.
func walkJSONFields(typ reflect.Type, schema *apiextensionsv1.JSONSchemaProps, path string) (visited, missing []string) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Implements(marshaler) || reflect.PointerTo(typ).Implements(marshaler) {
		return nil, nil
	}
	switch typ.Kind() {
	case reflect.Slice, reflect.Array:
		if typ.Elem().Kind() == reflect.Uint8 {
			return nil, nil
		}
		if schema.Items == nil || schema.Items.Schema == nil {
			return nil, []string{path + "[]"}
		}
		return walkJSONFields(typ.Elem(), schema.Items.Schema, path+"[]")
	case reflect.Struct:
	default:
		return nil, nil
	}
	for i := range typ.NumField() {
		field := typ.Field(i)
		switch field.Type {
		case reflect.TypeFor[metav1.TypeMeta](), reflect.TypeFor[metav1.ObjectMeta](), reflect.TypeFor[metav1.ListMeta]():
			continue
		}
		if !field.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" && field.Anonymous {
			// An embedded struct without a name is inlined.
			v, m := walkJSONFields(field.Type, schema, path)
			visited, missing = append(visited, v...), append(missing, m...)
			continue
		}
		if name == "" {
			name = field.Name
		}
		p := name
		if path != "" {
			p = path + "." + name
		}
		sub, ok := schema.Properties[name]
		if !ok {
			missing = append(missing, p)
			continue
		}
		visited = append(visited, p)
		v, m := walkJSONFields(field.Type, &sub, p)
		visited, missing = append(visited, v...), append(missing, m...)
	}
	return visited, missing
}
