package status

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
)

// operatorWarnings say so when the operator that maintains the insights
// reports, in its ClusterOperator, that it is not available or degraded: the
// insights may then be out of date, which the rest of the output, drawn from
// them, cannot tell.
func operatorWarnings(co *configv1.ClusterOperator) []string {
	if co == nil {
		return nil
	}
	var state string
	var condition *configv1.ClusterOperatorStatusCondition
	if c := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable); c != nil && c.Status == configv1.ConditionFalse {
		state, condition = "not available", c
	} else if c := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorDegraded); c != nil && c.Status == configv1.ConditionTrue {
		state, condition = "degraded", c
	} else {
		return nil
	}
	return []string{fmt.Sprintf("The %s operator is %s (%s), so what follows may be out of date; `oc describe clusteroperator %s` says why.",
		co.Name, state, orUnknown(condition.Reason), co.Name)}
}
