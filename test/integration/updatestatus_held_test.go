package integration

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/controllers/operatorstatus"
	updatestatuscontroller "github.com/update-insights/update-insights-operator/pkg/controllers/updatestatus"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// conditionsRefused is the message of the rule refuseConditions adds.
const conditionsRefused = "the test refuses every condition of UpdateStatus"

// refuseConditions makes the API server refuse, until the test ends, an
// UpdateStatus with conditions, which the operator always writes: a rule
// on something no informer contributes, which no shedding mends.
func refuseConditions(t *testing.T) {
	t.Helper()
	rule := apiextensionsv1.ValidationRule{Rule: "!has(self.conditions) || size(self.conditions) == 0", Message: conditionsRefused}
	refuses := func(ctx context.Context) (bool, error) {
		statuses := insightsClient.InsightsV1alpha1().UpdateStatuses()
		current, err := statuses.Get(ctx, insightsv1alpha1.UpdateStatusName, metav1.GetOptions{})
		if err != nil {
			created, cerr := statuses.Create(ctx, &insightsv1alpha1.UpdateStatus{ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}}, metav1.CreateOptions{})
			if cerr != nil {
				return false, cerr
			}
			defer func() { _ = statuses.Delete(context.Background(), created.Name, metav1.DeleteOptions{}) }()
			current = created
		}
		attempt := current.DeepCopy()
		attempt.Status.Conditions = []metav1.Condition{{Type: "Probe", Status: metav1.ConditionTrue, Reason: "Probe", Message: "probe", LastTransitionTime: metav1.Now()}}
		_, err = statuses.UpdateStatus(ctx, attempt, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
		return err != nil && strings.Contains(err.Error(), conditionsRefused), nil
	}
	ruleUntilTheEnd(t, updateStatusCRD, func(status *apiextensionsv1.JSONSchemaProps, add bool) {
		var rules apiextensionsv1.ValidationRules
		for _, r := range status.XValidations {
			if r.Message != conditionsRefused {
				rules = append(rules, r)
			}
		}
		if add {
			rules = append(rules, rule)
		}
		status.XValidations = rules
	}, refuses)
}

// updateStatusDegraded is the operator's UpdateStatusControllerDegraded
// condition, if any.
func updateStatusDegraded(co *configv1.ClusterOperator) *configv1.ClusterOperatorStatusCondition {
	return v1helpers.FindStatusCondition(co.Status.Conditions, operatorstatus.ControllerConditionType(updatestatuscontroller.Name))
}

// staysDegraded checks, for a few seconds, that the operator's
// UpdateStatusControllerDegraded condition stays True without a new
// transition, saying message.
func staysDegraded(t *testing.T, message string) {
	t.Helper()
	co := waitForOwnClusterOperator(t, eventually, "Degraded for the refused UpdateStatus", func(co *configv1.ClusterOperator) bool {
		d := updateStatusDegraded(co)
		return d != nil && d.Status == configv1.ConditionTrue && strings.Contains(d.Message, message)
	})
	since := updateStatusDegraded(co).LastTransitionTime
	t.Logf("%s: %q", operatorstatus.ControllerConditionType(updatestatuscontroller.Name), updateStatusDegraded(co).Message)
	for range 20 {
		time.Sleep(250 * time.Millisecond)
		co := mustGet(t, func(ctx context.Context) (*configv1.ClusterOperator, error) {
			return configClient.ConfigV1().ClusterOperators().Get(ctx, names.OwnClusterOperator, metav1.GetOptions{})
		})
		d := updateStatusDegraded(co)
		if d == nil || d.Status != configv1.ConditionTrue || !d.LastTransitionTime.Equal(&since) {
			t.Fatalf("the degraded condition changed while the refusal lasts: %+v", d)
		}
	}
}

// An UpdateStatus the API server refuses whatever the operator leaves out
// is not written again and again: the operator reports, steadily, that the
// API server refuses it and why.
func TestAnUpdateStatusNoSheddingMendsIsReportedSteadily(t *testing.T) {
	if err := resetOwnClusterOperator(context.Background()); err != nil {
		t.Fatal(err)
	}
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	refuseConditions(t)
	ca := informertest.NewCA(t)
	good := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	good.answer(0, protocol.ResponseSuccess, "a")
	createInformer(t, informerOf("good-informer", good, ca.PEM))
	op := startOperator(t, informerInterval, "--degraded-grace-period=1s")

	// The informer's first answer, and the operator's own ClusterOperator
	// (an input too), change the inputs as it starts: the sheds are
	// counted once the operator holds the object and says so, which it
	// does only when nothing is left to shed, and is Degraded past its
	// grace period.
	const held = "refuses UpdateStatus even without the insights of any informer"
	waitForOwnClusterOperator(t, eventually, "Degraded for the refused UpdateStatus", func(co *configv1.ClusterOperator) bool {
		d := updateStatusDegraded(co)
		return d != nil && d.Status == configv1.ConditionTrue && strings.Contains(d.Message, conditionsRefused) && strings.Contains(d.Message, held) &&
			v1helpers.IsStatusConditionTrue(co.Status.Conditions, configv1.OperatorDegraded)
	})
	op.waitForOutput(t, "The API server refuses the UpdateStatus even without the insights of any informer", eventually)
	const shed = "The API server refused the UpdateStatus for informers' insights"
	before := strings.Count(op.output.String(), shed)
	staysDegraded(t, held)
	// The ClusterOperator's last change may reach the controller after
	// the count began: one computation, shed and held again. A refusal
	// written again and again is shed at every retry of the queue.
	if after := strings.Count(op.output.String(), shed); after-before > 1 {
		t.Errorf("the operator shed informers %d more times while its inputs stayed the same, want at most the one its own ClusterOperator's last change asks", after-before)
	}
}

// While the API server refuses one informer's insights, UpdateStatus is
// written without them, and the operator says so steadily rather than
// clearing its degraded condition at each write that succeeded.
func TestAShedInformerIsReportedSteadily(t *testing.T) {
	if err := resetOwnClusterOperator(context.Background()); err != nil {
		t.Fatal(err)
	}
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	addControlPlaneRule(t)
	ca := informertest.NewCA(t)
	good := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	good.answer(0, protocol.ResponseSuccess, "a")
	large := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	large.answerInsights(controlPlaneInsights("large", 30, 100, protocol.LevelWarning))
	createInformer(t, informerOf("good-informer", good, ca.PEM))
	createInformer(t, informerOf("large-informer", large, ca.PEM))
	startOperator(t, informerInterval, "--degraded-grace-period=1s")

	waitForOfflineInsight(t, "the largest contributor shed", "large-informer", true)
	staysDegraded(t, "UpdateStatus is written without the insights of large-informer")
	good.answer(0, protocol.ResponseSuccess, "a2")
	waitForInformer(t, "a new answer beside the shed informer", "good-informer", []string{"a2"}, false, "True/Called")
}
