package precheck

import (
	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
)

// builtinsUnchecked: a built-in informer whose findings could not be made
// (OLM's, on a cluster that serves OLM's API) is a finding of the
// operator's own, as the informer words it, so that the update does not go
// ahead on checks that never ran.
func builtinsUnchecked(in *Input) []insightsv1alpha1.UpdateInsight {
	return in.BuiltinsUnchecked
}
