// Package apivalidation checks, in tests, the objects the operator writes
// against the OpenAPI schemas of its CRDs (manifests/*.crd.yaml), as the API
// server does on a create or a status update: types, required fields,
// maxLength (in characters), maxItems, enum, pattern, formats such as
// date-time (after dropping the nulls the API server drops), and the uniqueness of the keys of x-kubernetes-list-type map
// and set lists. It uses the API server's own code
// (k8s.io/apiextensions-apiserver/pkg/apiserver/validation and
// .../schema/listtype), so a status it accepts is one the API server's
// schema accepts.
//
// It does not evaluate the CRDs' CEL rules (x-kubernetes-validations): the
// integration tests, against a real API server, cover those.
package apivalidation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// Schema is the schema of one part of a kind's objects.
type Schema struct {
	validator  validation.SchemaValidator
	structural *schema.Structural
	path       *field.Path
}

var (
	loadOnce sync.Once
	crds     map[string]*apiextensions.JSONSchemaProps // by kind
	loadErr  error
)

// Status returns the schema of the status of kind (UpdateStatus,
// UpdatePlan, UpdateHealthInsight, ...), as the API server checks a status
// update. It panics when the kind has no CRD among the manifests or no
// status: that is a mistake of the test calling it.
func Status(kind string) *Schema {
	loadOnce.Do(load)
	if loadErr != nil {
		panic(loadErr)
	}
	root, ok := crds[kind]
	if !ok {
		panic(fmt.Sprintf("no CRD of kind %s in the manifests", kind))
	}
	status, ok := root.Properties["status"]
	if !ok {
		panic(fmt.Sprintf("the CRD of %s has no status", kind))
	}
	validator, _, err := validation.NewSchemaValidator(&status)
	if err != nil {
		panic(fmt.Sprintf("the schema of %s's status: %v", kind, err))
	}
	structural, err := schema.NewStructural(&status)
	if err != nil {
		panic(fmt.Sprintf("the structural schema of %s's status: %v", kind, err))
	}
	return &Schema{validator: validator, structural: structural, path: field.NewPath("status")}
}

// Validate returns what the API server's schema refuses in v, which is
// encoded as the client would send it; none when it accepts it.
func (s *Schema) Validate(v any) field.ErrorList {
	encoded, err := json.Marshal(v)
	if err != nil {
		return field.ErrorList{field.InternalError(s.path, fmt.Errorf("encoding: %w", err))}
	}
	// The API server decodes numbers as int64 or float64, as utiljson does.
	var decoded any
	if err := utiljson.Unmarshal(encoded, &decoded); err != nil {
		return field.ErrorList{field.InternalError(s.path, fmt.Errorf("decoding: %w", err))}
	}
	pruneNulls(decoded, s.structural)
	errs := validation.ValidateCustomResource(s.path, decoded, s.validator)
	if object, ok := decoded.(map[string]any); ok {
		errs = append(errs, listtype.ValidateListSetsAndMaps(s.path, s.structural, object)...)
	}
	return errs
}

// pruneNulls drops, as the API server does before it validates a custom
// resource, every null whose field's schema neither allows null nor has a
// default (k8s.io/apiextensions-apiserver's
// pkg/apiserver/schema/defaulting/prunenulls.go): an empty metav1.Time
// encodes as null, and an optional time left empty is then absent.
func pruneNulls(x any, s *schema.Structural) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			p, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties == nil || s.AdditionalProperties.Structural == nil {
					continue
				}
				p = *s.AdditionalProperties.Structural
			}
			if v == nil && !p.Nullable && p.Default.Object == nil {
				delete(x, k)
				continue
			}
			pruneNulls(v, &p)
		}
	case []any:
		for _, v := range x {
			pruneNulls(v, s.Items)
		}
	}
}

func load() {
	_, file, _, _ := runtime.Caller(0)
	paths, err := filepath.Glob(filepath.Join(filepath.Dir(file), "..", "..", "..", "manifests", "*.crd.yaml"))
	if err != nil || len(paths) == 0 {
		loadErr = fmt.Errorf("finding the CRDs: %v (%d found)", err, len(paths))
		return
	}
	crds = map[string]*apiextensions.JSONSchemaProps{}
	for _, path := range paths {
		content, err := os.ReadFile(path)
		if err != nil {
			loadErr = err
			return
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.UnmarshalStrict(bytes.TrimPrefix(content, []byte("---\n")), &crd); err != nil {
			loadErr = fmt.Errorf("%s: %w", path, err)
			return
		}
		if len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Schema == nil {
			loadErr = fmt.Errorf("%s: expected one version with a schema", path)
			return
		}
		var internal apiextensions.JSONSchemaProps
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(crd.Spec.Versions[0].Schema.OpenAPIV3Schema, &internal, nil); err != nil {
			loadErr = fmt.Errorf("%s: %w", path, err)
			return
		}
		crds[crd.Spec.Names.Kind] = &internal
	}
}

// JSON encodes a fuzz target's seed: the targets that check statuses take
// their objects as JSON, so that the fuzzer mutates every field.
func JSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
