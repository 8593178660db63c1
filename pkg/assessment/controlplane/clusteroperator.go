package controlplane

import (
	"fmt"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	"github.com/openshift/library-go/pkg/config/clusteroperator/v1helpers"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/names"
	"github.com/update-insights/update-insights-operator/pkg/text"
)

const (
	// machineConfigOperatorImage is the version entry in which
	// machine-config reports the image it runs: a migration to another
	// architecture keeps the version and changes only the image.
	machineConfigOperatorImage = "operator-image"
)

// MachineConfigOperatorImage returns the image of the machine-config-operator
// container of the Deployment, or empty.
func MachineConfigOperatorImage(d *appsv1.Deployment) string {
	for _, container := range d.Spec.Template.Spec.Containers {
		if container.Name == names.MachineConfigOperatorDeployment {
			return container.Image
		}
	}
	return ""
}

// ClusterOperatorProgress returns the desired status of the
// ClusterOperatorProgressInsight of a payload ClusterOperator. desiredVersion
// is the ClusterVersion's (empty when there is none); mcoImage is the image
// the machine-config-operator Deployment runs (empty when unknown); current is
// the insight's status as last written, or nil.
func ClusterOperatorProgress(co *configv1.ClusterOperator, desiredVersion, mcoImage string, current *insightsv1alpha1.ClusterOperatorProgressInsightStatus, now time.Time) insightsv1alpha1.ClusterOperatorProgressInsightStatus {
	if current == nil {
		current = &insightsv1alpha1.ClusterOperatorProgressInsightStatus{}
	}
	updating := operatorUpdating(co, desiredVersion, mcoImage)
	return insightsv1alpha1.ClusterOperatorProgressInsightStatus{
		Conditions: []metav1.Condition{
			withTransitionTime(updating, current.Conditions, now),
			withTransitionTime(operatorHealthy(co), current.Conditions, now),
		},
		Name:              co.Name,
		ProgressingReason: progressingReason(co, updating),
	}
}

// progressingReason is the ClusterOperator's own Progressing reason while it
// updates: `oc adm upgrade status` prints it in the REASON column of its
// updating operators (pkg/cli/admin/upgrade/status/controlplane.go), and the
// insight's own reason (Progressing) says less.
func progressingReason(co *configv1.ClusterOperator, updating metav1.Condition) string {
	if updating.Status != metav1.ConditionTrue {
		return ""
	}
	if progressing := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorProgressing); progressing != nil {
		return text.Truncate(progressing.Reason, insightsv1alpha1.ProgressingReasonMaxLength)
	}
	return ""
}

func operatorUpdating(co *configv1.ClusterOperator, desiredVersion, mcoImage string) metav1.Condition {
	c := metav1.Condition{Type: insightsv1alpha1.ClusterOperatorProgressInsightUpdating}
	progressing := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorProgressing)
	if progressing != nil {
		c.Message = text.Truncate(progressing.Message, maxQuotedMessageLength)
	}
	switch {
	case desiredVersion == "":
		c.Status, c.Reason = metav1.ConditionUnknown, insightsv1alpha1.ClusterOperatorCannotDetermine
		c.Message = "There is no ClusterVersion to tell the target version"
	case operatorUpdated(co, desiredVersion, mcoImage):
		c.Status, c.Reason = metav1.ConditionFalse, insightsv1alpha1.ClusterOperatorUpdated
	case progressing == nil:
		c.Status, c.Reason = metav1.ConditionUnknown, insightsv1alpha1.ClusterOperatorCannotDetermine
		c.Message = "The ClusterOperator has no Progressing condition"
	case progressing.Status == configv1.ConditionTrue:
		// Updating since the operator began to progress, not since this
		// operator first looked.
		c.Status, c.Reason = metav1.ConditionTrue, insightsv1alpha1.ClusterOperatorProgressing
		c.LastTransitionTime = progressing.LastTransitionTime
	case progressing.Status == configv1.ConditionFalse:
		c.Status, c.Reason = metav1.ConditionFalse, insightsv1alpha1.ClusterOperatorPending
		c.LastTransitionTime = progressing.LastTransitionTime
	default:
		c.Status, c.Reason = metav1.ConditionUnknown, insightsv1alpha1.ClusterOperatorCannotDetermine
		c.Message = fmt.Sprintf("The ClusterOperator has Progressing=%s: %s", progressing.Status, c.Message)
	}
	return c
}

// operatorUpdated says whether the operator runs the target version; for
// machine-config also the target image, when it reports one.
func operatorUpdated(co *configv1.ClusterOperator, desiredVersion, mcoImage string) bool {
	if !isUpdated(co, desiredVersion) {
		return false
	}
	if co.Name != names.MachineConfigOperator || mcoImage == "" {
		return true
	}
	image, ok := OperatorImage(co)
	return !ok || image == mcoImage
}

// OperatorImage returns the image the ClusterOperator reports it runs (only
// machine-config does), and whether it reports one.
func OperatorImage(co *configv1.ClusterOperator) (string, bool) {
	for _, v := range co.Status.Versions {
		if v.Name == machineConfigOperatorImage {
			return v.Version, true
		}
	}
	return "", false
}

func operatorHealthy(co *configv1.ClusterOperator) metav1.Condition {
	c := metav1.Condition{Type: insightsv1alpha1.ClusterOperatorProgressInsightHealthy}
	available := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorAvailable)
	degraded := v1helpers.FindStatusCondition(co.Status.Conditions, configv1.OperatorDegraded)
	switch {
	case available == nil:
		c.Status, c.Reason = metav1.ConditionUnknown, insightsv1alpha1.ClusterOperatorCannotDetermine
		c.Message = "The ClusterOperator has no Available condition"
	case available.Status != configv1.ConditionTrue:
		c.Status, c.Reason = metav1.ConditionFalse, insightsv1alpha1.ClusterOperatorUnavailable
		c.Message = text.Truncate(available.Message, maxQuotedMessageLength)
	case degraded != nil && degraded.Status == configv1.ConditionTrue:
		c.Status, c.Reason = metav1.ConditionFalse, insightsv1alpha1.ClusterOperatorDegraded
		c.Message = text.Truncate(degraded.Message, maxQuotedMessageLength)
	default:
		c.Status, c.Reason = metav1.ConditionTrue, insightsv1alpha1.ClusterOperatorAsExpected
		c.Message = text.Truncate(available.Message, maxQuotedMessageLength)
	}
	return c
}

// ClusterOperatorProgressChanged says whether desired differs from current
// enough to be written.
func ClusterOperatorProgressChanged(current, desired *insightsv1alpha1.ClusterOperatorProgressInsightStatus) bool {
	return current.Name != desired.Name || current.ProgressingReason != desired.ProgressingReason || conditionsChanged(current.Conditions, desired.Conditions)
}
