package v1alpha1

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

// TestLimitsEqualTheCRDs holds each limit constant to the generated CRD's
// schema at the path it mirrors.
func TestLimitsEqualTheCRDs(t *testing.T) {
	const (
		updateStatuses = "updatestatuses"
		updatePlans    = "updateplans"
		insight        = "status.controlPlane.informers.insights"
		resource       = insight + ".scope.resources"
	)
	tests := []struct {
		name     string
		limit    int
		crd      string
		path     string
		property string
	}{
		{"InsightUIDMaxLength", InsightUIDMaxLength, updateStatuses, insight + ".uid", "maxLength"},
		{"InsightUIDMaxLength, worker pool", InsightUIDMaxLength, updateStatuses, "status.workerPools.informers.insights.uid", "maxLength"},
		{"InsightUIDMaxLength, plan", InsightUIDMaxLength, updatePlans, "status.controlPlane.informers.insights.uid", "maxLength"},
		{"InsightSummaryMaxLength", InsightSummaryMaxLength, updateStatuses, insight + ".impact.summary", "maxLength"},
		{"InsightSummaryMaxLength, health", InsightSummaryMaxLength, "updatehealthinsights", "status.impact.summary", "maxLength"},
		{"InsightDescriptionMaxLength", InsightDescriptionMaxLength, updateStatuses, insight + ".impact.description", "maxLength"},
		{"HealthDescriptionMaxLength", HealthDescriptionMaxLength, "updatehealthinsights", "status.impact.description", "maxLength"},
		{"RemediationReferenceMaxLength", RemediationReferenceMaxLength, updateStatuses, insight + ".remediation.reference", "maxLength"},
		{"RemediationReferenceMaxLength, health", RemediationReferenceMaxLength, "updatehealthinsights", "status.remediation.reference", "maxLength"},
		{"InsightResourcesMaxItems", InsightResourcesMaxItems, updateStatuses, resource, "maxItems"},
		{"InsightWorkerPoolMaxItems", InsightWorkerPoolMaxItems, updateStatuses, insight + ".scope.workerPool", "maxItems"},
		{"ResourceKindMaxLength", ResourceKindMaxLength, updateStatuses, resource + ".kind", "maxLength"},
		{"ResourceNamespaceMaxLength", ResourceNamespaceMaxLength, updateStatuses, resource + ".namespace", "maxLength"},
		{"ResourceNameMaxLength", ResourceNameMaxLength, updateStatuses, resource + ".name", "maxLength"},
		{"ResourceNameMaxLength, group", ResourceNameMaxLength, updateStatuses, resource + ".group", "maxLength"},
		{"ResourceNamespaceMaxLength, health", ResourceNamespaceMaxLength, "updatehealthinsights", "status.scope.resources.namespace", "maxLength"},
		{"ResourceNameMaxLength, health", ResourceNameMaxLength, "updatehealthinsights", "status.scope.resources.name", "maxLength"},
		{"InformersMaxItems, control plane", InformersMaxItems, updateStatuses, "status.controlPlane.informers", "maxItems"},
		{"InformersMaxItems, worker pool", InformersMaxItems, updateStatuses, "status.workerPools.informers", "maxItems"},
		{"InformerInsightsMaxItems", InformerInsightsMaxItems, updateStatuses, insight, "maxItems"},
		{"VersionMaxLength", VersionMaxLength, "clusterversionprogressinsights", "status.versions.target.version", "maxLength"},
		{"VersionMaxLength, node", VersionMaxLength, "nodeprogressinsights", "status.version", "maxLength"},
		{"ProgressingReasonMaxLength", ProgressingReasonMaxLength, "clusteroperatorprogressinsights", "status.progressingReason", "maxLength"},
		{"NodeMessageMaxLength", NodeMessageMaxLength, "nodeprogressinsights", "status.message", "maxLength"},
		{"PlanIdentityMaxLength", PlanIdentityMaxLength, updatePlans, "status.controlPlane.informers.insights.identity", "maxLength"},
		{"ImageBuildImageMaxLength", ImageBuildImageMaxLength, "machineconfigpoolprogressinsights", "status.imageBuild.image", "maxLength"},
		{"ImageBuildMessageMaxLength", ImageBuildMessageMaxLength, "machineconfigpoolprogressinsights", "status.imageBuild.message", "maxLength"},
		{"PlanIdentityMaxLength, accepted", PlanIdentityMaxLength, updatePlans, "spec.acceptedInsights.uid", "maxLength"},
		// The protocol keeps its own bound, as a contract that third-party
		// informers read without this API; the plan must hold what it allows.
		{"protocol.MaxIdentityLength", protocol.MaxIdentityLength, updatePlans, "status.controlPlane.informers.insights.identity", "maxLength"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := schemaBound(t, tt.crd, tt.path, tt.property)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.limit {
				t.Errorf("%s is %d, the %s CRD's %s at %s is %d", tt.name, tt.limit, tt.crd, tt.property, tt.path, got)
			}
		})
	}
}

// schemaBound reads property (maxLength, maxItems) of the field at path, a
// dotted list of field names that steps through arrays to their items, in
// the v1alpha1 schema of the CRD whose file ends with plural.
func schemaBound(t *testing.T, plural, path, property string) (int, error) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "..", "manifests", "*_"+plural+".crd.yaml"))
	if err != nil || len(files) != 1 {
		return 0, fmt.Errorf("no single CRD manifest for %s: %v %v", plural, files, err)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		return 0, err
	}
	var crd struct {
		Spec struct {
			Versions []struct {
				Name   string `json:"name"`
				Schema struct {
					OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(raw, &crd); err != nil {
		return 0, fmt.Errorf("%s: %w", files[0], err)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name != SchemeGroupVersion.Version {
			continue
		}
		schema := v.Schema.OpenAPIV3Schema
		for _, field := range strings.Split(path, ".") {
			if schema["type"] == "array" {
				schema, _ = schema["items"].(map[string]any)
			}
			properties, _ := schema["properties"].(map[string]any)
			schema, _ = properties[field].(map[string]any)
			if schema == nil {
				return 0, fmt.Errorf("%s: no field %q on the way to %s", files[0], field, path)
			}
		}
		bound, ok := schema[property].(float64)
		if !ok {
			return 0, fmt.Errorf("%s: %s has no %s", files[0], path, property)
		}
		return int(bound), nil
	}
	return 0, fmt.Errorf("%s: no version %s", files[0], SchemeGroupVersion.Version)
}
