package updaterecord

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	insightsv1alpha1 "github.com/update-insights/update-insights-operator/pkg/apis/insights/v1alpha1"
	"github.com/update-insights/update-insights-operator/pkg/eta"
)

// done is a completed record of an update from `from` to `to` started days
// ago, whose control plane took took, its operators completed at the
// minutes given (a negative one unseen).
func done(from, to string, days int, took time.Duration, completed ...int) insightsv1alpha1.UpdateRecordStatus {
	start := now.Add(-time.Duration(days) * 24 * time.Hour)
	r := insightsv1alpha1.UpdateRecordStatus{
		From: &insightsv1alpha1.Version{Version: from}, To: insightsv1alpha1.Version{Version: to},
		State: insightsv1alpha1.UpdateRecordCompleted, StartedAt: at(start), ControlPlaneCompletedAt: atp(start.Add(took)),
		Durations: insightsv1alpha1.UpdateRecordDurations{ControlPlane: &metav1.Duration{Duration: took}},
	}
	for i, m := range completed {
		o := insightsv1alpha1.OperatorUpdateRecord{Name: string(rune('a' + i)), Updated: true}
		if m >= 0 {
			o.CompletedAt = atp(start.Add(time.Duration(m) * time.Minute))
		}
		r.ClusterOperators = append(r.ClusterOperators, o)
	}
	return r
}

func TestLearn(t *testing.T) {
	h := time.Hour
	partial := done("4.16.1", "4.16.2", 3, h, 10, -1, -1, 60)
	partial.State = insightsv1alpha1.UpdateRecordProgressing
	tests := []struct {
		name     string
		records  []insightsv1alpha1.UpdateRecordStatus
		from, to string
		want     *eta.Past
		count    int
	}{
		{name: "no record", from: "4.16.2", to: "4.16.3"},
		{name: "one seen only in part, or not completed, teaches nothing", from: "4.16.2", to: "4.16.3",
			records: []insightsv1alpha1.UpdateRecordStatus{done("4.16.0", "4.16.1", 9, h, 10, -1, -1, 60), partial}},
		{
			name: "a completed update: its duration and its curve", from: "4.16.2", to: "4.16.3",
			records: []insightsv1alpha1.UpdateRecordStatus{done("4.16.1", "4.16.2", 3, h, 30, 15, 60, 45)},
			want:    &eta.Past{Duration: h, Curves: [][]float64{{0.25, 0.5, 0.75, 1}}}, count: 1,
		},
		{
			name: "a patch update learns from patch updates, the newest first, their median duration", from: "4.17.2", to: "4.17.3",
			records: []insightsv1alpha1.UpdateRecordStatus{
				done("4.16.9", "4.17.1", 30, 3*h, 90, 180),
				done("4.16.8", "4.16.9", 40, h, 30, 60),
				done("4.17.1", "4.17.2", 10, 2*h, 60, 120),
			},
			want: &eta.Past{Duration: 90 * time.Minute, Curves: [][]float64{{0.5, 1}, {0.5, 1}}}, count: 2,
		},
		{
			name: "a minor update from minor updates", from: "4.17.3", to: "4.18.0",
			records: []insightsv1alpha1.UpdateRecordStatus{done("4.16.9", "4.17.1", 30, 3*h, 90, 180), done("4.17.1", "4.17.2", 10, 2*h, 60, 120)},
			want:    &eta.Past{Duration: 3 * h, Curves: [][]float64{{0.5, 1}}}, count: 1,
		},
		{
			name: "at most five", from: "4.16.6", to: "4.16.7",
			records: []insightsv1alpha1.UpdateRecordStatus{
				done("4.16.0", "4.16.1", 60, 9*h, 60), done("4.16.1", "4.16.2", 50, h, 60), done("4.16.2", "4.16.3", 40, h, 60),
				done("4.16.3", "4.16.4", 30, h, 60), done("4.16.4", "4.16.5", 20, h, 60), done("4.16.5", "4.16.6", 10, h, 60),
			},
			want: &eta.Past{Duration: h, Curves: [][]float64{{1}, {1}, {1}, {1}, {1}}}, count: 5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, count := Learn(tt.records, tt.from, tt.to)
			if diff := cmp.Diff(tt.want, got); diff != "" || count != tt.count {
				t.Errorf("learned from %d records, want %d (-want +got):\n%s", count, tt.count, diff)
			}
		})
	}
}

func TestPerNode(t *testing.T) {
	withPool := func(days int, median, p90 time.Duration) insightsv1alpha1.UpdateRecordStatus {
		r := done("4.16.1", "4.16.2", days, time.Hour, 60)
		r.Pools = []insightsv1alpha1.PoolUpdateRecord{{Name: "worker", NodeTimes: insightsv1alpha1.NodeTimes{Timed: 3,
			Median: &metav1.Duration{Duration: median}, P90: &metav1.Duration{Duration: p90}}}}
		return r
	}
	records := []insightsv1alpha1.UpdateRecordStatus{withPool(20, 30*time.Minute, 40*time.Minute), withPool(5, 12*time.Minute, 19*time.Minute), withPool(10, 8*time.Minute, 9*time.Minute)}
	median, p90, ok := PerNode(records, "worker")
	if diff := cmp.Diff([]any{12 * time.Minute, 19 * time.Minute, true}, []any{median, p90, ok}); diff != "" {
		t.Errorf("the latest update's node times (-want +got):\n%s", diff)
	}
	if _, _, ok := PerNode(records, "infra"); ok {
		t.Errorf("a pool no record timed has node times")
	}
}
