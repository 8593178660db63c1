package updateinformers

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// FuzzAnswerToUpdateStatus takes an informer's arbitrary answer as the
// operator does: an answer the protocol's validation accepts is converted,
// leaving out the insights the API would refuse, and becomes the
// informer's part of UpdateStatus, which the API server's schema must
// accept whatever the informer said; every insight is shown, or counted as
// left out or cut.
func FuzzAnswerToUpdateStatus(f *testing.F) {
	insight := `{"uid":"cpu","acquisitionTime":"2024-08-02T10:00:00Z","scope":{"type":"ControlPlane","resources":[` +
		`{"kind":"Node","name":"ip-10-0-137-108.ec2.internal"},{"kind":"Pod","namespace":"a-namespace","name":"api-server"}]},` +
		`"impact":{"level":"warning","type":"API Availability","summary":"High control plane CPU during upgrade","description":"Abnormally high."},` +
		`"remediation":{"reference":"https://docs.example.com/cpu","resolved":false,"estimatedFinish":"2024-08-02T10:41:00Z"}}`
	pool := `{"uid":"reboot","acquisitionTime":"2024-08-02T10:00:00Z","scope":{"type":"WorkerPool",` +
		`"workerPool":[{"group":"machineconfiguration.openshift.io","kind":"MachineConfigPool","name":"worker"}],` +
		`"resources":[{"kind":"Node","name":"worker-0"}]},"impact":{"level":"status","summary":"Node rebooting"},"remediation":{"estimatedFinish":"15m"}}`
	for _, body := range []string{
		`{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","spec":{"insights":[` + insight + `,` + pool + `]},"status":{"response":"Success"}}`,
		`{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","spec":{"insights":[` +
			`{"uid":"` + strings.Repeat("u", 300) + `","scope":{"type":"ControlPlane"},"impact":{"level":"info","summary":"` + strings.Repeat("s", 300) + `\nsecond line"},` +
			`"remediation":{"reference":"ftp://x"}}]},"status":{"response":"Success"}}`,
		`{"apiVersion":"config.openshift.io/v1beta1","kind":"UpdateInsightsResponse","spec":{"insights":[` +
			`{"uid":"later","acquisitionTime":"9999-12-31T23:00:00Z","scope":{"type":"ControlPlane"},"impact":{"level":"info","summary":"s"},"remediation":{"estimatedFinish":"2h"}},` +
			`{"uid":"long","scope":{"type":"WorkerPool","resources":[` + strings.TrimSuffix(strings.Repeat(`{"kind":"Node","name":"`+strings.Repeat("n", 250)+`"},`, 8), ",") + `]},` +
			`"impact":{"level":"warning","summary":"s"}}]},"status":{"response":"Success"}}`,
	} {
		f.Add("mco", []byte(body))
	}

	cv := &configv1.ClusterVersion{Status: configv1.ClusterVersionStatus{
		Desired: configv1.Release{Version: "4.16.1"},
		History: []configv1.UpdateHistory{{Version: "4.16.1", State: configv1.PartialUpdate}, {Version: "4.16.0", State: configv1.CompletedUpdate}},
	}}
	now := time.Date(2024, 8, 2, 10, 5, 0, 0, time.UTC)
	worker := &insightsv1alpha1.MachineConfigPoolProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: "worker"},
		Status:     insightsv1alpha1.MachineConfigPoolProgressInsightStatus{Name: "worker", ScopeType: insightsv1alpha1.ScopeTypeWorkerPool},
	}
	schema := apivalidation.Status("UpdateStatus")
	f.Fuzz(func(t *testing.T, informer string, body []byte) {
		// UpdateInformers are objects, named as objects are.
		if len(informer) == 0 || len(informer) > 253 || strings.Trim(informer, "abcdefghijklmnopqrstuvwxyz0123456789-.") != "" {
			return
		}
		var resp protocol.UpdateInsightsResponse
		if json.Unmarshal(body, &resp) != nil || resp.Validate() != nil {
			return
		}
		converted := convert(informer, resp.Spec.Insights)
		answer := updatestatus.Answer{Informer: informer, Insights: unresolved{}.withKept(converted), Problem: converted.problem()}
		status := updatestatus.Compute(updatestatus.Input{
			ClusterVersion: cv,
			Pools:          []*insightsv1alpha1.MachineConfigPoolProgressInsight{worker},
			NodePools:      map[string]string{"worker-0": "worker"},
			Answers:        []updatestatus.Answer{answer},
			Now:            now,
		})
		if errs := schema.Validate(status); len(errs) > 0 {
			t.Fatalf("the API would refuse the status: %v", errs.ToAggregate())
		}
		shown := 0
		for _, i := range status.ControlPlane.Informers {
			shown += len(i.Insights)
		}
		for _, p := range status.WorkerPools {
			for _, i := range p.Informers {
				shown += len(i.Insights)
			}
		}
		complete := true
		for _, c := range status.Conditions {
			if c.Type == updatestatus.ConditionInsightsComplete {
				complete = c.Status == metav1.ConditionTrue
			}
		}
		if complete && shown != len(resp.Spec.Insights) {
			t.Errorf("%d insights answered, %d shown, and the status says it is complete", len(resp.Spec.Insights), shown)
		}
	})
}
