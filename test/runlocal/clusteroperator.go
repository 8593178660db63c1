package main

import (
	"context"
	"fmt"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/update-insights/update-insights-operator/pkg/assessment/controlplane"
	"github.com/update-insights/update-insights-operator/pkg/names"
)

// ownClusterOperator describes the operator's own ClusterOperator in one line,
// and says whether it is as a healthy operator at version leaves it:
// Available, not Degraded, and reporting that version.
func ownClusterOperator(ctx context.Context, c *clients, version string) (string, bool) {
	co, err := c.config.ConfigV1().ClusterOperators().Get(ctx, names.OwnClusterOperator, metav1.GetOptions{})
	if err != nil {
		return err.Error(), false
	}
	var parts []string
	for _, t := range []configv1.ClusterStatusConditionType{configv1.OperatorAvailable, configv1.OperatorProgressing, configv1.OperatorDegraded, configv1.OperatorUpgradeable} {
		status := configv1.ConditionUnknown
		if c := v1helpers.FindStatusCondition(co.Status.Conditions, t); c != nil {
			status = c.Status
		}
		parts = append(parts, fmt.Sprintf("%s=%s", t, status))
	}
	reported, _ := controlplane.OperatorVersion(co)
	healthy := v1helpers.IsStatusConditionTrue(co.Status.Conditions, configv1.OperatorAvailable) &&
		v1helpers.IsStatusConditionFalse(co.Status.Conditions, configv1.OperatorDegraded) &&
		reported == version
	return fmt.Sprintf("ClusterOperator %s: %s, version %q", co.Name, strings.Join(parts, " "), reported), healthy
}
