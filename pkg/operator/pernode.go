package operator

import (
	"time"

	"k8s.io/apimachinery/pkg/labels"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/assessment/nodes"
	"github.com/update-insights/update-insights-operator/pkg/updaterecord"
)

// perNodeTimes are the per-node times the node and plan controllers share,
// learned from the nodes they see finish and, before any has, from the
// cluster's UpdateRecords.
func (s *starter) perNodeTimes() *nodes.PerNodeTimes {
	records := s.factories.insights.Insights().V1alpha1().UpdateRecords().Lister()
	return &nodes.PerNodeTimes{Past: func(pool string) (time.Duration, time.Duration, bool) {
		list, err := records.List(labels.Everything())
		if err != nil {
			return 0, 0, false
		}
		statuses := make([]insightsv1alpha1.UpdateRecordStatus, 0, len(list))
		for _, r := range list {
			statuses = append(statuses, r.Status)
		}
		return updaterecord.PerNode(statuses, pool)
	}}
}
