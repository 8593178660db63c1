package precheck

import (
	"fmt"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

const uidOLMUnchecked = "olm-unchecked"

// olmUnchecked: on a cluster that serves OLM's API, the operators OLM
// installed have findings of their own (the informer
// operator-lifecycle-manager); when they could not be made, the update
// would go ahead on checks that never ran. OLM reports what blocks a minor
// update on its ClusterOperator, which is what the finding is about.
func olmUnchecked(in *Input) []insightsv1alpha1.UpdateInsight {
	if in.OLMUnchecked == nil {
		return nil
	}
	return []insightsv1alpha1.UpdateInsight{finding{
		uid: uidOLMUnchecked, level: insightsv1alpha1.WarningInsightLevel, impact: insightsv1alpha1.UnknownImpactType,
		scope:   controlPlane(clusterOperatorResource("operator-lifecycle-manager")),
		summary: "The operators OLM installed were not checked: " + in.OLMUnchecked.Error(),
		description: fmt.Sprintf("Not looked at: operators whose olm.maxOpenShiftVersion does not allow %s, operator updates waiting for approval, "+
			"unhealthy operators and deprecations. To check by hand: whether OLM blocks a minor update,\n"+
			`oc get clusteroperator operator-lifecycle-manager -o jsonpath='{.status.conditions[?(@.type=="Upgradeable")]}{"\n"}'`+
			"\nthe InstallPlans waiting for approval and the operators' phases,\n"+
			"oc get installplans.operators.coreos.com,clusterserviceversions.operators.coreos.com -A", in.Target),
	}.insight(in.Now)}
}
