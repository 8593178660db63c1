package metrics

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/component-base/metrics"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
)

// The hosted clusters' metrics, served on a HyperShift management cluster:
// a fixed set of series per hosted cluster (HostedClusterSeries), labelled
// with its namespace and name, and nothing per NodePool or machine, so that
// a hub federating a management cluster of hundreds of hosted clusters
// holds a few thousand series. The labels are not namespace and name:
// Prometheus sets those of the scraped pod, and would rename these.
const (
	HostedClusterAssessmentMetric         = "update_insights_hosted_cluster_assessment"
	HostedClusterCompletionRatioMetric    = "update_insights_hosted_cluster_completion_ratio"
	HostedClusterEstimatedRemainingMetric = "update_insights_hosted_cluster_estimated_remaining_seconds"
	HostedClusterNodePoolsMetric          = "update_insights_hosted_cluster_nodepools"

	// HostedClusterNamespaceLabel and HostedClusterNameLabel name the
	// HostedCluster a series is of.
	HostedClusterNamespaceLabel = "hosted_cluster_namespace"
	HostedClusterNameLabel      = "hosted_cluster"
)

// HostedClusterMetricNames are the hosted clusters' metrics, federated to
// the fleet beside FleetMetricNames.
var HostedClusterMetricNames = []string{
	HostedClusterAssessmentMetric,
	HostedClusterCompletionRatioMetric,
	HostedClusterEstimatedRemainingMetric,
	HostedClusterNodePoolsMetric,
}

// The label values beside the hosted cluster's: its assessments (the
// API's), and the NodePools counted.
var (
	HostedClusterAssessments = []string{
		string(insightsv1alpha1.HostedClusterAssessmentProgressing), string(insightsv1alpha1.HostedClusterAssessmentCompleted),
		string(insightsv1alpha1.HostedClusterAssessmentBlocked), string(insightsv1alpha1.HostedClusterAssessmentStalled),
		string(insightsv1alpha1.HostedClusterAssessmentFailing), string(insightsv1alpha1.HostedClusterAssessmentUnknown),
	}
	HostedClusterNodePoolStates = []string{"total", "updated"}
)

// HostedClusterSeries is the most series a hosted cluster has: its
// assessments, its completion, its estimate, its NodePools' two counts.
var HostedClusterSeries = len(HostedClusterAssessments) + 1 + 1 + len(HostedClusterNodePoolStates)

var (
	hostedAssessmentDesc = metrics.NewDesc(HostedClusterAssessmentMetric,
		"A hosted cluster's control plane update's assessment, one-hot: 1 for the current one, 0 for the others; Unknown for one this version does not know.",
		[]string{HostedClusterNamespaceLabel, HostedClusterNameLabel, "assessment"}, nil, metrics.ALPHA, "")
	hostedCompletionDesc = metrics.NewDesc(HostedClusterCompletionRatioMetric,
		"Share (0 to 1) of a hosted cluster's control plane update that is done, by the guest cluster-version operator's own count.",
		[]string{HostedClusterNamespaceLabel, HostedClusterNameLabel}, nil, metrics.ALPHA, "")
	hostedRemainingDesc = metrics.NewDesc(HostedClusterEstimatedRemainingMetric,
		"Seconds until a hosted cluster's control plane update in progress is expected to complete, 0 once past the estimate; absent when it is Completed or has no estimate.",
		[]string{HostedClusterNamespaceLabel, HostedClusterNameLabel}, nil, metrics.ALPHA, "")
	hostedNodePoolsDesc = metrics.NewDesc(HostedClusterNodePoolsMetric,
		"Number of a hosted cluster's NodePools: total, and updated (at the control plane's version).",
		[]string{HostedClusterNamespaceLabel, HostedClusterNameLabel, "state"}, nil, metrics.ALPHA, "")
)

// hostedClustersCollector reads the HostedClusterProgressInsights at scrape
// time.
type hostedClustersCollector struct {
	metrics.BaseStableCollector

	insights insightslisters.HostedClusterProgressInsightLister
	clock    clock.PassiveClock
}

// NewHostedClustersCollector returns the collector of the hosted clusters'
// metrics, read from insights.
func NewHostedClustersCollector(insights insightslisters.HostedClusterProgressInsightLister, clock clock.PassiveClock) metrics.StableCollector {
	return &hostedClustersCollector{insights: insights, clock: clock}
}

func (c *hostedClustersCollector) DescribeWithStability(ch chan<- *metrics.Desc) {
	ch <- hostedAssessmentDesc
	ch <- hostedCompletionDesc
	ch <- hostedRemainingDesc
	ch <- hostedNodePoolsDesc
}

func (c *hostedClustersCollector) CollectWithStability(ch chan<- metrics.Metric) {
	insights, err := c.insights.List(labels.Everything())
	if err != nil {
		klog.ErrorS(err, "Listing the HostedClusterProgressInsights: their metrics are not served")
		return
	}
	for _, i := range insights {
		ns, name := i.Namespace, i.Name
		assessment := hostedAssessment(i.Status.Assessment)
		for _, a := range HostedClusterAssessments {
			ch <- metrics.NewLazyConstMetric(hostedAssessmentDesc, metrics.GaugeValue, boolValue(a == assessment), ns, name, a)
		}
		ch <- metrics.NewLazyConstMetric(hostedCompletionDesc, metrics.GaugeValue, float64(i.Status.CompletionPercent)/100, ns, name)
		if assessment != string(insightsv1alpha1.HostedClusterAssessmentCompleted) && i.Status.EstimatedCompletedAt != nil {
			remaining := max(0, i.Status.EstimatedCompletedAt.Sub(c.clock.Now()).Seconds())
			ch <- metrics.NewLazyConstMetric(hostedRemainingDesc, metrics.GaugeValue, remaining, ns, name)
		}
		ch <- metrics.NewLazyConstMetric(hostedNodePoolsDesc, metrics.GaugeValue, float64(i.Status.NodePools.Total), ns, name, "total")
		ch <- metrics.NewLazyConstMetric(hostedNodePoolsDesc, metrics.GaugeValue, float64(i.Status.NodePools.Updated), ns, name, "updated")
	}
}

// hostedAssessment is the API's assessment, Unknown for one this version
// does not know.
func hostedAssessment(a insightsv1alpha1.HostedClusterAssessment) string {
	for _, known := range HostedClusterAssessments {
		if string(a) == known {
			return known
		}
	}
	return string(insightsv1alpha1.HostedClusterAssessmentUnknown)
}
