package olm

import (
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// UncheckedUID is the uid of the operator's own finding that the operators
// OLM installed were not checked.
const UncheckedUID = "olm-unchecked"

// Unchecked is the operator's own finding, for a plan to target, that the
// findings of OLM's operators could not be made, and why: on a cluster
// that serves OLM's API the update would otherwise go ahead on checks that
// never ran. OLM reports what blocks a minor update on its ClusterOperator,
// which is what the finding is about, and it says how to check by hand.
func Unchecked(target string, why error, now time.Time) insightsv1alpha1.UpdateInsight {
	return finding{
		uid: UncheckedUID, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
		resources: []insightsv1alpha1.InsightResource{{Group: configv1.GroupName, Kind: "ClusterOperator", Name: "operator-lifecycle-manager"}},
		summary:   "The operators OLM installed were not checked: " + why.Error(),
		description: fmt.Sprintf("Not looked at: operators whose olm.maxOpenShiftVersion does not allow %s, operator updates waiting for approval, "+
			"unhealthy operators and deprecations. To check by hand: whether OLM blocks a minor update,\n"+
			`oc get clusteroperator operator-lifecycle-manager -o jsonpath='{.status.conditions[?(@.type=="Upgradeable")]}{"\n"}'`+
			"\nthe InstallPlans waiting for approval and the operators' phases,\n"+
			"oc get installplans.operators.coreos.com,clusterserviceversions.operators.coreos.com -A", target),
		acquired: now,
	}.insight()
}
