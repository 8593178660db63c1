package integration

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// olmUpdatesFixture holds operators OLM is updating on a cluster running
// olmCurrent, as OLM writes them: in openshift-logging, one Manual
// InstallPlan for two Subscriptions, one of them Automatic and capped at
// 4.16; in openshift-operators, an old CSV capped at 4.16 that OLM is
// replacing.
const olmUpdatesFixture = "../testdata/olm/updates.yaml"

const (
	loggingNamespace = "openshift-logging"
	sharedPlan       = "install-q7m2x"
	quayNamespace    = "openshift-operators"
	quayOldCSV       = "quay-operator.v3.11.4"
	quayNewCSV       = "quay-operator.v3.12.1"

	lokiMaxVersionUID     = "max-openshift-version/openshift-logging/loki-operator.v5.8.2"
	sharedApprovalUID     = "install-plan-approval/openshift-logging/install-q7m2x"
	quayOldMaxVersionUID  = "max-openshift-version/openshift-operators/quay-operator.v3.11.4"
	quayNewUnhealthyUID   = "unhealthy/openshift-operators/quay-operator.v3.12.1"
	approveSharedPlanHint = `oc patch installplan install-q7m2x -n openshift-logging --type merge -p '{"spec":{"approved":true}}'`
)

// An UpdatePlan holds one finding of the InstallPlan two Subscriptions
// point at, naming both and the Automatic one waiting behind its Manual
// neighbour; the operator capped below the target whose Subscription is
// Automatic names that plan rather than promising an update; and an old
// CSV OLM is replacing names its Subscription, which the operator finds
// by the component label OLM put on the CSV, kept by its cache. Approving
// the plan and OLM deleting the old CSV clear what they held.
func TestOLMFindingsOfOperatorUpdatesUnderWay(t *testing.T) {
	olmCRDs(t)()
	createOLMObjects(t, olmUpdatesFixture, []string{loggingNamespace, quayNamespace},
		map[string]int{"ClusterServiceVersion": 4, "Subscription": 3, "InstallPlan": 2})
	createClusterVersion(t, nil, olmCompletedStatus())
	startOperator(t)

	plans := insightsClient.InsightsV1alpha1().UpdatePlans()
	if _, err := createAndDelete(t, plans.Create, plans.Delete, updatePlan(olmMinorTarget, olmMinorTarget)); err != nil {
		t.Fatal(err)
	}
	want := levels(lokiMaxVersionUID+"=error", quayOldMaxVersionUID+"=error", sharedApprovalUID+"=warning",
		quayNewUnhealthyUID+"=warning")
	p := waitFor(t, eventually, "the OLM findings of the plan to "+olmMinorTarget, getPlan(olmMinorTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return slices.Equal(planLevels(p, olmInformer), want)
	})

	approval := planInsight(t, p, sharedApprovalUID)
	if diff := cmp.Diff([]insightsv1alpha1.InsightResource{
		olmResource("Subscription", loggingNamespace, "cluster-logging"),
		olmResource("Subscription", loggingNamespace, "loki-operator"),
		olmResource("InstallPlan", loggingNamespace, sharedPlan),
	}, approval.Scope.Resources); diff != "" {
		t.Errorf("the resources of %s (-want +got):\n%s", sharedApprovalUID, diff)
	}
	saysAll(t, approval, "cluster-logging.v5.8.3, loki-operator.v5.8.3",
		"Subscription loki-operator, whose approval is Automatic, waits behind its Manual neighbour", approveSharedPlanHint)

	loki := planInsight(t, p, lokiMaxVersionUID)
	saysAll(t, loki, "its approval is Automatic, but its next update waits in InstallPlan openshift-logging/install-q7m2x", approveSharedPlanHint)
	saysNone(t, loki, "as soon as the channel offers one")

	quay := planInsight(t, p, quayOldMaxVersionUID)
	if diff := cmp.Diff([]insightsv1alpha1.InsightResource{
		olmResource("ClusterServiceVersion", quayNamespace, quayOldCSV),
		olmResource("Subscription", quayNamespace, "quay-operator"),
	}, quay.Scope.Resources); diff != "" {
		t.Errorf("the resources of %s (-want +got):\n%s", quayOldMaxVersionUID, diff)
	}
	saysAll(t, quay, "it is replacing this one with quay-operator.v3.12.1, now Installing (InstallWaiting), by Subscription openshift-operators/quay-operator",
		"the block clears when OLM deletes the old CSV", "quay-operator.v3.12.1 supports 4.17.")

	// The administrator approves the plan and OLM starts installing it;
	// the Subscription's operator still needs an update from the channel.
	ctx := context.Background()
	installPlans := olmDynamic("installplans", loggingNamespace)
	if _, err := installPlans.Patch(ctx, sharedPlan, types.MergePatchType, []byte(`{"spec":{"approved":true}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := installPlans.Patch(ctx, sharedPlan, types.MergePatchType, []byte(`{"status":{"phase":"Installing"}}`), metav1.PatchOptions{}, "status"); err != nil {
		t.Fatal(err)
	}
	// OLM deletes the old quay CSV once the new one succeeds.
	succeedAgain(t, quayNamespace, quayNewCSV)
	if err := olmDynamic("clusterserviceversions", quayNamespace).Delete(ctx, quayOldCSV, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	requestEvaluation(t, olmMinorTarget, "approved")
	p = waitFor(t, eventually, "the plan evaluated again", getPlan(olmMinorTarget), func(p *insightsv1alpha1.UpdatePlan) bool {
		return p != nil && p.Status.ObservedEvaluationRequest == "approved" && slices.Equal(planLevels(p, olmInformer), levels(lokiMaxVersionUID+"=error"))
	})
	loki = planInsight(t, p, lokiMaxVersionUID)
	saysAll(t, loki, "its approval is Automatic, so OLM installs a newer version as soon as the channel offers one")
	saysNone(t, loki, sharedPlan)
}

// planInsight is the finding of OLM's informer in p with uid.
func planInsight(t *testing.T, p *insightsv1alpha1.UpdatePlan, uid string) insightsv1alpha1.UpdateInsight {
	t.Helper()
	for _, i := range p.Status.ControlPlane.Informers {
		if i.Name != olmInformer {
			continue
		}
		for _, f := range i.Insights {
			if f.UID == uid {
				return f.UpdateInsight
			}
		}
	}
	t.Fatalf("plan %s has no finding %s", p.Name, uid)
	return insightsv1alpha1.UpdateInsight{}
}

func olmResource(kind, namespace, name string) insightsv1alpha1.InsightResource {
	return insightsv1alpha1.InsightResource{Group: "operators.coreos.com", Kind: kind, Namespace: namespace, Name: name}
}

func saysAll(t *testing.T, i insightsv1alpha1.UpdateInsight, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if !strings.Contains(i.Impact.Description, s) {
			t.Errorf("finding %s does not say %q:\n%s", i.UID, s, i.Impact.Description)
		}
	}
}

func saysNone(t *testing.T, i insightsv1alpha1.UpdateInsight, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(i.Impact.Description, s) {
			t.Errorf("finding %s says %q:\n%s", i.UID, s, i.Impact.Description)
		}
	}
}
