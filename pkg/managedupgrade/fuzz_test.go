package managedupgrade

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

// FuzzInsights reads an arbitrary ConfigMap configuration and an arbitrary
// UpgradeConfig (as JSON, as the API server gives it), and makes the
// status and plan insights: the configuration is read or refused with an
// error, never both with nothing to say; the insights keep the protocol's
// contract and its bounds, are the same for the same input, and are ones
// the operator keeps whole in UpdateStatus, whose schema accepts them.
func FuzzInsights(f *testing.F) {
	dir := filepath.Join("..", "..", "test", "testdata", "managed-upgrade-operator")
	config, err := os.ReadFile(filepath.Join(dir, "managed-upgrade-operator-config.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	var cm struct {
		Data map[string]string `json:"data"`
	}
	if err := yaml.Unmarshal(config, &cm); err != nil {
		f.Fatal(err)
	}
	for _, name := range []string{"scheduled.yaml", "upgrading.yaml", "failed-health-check.yaml", "failed.yaml", "window-closed.yaml", "due.yaml", "image.yaml"} {
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			f.Fatal(err)
		}
		uc, err := yaml.YAMLToJSON(content)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(cm.Data[ConfigMapKey], uc, "4.16.5", 3)
	}
	f.Add("nodeDrain: {timeOut: 45, ignoredNamespacePatterns: ['(']}", []byte(`{}`), "4.17.0", 0)
	f.Add("maintenance: {controlPlaneTime: 9999999999999}\nscale: {timeOut: 1}\nnodeDrain: {timeOut: 9999999999999, expectedNodeDrainTime: 1}\nupgradeWindow: {timeOut: 9999999999999, delayTrigger: 9999999999999}",
		[]byte(`{"metadata":{"namespace":"openshift-managed-upgrade-operator","name":"managed-upgrade-config"},"spec":{"type":"OSD","upgradeAt":"9999-12-31T23:59:59-05:00","desired":{"version":"4.16.5"}}}`), "4.16.5", 3)
	f.Add("upgradeWindow: [", []byte(`{"spec":{"upgradeAt":"soon"}}`), "", -1)

	schema := apivalidation.Status("UpdateStatus")
	f.Fuzz(func(t *testing.T, configYAML string, upgradeConfigJSON []byte, target string, workers int) {
		config, err := ParseConfig(configYAML)
		if again, errAgain := ParseConfig(configYAML); (err == nil) != (errAgain == nil) || again.Invalid != config.Invalid {
			t.Fatalf("read as %q (%v), then as %q (%v)", config.Invalid, err, again.Invalid, errAgain)
		}
		uc := &upgradev1alpha1.UpgradeConfig{}
		if json.Unmarshal(upgradeConfigJSON, uc) != nil {
			return
		}
		// The UpgradeConfig has a name and namespace the API server accepts
		// (the seeds without them stand for any).
		if (uc.Name != "" && len(validation.IsDNS1123Subdomain(uc.Name)) > 0) || (uc.Namespace != "" && len(validation.IsDNS1123Label(uc.Namespace)) > 0) {
			return
		}
		in := Input{UpgradeConfigs: []*upgradev1alpha1.UpgradeConfig{uc}, WorkerNodes: workers, Config: config, Now: now}
		for call, insights := range map[string]func() []protocol.Insight{
			"status": func() []protocol.Insight { return StatusInsights(in) },
			"plan":   func() []protocol.Insight { return PlanInsights(in, target) },
		} {
			got := insights()
			valid(t, got)
			if diff := cmp.Diff(got, insights()); diff != "" {
				t.Errorf("%s insights made again (-first +second):\n%s", call, diff)
			}
			status := insightsv1alpha1.UpdateStatusStatus{ControlPlane: insightsv1alpha1.ControlPlaneUpdateStatus{
				Informers: []insightsv1alpha1.InformerInsights{{Name: "managed-upgrade", Insights: asAPI(got)}},
			}}
			if errs := schema.Validate(status); len(errs) > 0 {
				t.Errorf("%s insights the API would refuse: %v", call, errs.ToAggregate())
			}
		}
	})
}

// asAPI maps the insights to the API's as the informers controller does,
// all of them: an insight it would leave out fails the schema here.
func asAPI(in []protocol.Insight) []insightsv1alpha1.UpdateInsight {
	var out []insightsv1alpha1.UpdateInsight
	for _, i := range in {
		api := insightsv1alpha1.UpdateInsight{
			UID:             i.UID,
			AcquisitionTime: i.AcquisitionTime,
			Scope:           insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeType(i.Scope.Type)},
			Impact: insightsv1alpha1.UpdateInsightImpact{
				Level: insightsv1alpha1.UpdateInsightLevel(i.Impact.Level), Type: insightsv1alpha1.UpdateInsightImpactType(i.Impact.Type),
				Summary: i.Impact.Summary, Description: i.Impact.Description,
			},
			Remediation: insightsv1alpha1.UpdateInsightRemediation{Reference: i.Remediation.Reference, Resolved: i.Remediation.Resolved},
		}
		for _, r := range i.Scope.Resources {
			api.Scope.Resources = append(api.Scope.Resources, insightsv1alpha1.InsightResource{Group: r.Group, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name})
		}
		for _, r := range i.Scope.WorkerPool {
			api.Scope.WorkerPool = append(api.Scope.WorkerPool, insightsv1alpha1.InsightResource{Group: r.Group, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name})
		}
		if finish, ok, err := protocol.EstimatedFinish(i); ok && err == nil {
			api.Remediation.EstimatedFinish = &metav1.Time{Time: finish}
		}
		out = append(out, api)
	}
	return out
}
