package integration

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/informer/informertest"
	"github.com/update-insights/update-insights-operator/pkg/informer/protocol"
)

const (
	updateStatusCRD = "updatestatuses." + insightsv1alpha1.GroupName
	// poisonUID is the uid of the insight the API server refuses while
	// refusePoison is in force.
	poisonUID = "poison"
)

// refusePoison makes the API server refuse, until the test ends, an
// UpdateStatus whose control plane holds an insight of uid poison: a rule
// the operator cannot know of, which stands for whatever an informer may
// send that the operator's bounds do not foresee.
func refusePoison(t *testing.T) {
	t.Helper()
	client, err := apiextensionsclient.NewForConfig(testEnv.Config)
	if err != nil {
		t.Fatal(err)
	}
	crds := client.ApiextensionsV1().CustomResourceDefinitions()
	rule := apiextensionsv1.ValidationRule{Rule: "self.uid != '" + poisonUID + "'", Message: "the test refuses this insight"}
	setRule := func(add bool) error {
		return retry.RetryOnConflict(retry.DefaultRetry, func() error {
			crd, err := crds.Get(context.Background(), updateStatusCRD, metav1.GetOptions{})
			if err != nil {
				return err
			}
			schema := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
			status := schema.Properties["status"]
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
			schema.Properties["status"] = status
			_, err = crds.Update(context.Background(), crd, metav1.UpdateOptions{})
			return err
		})
	}
	if err := setRule(true); err != nil {
		t.Fatalf("adding the rule to the UpdateStatus CRD: %v", err)
	}
	t.Cleanup(func() {
		if err := setRule(false); err != nil {
			t.Errorf("removing the rule from the UpdateStatus CRD: %v", err)
		}
		if err := waitForPoisonRefused(false); err != nil {
			t.Errorf("the API server still refuses the poison: %v", err)
		}
	})
	if err := waitForPoisonRefused(true); err != nil {
		t.Fatalf("the API server did not take the rule: %v", err)
	}
}

// waitForPoisonRefused waits until the API server refuses an UpdateStatus
// with the poison, or takes it: it takes a new schema a moment after the
// CRD changes. A dry run of a create says.
func waitForPoisonRefused(refused bool) error {
	probe := &insightsv1alpha1.UpdateStatus{ObjectMeta: metav1.ObjectMeta{Name: insightsv1alpha1.UpdateStatusName}}
	probe.Status.ControlPlane.Informers = []insightsv1alpha1.InformerInsights{{Name: "probe", Insights: []insightsv1alpha1.UpdateInsight{{
		UID:    poisonUID,
		Scope:  insightsv1alpha1.UpdateInsightScope{Type: insightsv1alpha1.ScopeTypeControlPlane},
		Impact: insightsv1alpha1.UpdateInsightImpact{Level: insightsv1alpha1.WarningInsightLevel, Type: insightsv1alpha1.UpdateInsightImpactType(insightsv1alpha1.UpdateSpeedImpactType), Summary: "probe"},
	}}}}
	statuses := insightsClient.InsightsV1alpha1().UpdateStatuses()
	return wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, eventually, true, func(ctx context.Context) (bool, error) {
		// The status subresource is validated on update only: the probe
		// needs an object to update, created (and deleted) for a moment
		// when the operator's is absent.
		current, err := statuses.Get(ctx, insightsv1alpha1.UpdateStatusName, metav1.GetOptions{})
		if err != nil {
			created, cerr := statuses.Create(ctx, probe.DeepCopy(), metav1.CreateOptions{})
			if cerr != nil {
				return false, nil
			}
			defer func() { _ = statuses.Delete(context.Background(), created.Name, metav1.DeleteOptions{}) }()
			current = created
		}
		attempt := current.DeepCopy()
		attempt.Status = probe.Status
		_, err = statuses.UpdateStatus(ctx, attempt, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
		got := err != nil && strings.Contains(err.Error(), "the test refuses this insight")
		return got == refused, nil
	})
}

// An informer whose insights the API server refuses is left out of
// UpdateStatus, and reported offline, while the others' insights, the
// operator's own included, are written; once it answers something the API
// server takes, its insights are back.
func TestAnInformerWhoseInsightsTheAPIServerRefusesDoesNotBlockTheOthers(t *testing.T) {
	deleteUpdateStatusAtEnd(t)
	createClusterVersion(t, nil, midUpdateStatus())
	refusePoison(t)
	ca := informertest.NewCA(t)
	good := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	good.answer(0, protocol.ResponseSuccess, "a")
	poisoned := startInformer(t, "127.0.0.1", ca.Serving(t, nil, net.ParseIP("127.0.0.1")))
	poisoned.answer(0, protocol.ResponseSuccess, "b", poisonUID)
	createInformer(t, informerOf("good-informer", good, ca.PEM))
	createInformer(t, informerOf("poisoned-informer", poisoned, ca.PEM))
	startOperator(t, informerInterval)

	waitForInformer(t, "one informer refused", "good-informer", []string{"a"}, false, "True/Called")
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
	if offline == nil || !strings.Contains(offline.Impact.Description, "the test refuses this insight") {
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
