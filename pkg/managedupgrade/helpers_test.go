package managedupgrade

import (
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	upgradev1alpha1 "github.com/update-insights/update-insights-operator/pkg/managedupgrade/api/v1alpha1"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// ago is a time that long before now, as the UpgradeConfig holds it.
func ago(d time.Duration) *metav1.Time {
	t := metav1.NewTime(now.Add(-d))
	return &t
}

// upgradeConfig is the usual UpgradeConfig: an OSD update to 4.16.5 at
// 14:00, with no history yet, options applied in order.
func upgradeConfig(options ...func(*upgradev1alpha1.UpgradeConfig)) *upgradev1alpha1.UpgradeConfig {
	uc := &upgradev1alpha1.UpgradeConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: upgradev1alpha1.DefaultNamespace, Name: upgradev1alpha1.DefaultName},
		Spec: upgradev1alpha1.UpgradeConfigSpec{
			Desired:              upgradev1alpha1.Update{Version: "4.16.5", Channel: "stable-4.16"},
			UpgradeAt:            "2026-11-22T14:00:00Z",
			PDBForceDrainTimeout: 60,
			Type:                 upgradev1alpha1.UpgradeTypeOSD,
		},
	}
	for _, o := range options {
		o(uc)
	}
	return uc
}

func upgradeAt(s string) func(*upgradev1alpha1.UpgradeConfig) {
	return func(uc *upgradev1alpha1.UpgradeConfig) { uc.Spec.UpgradeAt = s }
}

func desired(v string) func(*upgradev1alpha1.UpgradeConfig) {
	return func(uc *upgradev1alpha1.UpgradeConfig) { uc.Spec.Desired.Version = v }
}

func upgraderType(t upgradev1alpha1.UpgradeType) func(*upgradev1alpha1.UpgradeConfig) {
	return func(uc *upgradev1alpha1.UpgradeConfig) { uc.Spec.Type = t }
}

// history adds an entry, older than those already there.
func history(h upgradev1alpha1.UpgradeHistory) func(*upgradev1alpha1.UpgradeConfig) {
	return func(uc *upgradev1alpha1.UpgradeConfig) { uc.Status.History = append(uc.Status.History, h) }
}

// running is the history entry of the update to 4.16.5 in that phase,
// started at start, with its conditions newest first.
func running(phase upgradev1alpha1.UpgradePhase, start *metav1.Time, conditions ...upgradev1alpha1.UpgradeCondition) func(*upgradev1alpha1.UpgradeConfig) {
	return history(upgradev1alpha1.UpgradeHistory{Version: "4.16.5", PrecedingVersion: "4.16.3", Phase: phase, StartTime: start, Conditions: conditions})
}

// done is a step's condition as the operator writes it once the step
// passed.
func done(t upgradev1alpha1.UpgradeConditionType, start, end *metav1.Time) upgradev1alpha1.UpgradeCondition {
	return upgradev1alpha1.UpgradeCondition{Type: t, Status: metav1.ConditionTrue, Reason: string(t) + " done", Message: string(t) + " is completed",
		StartTime: start, CompleteTime: end, LastTransitionTime: end}
}

// pending is a step's condition as the operator writes it while the step
// is not done (pkg/upgradesteps/runner.go).
func pending(t upgradev1alpha1.UpgradeConditionType, start *metav1.Time) upgradev1alpha1.UpgradeCondition {
	return upgradev1alpha1.UpgradeCondition{Type: t, Status: metav1.ConditionFalse, Reason: string(t) + " not done", Message: string(t) + " still in progress",
		StartTime: start, LastTransitionTime: start, LastProbeTime: ago(0)}
}

// failing is a step's condition as the operator writes it when the step
// returned an error: its reason stays, its message is the error
// (pkg/upgradesteps/runner.go).
func failing(t upgradev1alpha1.UpgradeConditionType, start *metav1.Time, err string) upgradev1alpha1.UpgradeCondition {
	c := pending(t, start)
	c.Message = err
	return c
}

// shipped is the configuration of the ConfigMap the Managed Upgrade
// Operator's own tests deploy (test/deploy/managed-upgrade-operator-config.yaml).
func shipped(t *testing.T) Config {
	t.Helper()
	data, err := os.ReadFile("../../test/testdata/managed-upgrade-operator/managed-upgrade-operator-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cm corev1.ConfigMap
	if err := yaml.Unmarshal(data, &cm); err != nil {
		t.Fatal(err)
	}
	config, err := ParseConfig(cm.Data[ConfigMapKey])
	if err != nil || config.Invalid != "" {
		t.Fatalf("the shipped configuration: %v, invalid: %q", err, config.Invalid)
	}
	return config
}

// seen is what a test checks of an insight: its uid's kind, not its hash.
type seen struct {
	Kind    string
	Level   protocol.Level
	Type    protocol.ImpactType
	Summary string
	Finish  string
}

func seenOf(insights []protocol.Insight) []seen {
	var out []seen
	for _, i := range insights {
		kind, _, _ := strings.Cut(i.UID, "/")
		out = append(out, seen{kind, i.Impact.Level, i.Impact.Type, i.Impact.Summary, i.Remediation.EstimatedFinish})
	}
	return out
}

// valid fails the test unless the insights make an answer the aggregator
// accepts.
func valid(t *testing.T, insights []protocol.Insight) {
	t.Helper()
	answer := protocol.UpdateInsightsResponse{
		TypeMeta: protocol.TypeMeta{APIVersion: protocol.APIVersion, Kind: protocol.KindUpdateInsightsResponse},
		Spec:     protocol.ResponseSpec{Insights: insights},
		Status:   protocol.ResponseStatus{Response: protocol.ResponseSuccess},
	}
	if err := answer.Validate(); err != nil {
		t.Errorf("the insights break the contract: %v", err)
	}
	for _, i := range insights {
		if len(i.UID) > 256 || len(i.Impact.Summary) > maxSummaryLength || len(i.Impact.Description) > maxDescriptionLength {
			t.Errorf("insight %s is not bounded: uid %d, summary %d, description %d bytes", i.UID, len(i.UID), len(i.Impact.Summary), len(i.Impact.Description))
		}
	}
}
