package statusview

import (
	"fmt"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
)

// sourceUnreachable ends the reason of an Available condition whose
// operator cannot read a source outside the API server, such as the alerts.
const sourceUnreachable = "SourceUnreachable"

// ownOperatorWarnings say so when the operator that maintains the insights
// reports, in its ClusterOperator, that it is not available or degraded: the
// insights may then be out of date, which the rest of the output, drawn from
// them, cannot tell.
func ownOperatorWarnings(co *configv1.ClusterOperator) []string {
	if co == nil {
		return nil
	}
	var state string
	var condition *configv1.ClusterOperatorStatusCondition
	if c := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable); c != nil && c.Status == configv1.ConditionFalse {
		state, condition = "not available", c
	} else if c := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorDegraded); c != nil && c.Status == configv1.ConditionTrue {
		state, condition = "degraded", c
	} else if c := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable); c != nil && strings.HasSuffix(c.Reason, sourceUnreachable) {
		return []string{fmt.Sprintf("The %s operator cannot read a source of its insights (%s), so those may be out of date; `oc describe clusteroperator %s` says why.",
			co.Name, c.Reason, co.Name)}
	} else {
		return nil
	}
	return []string{fmt.Sprintf("The %s operator is %s (%s), so what follows may be out of date; `oc describe clusteroperator %s` says why.",
		co.Name, state, orUnknown(condition.Reason), co.Name)}
}
