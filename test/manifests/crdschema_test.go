package manifests

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiserver/pkg/cel/library"
	"sigs.k8s.io/yaml"
)

// schemaValidator checks an object against a CRD's structural schema as the
// API server does, for the parts of the schema the insight CRDs use: types,
// required and unknown fields, string lengths, patterns, enums and formats,
// integer bounds, and the CEL rules (with the Kubernetes URL library). A
// part of a schema it does not know fails the check instead of passing it.
type schemaValidator struct {
	env *cel.Env
}

func newSchemaValidator(t *testing.T) *schemaValidator {
	t.Helper()
	env, err := cel.NewEnv(cel.Variable("self", cel.DynType), library.URLs())
	if err != nil {
		t.Fatal(err)
	}
	return &schemaValidator{env: env}
}

// crdSchema returns the schema of the served version of the CRD for kind
// among the payload manifests.
func crdSchema(t *testing.T, kind string) apiextensionsv1.JSONSchemaProps {
	t.Helper()
	for _, m := range loadManifests(t) {
		crd, ok := m.object.(*apiextensionsv1.CustomResourceDefinition)
		if !ok || crd.Spec.Names.Kind != kind {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if v.Served && v.Storage && v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				return *v.Schema.OpenAPIV3Schema
			}
		}
		t.Fatalf("%s: the CRD of %s has no served storage version with a schema", m.file, kind)
	}
	t.Fatalf("no CRD for %s among the manifests", kind)
	return apiextensionsv1.JSONSchemaProps{}
}

// validateSpec checks the spec of a manifest's document, and that it has no
// status, which the API server would drop: status is a subresource.
func (v *schemaValidator) validateSpec(raw []byte, schema apiextensionsv1.JSONSchemaProps) []string {
	var object map[string]any
	if err := yaml.Unmarshal(raw, &object); err != nil {
		return []string{err.Error()}
	}
	var errs []string
	if _, ok := object["status"]; ok {
		errs = append(errs, "status: set in a manifest, where the API server ignores it")
	}
	spec, ok := object["spec"]
	if !ok {
		return append(errs, "spec: missing")
	}
	return append(errs, v.validate("spec", spec, schema.Properties["spec"])...)
}

func (v *schemaValidator) validate(path string, value any, s apiextensionsv1.JSONSchemaProps) []string {
	var errs []string
	fail := func(format string, args ...any) {
		errs = append(errs, path+": "+fmt.Sprintf(format, args...))
	}
	switch s.Type {
	case "object":
		object, ok := value.(map[string]any)
		if !ok {
			fail("is %T, want an object", value)
			return errs
		}
		for _, r := range s.Required {
			if _, ok := object[r]; !ok {
				fail("%s is required", r)
			}
		}
		fields := make([]string, 0, len(object))
		for field := range object {
			fields = append(fields, field)
		}
		sort.Strings(fields)
		for _, field := range fields {
			prop, ok := s.Properties[field]
			if !ok {
				fail("unknown field %s", field)
				continue
			}
			errs = append(errs, v.validate(path+"."+field, object[field], prop)...)
		}
	case "string":
		str, ok := value.(string)
		if !ok {
			fail("is %T, want a string", value)
			return errs
		}
		if s.MaxLength != nil && int64(len(str)) > *s.MaxLength {
			fail("longer than %d", *s.MaxLength)
		}
		if s.MinLength != nil && int64(len(str)) < *s.MinLength {
			fail("shorter than %d", *s.MinLength)
		}
		if s.Pattern != "" && !regexp.MustCompile(s.Pattern).MatchString(str) {
			fail("%q does not match %s", str, s.Pattern)
		}
		if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e apiextensionsv1.JSON) bool { return string(e.Raw) == fmt.Sprintf("%q", str) }) {
			fail("%q is not among the allowed values", str)
		}
		switch s.Format {
		case "":
		case "byte":
			if _, err := base64.StdEncoding.DecodeString(str); err != nil {
				fail("is not base64: %v", err)
			}
		default:
			fail("format %q is not checked here", s.Format)
		}
	case "integer":
		// JSON numbers decode as float64.
		n, ok := value.(float64)
		if !ok || n != float64(int64(n)) {
			fail("%v is not an integer", value)
			return errs
		}
		if s.Minimum != nil && n < *s.Minimum {
			fail("%v is less than %v", n, *s.Minimum)
		}
		if s.Maximum != nil && n > *s.Maximum {
			fail("%v is greater than %v", n, *s.Maximum)
		}
	case "boolean":
		if _, ok := value.(bool); !ok {
			fail("is %T, want a boolean", value)
		}
	default:
		fail("schema type %q is not checked here", s.Type)
	}
	for _, rule := range s.XValidations {
		if err := v.evaluate(rule.Rule, value); err != nil {
			fail("rule %q: %v", rule.Rule, err)
		}
	}
	return errs
}

// evaluate fails unless the CEL rule holds for self.
func (v *schemaValidator) evaluate(rule string, self any) error {
	ast, issues := v.env.Compile(rule)
	if issues.Err() != nil {
		return issues.Err()
	}
	program, err := v.env.Program(ast)
	if err != nil {
		return err
	}
	out, _, err := program.Eval(map[string]any{"self": self})
	if err != nil {
		return err
	}
	if out.Value() != true {
		return fmt.Errorf("does not hold")
	}
	return nil
}

func TestManagedUpgradeUpdateInformerValidatesAsTheCRD(t *testing.T) {
	v := newSchemaValidator(t)
	schema := crdSchema(t, "UpdateInformer")
	for _, m := range loadManifestsFrom(t, managedUpgradeDir) {
		if m.object.GetObjectKind().GroupVersionKind().Kind != "UpdateInformer" {
			continue
		}
		if errs := v.validateSpec(m.raw, schema); len(errs) > 0 {
			t.Errorf("%s: the API server would refuse the UpdateInformer: %v", m.file, errs)
		}
	}
}

// The validator above must refuse what the API server refuses.
func TestSchemaValidatorRefusesInvalidUpdateInformers(t *testing.T) {
	v := newSchemaValidator(t)
	schema := crdSchema(t, "UpdateInformer")
	for _, tc := range []struct {
		name, spec, want string
	}{
		{"both service and url", `{clientConfig: {service: {namespace: a, name: b}, url: "https://x"}}`, `spec.clientConfig: rule "has(self.service) != has(self.url)"`},
		{"neither service nor url", `{clientConfig: {}}`, `spec.clientConfig: rule "has(self.service) != has(self.url)"`},
		{"plain http url", `{clientConfig: {url: "http://x"}}`, `spec.clientConfig.url: rule "isURL(self)`},
		{"no clientConfig", `{enabled: true}`, "spec: clientConfig is required"},
		{"service without name", `{clientConfig: {service: {namespace: a}}}`, "spec.clientConfig.service: name is required"},
		{"invalid namespace", `{clientConfig: {service: {namespace: A_b, name: b}}}`, `spec.clientConfig.service.namespace: "A_b" does not match`},
		{"port out of range", `{clientConfig: {service: {namespace: a, name: b, port: 0}}}`, "spec.clientConfig.service.port: 0 is less than 1"},
		{"port not an integer", `{clientConfig: {service: {namespace: a, name: b, port: "443"}}}`, "spec.clientConfig.service.port: 443 is not an integer"},
		{"unknown field", `{clientConfig: {service: {namespace: a, name: b, prot: 443}}}`, "spec.clientConfig.service: unknown field prot"},
		{"caBundle not base64", `{clientConfig: {url: "https://x", caBundle: "not base64!"}}`, "spec.clientConfig.caBundle: is not base64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := []byte("apiVersion: openshift.muller.dev/v1alpha1\nkind: UpdateInformer\nspec: " + tc.spec)
			errs := v.validateSpec(raw, schema)
			if len(errs) != 1 || !strings.HasPrefix(errs[0], tc.want) {
				t.Errorf("spec %s: errors %q, want one starting %q", tc.spec, errs, tc.want)
			}
		})
	}
	valid := []byte("spec: {clientConfig: {service: {namespace: a, name: b, port: 443}}}")
	if errs := v.validateSpec(valid, schema); len(errs) > 0 {
		t.Errorf("a valid spec fails: %v", errs)
	}
}
