package apivalidation

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

func TestStatus(t *testing.T) {
	now := metav1.Date(2024, 8, 2, 10, 0, 0, 0, metav1.Now().Location())
	condition := func(typ string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: "Reason", Message: "message", LastTransitionTime: now}
	}
	for _, tc := range []struct {
		name   string
		status v1alpha1.UpdateStatusStatus
		// refused is a part of the error the schema gives, empty when it
		// accepts the status.
		refused string
	}{
		{name: "empty"},
		{name: "conditions", status: v1alpha1.UpdateStatusStatus{Conditions: []metav1.Condition{condition("A"), condition("B")}}},
		{
			name:    "a condition type twice, in a list of type map",
			status:  v1alpha1.UpdateStatusStatus{Conditions: []metav1.Condition{condition("A"), condition("A")}},
			refused: "status.conditions[1]: Duplicate value",
		},
		{
			name: "too many conditions",
			status: v1alpha1.UpdateStatusStatus{Conditions: []metav1.Condition{
				condition("A"), condition("B"), condition("C"), condition("D"), condition("E"), condition("F"), condition("G"), condition("H"), condition("I"),
			}},
			refused: "status.conditions: Too many: 9: must have at most 8 items",
		},
		{
			name:    "a status out of its enum",
			status:  v1alpha1.UpdateStatusStatus{Conditions: []metav1.Condition{{Type: "A", Status: "Maybe", Reason: "R", LastTransitionTime: now}}},
			refused: `status.conditions[0].status: Unsupported value: "Maybe"`,
		},
		{
			name:    "a message too long, counted in characters",
			status:  v1alpha1.UpdateStatusStatus{Conditions: []metav1.Condition{{Type: "A", Status: metav1.ConditionTrue, Reason: "R", Message: strings.Repeat("é", 32769), LastTransitionTime: now}}},
			refused: "status.conditions[0].message: Too long",
		},
		{
			name:    "a required field missing",
			status:  v1alpha1.UpdateStatusStatus{Conditions: []metav1.Condition{{Type: "A", Status: metav1.ConditionTrue, LastTransitionTime: now}}},
			refused: "status.conditions[0].reason",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := Status("UpdateStatus").Validate(tc.status)
			switch {
			case tc.refused == "" && len(errs) > 0:
				t.Errorf("refused: %v", errs.ToAggregate())
			case tc.refused != "" && (len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), tc.refused)):
				t.Errorf("expected it refused with %q, got %v", tc.refused, errs.ToAggregate())
			}
		})
	}
}

// Every kind the operator writes has a status schema, and each refuses what
// is not an object.
func TestStatusOfEveryKind(t *testing.T) {
	for _, kind := range []string{
		"ClusterOperatorProgressInsight", "ClusterVersionProgressInsight", "MachineConfigPoolProgressInsight",
		"NodeProgressInsight", "UpdateHealthInsight", "UpdateInformer", "UpdatePlan", "UpdateStatus",
	} {
		if errs := Status(kind).Validate("status"); len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), "must be of type object") {
			t.Errorf("%s: a string status is not refused as such: %v", kind, errs.ToAggregate())
		}
	}
}

// TestNullsAreDroppedAsTheAPIServerDrops: an empty metav1.Time encodes as
// null, which the API server drops before it validates; an optional time is
// then absent, a required one missing.
func TestNullsAreDroppedAsTheAPIServerDrops(t *testing.T) {
	undated := v1alpha1.UpdateHealthInsightStatus{
		Scope:       v1alpha1.InsightScope{Type: v1alpha1.ScopeTypeWorkerPool, Resources: []v1alpha1.ResourceRef{{Resource: "nodes", Name: "worker-0"}}},
		Impact:      v1alpha1.InsightImpact{Level: v1alpha1.ErrorImpactLevel, Type: v1alpha1.UpdateStalledImpactType, Summary: "Node worker-0 is degraded"},
		Remediation: v1alpha1.InsightRemediation{Reference: "https://docs.openshift.com/"},
	}
	if errs := Status("UpdateHealthInsight").Validate(undated); len(errs) > 0 {
		t.Errorf("a health insight without startedAt refused: %v", errs.ToAggregate())
	}
	undatedCondition := v1alpha1.UpdateStatusStatus{Conditions: []metav1.Condition{{Type: "A", Status: metav1.ConditionTrue, Reason: "R"}}}
	if errs := Status("UpdateStatus").Validate(undatedCondition); len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), "lastTransitionTime: Required value") {
		t.Errorf("a condition without its required lastTransitionTime: %v, want it refused as missing", errs.ToAggregate())
	}
}
