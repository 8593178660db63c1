// Package layers checks the direction of the imports between the operator's
// packages: the starter (pkg/operator) wires the controllers, so nothing a
// controller uses may lead back up to it, or a controller could no longer be
// built, tested or reused without the whole operator.
package layers

import (
	"bufio"
	"bytes"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const module = "github.com/update-insights/update-insights-operator/"

// rules: every package the pattern matches, with its tests, must not depend,
// directly or through another package, on a forbidden package or any package
// below it.
var rules = []struct {
	name      string
	pattern   string
	forbidden []string
}{
	{
		name:      "controllers are below the starter",
		pattern:   "./pkg/controllers/...",
		forbidden: []string{module + "pkg/operator"},
	},
	{
		name:      "the tracker is below the starter and the controllers",
		pattern:   "./pkg/tracker/...",
		forbidden: []string{module + "pkg/operator", module + "pkg/controllers"},
	},
}

func TestLayers(t *testing.T) {
	for _, rule := range rules {
		t.Run(rule.name, func(t *testing.T) {
			deps := goListDeps(t, rule.pattern)
			if len(deps) == 0 {
				t.Fatalf("go list %s matched no package", rule.pattern)
			}
			if found := violations(deps, rule.forbidden); len(found) > 0 {
				t.Errorf("packages of %s depend on %s:\n%s", rule.pattern, strings.Join(rule.forbidden, ", "),
					strings.ReplaceAll(strings.Join(found, "\n"), module, ""))
			}
		})
	}
}

func TestViolations(t *testing.T) {
	deps := map[string][]string{
		module + "pkg/controllers/node":             {module + "pkg/tracker", "k8s.io/client-go/tools/cache"},
		module + "pkg/controllers/node [test]":      {module + "pkg/operator/tracker"},
		module + "pkg/controllers/clusterversion":   {module + "pkg/operatorstatus"},
		module + "pkg/controllers/internal/payload": {module + "pkg/operator"},
	}
	got := violations(deps, []string{module + "pkg/operator"})
	want := []string{
		module + "pkg/controllers/internal/payload -> " + module + "pkg/operator",
		module + "pkg/controllers/node [test] -> " + module + "pkg/operator/tracker",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// violations lists, sorted, each package and forbidden dependency as
// "package -> dependency". A forbidden path matches itself and the packages
// below it, not a sibling that shares its prefix (pkg/operatorstatus is not
// below pkg/operator).
func violations(deps map[string][]string, forbidden []string) []string {
	var found []string
	for pkg, pkgDeps := range deps {
		for _, dep := range pkgDeps {
			for _, f := range forbidden {
				if dep == f || strings.HasPrefix(dep, f+"/") {
					found = append(found, pkg+" -> "+dep)
				}
			}
		}
	}
	sort.Strings(found)
	return found
}

// goListDeps asks the go command, as the build sees them, for the packages
// the pattern matches and their test variants, each with all it depends on.
func goListDeps(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-test", "-f", `{{.ImportPath}}{{range .Deps}}	{{.}}{{end}}`, pattern)
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", pattern, err, stderr.String())
	}
	deps := map[string][]string{}
	scanner := bufio.NewScanner(bytes.NewReader(out))
	scanner.Buffer(nil, 16<<20)
	for scanner.Scan() {
		fields := strings.Split(scanner.Text(), "\t")
		deps[fields[0]] = fields[1:]
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	return deps
}
