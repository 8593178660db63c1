package health

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestKind(t *testing.T) {
	tests := []struct {
		resource string
		want     string
		wantOK   bool
	}{
		{"clusterversions", "ClusterVersion", true},
		{"clusteroperators", "ClusterOperator", true},
		{"nodes", "Node", true},
		{"machineconfigpools", "MachineConfigPool", true},
		{"nodepools", "NodePool", true},
		{"alerts", "Alert", true},
		{"pods", "Pod", true},
		{"poddisruptionbudgets", "PodDisruptionBudget", true},
		{"deployments", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.resource, func(t *testing.T) {
			kind, ok := Kind(tt.resource)
			if diff := cmp.Diff([]any{tt.want, tt.wantOK}, []any{kind, ok}); diff != "" {
				t.Errorf("Kind(%q) (-want +got):\n%s", tt.resource, diff)
			}
		})
	}
}

// TestScopedResourcesAreDistinct keeps Kind a function: one kind for each
// resource.
func TestScopedResourcesAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range scopedResources {
		if seen[r.resource] || r.kind == "" {
			t.Errorf("resource %q is named twice or has no kind", r.resource)
		}
		seen[r.resource] = true
	}
}

// TestEveryScopedResourceIsListed keeps a resource declared for the
// health insights to name from being left out of scopedResources, where
// Kind would not find it and UpdateStatus would drop its insights' resource:
// every package variable of type scopedResource is in the list.
func TestEveryScopedResourceIsListed(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var declared []string
	listed := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				value := spec.(*ast.ValueSpec)
				for i, v := range value.Values {
					lit, ok := v.(*ast.CompositeLit)
					if !ok {
						continue
					}
					if ident, ok := lit.Type.(*ast.Ident); ok && ident.Name == "scopedResource" {
						declared = append(declared, value.Names[i].Name)
					}
					if value.Names[i].Name == "scopedResources" {
						for _, elt := range lit.Elts {
							if ident, ok := elt.(*ast.Ident); ok {
								listed[ident.Name] = true
							}
						}
					}
				}
			}
		}
	}
	if len(declared) == 0 || len(listed) == 0 {
		t.Fatalf("found %d scoped resources declared and %d listed: the test no longer reads the package", len(declared), len(listed))
	}
	for _, name := range declared {
		if !listed[name] {
			t.Errorf("%s is a scopedResource missing from scopedResources", name)
		}
	}
}
