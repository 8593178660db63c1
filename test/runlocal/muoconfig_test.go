package main

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/managedupgrade"
)

// The managed mode's ConfigMap is the one the Managed Upgrade Operator's
// own tests deploy, copied to the test data.
func TestTheManagedModeDeploysTheOperatorsOwnConfigMap(t *testing.T) {
	data, err := os.ReadFile("../testdata/managed-upgrade-operator/managed-upgrade-operator-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var want corev1.ConfigMap
	if err := yaml.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Data, muoConfigMap().Data); diff != "" {
		t.Errorf("ConfigMap data (-test data +managed mode):\n%s", diff)
	}
	if config, err := managedupgrade.ParseConfig(muoConfig); err != nil || config.Invalid != "" {
		t.Errorf("the managed mode's configuration: %v, invalid: %q", err, config.Invalid)
	}
}
