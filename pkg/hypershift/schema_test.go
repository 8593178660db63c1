package hypershift

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// Every field the package reads is in the schema of the CRD that HyperShift
// ships, in the version read: a field named wrong would read as absent, and
// the operator would report what is not so.
func TestEveryFieldReadIsInTheShippedSchema(t *testing.T) {
	for _, tc := range []struct {
		crd     string
		version string
		typ     any
	}{
		{"hostedclusters-Hypershift-Default.crd.yaml", "v1beta1", HostedCluster{}},
		{"hostedclusters-Hypershift-Default.crd.yaml", "v1beta1", HostedClusterUpdate{}},
		{"nodepools-Default.crd.yaml", "v1beta1", NodePool{}},
		{"controlplanecomponents.crd.yaml", "v1beta1", ControlPlaneComponent{}},
		{"cluster.x-k8s.io_machines.yaml", "v1beta2", Machine{}},
		{"cluster.x-k8s.io_machinesets.yaml", "v1beta2", MachineSet{}},
		{"cluster.x-k8s.io_machinedeployments.yaml", "v1beta2", MachineDeployment{}},
	} {
		t.Run(tc.crd, func(t *testing.T) {
			schema := readSchema(t, tc.crd, tc.version)
			var missing []string
			for _, field := range []string{"spec", "status"} {
				f, ok := reflect.TypeOf(tc.typ).FieldByName(strings.ToUpper(field[:1]) + field[1:])
				if !ok {
					continue
				}
				sub, ok := schema.Properties[field]
				if !ok {
					missing = append(missing, field)
					continue
				}
				missing = append(missing, missingFields(f.Type, &sub, field)...)
			}
			if len(missing) > 0 {
				t.Errorf("fields read that the %s schema does not have: %v", tc.version, missing)
			}
		})
	}
}

func readSchema(t *testing.T, file, version string) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "test", "testdata", "hypershift", file))
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name == version && v.Served {
			return v.Schema.OpenAPIV3Schema
		}
	}
	t.Fatalf("%s serves no %s", file, version)
	return nil
}

// missingFields walks typ's JSON fields through schema, returning the paths
// of those it lacks. metav1 types (Condition, Time, Duration) are leaves
// whose shape the API machinery owns.
func missingFields(typ reflect.Type, schema *apiextensionsv1.JSONSchemaProps, path string) []string {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
		typ = typ.Elem()
		if schema.Items != nil && schema.Items.Schema != nil {
			schema = schema.Items.Schema
		}
	}
	if typ.Kind() != reflect.Struct || strings.HasPrefix(typ.PkgPath(), "k8s.io/apimachinery") {
		return nil
	}
	var missing []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		sub, ok := schema.Properties[name]
		if !ok {
			missing = append(missing, path+"."+name)
			continue
		}
		missing = append(missing, missingFields(f.Type, &sub, path+"."+name)...)
	}
	return missing
}
