package insightwrite

import (
	v1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
)

// ClusterVersionProgressInsights writes ClusterVersionProgressInsights.
func ClusterVersionProgressInsights(c insightsclient.ClusterVersionProgressInsightsGetter) *Writer[*v1alpha1.ClusterVersionProgressInsight, v1alpha1.ClusterVersionProgressInsightStatus] {
	return newWriter[v1alpha1.ClusterVersionProgressInsight]("ClusterVersionProgressInsight", c.ClusterVersionProgressInsights(),
		func(i *v1alpha1.ClusterVersionProgressInsight) *v1alpha1.ClusterVersionProgressInsightStatus {
			return &i.Status
		})
}

// ClusterOperatorProgressInsights writes ClusterOperatorProgressInsights.
func ClusterOperatorProgressInsights(c insightsclient.ClusterOperatorProgressInsightsGetter) *Writer[*v1alpha1.ClusterOperatorProgressInsight, v1alpha1.ClusterOperatorProgressInsightStatus] {
	return newWriter[v1alpha1.ClusterOperatorProgressInsight]("ClusterOperatorProgressInsight", c.ClusterOperatorProgressInsights(),
		func(i *v1alpha1.ClusterOperatorProgressInsight) *v1alpha1.ClusterOperatorProgressInsightStatus {
			return &i.Status
		})
}

// NodeProgressInsights writes NodeProgressInsights.
func NodeProgressInsights(c insightsclient.NodeProgressInsightsGetter) *Writer[*v1alpha1.NodeProgressInsight, v1alpha1.NodeProgressInsightStatus] {
	return newWriter[v1alpha1.NodeProgressInsight]("NodeProgressInsight", c.NodeProgressInsights(),
		func(i *v1alpha1.NodeProgressInsight) *v1alpha1.NodeProgressInsightStatus { return &i.Status })
}

// MachineConfigPoolProgressInsights writes MachineConfigPoolProgressInsights.
func MachineConfigPoolProgressInsights(c insightsclient.MachineConfigPoolProgressInsightsGetter) *Writer[*v1alpha1.MachineConfigPoolProgressInsight, v1alpha1.MachineConfigPoolProgressInsightStatus] {
	return newWriter[v1alpha1.MachineConfigPoolProgressInsight]("MachineConfigPoolProgressInsight", c.MachineConfigPoolProgressInsights(),
		func(i *v1alpha1.MachineConfigPoolProgressInsight) *v1alpha1.MachineConfigPoolProgressInsightStatus {
			return &i.Status
		})
}

// UpdateHealthInsights writes UpdateHealthInsights.
func UpdateHealthInsights(c insightsclient.UpdateHealthInsightsGetter) *Writer[*v1alpha1.UpdateHealthInsight, v1alpha1.UpdateHealthInsightStatus] {
	return newWriter[v1alpha1.UpdateHealthInsight]("UpdateHealthInsight", c.UpdateHealthInsights(),
		func(i *v1alpha1.UpdateHealthInsight) *v1alpha1.UpdateHealthInsightStatus { return &i.Status })
}

// UpdateStatuses writes the UpdateStatus.
func UpdateStatuses(c insightsclient.UpdateStatusesGetter) *Writer[*v1alpha1.UpdateStatus, v1alpha1.UpdateStatusStatus] {
	return newWriter[v1alpha1.UpdateStatus]("UpdateStatus", c.UpdateStatuses(),
		func(s *v1alpha1.UpdateStatus) *v1alpha1.UpdateStatusStatus { return &s.Status })
}

// HostedClusterProgressInsights writes the HostedClusterProgressInsights of
// namespace.
func HostedClusterProgressInsights(c insightsclient.HostedClusterProgressInsightsGetter, namespace string) *Writer[*v1alpha1.HostedClusterProgressInsight, v1alpha1.HostedClusterProgressInsightStatus] {
	return newWriter[v1alpha1.HostedClusterProgressInsight]("HostedClusterProgressInsight", c.HostedClusterProgressInsights(namespace),
		func(i *v1alpha1.HostedClusterProgressInsight) *v1alpha1.HostedClusterProgressInsightStatus {
			return &i.Status
		})
}

// NodePoolProgressInsights writes the NodePoolProgressInsights of namespace.
func NodePoolProgressInsights(c insightsclient.NodePoolProgressInsightsGetter, namespace string) *Writer[*v1alpha1.NodePoolProgressInsight, v1alpha1.NodePoolProgressInsightStatus] {
	return newWriter[v1alpha1.NodePoolProgressInsight]("NodePoolProgressInsight", c.NodePoolProgressInsights(namespace),
		func(i *v1alpha1.NodePoolProgressInsight) *v1alpha1.NodePoolProgressInsightStatus { return &i.Status })
}

// UpdateRecords writes UpdateRecords.
func UpdateRecords(c insightsclient.UpdateRecordsGetter) *Writer[*v1alpha1.UpdateRecord, v1alpha1.UpdateRecordStatus] {
	return newWriter[v1alpha1.UpdateRecord]("UpdateRecord", c.UpdateRecords(),
		func(r *v1alpha1.UpdateRecord) *v1alpha1.UpdateRecordStatus { return &r.Status })
}
