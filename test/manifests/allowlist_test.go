package manifests

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/update-insights/update-insights-operator/pkg/metrics"
)

// metricsAllowlist mirrors the allowlist of ACM's metrics collector
// (MetricsAllowlist in operators/pkg/config/types.go of
// stolostron/multicluster-observability-operator), which it decodes with
// gopkg.in/yaml.v2.
type metricsAllowlist struct {
	NameList          []string          `yaml:"names"`
	MatchList         []string          `yaml:"matches"`
	RenameMap         map[string]string `yaml:"renames"`
	RuleList          []recordingRule   `yaml:"rules"`
	RecordingRuleList []recordingRule   `yaml:"recording_rules"`
	CollectRuleGroups []any             `yaml:"collect_rules"`
}

type recordingRule struct {
	Record string `yaml:"record"`
	Expr   string `yaml:"expr"`
}

// The allowlist ACM's endpoint operator merges names exactly the fleet
// gauges the operator serves, the hosted clusters' among them, under the key and in the schema ACM reads:
// nothing unbounded, nothing renamed, nothing for the user-workload
// collector (the gauges are the platform Prometheus').
func TestTheAllowlistNamesExactlyTheFleetGauges(t *testing.T) {
	var found *corev1.ConfigMap
	for _, m := range loadManifests(t) {
		if cm, ok := m.object.(*corev1.ConfigMap); ok && cm.Name == "observability-metrics-custom-allowlist" {
			found = cm
		}
	}
	if found == nil {
		t.Fatal("no ConfigMap observability-metrics-custom-allowlist among the manifests")
	}
	if keys := slices.Sorted(maps.Keys(found.Data)); !slices.Equal(keys, []string{"metrics_list.yaml"}) {
		t.Errorf("data keys %v, want only metrics_list.yaml", keys)
	}
	var allowlist metricsAllowlist
	if err := yaml.UnmarshalStrict([]byte(found.Data["metrics_list.yaml"]), &allowlist); err != nil {
		t.Fatalf("ACM cannot decode metrics_list.yaml: %v", err)
	}
	want := slices.Sorted(slices.Values(slices.Concat(metrics.FleetMetricNames, metrics.HostedClusterMetricNames)))
	if diff := cmp.Diff(want, allowlist.NameList); diff != "" {
		t.Errorf("allowlisted names, sorted (-fleet gauges +allowlist):\n%s", diff)
	}
	if len(allowlist.MatchList) > 0 || len(allowlist.RenameMap) > 0 || len(allowlist.RuleList) > 0 || len(allowlist.CollectRuleGroups) > 0 {
		t.Errorf("the allowlist has matches, renames, deprecated rules or collect rules: %+v", allowlist)
	}
}
