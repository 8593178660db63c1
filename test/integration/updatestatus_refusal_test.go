package integration

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
	"github.com/update-insights/update-insights-operator/pkg/updateplan"
)

const (
	updateStatusCRD = "updatestatuses." + insightsv1alpha1.GroupName
	// poisonUID is the uid of the insight the API server refuses while
	// refusePoison is in force, saying poisonMessage.
	poisonUID     = "poison"
	poisonMessage = "the test refuses this insight"
)

// refusePoison makes the API server refuse, until the test ends, a status
// of the CRD crd whose control plane holds an insight of uid poison: a rule
// the operator cannot know of, which stands for whatever an informer may
// send that the operator's bounds do not foresee. probe says whether the
// API server refuses the poison yet.
func refusePoison(t *testing.T, crd string, probe func(ctx context.Context) (bool, error)) {
	t.Helper()
	rule := apiextensionsv1.ValidationRule{Rule: "self.uid != '" + poisonUID + "'", Message: poisonMessage}
	ruleUntilTheEnd(t, crd, func(status *apiextensionsv1.JSONSchemaProps, add bool) {
		controlPlane := status.Properties["controlPlane"]
		informers := controlPlane.Properties["informers"]
		informer := informers.Items.Schema
		insights := informer.Properties["insights"]
		insight := insights.Items.Schema
		insight.XValidations = nil
		if add {
			insight.XValidations = apiextensionsv1.ValidationRules{rule}
		}
		informer.Properties["insights"] = insights
		controlPlane.Properties["informers"] = informers
		status.Properties["controlPlane"] = controlPlane
	}, probe)
}

// ruleUntilTheEnd changes the status schema of the CRD crd with edit(status,
// true) and waits until probe says the API server applies the change: it
// takes a new schema a moment after the CRD changes. When the test ends, it
// undoes the change with edit(status, false) and waits until the API server
// no longer applies it.
func ruleUntilTheEnd(t *testing.T, crd string, edit func(status *apiextensionsv1.JSONSchemaProps, add bool), probe func(ctx context.Context) (bool, error)) {
	t.Helper()
	client, err := apiextensionsclient.NewForConfig(testEnv.Config)
	if err != nil {
		t.Fatal(err)
	}
	crds := client.ApiextensionsV1().CustomResourceDefinitions()
	setRule := func(add bool) error {
		return retry.RetryOnConflict(retry.DefaultRetry, func() error {
			current, err := crds.Get(context.Background(), crd, metav1.GetOptions{})
			if err != nil {
				return err
			}
			schema := current.Spec.Versions[0].Schema.OpenAPIV3Schema
			status := schema.Properties["status"]
			edit(&status, add)
			schema.Properties["status"] = status
			_, err = crds.Update(context.Background(), current, metav1.UpdateOptions{})
			return err
		})
	}
	waitFor := func(applied bool) error {
		return wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
			got, err := probe(ctx)
			return err == nil && got == applied, nil
		})
	}
	if err := setRule(true); err != nil {
		t.Fatalf("adding the rule to %s: %v", crd, err)
	}
	t.Cleanup(func() {
		if err := setRule(false); err != nil {
			t.Errorf("removing the rule from %s: %v", crd, err)
		}
		if err := waitFor(false); err != nil {
			t.Errorf("the API server still applies the rule of %s: %v", crd, err)
		}
	})
	if err := waitFor(true); err != nil {
		t.Fatalf("the API server did not take the rule of %s: %v", crd, err)
	}
}

// poisonInsight is the insight refusePoison makes the API server refuse.
func poisonInsight() insightsv1alpha1.UpdateInsight {
	return insightsv1alpha1.UpdateInsight{
		UID:    poisonUID,
		Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel, Type: insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.UpdateSpeedImpactType), Summary: "probe"},
	}
}

// updateStatusRefusesPoison says whether the API server refuses an
// UpdateStatus with the poison, by a dry run of a status update (the
// status subresource is validated on update only): of the operator's
// UpdateStatus, or of one created for a moment when there is none.
func updateStatusRefusesPoison(ctx context.Context) (bool, error) {
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
	attempt.Status.ControlPlane.Informers = []insightsv1alpha1.InformerInsights{{Name: "probe", Insights: []insightsv1alpha1.UpdateInsight{poisonInsight()}}}
	_, err = statuses.UpdateStatus(ctx, attempt, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
	return err != nil && strings.Contains(err.Error(), poisonMessage), nil
}

// An informer whose insights the API server refuses is left out of
// UpdateStatus, and reported offline, while the others' insights, the
// operator's own included, are written; once it answers something the API
// server takes, its insights are back. An informer whose answer holds a
// time out of the API's range is refused as a whole, on its own.
func TestAnInformerWhoseInsightsTheAPIServerRefusesDoesNotBlockTheOthers(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	refusePoison(t, updateStatusCRD, updateStatusRefusesPoison)
	ca := informertest.NewCA(t)
	good := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	good.answer(0, protocol.ResponseSuccess, "a")
	poisoned := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	poisoned.answer(0, protocol.ResponseSuccess, "b", poisonUID)
	// An estimated finish within year 9999 in its own zone, in year 10000
	// in UTC, where the API server would refuse it: the protocol's
	// validation refuses the answer before it can reach UpdateStatus.
	timeless := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	timeless.answerRaw([]byte(`{"apiVersion":"` + protocol.APIVersion + `","kind":"` + protocol.KindUpdateInsightsResponse + `","spec":{"insights":[` +
		`{"uid":"late","scope":{"type":"ControlPlane"},"impact":{"level":"warning","type":"Update Speed","summary":"late"},` +
		`"remediation":{"estimatedFinish":"9999-12-31T23:00:00-01:30"}}]},"status":{"response":"Success"}}`))
	createInformer(t, informerOf("good-informer", good, ca.PEM))
	createInformer(t, informerOf("poisoned-informer", poisoned, ca.PEM))
	createInformer(t, informerOf("timeless-informer", timeless, ca.PEM))
	startOperator(t, informerInterval)

	waitForInformer(t, "one informer refused", "good-informer", []string{"a"}, false, "True/Called")
	waitForOnline(t, "a time out of the API's range", "timeless-informer", "False/Failure", "10000-01-01T00:30:00Z in UTC, out of the range the API stores", "True/Discovered")
	waitForOfflineInsight(t, "a time out of the API's range", "timeless-informer", true)
	waitForOfflineInsight(t, "one informer refused", "poisoned-informer", true)
	s, err := getUpdateStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := uidsOf(reported(s, "poisoned-informer")); len(got) != 0 {
		t.Errorf("UpdateStatus holds %v of the refused informer, want none", got)
	}
	if own := uidsOf(reported(s, "update-insights-operator")); len(own) == 0 {
		t.Errorf("UpdateStatus holds none of the operator's own insights")
	}
	offline := findInsight(reported(s, "update-insights-operator"), "informer/poisoned-informer")
	if offline == nil || !strings.Contains(offline.Impact.Description, poisonMessage) {
		t.Errorf("the offline insight does not say what the API server refused: %+v", offline)
	}

	poisoned.answer(0, protocol.ResponseSuccess, "b")
	waitForInformer(t, "the informer answers what the API server takes", "poisoned-informer", []string{"b"}, false, "True/Called")
	waitForOfflineInsight(t, "the informer answers what the API server takes", "poisoned-informer", false)
}

func findInsight(i *insightsv1alpha1.InformerInsights, uid string) *insightsv1alpha1.UpdateInsight {
	if i == nil {
		return nil
	}
	for _, insight := range i.Insights {
		if insight.UID == uid {
			return &insight
		}
	}
	return nil
}

// planRefusesPoison is updateStatusRefusesPoison for the UpdatePlan name.
func planRefusesPoison(name string) func(ctx context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		plans := insightsClient.InsightsV1alpha1().UpdatePlans()
		current, err := plans.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		attempt := current.DeepCopy()
		attempt.Status.ControlPlane.Informers = []insightsv1alpha1.InformerPlanInsights{{Name: "probe", Insights: []insightsv1alpha1.UpdatePlanInsight{
			{UpdateInsight: poisonInsight(), Identity: "probe/ControlPlane//" + poisonUID},
		}}}
		_, err = plans.UpdateStatus(ctx, attempt, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
		return err != nil && strings.Contains(err.Error(), poisonMessage), nil
	}
}

// An informer whose findings the API server refuses is left out of the
// plan, which says it is offline, while the others' findings are written.
func TestAPlanInformerWhoseFindingsTheAPIServerRefusesDoesNotBlockTheOthers(t *testing.T) {
	createClusterVersion(t, nil, plannedStatus())
	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(planTarget, planTarget)); err != nil {
		t.Fatal(err)
	}
	refusePoison(t, "updateplans."+insightsv1alpha1.GroupName, planRefusesPoison(planTarget))
	startPlanInformer(t, "mco", 10*time.Second, 0, "drain")
	startPlanInformer(t, "poisoned", 10*time.Second, 0, "b", poisonUID)
	startOperator(t, informerInterval)

	waitFor(t, eventually, "mco's finding, and the poisoned informer offline", getPlan(planTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		c := meta.FindStatusCondition(p.Status.Conditions, updateplan.ConditionAnswered)
		return slices.Contains(planFindings(p), mcoIdentity) && c != nil && c.Status == metav1.ConditionFalse &&
			c.Reason == updateplan.ReasonInformersOffline && strings.Contains(c.Message, "poisoned")
	})
	p, err := getPlan(planTarget)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range planFindings(p) {
		if strings.HasPrefix(id, "poisoned/") {
			t.Errorf("the plan holds %s of the refused informer", id)
		}
	}
	// What the refused informer checks did not make it into the plan: a
	// finding to accept says so.
	if unanswered := "update-insights-operator/ControlPlane/UpdateInformer.openshift.muller.dev/poisoned/informer/poisoned"; !slices.Contains(planFindings(p), unanswered) {
		t.Errorf("the plan's findings %v lack %s", planFindings(p), unanswered)
	}
	t.Logf("Answered: %s", meta.FindStatusCondition(p.Status.Conditions, updateplan.ConditionAnswered).Message)
}
