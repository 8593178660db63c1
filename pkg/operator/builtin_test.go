package operator

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// The built-in informers the starter runs are those UpdateStatus and
// plans serve first, in the same order, and the UpdateInformer CRD's rule
// reserves exactly their names: a new built-in informer added to one list
// and not the others fails here.
func TestBuiltinInformersAreTheOnesServedFirstAndReserved(t *testing.T) {
	var started []string
	for _, b := range (&starter{}).builtinInformers() {
		started = append(started, b.name())
	}
	if diff := cmp.Diff(updatestatus.BuiltinInformers, started); diff != "" {
		t.Errorf("built-in informers (-updatestatus.BuiltinInformers +the starter's):\n%s", diff)
	}

	raw, err := os.ReadFile(filepath.Join("..", "..", "manifests", "0000_50_update-insights-operator_01_updateinformers.crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rule := regexp.MustCompile(`rule: '!\(self\.metadata\.name in \[(.*)\]\)'`).FindSubmatch(raw)
	if rule == nil {
		t.Fatal("the UpdateInformer CRD has no rule that reserves names")
	}
	var reserved []string
	for _, m := range regexp.MustCompile(`''([^']*)''`).FindAllSubmatch(rule[1], -1) {
		reserved = append(reserved, string(m[1]))
	}
	if diff := cmp.Diff(started, reserved); diff != "" {
		t.Errorf("names the UpdateInformer CRD reserves (-built-in informers +reserved):\n%s", diff)
	}
}
