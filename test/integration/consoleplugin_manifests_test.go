package integration

import (
	"context"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The console plugin's payload manifests are accepted by the API server as
// the CVO would apply them, with strict field validation against the real
// ConsolePlugin CRD.
func TestTheConsolePluginManifestsAreAccepted(t *testing.T) {
	ensureOperatorNamespace(t)
	files, err := filepath.Glob("../../manifests/*console-plugin*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../manifests/0000_90_update-insights-operator_02_consoleplugin.yaml")
	kinds := map[string]bool{}
	for _, m := range manifestObjects(t, files...) {
		opts := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: metav1.FieldValidationStrict}
		if _, err := m.resource.Create(context.Background(), m.obj, opts); err != nil {
			t.Errorf("%s: %s %s is refused: %v", filepath.Base(m.file), m.obj.GetKind(), m.obj.GetName(), err)
		}
		kinds[m.obj.GetKind()] = true
	}
	for _, kind := range []string{"ServiceAccount", "Deployment", "Service", "ConsolePlugin"} {
		if !kinds[kind] {
			t.Errorf("no %s among the console plugin's manifests", kind)
		}
	}
}
