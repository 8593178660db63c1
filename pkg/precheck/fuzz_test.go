package precheck

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiserverv1 "github.com/openshift/api/apiserver/v1"
	configv1 "github.com/openshift/api/config/v1"
	machineconfigurationv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/update-insights/update-insights-operator/pkg/alerts"
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/internal/apivalidation"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
	"github.com/update-insights/update-insights-operator/pkg/updatestatus"
)

// fuzzedCluster is what the pre-checks read, as one JSON document.
type fuzzedCluster struct {
	ClusterVersion *configv1.ClusterVersion                    `json:"clusterVersion"`
	Operators      []*configv1.ClusterOperator                 `json:"operators"`
	Nodes          []*corev1.Node                              `json:"nodes"`
	Pools          []*machineconfigurationv1.MachineConfigPool `json:"pools"`
	Gates          map[string]string                           `json:"gates"`
	Acks           map[string]string                           `json:"acks"`
	Counts         []*apiserverv1.APIRequestCount              `json:"counts"`
	Credential     *operatorv1.CloudCredential                 `json:"credential"`
}

// FuzzRun runs the pre-checks on an arbitrary cluster (as JSON), target and
// alerts answer: the findings are the same when run again, and the plan
// they make is one the UpdatePlan schema accepts.
func FuzzRun(f *testing.F) {
	alertsAnswer, err := os.ReadFile(filepath.Join("..", "..", "test", "testdata", "oc-recommend", "4.16.27-degraded-monitoring-alerts.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(apivalidation.JSON(f, fuzzedCluster{
		ClusterVersion: clusterVersion(),
		Nodes:          []*corev1.Node{node("worker-0", "worker"), node("master-0", "master")},
		Gates:          map[string]string{apiRemovalsGate: apiRemovalsText},
		Acks:           map[string]string{},
		Counts:         []*apiserverv1.APIRequestCount{apiRequestCount("flowschemas.v1beta3.flowcontrol.apiserver.k8s.io", "1.32", []requests{{"system:serviceaccount:a:b", []any{"get", 3}}})},
		Credential:     cloudCredential(operatorv1.CloudCredentialsModeManual, ""),
	}), "4.17.2", alertsAnswer)
	f.Add(apivalidation.JSON(f, fuzzedCluster{}), "", []byte(`{"status":"success","data":{"alerts":[]}}`))

	schema := apivalidation.Status("UpdatePlan")
	f.Fuzz(func(t *testing.T, clusterJSON []byte, target string, alertsAnswer []byte) {
		var c fuzzedCluster
		if json.Unmarshal(clusterJSON, &c) != nil || !namedAsTheAPIServerNames(c) {
			return
		}
		in := Input{
			ClusterVersion: c.ClusterVersion, Target: target, ClusterOperators: c.Operators, Nodes: c.Nodes, Pools: c.Pools,
			APIRequestCounts: c.Counts, CloudCredential: c.Credential, Now: now,
		}
		if c.Gates != nil {
			in.AdminGates = gatesOf()
			in.AdminGates.Data = c.Gates
		}
		if c.Acks != nil {
			in.AdminAcks = acksOf()
			in.AdminAcks.Data = c.Acks
		}
		in.Alerts, in.AlertsUnreadable = alerts.Decode(bytes.NewReader(alertsAnswer))
		findings := Run(in)
		if again := Run(in); !cmp.Equal(findings, again) {
			t.Fatalf("run again (-first +second):\n%s", cmp.Diff(findings, again))
		}
		checkPlan(t, schema, target, findings)
	})
}

// namedAsTheAPIServerNames says whether every object has a name the API
// server accepts, as every object the pre-checks read has.
func namedAsTheAPIServerNames(c fuzzedCluster) bool {
	var objects []metav1.Object
	for _, o := range c.Operators {
		objects = append(objects, o)
	}
	for _, o := range c.Nodes {
		objects = append(objects, o)
	}
	for _, o := range c.Pools {
		objects = append(objects, o)
	}
	for _, o := range c.Counts {
		objects = append(objects, o)
	}
	if c.ClusterVersion != nil {
		objects = append(objects, c.ClusterVersion)
	}
	if c.Credential != nil {
		objects = append(objects, c.Credential)
	}
	for _, o := range objects {
		if o == nil || len(validation.IsDNS1123Subdomain(o.GetName())) > 0 {
			return false
		}
	}
	return true
}

// FuzzAdminGates checks an arbitrary admin gate and acknowledgement for
// arbitrary versions, as the cluster-version operator does: the findings
// make a plan the UpdatePlan schema accepts.
func FuzzAdminGates(f *testing.F) {
	f.Add(apiRemovalsGate, apiRemovalsText, "", "4.16.3", "4.17.2")
	f.Add(apiRemovalsGate, apiRemovalsText, "true", "4.16.3", "4.17.2")
	f.Add("ack-4.16-not-a-gate", "", "false", "4.16.3", "4.18.0")
	f.Add("ack-4.x-kube", "text", "", "4.16", "5.0.0")
	schema := apivalidation.Status("UpdatePlan")
	f.Fuzz(func(t *testing.T, key, text, ack, current, target string) {
		cv := clusterVersion()
		cv.Status.History[0].Version, cv.Status.Desired.Version = current, current
		in := &Input{ClusterVersion: cv, Target: target, AdminGates: gatesOf(key, text), AdminAcks: acksOf(key, ack), Now: now}
		checkPlan(t, schema, target, adminGates(in))
	})
}

// checkPlan checks that the findings make a plan the schema accepts.
func checkPlan(t *testing.T, schema *apivalidation.Schema, target string, findings []insightsv1alpha1.UpdateInsight) {
	t.Helper()
	plan := &insightsv1alpha1.UpdatePlan{ObjectMeta: metav1.ObjectMeta{Name: target}, Spec: insightsv1alpha1.UpdatePlanSpec{TargetRelease: target}}
	status := updateplan.Compute(updateplan.Input{
		Plan:        plan,
		Answers:     []updatestatus.Answer{{Informer: updatestatus.BuiltinInformer, Insights: findings}},
		EvaluatedAt: now,
		Now:         now,
	})
	if errs := schema.Validate(status); len(errs) > 0 {
		t.Errorf("the API would refuse the plan of these findings: %v", errs.ToAggregate())
	}
}
