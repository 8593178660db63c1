package insightwrite

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightsclient "github.com/update-insights/update-insights-operator/pkg/generated/clientset/versioned/typed/insights/v1alpha1"
)

// ClusterVersionProgressInsights writes ClusterVersionProgressInsights.
func ClusterVersionProgressInsights(c insightsclient.ClusterVersionProgressInsightsGetter) *Writer[*v1alpha1.ClusterVersionProgressInsight, v1alpha1.ClusterVersionProgressInsightStatus] {
	return newWriter("ClusterVersionProgressInsight", c.ClusterVersionProgressInsights(),
		func(m metav1.ObjectMeta) *v1alpha1.ClusterVersionProgressInsight {
			return &v1alpha1.ClusterVersionProgressInsight{ObjectMeta: m}
		},
		func(i *v1alpha1.ClusterVersionProgressInsight) *v1alpha1.ClusterVersionProgressInsightStatus {
			return &i.Status
		})
}

// ClusterOperatorProgressInsights writes ClusterOperatorProgressInsights.
func ClusterOperatorProgressInsights(c insightsclient.ClusterOperatorProgressInsightsGetter) *Writer[*v1alpha1.ClusterOperatorProgressInsight, v1alpha1.ClusterOperatorProgressInsightStatus] {
	return newWriter("ClusterOperatorProgressInsight", c.ClusterOperatorProgressInsights(),
		func(m metav1.ObjectMeta) *v1alpha1.ClusterOperatorProgressInsight {
			return &v1alpha1.ClusterOperatorProgressInsight{ObjectMeta: m}
		},
		func(i *v1alpha1.ClusterOperatorProgressInsight) *v1alpha1.ClusterOperatorProgressInsightStatus {
			return &i.Status
		})
}

// NodeProgressInsights writes NodeProgressInsights.
func NodeProgressInsights(c insightsclient.NodeProgressInsightsGetter) *Writer[*v1alpha1.NodeProgressInsight, v1alpha1.NodeProgressInsightStatus] {
	return newWriter("NodeProgressInsight", c.NodeProgressInsights(),
		func(m metav1.ObjectMeta) *v1alpha1.NodeProgressInsight {
			return &v1alpha1.NodeProgressInsight{ObjectMeta: m}
		},
		func(i *v1alpha1.NodeProgressInsight) *v1alpha1.NodeProgressInsightStatus { return &i.Status })
}

// MachineConfigPoolProgressInsights writes MachineConfigPoolProgressInsights.
func MachineConfigPoolProgressInsights(c insightsclient.MachineConfigPoolProgressInsightsGetter) *Writer[*v1alpha1.MachineConfigPoolProgressInsight, v1alpha1.MachineConfigPoolProgressInsightStatus] {
	return newWriter("MachineConfigPoolProgressInsight", c.MachineConfigPoolProgressInsights(),
		func(m metav1.ObjectMeta) *v1alpha1.MachineConfigPoolProgressInsight {
			return &v1alpha1.MachineConfigPoolProgressInsight{ObjectMeta: m}
		},
		func(i *v1alpha1.MachineConfigPoolProgressInsight) *v1alpha1.MachineConfigPoolProgressInsightStatus {
			return &i.Status
		})
}

// UpdateHealthInsights writes UpdateHealthInsights.
func UpdateHealthInsights(c insightsclient.UpdateHealthInsightsGetter) *Writer[*v1alpha1.UpdateHealthInsight, v1alpha1.UpdateHealthInsightStatus] {
	return newWriter("UpdateHealthInsight", c.UpdateHealthInsights(),
		func(m metav1.ObjectMeta) *v1alpha1.UpdateHealthInsight {
			return &v1alpha1.UpdateHealthInsight{ObjectMeta: m}
		},
		func(i *v1alpha1.UpdateHealthInsight) *v1alpha1.UpdateHealthInsightStatus { return &i.Status })
}
