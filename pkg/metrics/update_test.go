package metrics

import (
	"errors"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/component-base/metrics/testutil"
	clocktesting "k8s.io/utils/clock/testing"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	insightslisters "github.com/update-insights/update-insights-operator/pkg/generated/listers/insights/v1alpha1"
)

// started is 1722589200 in Unix time; the scrape happens two hours later.
var (
	started = time.Date(2024, 8, 2, 9, 0, 0, 0, time.UTC)
	now     = started.Add(2 * time.Hour)
)

var updateMetricNames = []string{
	"update_insights_control_plane_completion_ratio",
	"update_insights_control_plane_estimated_completion_timestamp_seconds",
	"update_insights_control_plane_update_duration_seconds",
	"update_insights_health_insights",
}

const (
	completionHeader = `
# HELP update_insights_control_plane_completion_ratio [ALPHA] Share (0 to 1) of the control plane's ClusterOperators at the target version of the current or last update.
# TYPE update_insights_control_plane_completion_ratio gauge
`
	estimateHeader = `
# HELP update_insights_control_plane_estimated_completion_timestamp_seconds [ALPHA] Unix time at which the control plane update in progress is expected to complete.
# TYPE update_insights_control_plane_estimated_completion_timestamp_seconds gauge
`
	durationHeader = `
# HELP update_insights_control_plane_update_duration_seconds [ALPHA] How long the current control plane update has run so far, or how long the last one took once completed.
# TYPE update_insights_control_plane_update_duration_seconds gauge
`
	healthHeader = `
# HELP update_insights_health_insights [ALPHA] Number of update health insights, by impact level.
# TYPE update_insights_health_insights gauge
`
	noHealthInsights = healthHeader + `
update_insights_health_insights{level="Critical"} 0
update_insights_health_insights{level="Error"} 0
update_insights_health_insights{level="Info"} 0
update_insights_health_insights{level="Unknown"} 0
update_insights_health_insights{level="Warning"} 0
`
)

var errBroken = errors.New("cache broken")

// brokenClusterVersions fails every Get, the only method the collector calls.
type brokenClusterVersions struct {
	insightslisters.ClusterVersionProgressInsightLister
}

func (brokenClusterVersions) Get(string) (*insightsv1alpha1.ClusterVersionProgressInsight, error) {
	return nil, errBroken
}

// brokenHealth fails every List, the only method the collector calls.
type brokenHealth struct {
	insightslisters.UpdateHealthInsightLister
}

func (brokenHealth) List(labels.Selector) ([]*insightsv1alpha1.UpdateHealthInsight, error) {
	return nil, errBroken
}

func TestUpdateCollector(t *testing.T) {
	tests := []struct {
		name            string
		clusterVersions []*insightsv1alpha1.ClusterVersionProgressInsight
		health          []*insightsv1alpha1.UpdateHealthInsight
		// brokenClusterVersions and brokenHealth replace the listers with
		// ones that fail.
		brokenClusterVersions bool
		brokenHealth          bool
		want                  string
	}{
		{
			name: "no insight at all",
			want: noHealthInsights,
		},
		{
			name: "update in progress",
			clusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{
				clusterVersion("version", insightsv1alpha1.ClusterVersionProgressInsightStatus{
					CompletionPercent:    42,
					StartedAt:            at(started),
					EstimatedCompletedAt: at(started.Add(3 * time.Hour)),
				}),
			},
			want: completionHeader + `
update_insights_control_plane_completion_ratio 0.42
` + estimateHeader + `
update_insights_control_plane_estimated_completion_timestamp_seconds 1722600000
` + durationHeader + `
update_insights_control_plane_update_duration_seconds 7200
` + noHealthInsights,
		},
		{
			name: "completed update",
			clusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{
				clusterVersion("version", insightsv1alpha1.ClusterVersionProgressInsightStatus{
					CompletionPercent: 100,
					StartedAt:         at(started),
					CompletedAt:       at(started.Add(50 * time.Minute)),
				}),
			},
			want: completionHeader + `
update_insights_control_plane_completion_ratio 1
` + durationHeader + `
update_insights_control_plane_update_duration_seconds 3000
` + noHealthInsights,
		},
		{
			name: "no update history",
			clusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{
				clusterVersion("version", insightsv1alpha1.ClusterVersionProgressInsightStatus{}),
			},
			want: completionHeader + `
update_insights_control_plane_completion_ratio 0
` + noHealthInsights,
		},
		{
			name: "insight of another name",
			clusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{
				clusterVersion("other", insightsv1alpha1.ClusterVersionProgressInsightStatus{
					CompletionPercent: 42,
					StartedAt:         at(started),
				}),
			},
			want: noHealthInsights,
		},
		{
			name: "health insights of mixed levels",
			health: []*insightsv1alpha1.UpdateHealthInsight{
				healthInsight("a", insightsv1alpha1.WarningImpactLevel),
				healthInsight("b", insightsv1alpha1.CriticalImpactLevel),
				healthInsight("c", insightsv1alpha1.WarningImpactLevel),
				healthInsight("d", insightsv1alpha1.InfoImpactLevel),
			},
			want: healthHeader + `
update_insights_health_insights{level="Critical"} 1
update_insights_health_insights{level="Error"} 0
update_insights_health_insights{level="Info"} 1
update_insights_health_insights{level="Unknown"} 0
update_insights_health_insights{level="Warning"} 2
`,
		},
		{
			name: "cluster version lister error skips the control plane",
			clusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{
				clusterVersion("version", insightsv1alpha1.ClusterVersionProgressInsightStatus{CompletionPercent: 42}),
			},
			health: []*insightsv1alpha1.UpdateHealthInsight{
				healthInsight("a", insightsv1alpha1.ErrorImpactLevel),
			},
			brokenClusterVersions: true,
			want: healthHeader + `
update_insights_health_insights{level="Critical"} 0
update_insights_health_insights{level="Error"} 1
update_insights_health_insights{level="Info"} 0
update_insights_health_insights{level="Unknown"} 0
update_insights_health_insights{level="Warning"} 0
`,
		},
		{
			name: "health lister error skips the health insights",
			clusterVersions: []*insightsv1alpha1.ClusterVersionProgressInsight{
				clusterVersion("version", insightsv1alpha1.ClusterVersionProgressInsightStatus{CompletionPercent: 42}),
			},
			health: []*insightsv1alpha1.UpdateHealthInsight{
				healthInsight("a", insightsv1alpha1.ErrorImpactLevel),
			},
			brokenHealth: true,
			want: completionHeader + `
update_insights_control_plane_completion_ratio 0.42
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cvIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
			for _, o := range tt.clusterVersions {
				must(t, cvIndexer.Add(o))
			}
			healthIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
			for _, o := range tt.health {
				must(t, healthIndexer.Add(o))
			}
			clusterVersions := insightslisters.NewClusterVersionProgressInsightLister(cvIndexer)
			if tt.brokenClusterVersions {
				clusterVersions = brokenClusterVersions{}
			}
			health := insightslisters.NewUpdateHealthInsightLister(healthIndexer)
			if tt.brokenHealth {
				health = brokenHealth{}
			}

			collector := NewUpdateCollector(clusterVersions, health, clocktesting.NewFakePassiveClock(now))
			if err := testutil.CustomCollectAndCompare(collector, strings.NewReader(tt.want), updateMetricNames...); err != nil {
				t.Error(err)
			}
		})
	}
}

func clusterVersion(name string, status insightsv1alpha1.ClusterVersionProgressInsightStatus) *insightsv1alpha1.ClusterVersionProgressInsight {
	return &insightsv1alpha1.ClusterVersionProgressInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status:     status,
	}
}

func healthInsight(name string, level insightsv1alpha1.InsightImpactLevel) *insightsv1alpha1.UpdateHealthInsight {
	return &insightsv1alpha1.UpdateHealthInsight{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: insightsv1alpha1.UpdateHealthInsightStatus{
			Impact: insightsv1alpha1.InsightImpact{Level: level},
		},
	}
}

func at(t time.Time) *metav1.Time {
	return &metav1.Time{Time: t}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
